//! Placeholder: filled by its issue (see `issues`).
