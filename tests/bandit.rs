//! Integration tests for `bandit` (filled by its issue).
