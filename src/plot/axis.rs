//! Axis scales of the figure layer: display transform (identity or `log10`), automatic ranges
//! with a margin, tick positions and tick labels.
//!
//! Everything is computed in *display space*: a log axis stores `log10(v)`, a linear axis `v`.
//! The chart itself is always a plain linear `f64` chart in display space, so that linear and
//! log axes share one code path and we choose the ticks (decades, 1-2-5 or nice linear steps).

/// Maps a data value to display space; `None` for values an axis cannot show
/// (NaN, infinities, and non-positive values on a log axis).
pub(crate) fn to_display(v: f64, log: bool) -> Option<f64> {
    if !v.is_finite() {
        return None;
    }
    if log {
        if v > 0.0 { Some(v.log10()) } else { None }
    } else {
        Some(v)
    }
}

/// Inverse of [`to_display`].
pub(crate) fn from_display(d: f64, log: bool) -> f64 {
    if log { 10f64.powf(d) } else { d }
}

/// How the tick labels of one axis are written: one style for every tick of the axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TickFormat {
    /// Plain decimals (`0.001`, `0.5`, `1000`).
    Plain,
    /// Powers of ten with Unicode superscripts (`10⁻³`, `10⁵`): log axes whose ticks are all
    /// powers of ten.
    Scientific,
    /// A mantissa times a power of ten on every tick (`2×10⁵`, `5×10⁵`, `1×10⁶`): log axes with
    /// 1-2-5 ticks too large or small for plain decimals.
    Mantissa,
    /// Plain multiples of the common factor `10^e` (`0`, `1`, `1.5`, `2`), which the axis title
    /// carries (`(×10⁵ samples)`, see [`Axis::title`]): linear axes with ticks too large or small
    /// for plain decimals.
    Factor(i32),
}

/// A resolved axis: display range, major ticks (labelled), minor ticks (light grid lines).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Axis {
    /// Lower end of the display range.
    pub lo: f64,
    /// Upper end of the display range (`> lo`).
    pub hi: f64,
    /// Whether display space is `log10` of the data.
    pub log: bool,
    /// Labelled ticks, display space, increasing, inside `[lo, hi]`.
    pub major: Vec<f64>,
    /// Unlabelled light grid lines, display space.
    pub minor: Vec<f64>,
    /// Label format shared by all ticks of the axis.
    pub format: TickFormat,
}

/// Relative margin added on each side of the data range.
const MARGIN: f64 = 0.05;

impl Axis {
    /// Builds an axis that shows every display value of `values` (already transformed, finite),
    /// with a margin, or exactly `explicit` (data space) when it is given and valid.
    pub(crate) fn new(values: &[f64], log: bool, explicit: Option<[f64; 2]>) -> Axis {
        let fixed = explicit.and_then(|[a, b]| {
            let (a, b) = (to_display(a, log)?, to_display(b, log)?);
            (a < b).then_some((a, b))
        });
        let (lo, hi) = match fixed {
            Some(r) => r,
            None => auto_range(values, log),
        };
        // Values near ±f64::MAX can overflow the span: fall back to a drawable range.
        let (lo, hi) = if lo.is_finite() && hi.is_finite() && (hi - lo).is_finite() && hi > lo {
            (lo, hi)
        } else {
            (0.0, 1.0)
        };
        let (major, minor) = if log {
            log_ticks(lo, hi)
        } else {
            linear_ticks(lo, hi)
        };
        let format = choose_format(&major, log);
        Axis {
            lo,
            hi,
            log,
            major,
            minor,
            format,
        }
    }

    /// Label of a tick at display position `d`.
    pub(crate) fn label(&self, d: f64) -> String {
        format_tick(from_display(d, self.log), self.format)
    }

    /// The axis title: `label` with the common factor of a [`TickFormat::Factor`] axis written
    /// into its unit (`stopping time τ (samples)` → `stopping time τ (×10⁵ samples)`), or after
    /// it when the label has no trailing `(unit)`; other axes keep `label`.
    pub(crate) fn title(&self, label: &str) -> String {
        let TickFormat::Factor(e) = self.format else {
            return label.to_string();
        };
        let factor = format!("×10{}", superscript(e));
        let unit = label.strip_suffix(')').and_then(|s| {
            let i = s.rfind(" (")?;
            let unit = &s[i + 2..];
            (!unit.contains(['(', ')'])).then_some((&s[..i], unit))
        });
        match unit {
            Some((head, unit)) if !unit.is_empty() => format!("{head} ({factor} {unit})"),
            _ => format!("{label} ({factor})"),
        }
    }
}

