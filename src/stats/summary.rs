//! Summary statistics of samples: mean, standard deviation, medians, extremes (each refusing an
//! empty sample and NaN).

use crate::error::{Error, Result};

fn check_nonempty(xs: &[f64], need: usize) -> Result<()> {
    if xs.len() < need {
        return Err(Error::param(
            "sample size",
            xs.len(),
            format!("at least {need}"),
        ));
    }
    if let Some(x) = xs.iter().find(|x| x.is_nan()) {
        return Err(Error::param("sample value", x, "not NaN"));
    }
    Ok(())
}

/// Arithmetic mean `(1/n) Σ x_i`, summed in the order given (deterministic).
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty slice or a NaN value.
///
/// # Example
/// ```
/// assert_eq!(dpbai::stats::mean(&[1.0, 2.0, 6.0]).unwrap(), 3.0);
/// ```
pub fn mean(xs: &[f64]) -> Result<f64> {
    check_nonempty(xs, 1)?;
    Ok(xs.iter().sum::<f64>() / xs.len() as f64)
}

/// Sample standard deviation with Bessel's correction, `sqrt(Σ (x_i − x̄)² / (n − 1))` (two-pass).
///
/// # Errors
/// [`Error::InvalidParameter`] for fewer than 2 values or a NaN value.
///
/// # Example
/// ```
/// assert_eq!(dpbai::stats::sample_std(&[1.0, 3.0]).unwrap(), 2f64.sqrt());
/// ```
pub fn sample_std(xs: &[f64]) -> Result<f64> {
    check_nonempty(xs, 2)?;
    let m = mean(xs)?;
    let ss: f64 = xs.iter().map(|x| (x - m) * (x - m)).sum();
    Ok((ss / (xs.len() - 1) as f64).sqrt())
}

/// Lower median: the `⌈n/2⌉`-th smallest value `x_(⌈n/2⌉)` (the middle value for an odd count,
/// the lower of the two middle values for an even one).
///
/// # Definition
/// `x_(⌈n/2⌉)`, the inverse of the empirical CDF at 1/2 (Hyndman & Fan's type 1). It is the
/// convention of the Kaplan–Meier median ([`super::KaplanMeier::quantile`] at
/// `p = 1/2`), which equals it when nothing is censored; it is always one of the values.
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty slice or a NaN value.
///
/// # Example
/// ```
/// assert_eq!(dpbai::stats::lower_median(&[5.0, 1.0, 3.0, 2.0]).unwrap(), 2.0);
/// assert_eq!(dpbai::stats::lower_median(&[5.0, 1.0, 3.0]).unwrap(), 3.0);
/// ```
pub fn lower_median(xs: &[f64]) -> Result<f64> {
    check_nonempty(xs, 1)?;
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    Ok(v[v.len().div_ceil(2) - 1])
}

/// Median: the middle value, or the mean of the two middle values for an even count.
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty slice or a NaN value.
///
/// # Example
/// ```
/// assert_eq!(dpbai::stats::median(&[5.0, 1.0, 3.0, 2.0]).unwrap(), 2.5);
/// ```
pub fn median(xs: &[f64]) -> Result<f64> {
    check_nonempty(xs, 1)?;
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    Ok(if n % 2 == 1 {
        v[n / 2]
    } else {
        0.5 * (v[n / 2 - 1] + v[n / 2])
    })
}

/// Smallest value.
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty slice or a NaN value.
///
/// # Example
/// ```
/// assert_eq!(dpbai::stats::min(&[5.0, 1.0]).unwrap(), 1.0);
/// ```
pub fn min(xs: &[f64]) -> Result<f64> {
    check_nonempty(xs, 1)?;
    Ok(xs.iter().cloned().fold(f64::INFINITY, f64::min))
}

/// Largest value.
///
/// # Errors
/// [`Error::InvalidParameter`] for an empty slice or a NaN value.
///
/// # Example
/// ```
/// assert_eq!(dpbai::stats::max(&[5.0, 1.0]).unwrap(), 5.0);
/// ```
pub fn max(xs: &[f64]) -> Result<f64> {
    check_nonempty(xs, 1)?;
    Ok(xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summaries() {
        assert!(mean(&[]).is_err());
        assert!(sample_std(&[1.0]).is_err());
        assert!(median(&[f64::NAN]).is_err());
        assert_eq!(median(&[3.0, 1.0, 2.0]).unwrap(), 2.0);
        assert_eq!(
            sample_std(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap(),
            (32.0f64 / 7.0).sqrt()
        );
    }
}
