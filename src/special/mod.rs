//! Special functions: Lambert W, `W̄_{-1}`, Riemann zeta, Kaufmann–Koolen `C_G`, `k`, `h`, `g1`, `g2`
//! (MATH.md section C), and an accurate `erf`.

mod erf;
pub use erf::{erf, erfc};
