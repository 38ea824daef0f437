//! The one integration-test binary of `dpbai`: one module per `src` topic.

mod common;

mod adversary;
mod audit;
mod bandit;
mod claims;
mod cli;
mod cli_props;
mod cluster;
mod complexity;
mod d_eps;
mod divergence;
mod doc_sections;
mod engine_law;
mod experiment;
mod figures;
mod file_props;
mod glossary;
mod inputs;
mod layers;
mod mc;
mod proof_domains;
mod readme;
mod report;
mod soundness;
mod special;
mod statrs_crosscheck;
mod stats;
mod t_eps;
mod upper_lower;
