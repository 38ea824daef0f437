//! The report of a user's study (`dpbai experiment CONFIG.toml`): the figures of τ against ε and
//! δ ([`output`]), `SUMMARY.md` ([`summary`]) with the comparisons of
//! [`crate::experiment::study::analysis`], and the
//! REPORT.md block of the example studies ([`digest`]). The study itself (its file, its cells,
//! its rows and `results.csv`) is [`crate::experiment::study`].

pub mod digest;
pub mod output;
pub mod summary;
