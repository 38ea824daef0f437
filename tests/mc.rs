//! Integration tests for the Monte Carlo engine, shards and DP-SE (filled by its issue).
