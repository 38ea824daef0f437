//! Upper-bound formulas (filled after the special functions land).
