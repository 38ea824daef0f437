//! IEEE-754 neighbours of a double, for rounding bounds outward (the certified solver's
//! brackets in `complexity`, the interval enclosures of `threshold::interval`).

/// Next representable number towards `+∞` (`x` itself for `+∞` and NaN; the smallest positive
/// subnormal for `±0`).
///
/// # Example
/// ```
/// assert_eq!(dpbai::float::next_up(1.0), 1.0 + f64::EPSILON);
/// assert_eq!(dpbai::float::next_up(0.0), f64::from_bits(1));
/// ```
pub fn next_up(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    if x == 0.0 {
        return f64::from_bits(1);
    }
    let b = x.to_bits();
    f64::from_bits(if x > 0.0 { b + 1 } else { b - 1 })
}

/// Next representable number towards `−∞` (`x` itself for `−∞` and NaN).
///
/// # Example
/// ```
/// assert_eq!(dpbai::float::next_down(1.0), 1.0 - f64::EPSILON / 2.0);
/// ```
pub fn next_down(x: f64) -> f64 {
    -next_up(-x)
}
