//! Special functions: Lambert W, `W̄_{-1}`, Riemann zeta, Kaufmann–Koolen `C_G`, `k`, `h`, `g1`, `g2`
//! (READINGS.md §C), and an accurate `erf`.
//!
//! Every checked function returns [`crate::Result`] and rejects NaN, infinities and
//! out-of-domain arguments with [`crate::Error::InvalidParameter`]; the `_unchecked` variants are
//! for hot loops whose arguments are already valid. Accuracy claims are proven against mpmath
//! golden values (`verify/golden_special.py` → `tests/data/special_golden.toml`).

mod c_g;
mod erf;
mod lambert_w;
mod misc;
mod zeta;

pub(crate) use c_g::c_g_engine;
pub use c_g::{c_g, c_g_unchecked, c_g_with_argmin, g_g};
pub use erf::{erf, erfc, ln_erfc};
pub use lambert_w::{
    lambert_w0, lambert_w0_unchecked, lambert_wm1, lambert_wm1_unchecked, wbar_m1,
    wbar_m1_unchecked, NEG_INV_E,
};
pub(crate) use misc::h_engine;
pub use misc::{c_l36, g1, g1_unchecked, g2, h, h1, k};
pub use zeta::{zeta, zeta_unchecked};

/// Evaluates a special function by its Rust name (`lambert_w0`, `c_g`, `h`, …), as golden files
/// and reports name them; `None` for an unknown name or a wrong number of arguments.
///
/// For `h` and `c_l36` the third argument is the number of arms `K` (an integer >= 2).
///
/// # Example
/// ```
/// let v = dpbai::special::eval_by_name("wbar_m1", &[1.0]).unwrap().unwrap();
/// assert_eq!(v, 1.0);
/// assert!(dpbai::special::eval_by_name("nope", &[1.0]).is_none());
/// ```
pub fn eval_by_name(name: &str, a: &[f64]) -> Option<crate::Result<f64>> {
    let arms = |x: f64| -> Option<usize> {
        (x.fract() == 0.0 && (2.0..=1e15).contains(&x)).then_some(x as usize)
    };
    Some(match (name, a.len()) {
        ("lambert_w0", 1) => lambert_w0(a[0]),
        ("lambert_wm1", 1) => lambert_wm1(a[0]),
        ("wbar_m1", 1) => wbar_m1(a[0]),
        ("zeta", 1) => zeta(a[0]),
        ("c_g", 1) => c_g(a[0]),
        ("g1", 1) => g1(a[0]),
        ("g2", 1) => g2(a[0]),
        ("k", 1) => k(a[0]),
        ("h", 3) => h(a[0], a[1], arms(a[2])?),
        ("c_l36", 3) => c_l36(a[0], a[1], arms(a[2])?),
        ("h1", 2) => h1(a[0], a[1]),
        ("erf", 1) => Ok(erf(a[0])),
        ("erfc", 1) => Ok(erfc(a[0])),
        _ => return None,
    })
}
