//! Unit tests of the expression language (parsing, errors, folding, memo).

use super::*;

fn ev(src: &str, v: &ThresholdVars) -> f64 {
    ThresholdExpr::parse(src).expect("parses").eval(v)
}

fn vars() -> ThresholdVars {
    ThresholdVars {
        delta: 0.01,
        k: 5.0,
        eps: 0.5,
        sigma: 0.5,
        t: 100.0,
        na: 8.0,
        nb: 16.0,
        ka: 5.0,
        kb: 6.0,
        gap: 0.1,
    }
}

#[test]
fn arithmetic_and_precedence() {
    let v = vars();
    assert_eq!(ev("1 + 2*3", &v), 7.0);
    assert_eq!(ev("(1 + 2)*3", &v), 9.0);
    assert_eq!(ev("2^3^2", &v), 512.0);
    assert_eq!(ev("-2^2", &v), -4.0);
    assert_eq!(ev("2^-1", &v), 0.5);
    assert_eq!(ev("8/4/2", &v), 1.0);
    assert_eq!(ev("1 - 2 - 3", &v), -4.0);
    assert_eq!(ev("--3", &v), 3.0);
    assert_eq!(ev("1.5e2 + .5", &v), 150.5);
    assert_eq!(ev("min(3, 1, 2) + max(na, nb)", &v), 17.0);
    assert_eq!(ev("na*nb + t - ka - kb", &v), 128.0 + 100.0 - 11.0);
    assert_eq!(ev("ifge(gap, eps/2, 1, 2)", &v), 2.0);
    assert_eq!(ev("ifge(0.3, eps/2, 1, 2)", &v), 1.0);
    assert_eq!(ev("ifge(eps/2, eps/2, 1, 2)", &v), 1.0);
    assert!((ev("log(e) + log2(8) + sqrt(4) + exp(0) + abs(-1)", &v) - 8.0).abs() < 1e-15);
    assert!((ev("pi", &v) - std::f64::consts::PI).abs() == 0.0);
    assert_eq!(ev("delta*K*eps*sigma", &v), 0.01 * 5.0 * 0.5 * 0.5);
}

#[test]
fn nan_propagates_through_min_max() {
    let v = vars();
    assert!(ev("min(log(-1), 1)", &v).is_nan());
    assert!(ev("max(1, sqrt(-1))", &v).is_nan());
    assert!(ev("h(na, delta, 2.5)", &v).is_nan());
}

#[test]
fn constant_folding_collapses_constants() {
    let c = ThresholdExpr::parse("log(1/0.01) + 2*3").expect("parses");
    assert_eq!(c.len(), 1);
    let c = ThresholdExpr::parse("log(1/delta) + na").expect("parses");
    let b = c.bind(0.01, 5.0, f64::INFINITY, 0.5).expect("binds");
    let v = ThresholdVars {
        delta: 0.01,
        k: 5.0,
        eps: f64::INFINITY,
        sigma: 0.5,
        na: 3.0,
        ..Default::default()
    };
    assert_eq!(b.bound.as_ref().map(|(_, p)| p.code.len()), Some(3));
    assert_eq!(b.eval(&v), c.eval(&v));
    // Mismatched constants fall back to the general program.
    let v2 = ThresholdVars { delta: 0.1, ..v };
    assert!((b.eval(&v2) - (10f64.ln() + 3.0)).abs() < 1e-15);
}

fn err(src: &str) -> String {
    ThresholdExpr::parse(src)
        .expect_err("must fail")
        .to_string()
}

#[test]
fn errors_point_at_the_column() {
    assert!(
        err("log(1/deta)").starts_with("unknown variable 'deta' at column 7 (known: delta, K,")
    );
    assert!(err("deta + 1").starts_with("unknown variable 'deta' at column 1"));
    assert!(err("foo(1)").starts_with("unknown function 'foo' at column 1 (known: log,"));
    assert_eq!(
        err("1 +"),
        "expected a number, a name or '(', found end of expression at column 4"
    );
    assert_eq!(
        err("(1 + 2"),
        "expected ')' to close '(' of column 1, found end of expression at column 7"
    );
    assert_eq!(err("1 + 2)"), "unmatched ')' at column 6");
    assert_eq!(
        err("2 na"),
        "unexpected 'na' (missing operator?) at column 3"
    );
    assert_eq!(err("1 $ 2"), "unexpected character '$' at column 3");
    assert_eq!(err(""), "empty expression at column 1");
    assert_eq!(
        err("min(1)"),
        "min takes at least 2 argument(s), got 1 at column 1"
    );
    assert_eq!(err("h(1, 2)"), "h takes 3 argument(s), got 2 at column 1");
    assert!(err("log").contains("'log' is a function"));
    assert!(err("na(2)").contains("'na' is a variable"));
    assert!(err(&"(".repeat(500)).contains("nested more than"));
    assert!(err(&"-".repeat(500)).contains("nested more than"));
    assert!(err("1e999").contains("overflows"));
}