/// The axis as a plotters coordinate (display space, linear), with our ticks as key points:
/// major ticks are the labelled ("bold") points, minor ticks the light grid lines.
impl plotters::coord::ranged1d::Ranged for Axis {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let t = (*value - self.lo) / (self.hi - self.lo);
        let len = f64::from(limit.1 - limit.0);
        limit.0 + (len * t).round() as i32
    }

    fn key_points<H: plotters::coord::ranged1d::KeyPointHint>(&self, hint: H) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            self.minor.clone()
        } else {
            self.major.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.lo..self.hi
    }
}

/// Data range plus margin in display space; a degenerate or empty range is widened.
fn auto_range(values: &[f64], log: bool) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for &v in values.iter().filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return (0.0, 1.0);
    }
    let span = hi - lo;
    if span <= 1e-12 * lo.abs().max(1.0) {
        let half = if log { 0.5 } else { (0.1 * lo.abs()).max(0.5) };
        return (lo - half, hi + half);
    }
    (lo - MARGIN * span, hi + MARGIN * span)
}

/// A "nice" step (1, 2 or 5 times a power of ten) giving about `target` intervals over `span`.
fn nice_step(span: f64, target: f64) -> f64 {
    let raw = span / target;
    let mag = 10f64.powf(raw.log10().floor());
    let r = raw / mag;
    let nice = if r < 1.5 {
        1.0
    } else if r < 3.0 {
        2.0
    } else if r < 7.0 {
        5.0
    } else {
        10.0
    };
    nice * mag
}

/// Multiples of a nice step inside `[lo, hi]` (major) and the half steps (minor).
fn linear_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    let step = nice_step(hi - lo, 5.0);
    let i0 = (lo / step).ceil() as i64;
    let i1 = (hi / step).floor() as i64;
    let major: Vec<f64> = (i0..=i1).map(|i| i as f64 * step).collect();
    let j0 = (2.0 * lo / step).ceil() as i64;
    let j1 = (2.0 * hi / step).floor() as i64;
    let minor = (j0..=j1)
        .filter(|j| j % 2 != 0)
        .map(|j| j as f64 * step / 2.0)
        .collect();
    (major, minor)
}

/// Ticks of a log axis (display space = `log10`): decades when at least two fit (thinned to at
/// most 8 labels), otherwise the 1-2-5 sequence, otherwise nice linear steps in data space.
fn log_ticks(lo: f64, hi: f64) -> (Vec<f64>, Vec<f64>) {
    let k0 = lo.ceil() as i64;
    let k1 = hi.floor() as i64;
    let decades = k1 - k0 + 1;
    let in_range = |d: &f64| *d >= lo - 1e-12 && *d <= hi + 1e-12;
    let sub_decade = |stride: i64| -> Vec<f64> {
        let mut v = Vec::new();
        for k in (lo.floor() as i64)..=(hi.ceil() as i64) {
            if stride > 1 {
                if k.rem_euclid(stride) != 0 {
                    v.push(k as f64);
                }
            } else {
                for m in 2..=9 {
                    v.push(k as f64 + f64::from(m).log10());
                }
            }
        }
        v.retain(in_range);
        v
    };
    if decades >= 2 {
        let stride = ((decades + 7) / 8).max(1);
        let start = k0.div_euclid(stride) * stride;
        let major: Vec<f64> = (0..)
            .map(|i| start + i * stride)
            .take_while(|k| *k <= k1)
            .filter(|k| *k >= k0)
            .map(|k| k as f64)
            .collect();
        return (major, sub_decade(stride));
    }
    let mut major = Vec::new();
    for k in (lo.floor() as i64 - 1)..=(hi.ceil() as i64) {
        for m in [1.0f64, 2.0, 5.0] {
            let d = k as f64 + m.log10();
            if in_range(&d) {
                major.push(d);
            }
        }
    }
    if major.len() >= 3 {
        let minor = sub_decade(1)
            .into_iter()
            .filter(|d| major.iter().all(|m| (m - d).abs() > 1e-9))
            .collect();
        return (major, minor);
    }
    // Less than a factor ~5 between the ends: nice linear steps in data space.
    let (a, b) = (10f64.powf(lo), 10f64.powf(hi));
    let (lin, _) = linear_ticks(a, b);
    let major = lin
        .into_iter()
        .filter(|v| *v > 0.0)
        .map(f64::log10)
        .filter(in_range)
        .collect();
    (major, Vec::new())
}

