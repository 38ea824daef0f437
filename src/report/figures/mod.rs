//! Builders of the paper's figures (Figures 1–5 and the two additions: ratio to the lower bound,
//! allocation convergence) from plain numbers, plus the axis and geometry helpers of
//! [`super::figure`].

pub(crate) mod axis;
pub(crate) mod geometry;
mod paper;

pub use paper::{
    allocation_figure, paper_eps_figure, ratio_figure, AllocationPanelData, Curve, Empirical,
    EpsPanelData, RatioPanelData, EPS_LABEL, PAPER_SWITCH_LABEL, TAU_LABEL, THEORY_SWITCH_LABEL,
};