#[test]
fn deep_right_assoc_chains_are_rejected_not_overflowed() {
    let s = vec!["na"; 150].join("^");
    assert!(err(&s).contains("evaluation stack"), "{}", err(&s));
    // Long left-associative chains stay shallow on the stack and are accepted.
    let long = vec!["na"; 3000].join("+");
    let c = ThresholdExpr::parse(&long).expect("parses");
    let v = ThresholdVars {
        na: 1.0,
        ..Default::default()
    };
    assert_eq!(c.eval(&v), 3000.0);
}

#[test]
fn memo_returns_exactly_the_uncached_value() {
    let c = ThresholdExpr::parse(&preset("paper-adap-tt-star").expect("preset")).expect("parses");
    assert!(c.general.memo.is_some());
    let b = c.bind(0.01, 5.0, 0.5, 0.5).expect("binds");
    for rep in 0..3 {
        for i in 1..300 {
            let v = ThresholdVars {
                na: i as f64,
                nb: (2 * i + rep) as f64,
                gap: 0.001 * i as f64,
                ..vars()
            };
            let vs = [
                v.delta, v.k, v.eps, v.sigma, v.t, v.na, v.nb, v.ka, v.kb, v.gap,
            ];
            let direct = c.general.run(&vs);
            assert_eq!(c.eval(&v).to_bits(), direct.to_bits());
            assert!((b.eval(&v) - direct).abs() <= 1e-12 * direct.abs());
        }
    }
    // Cheap programs are not memoised.
    assert!(
        ThresholdExpr::parse("log(na)")
            .expect("parses")
            .general
            .memo
            .is_none()
    );
}

#[test]
fn every_preset_parses() {
    for p in PRESETS {
        let text = preset(p.name).expect("preset exists");
        ThresholdExpr::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", p.name));
    }
}

/// The language's special functions are the catalogue's (`crate::functions::FUNCTIONS`, those
/// with an `ExprFn`): each parses under its `command` name with its arity, the "unknown
/// function" message lists them, and the stack machine and constant folding give the
/// catalogue's value.
#[test]
fn special_functions_are_the_catalogues() {
    let v = vars();
    let mut n = 0;
    let msg = ThresholdExpr::parse("foo(1)")
        .expect_err("unknown")
        .to_string();
    for f in crate::functions::FUNCTIONS
        .iter()
        .filter(|f| f.expr.is_some())
    {
        let args: Vec<f64> = match f.arity() {
            1 => vec![2.5],
            3 => vec![2.5, 0.01, 5.0],
            a => panic!("{}: arity {a} has no test point", f.name),
        };
        let want = f.call(&args).expect("in the domain");
        let text: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        let folded = format!("{}({})", f.command, text.join(", "));
        assert_eq!(ev(&folded, &v), want, "{folded}");
        // the same with variables (no folding): t = 100 → t/40 = 2.5; delta = 0.01; K = 5
        let live = match f.arity() {
            1 => format!("{}(t/40)", f.command),
            _ => format!("{}(t/40, delta, K)", f.command),
        };
        assert_eq!(ev(&live, &v), want, "{live}");
        assert!(
            msg.contains(&format!(" {},", f.command)) || msg.contains(&format!(" {})", f.command)),
            "{msg} lacks {}",
            f.command
        );
        n += 1;
    }
    assert_eq!(n, 5, "cg, wbar, zeta, k, h");
}

