//! Integration tests for `complexity` (filled by its issue).
