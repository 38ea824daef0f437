//! Statistics with stated accuracy, shared by the Monte Carlo engine, the auditors and the
//! reports: the regularised incomplete beta function and the exact (Clopper–Pearson) binomial
//! bounds on it, Student's t, the Kaplan–Meier estimate of right-censored samples, and sample
//! summaries.
//!
//! * [`beta`]: `I_x(a, b)`, both tails in logarithms (not statrs', see there);
//! * [`binomial`]: Clopper–Pearson bounds, plain and rounded outward;
//! * [`student_t`]: quantile and two-sided tail;
//! * [`kaplan_meier`]: the product-limit survival estimate and its quantiles;
//! * [`summary`]: mean, standard deviation, medians, extremes.

pub mod beta;
pub mod binomial;
pub mod kaplan_meier;
pub mod student_t;
pub mod summary;

pub use beta::{beta_reg, ln_beta_reg_pair};
pub use binomial::{clopper_pearson, cp_lower, cp_lower_outward, cp_upper, cp_upper_outward};
pub use kaplan_meier::{KaplanMeier, Observation};
pub use student_t::{student_t_quantile, student_t_two_sided};
pub use summary::{lower_median, max, mean, median, min, sample_std};
