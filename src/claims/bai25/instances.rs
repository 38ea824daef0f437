//! The instances and the risk the second paper's checks read.

use crate::instance::Instance;

/// The risk of the poster's experiment (δ = 0.01, docs/CLAIMS-BAI25.md).
pub const DELTA: f64 = 0.01;

/// The declared instances of B.2 to B.5: the first paper's μ1–μ6 (its study file; μ1 and μ2
/// are also \[BAI25\]'s figure's instances, μ3 has means 0 and 1).
pub(crate) fn instances() -> Vec<(&'static str, Instance)> {
    crate::claims::dp_bai::evidence::paper_instances()
        .into_iter()
        .map(|(n, m)| {
            (
                n,
                Instance::bernoulli(m).expect("invariant: paper instances are valid"),
            )
        })
        .collect()
}

/// μ1 and μ2, the instances of \[BAI25\]'s figure.
pub(crate) fn figure_instances() -> Vec<(&'static str, Instance)> {
    instances()
        .into_iter()
        .filter(|(n, _)| *n == "mu1" || *n == "mu2")
        .collect()
}
