//! The first paper's tables of REPORT.md that are computed, not measured: the accuracy of the
//! special functions against their mpmath golden values, and the characteristic times of the
//! paper's instances against the independent prototype (READINGS.md §B.12). The report formats
//! them.

use super::evidence::paper_instances;
use crate::complexity::{
    Certified, eps_switch_global, eps_switch_local, t_global, t_kl, t_kl_beta, t_kl_gaussian,
    t_kl_gaussian_beta, t_local, t_tv, t_tv2,
};
use crate::instance::Instance;
use std::collections::BTreeMap;

/// The mpmath golden values of the special functions (`tests/data/special_golden.toml`, made by
/// `verify/golden_special.py`), compiled in so that an installed binary needs no source tree.
pub const SPECIAL_GOLDEN: &str = include_str!("../../../tests/data/special_golden.toml");

/// The accuracy of one special function on its golden points.
#[derive(Debug, Clone, PartialEq)]
pub struct AccuracyRow {
    /// The function's name in the catalogue.
    pub name: String,
    /// Golden points.
    pub points: usize,
    /// Worst relative error over the points it evaluated (absolute where the value is 0).
    pub worst: f64,
    /// Points where the evaluation failed.
    pub failed: usize,
    /// The first failure (`None`: none).
    pub first_failure: Option<String>,
}

/// The accuracy table and the mpmath version that made the golden values.
#[derive(Debug, Clone, PartialEq)]
pub struct Accuracy {
    /// mpmath's version.
    pub mpmath_version: String,
    /// One row per function, by name.
    pub rows: Vec<AccuracyRow>,
}

/// Every special function of the catalogue against [`SPECIAL_GOLDEN`]. A failed evaluation is
/// reported as such, never as an accuracy.
///
/// # Errors
/// The golden file is not valid TOML (the message says so).
pub fn special_accuracy() -> std::result::Result<Accuracy, String> {
    let doc = toml::from_str::<toml::Table>(SPECIAL_GOLDEN)
        .map_err(|_| "golden file tests/data/special_golden.toml is not valid TOML".to_string())?;
    let mut rows: BTreeMap<String, AccuracyRow> = BTreeMap::new();
    let num = |v: &toml::Value| v.as_str().and_then(|s| s.parse::<f64>().ok());
    for case in doc
        .get("case")
        .and_then(|c| c.as_array())
        .into_iter()
        .flatten()
    {
        let (Some(name), Some(args), Some(want)) = (
            case.get("fn").and_then(|v| v.as_str()),
            case.get("args").and_then(|v| v.as_array()),
            case.get("value").and_then(num),
        ) else {
            continue;
        };
        let a: Vec<f64> = args.iter().filter_map(num).collect();
        let e = rows.entry(name.to_string()).or_insert(AccuracyRow {
            name: name.to_string(),
            points: 0,
            worst: 0.0,
            failed: 0,
            first_failure: None,
        });
        e.points += 1;
        let got = match crate::functions::lookup(name).map(|f| f.call(&a)) {
            Some(Ok(v)) => v,
            failed => {
                e.failed += 1;
                e.first_failure.get_or_insert(match failed {
                    Some(Err(err)) => format!("{a:?}: {err}"),
                    _ => "unknown function".to_string(),
                });
                continue;
            }
        };
        let rel = if want == 0.0 {
            got.abs()
        } else {
            ((got - want) / want).abs()
        };
        e.worst = e.worst.max(if rel.is_nan() { f64::INFINITY } else { rel });
    }
    Ok(Accuracy {
        mpmath_version: doc
            .get("mpmath_version")
            .and_then(|v| v.as_str())
            .unwrap_or("?")
            .to_string(),
        rows: rows.into_values().collect(),
    })
}

