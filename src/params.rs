//! Validated parameter newtypes: a value that exists is in its domain.
//!
//! Constructors reject NaN, infinities and out-of-range values with an [`Error`](crate::Error) that names the
//! value and the allowed range; hot loops then take these types without re-checking.

use crate::error::{check_above, check_closed, check_open, Result};

macro_rules! newtype {
    ($(#[$m:meta])* $name:ident, $label:literal, $check:expr) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, PartialOrd, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(f64);

        impl $name {
            /// Validates `x`.
            ///
            /// # Errors
            /// [`crate::Error::InvalidParameter`] if `x` is outside the domain.
            pub fn new(x: f64) -> Result<Self> {
                let check: fn(&str, f64) -> Result<f64> = $check;
                check($label, x).map(Self)
            }
            /// The wrapped value.
            #[inline]
            pub fn get(self) -> f64 {
                self.0
            }
        }
    };
}

newtype!(
    /// Risk `δ ∈ (0, 1)`.
    Delta, "delta", |n, x| check_open(n, x, 0.0, 1.0)
);
newtype!(
    /// Privacy budget `ε ∈ (0, ∞)`.
    Epsilon, "eps", |n, x| check_above(n, x, 0.0)
);
newtype!(
    /// Leader proportion `β ∈ (0, 1)`.
    Beta, "beta", |n, x| check_open(n, x, 0.0, 1.0)
);
newtype!(
    /// A probability `p ∈ [0, 1]`.
    Probability, "p", |n, x| check_closed(n, x, 0.0, 1.0)
);
newtype!(
    /// A standard deviation (sub-Gaussian scale) `σ ∈ (0, ∞)`.
    Sigma, "sigma", |n, x| check_above(n, x, 0.0)
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_out_of_range_and_nan() {
        assert!(Delta::new(0.0).is_err());
        assert!(Delta::new(1.0).is_err());
        assert!(Delta::new(f64::NAN).is_err());
        assert!(Epsilon::new(0.0).is_err());
        assert!(Epsilon::new(f64::INFINITY).is_err());
        assert!(Beta::new(1.0).is_err());
        assert!(Probability::new(-1e-300).is_err());
        assert!(Sigma::new(-1.0).is_err());
        assert_eq!(Delta::new(0.01).unwrap().get(), 0.01);
        assert_eq!(Probability::new(1.0).unwrap().get(), 1.0);
    }

    #[test]
    fn message_names_value_and_range() {
        let e = Delta::new(1.5).unwrap_err().to_string();
        assert_eq!(e, "invalid delta = 1.5: must be in (0, 1)");
    }
}
