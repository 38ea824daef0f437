//! The one integration-test binary of `dpbai`: one module per `src` topic.

mod common;

mod audit;
mod bandit;
mod cli;
mod cluster;
mod cli_props;
mod complexity;
mod divergence;
mod doc_sections;
mod mc;
mod report;
mod special;
mod statrs_crosscheck;