/// READINGS.md §B.12 prototype values: (instance, T_KL^Ber, T_{KL,1/2}^Ber, T^G_KL(μ;1/2), T^G_{KL,1/2}, H, T_TV, T_TV2, ε_ℓ*, ε_g*).
const B12: [(&str, [f64; 9]); 6] = [
    (
        "mu1",
        [
            395.5415, 414.442, 1495.301, 1603.72, 802.469, 82.2222, 2990.601, 0.8649, 0.2079,
        ],
    ),
    (
        "mu2",
        [
            1424.747, 1574.89, 1800.000, 2000.00, 1000.00, 100.000, 3600.000, 0.6186, 0.0702,
        ],
    ),
    (
        "mu3",
        [
            11.43016, 11.5545, 35.7418, 36.1200, 19.3889, 12.3333, 71.4836, 0.8111, 1.0790,
        ],
    ),
    (
        "mu4",
        [
            122.8431, 123.827, 142.967, 144.480, 77.5556, 24.6667, 285.934, 0.6057, 0.2008,
        ],
    ),
    (
        "mu5",
        [
            46.37677, 47.4459, 50.8337, 52.3349, 28.7291, 15.9429, 101.667, 0.5964, 0.3438,
        ],
    ),
    (
        "mu6",
        [
            1631.870, 1632.23, 2089.40, 2090.21, 1064.32, 77.5556, 4178.79, 0.6207, 0.0475,
        ],
    ),
];

/// One instance's characteristic times: (ours, the prototype's) per column, or the error.
pub type InstanceTimes = (&'static str, Vec<Result<(f64, f64), String>>);

/// The characteristic times of μ1–μ6 beside the prototype's (value, reference) per column of
/// the table B.12 of the prototype, and μ1's private times `T_ℓ`, `T_g` at a few ε with the prototype's values and the
/// certificate widths.
#[derive(Debug, Clone)]
pub struct Times {
    /// Per instance: (ours, the prototype's) per column, or the error.
    pub times: Vec<InstanceTimes>,
    /// Per ε: `T_ℓ` and `T_g` as (ours, prototype, relative width), or the error.
    pub private_mu1: Vec<(f64, PrivateTime, PrivateTime)>,
}

/// One private time of μ1: (ours, the prototype's, relative certificate width), or the error.
pub type PrivateTime = Result<(f64, f64, f64), String>;

/// Computes [`Times`].
pub fn characteristic_times() -> Times {
    let insts = paper_instances();
    let mut times = Vec::new();
    for (name, reference) in B12 {
        let Some((_, means)) = insts.iter().find(|x| x.0 == name) else {
            continue;
        };
        let Ok(nu) = Instance::bernoulli(means.clone()) else {
            continue;
        };
        let v = |r: crate::Result<Certified>| r.map(|c| c.value);
        let ours = [
            v(t_kl(&nu)),
            v(t_kl_beta(&nu, 0.5)),
            v(t_kl_gaussian(&nu, 0.5)),
            v(t_kl_gaussian_beta(&nu, 0.5, 0.5)),
            Ok(nu.hardness_h(0.5)),
            v(t_tv(&nu)),
            v(t_tv2(&nu)),
            eps_switch_local(&nu),
            eps_switch_global(&nu),
        ];
        let row = ours
            .into_iter()
            .zip(reference)
            .map(|(o, r)| o.map(|o| (o, r)).map_err(|e| e.to_string()))
            .collect();
        times.push((name, row));
    }
    let nu = Instance::bernoulli(vec![0.95, 0.9, 0.9, 0.9, 0.5]).expect("invariant: μ1 valid");
    let private = |r: crate::Result<Certified>, reference: f64| {
        r.map(|c| (c.value, reference, c.rel_width()))
            .map_err(|e| e.to_string())
    };
    let private_mu1 = [
        (0.01, 2.90219e7, 8222.22),
        (0.1, 221365.0, 822.222),
        (0.3, 13409.0, 401.72),
        (0.5, 2614.25, 398.757),
        (0.8, 498.199, 397.091),
        (1.0, 395.542, 396.535),
        (2.0, 395.542, 395.542),
    ]
    .into_iter()
    .map(|(e, tl, tg)| {
        (
            e,
            private(t_local(&nu, e), tl),
            private(t_global(&nu, e), tg),
        )
    })
    .collect();
    Times { times, private_mu1 }
}