/// `lower_bound(base)` (the engine's quick rejection) is finite for every preset (so none
/// loses its quick rejection) and below its value at points across the box, and it is `−∞` for
/// an expression whose enclosure admits a NaN somewhere on the box even though its lower end is
/// finite (`sqrt` of a negative number past `t = 1000`): a rejection without evaluation would
/// hide that NaN.
#[test]
fn lower_bound_is_guarded_like_lower_bound_after() {
    let base = vars();
    assert!(PRESETS.len() >= 11, "the presets' table");
    for p in PRESETS {
        let name = p.name;
        let e = ThresholdExpr::parse(&(p.text)())
            .expect("parses")
            .bind(base.delta, base.k, base.eps, base.sigma)
            .expect("binds");
        let lo = CustomThreshold::lower_bound(&e, &base);
        assert!(lo.is_finite(), "{name}: {lo}");
        for x in [1.0, 2.0, 17.0, 1e3, 1e6, 1e12] {
            let w = ThresholdVars {
                t: 2.0 * x,
                na: x,
                nb: x + 1.0,
                ka: 1.0,
                kb: 2.0,
                gap: 0.3,
                ..base
            };
            assert!(lo <= e.eval(&w), "{name}: {lo} at {w:?}");
        }
    }
    let e = ThresholdExpr::parse("log(1/delta) + sqrt(1000 - t)")
        .expect("parses")
        .bind(base.delta, base.k, base.eps, base.sigma)
        .expect("binds");
    assert!(e.eval(&ThresholdVars { t: 2000.0, ..base }).is_nan());
    assert_eq!(CustomThreshold::lower_bound(&e, &base), f64::NEG_INFINITY);
}

/// `lower_bound_after(v)` is below the value at every later point (counts, phases and time at
/// least `v`'s, any gap), for the presets the Top Two engine meets (increasing, decreasing
/// and gap-dependent terms), and tight for an increasing one: within `1e-6` of the value at
/// `v` itself (so the engine's skipping is not vacuous). Unbound constants give `−∞`.
#[test]
fn lower_bound_after_bounds_every_later_value() {
    use super::presets::preset;
    let base = vars();
    for name in [
        "paper-cg",
        "ref-ttucb",
        "ref-adap-tt",
        "paper-adap-tt-star",
        "paper-daf-inf",
    ] {
        let e = ThresholdExpr::parse(&preset(name).expect("a preset"))
            .expect("parses")
            .bind(base.delta, base.k, base.eps, base.sigma)
            .expect("binds");
        for (t0, n0) in [(2.0, 1.0), (100.0, 8.0), (1e6, 3e5)] {
            let v = ThresholdVars {
                t: t0,
                na: n0,
                nb: n0,
                ka: 1.0,
                kb: 1.0,
                ..base
            };
            let lo = e.lower_bound_after(&v);
            for m in [1.0, 1.5, 2.0, 10.0, 1e3] {
                for gap in [0.0, 0.2, 0.9] {
                    let w = ThresholdVars {
                        t: t0 * m + 3.0,
                        na: n0 * m,
                        nb: (n0 * m).ceil() + 1.0,
                        ka: 1.0 + m.log2().floor(),
                        kb: 2.0 + m.log2().floor(),
                        gap,
                        ..base
                    };
                    let c = e.eval(&w);
                    assert!(lo <= c, "{name} after {v:?}: {lo} > {c} at {w:?}");
                }
            }
            if name == "paper-cg" {
                let c = e.eval(&v);
                assert!(c - lo <= 1e-6 * c.abs(), "{name}: {lo} vs {c}");
            }
        }
    }
    let unbound = ThresholdExpr::parse("log(na)").expect("parses");
    assert_eq!(unbound.lower_bound_after(&base), f64::NEG_INFINITY);
    // A value that can be NaN or infinite later gives no bound (a skipped evaluation would
    // hide it); the same expressions have one once the bad point is behind.
    for (src, bad_before) in [
        ("log(1/delta) + 0/(t - 1000)", 1000.0),
        ("log(na) + 1/(nb - 10)", 10.0),
    ] {
        let e = ThresholdExpr::parse(src)
            .expect("parses")
            .bind(base.delta, base.k, base.eps, base.sigma)
            .expect("binds");
        let at = |x: f64| ThresholdVars {
            t: x,
            na: x,
            nb: x,
            ..base
        };
        assert_eq!(e.lower_bound_after(&at(2.0)), f64::NEG_INFINITY, "{src}");
        assert!(
            e.lower_bound_after(&at(bad_before + 1.0)).is_finite(),
            "{src}"
        );
    }
}
