//! Integration tests for `audit` (filled by its issue).
