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
    NEG_INV_E, lambert_w0, lambert_w0_unchecked, lambert_wm1, lambert_wm1_unchecked, wbar_m1,
    wbar_m1_unchecked,
};
pub(crate) use misc::h_engine;
pub use misc::{c_l36, g1, g1_unchecked, g2, h, h1, k};
pub use zeta::{zeta, zeta_unchecked};
