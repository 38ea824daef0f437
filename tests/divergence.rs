//! Integration tests for `divergence` and `instance`: golden values and properties.