/// Plain labels when every tick is `0` or has magnitude in `[1e-3, 1e5)`. Otherwise a log axis
/// writes powers of ten ([`TickFormat::Scientific`] when every tick is one, else
/// [`TickFormat::Mantissa`]) and a linear axis plain multiples of the power of ten of its
/// largest tick ([`TickFormat::Factor`]).
fn choose_format(major: &[f64], log: bool) -> TickFormat {
    let values: Vec<f64> = major.iter().map(|&d| from_display(d, log)).collect();
    let plain = values
        .iter()
        .all(|v| *v == 0.0 || (1e-3 * (1.0 - 1e-9)..1e5).contains(&v.abs()));
    if plain {
        return TickFormat::Plain;
    }
    if log {
        let decades = values
            .iter()
            .all(|&v| (mantissa_exponent(v).0 - 1.0).abs() < 1e-9);
        return if decades {
            TickFormat::Scientific
        } else {
            TickFormat::Mantissa
        };
    }
    let largest = values.iter().fold(0f64, |m, v| m.max(v.abs()));
    TickFormat::Factor(mantissa_exponent(largest).1)
}

/// `(m, e)` with `v ≈ m·10^e`, `1 <= |m| < 10`, `v` rounded to 3 significant digits first.
fn mantissa_exponent(v: f64) -> (f64, i32) {
    let r = round_sig(v, 3);
    let e = r.abs().log10().floor() as i32;
    let m = round_sig(r / 10f64.powi(e), 3);
    // Rounding can push the mantissa to 10.
    if m.abs() >= 10.0 {
        (m / 10.0, e + 1)
    } else {
        (m, e)
    }
}

/// Plain decimal text of `v` rounded to 6 significant digits.
fn plain(v: f64) -> String {
    let r = round_sig(v, 6);
    if r == 0.0 {
        "0".to_string()
    } else {
        format!("{r}")
    }
}

/// Rounds to `digits` significant digits through decimal text, so that the shortest
/// round-trip representation of the result is clean (`0.30000000000000004` → `0.3`).
fn round_sig(v: f64, digits: usize) -> f64 {
    format!("{:.*e}", digits.saturating_sub(1), v)
        .parse()
        .unwrap_or(v)
}

/// Writes an integer exponent with Unicode superscript digits.
pub(crate) fn superscript(e: i32) -> String {
    e.to_string()
        .chars()
        .map(|c| match c {
            '-' => '⁻',
            '0' => '⁰',
            '1' => '¹',
            '2' => '²',
            '3' => '³',
            '4' => '⁴',
            '5' => '⁵',
            '6' => '⁶',
            '7' => '⁷',
            '8' => '⁸',
            '9' => '⁹',
            other => other,
        })
        .collect()
}

