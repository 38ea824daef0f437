//! Integration tests for `special` (filled by its issue).