/// Formats a tick value (data space).
pub(crate) fn format_tick(v: f64, format: TickFormat) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    match format {
        TickFormat::Plain => plain(v),
        TickFormat::Factor(e) => plain(v / 10f64.powi(e)),
        TickFormat::Scientific | TickFormat::Mantissa => {
            let (m, e) = mantissa_exponent(v);
            if format == TickFormat::Mantissa {
                format!("{}×10{}", round_sig(m, 3), superscript(e))
            } else if (m - 1.0).abs() < 1e-9 {
                format!("10{}", superscript(e))
            } else if (m + 1.0).abs() < 1e-9 {
                format!("−10{}", superscript(e))
            } else {
                format!("{}×10{}", round_sig(m, 3), superscript(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_transform_rejects_what_an_axis_cannot_show() {
        assert_eq!(to_display(f64::NAN, false), None);
        assert_eq!(to_display(f64::INFINITY, true), None);
        assert_eq!(to_display(0.0, true), None);
        assert_eq!(to_display(-1.0, true), None);
        assert_eq!(to_display(-1.0, false), Some(-1.0));
        assert_eq!(to_display(100.0, true), Some(2.0));
        assert_eq!(from_display(3.0, true), 1000.0);
    }

    #[test]
    fn paper_eps_grid_gets_decade_ticks_with_plain_labels() {
        let eps = [0.001, 0.01, 0.1, 1.0, 10.0, 100.0, 1000.0];
        let d: Vec<f64> = eps.iter().filter_map(|&e| to_display(e, true)).collect();
        let axis = Axis::new(&d, true, None);
        assert!(axis.lo < -3.0 && axis.hi > 3.0);
        assert_eq!(axis.major, vec![-3.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0]);
        let labels: Vec<String> = axis.major.iter().map(|&t| axis.label(t)).collect();
        assert_eq!(labels, ["0.001", "0.01", "0.1", "1", "10", "100", "1000"]);
        // 2..9 times each decade inside the range, plus the ones in the margins
        assert!(axis.minor.len() >= 8 * 6);
    }

    #[test]
    fn many_decades_are_thinned_and_written_as_powers() {
        let axis = Axis::new(&[0.0, 12.0], true, None);
        assert!(axis.major.len() <= 8, "{:?}", axis.major);
        assert!(axis.major.len() >= 4);
        assert_eq!(axis.format, TickFormat::Scientific);
        assert_eq!(axis.label(6.0), "10⁶");
        assert_eq!(axis.label(-3.0 - 1.0), "10⁻⁴");
    }

    #[test]
    fn narrow_log_range_uses_one_two_five() {
        // 150 .. 900
        let axis = Axis::new(&[150f64.log10(), 900f64.log10()], true, None);
        let labels: Vec<String> = axis.major.iter().map(|&t| axis.label(t)).collect();
        assert_eq!(labels, ["200", "400", "600", "800"]);
    }

    #[test]
    fn linear_ticks_are_nice_and_inside_the_range() {
        let axis = Axis::new(&[0.0, 1.0], false, None);
        for t in &axis.major {
            assert!(*t >= axis.lo && *t <= axis.hi);
        }
        let labels: Vec<String> = axis.major.iter().map(|&t| axis.label(t)).collect();
        assert_eq!(labels, ["0", "0.2", "0.4", "0.6", "0.8", "1"]);
    }

    #[test]
    fn scientific_labels() {
        assert_eq!(format_tick(150_000.0, TickFormat::Scientific), "1.5×10⁵");
        assert_eq!(format_tick(100_000.0, TickFormat::Scientific), "10⁵");
        assert_eq!(format_tick(100_000.0, TickFormat::Mantissa), "1×10⁵");
        assert_eq!(format_tick(0.0, TickFormat::Scientific), "0");
        assert_eq!(format_tick(-1e-4, TickFormat::Scientific), "−10⁻⁴");
    }

    /// One tick-label style per axis: a linear axis with large ticks writes every tick as a
    /// plain multiple of one power of ten, which the title carries (not `0`, `10⁵`, `2×10⁵`).
    #[test]
    fn large_linear_values_share_one_factor_in_the_title() {
        let axis = Axis::new(&[0.0, 410_000.0], false, None);
        assert_eq!(axis.format, TickFormat::Factor(5));
        let labels: Vec<String> = axis.major.iter().map(|&t| axis.label(t)).collect();
        assert_eq!(labels, ["0", "1", "2", "3", "4"]);
        assert_eq!(
            axis.title("stopping time τ (samples)"),
            "stopping time τ (×10⁵ samples)"
        );
        assert_eq!(axis.title("mean C(τ)"), "mean C(τ) (×10⁵)");
        assert_eq!(axis.title("τ ()"), "τ () (×10⁵)");
        let axis = Axis::new(&[0.0, 2.0e6], false, None);
        let labels: Vec<String> = axis.major.iter().map(|&t| axis.label(t)).collect();
        assert_eq!(labels, ["0", "0.5", "1", "1.5", "2"]);
        assert_eq!(axis.title("x"), "x (×10⁶)");
        let axis = Axis::new(&[0.0, 3e-4], false, None);
        assert_eq!(axis.format, TickFormat::Factor(-4));
        assert_eq!(axis.label(2e-4), "2");
        // Plain axes keep their title.
        assert_eq!(Axis::new(&[0.0, 1.0], false, None).title("p (1)"), "p (1)");
    }

    #[test]
    fn log_axes_with_one_two_five_ticks_write_every_mantissa() {
        // 1.5e5 .. 9e5: 2×10⁵, 5×10⁵ ... never a bare 10⁶ beside them.
        let axis = Axis::new(&[1.5e5f64.log10(), 1.5e6f64.log10()], true, None);
        assert_eq!(axis.format, TickFormat::Mantissa);
        let labels: Vec<String> = axis.major.iter().map(|&t| axis.label(t)).collect();
        assert_eq!(labels, ["2×10⁵", "5×10⁵", "1×10⁶"]);
        assert_eq!(axis.title("x (s)"), "x (s)");
    }

    #[test]
    fn degenerate_and_empty_ranges_are_widened() {
        let a = Axis::new(&[], false, None);
        assert!(a.lo < a.hi);
        let b = Axis::new(&[2.0, 2.0], true, None);
        assert!(b.lo < 2.0 && b.hi > 2.0);
        let c = Axis::new(&[5.0, 5.0], false, None);
        assert!(c.lo < 5.0 && c.hi > 5.0 && !c.major.is_empty());
    }

    #[test]
    fn overflowing_span_falls_back_to_a_drawable_range() {
        let a = Axis::new(&[-1.7e308, 1.7e308], false, None);
        assert!(a.lo.is_finite() && a.hi.is_finite() && a.hi > a.lo);
        assert!(!a.major.is_empty());
    }

    #[test]
    fn explicit_range_wins_when_valid() {
        let a = Axis::new(&[-9.0, 9.0], false, Some([0.0, 1.0]));
        assert_eq!((a.lo, a.hi), (0.0, 1.0));
        // invalid for a log axis: falls back to the data
        let b = Axis::new(&[0.0, 1.0], true, Some([0.0, 10.0]));
        assert!(b.lo < 0.0 && b.hi > 1.0);
    }
}
