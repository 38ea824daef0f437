//! Audit batteries: the default stress battery and battery files (`[[instance]]` tables).

use super::AuditInstance;
use crate::bandit::AlgoName;
use crate::error::{Error, Result};
use crate::instance::{Family, FamilyName, Instance};
use serde::Deserialize;

/// The default stress battery for `algo` at the user's `δ` (and `ε`).
///
/// # Definition
/// Instances where weak thresholds fail first: two near-tied arms `(0.55, 0.45)`, many arms near
/// the best `(0.6, 0.5 ×7)`, means near 0 `(0.1, 0.02, 0.01)` and near 1 `(0.99, 0.9, 0.9)`,
/// Gaussian arms `N((0.5, 0.3, 0.3, 0), 0.5²)` (skipped by algorithms that need rewards in
/// `[0, 1]`); each at `δ` and, when `δ < 0.1`, also at `δ = 0.1` (more errors are allowed, so an
/// unsafe rule shows up with fewer runs). Private algorithms run at `ε` (default 1) on every
/// instance, plus `ε/5` on the near-tie instance (small `ε` is where privacy terms matter most).
///
/// # Errors
/// [`Error::InvalidParameter`] for `δ ∉ (0, 1)`.
///
/// # Example
/// ```
/// use dpbai::bandit::AlgoName;
/// let b = dpbai::audit::delta::default_battery(AlgoName::Ttucb, 0.01, None).unwrap();
/// assert_eq!(b.len(), 10);
/// ```
pub fn default_battery(algo: AlgoName, delta: f64, eps: Option<f64>) -> Result<Vec<AuditInstance>> {
    crate::params::check_delta("delta", delta)?;
    let mut deltas = vec![delta];
    if delta < 0.1 {
        deltas.push(0.1);
    }
    let epss: Vec<Option<f64>> = if algo.needs_eps() {
        let e = eps.unwrap_or(1.0);
        vec![Some(e), Some(e / 5.0)]
    } else {
        vec![None]
    };
    let base: Vec<(&str, Instance)> = vec![
        ("two-near-tied", Instance::bernoulli(vec![0.55, 0.45])?),
        (
            "many-near-best",
            Instance::bernoulli(vec![0.6, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5])?,
        ),
        ("near-zero", Instance::bernoulli(vec![0.1, 0.02, 0.01])?),
        ("near-one", Instance::bernoulli(vec![0.99, 0.9, 0.9])?),
        (
            "gaussian",
            Instance::gaussian(vec![0.5, 0.3, 0.3, 0.0], 0.5)?,
        ),
    ];
    let mut out = Vec::new();
    for (name, inst) in &base {
        for &d in &deltas {
            for (j, &e) in epss.iter().enumerate() {
                // The small-eps rows only on the near-tie instance (they are the slow ones).
                if j > 0 && *name != "two-near-tied" {
                    continue;
                }
                out.push(AuditInstance {
                    name: (*name).to_string(),
                    instance: inst.clone(),
                    delta: d,
                    eps: e,
                });
            }
        }
    }
    Ok(out)
}

/// One instance of a battery file (`[[instance]]` tables).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct FileInstance {
    name: Option<String>,
    #[serde(default = "default_family")]
    family: String,
    sigma: Option<f64>,
    means: Vec<f64>,
    delta: Option<f64>,
    eps: Option<f64>,
}

fn default_family() -> String {
    "bernoulli".into()
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct BatteryFile {
    instance: Vec<FileInstance>,
}

/// Parses a battery TOML file: a list of `[[instance]]` tables with `means` (required), `name`,
/// `family` (`bernoulli` default, or `gaussian` with `sigma`), `delta` and `eps` (default: the
/// command-line values).
///
/// # Errors
/// [`Error::Parse`] for malformed TOML or unknown keys; instance and parameter errors naming the
/// instance.
///
/// # Example
/// ```
/// let text = "[[instance]]\nmeans = [0.6, 0.4]\n";
/// let b = dpbai::audit::delta::parse_battery(text, 0.05, None).unwrap();
/// assert_eq!(b.len(), 1);
/// assert_eq!(b[0].delta, 0.05);
/// ```
pub fn parse_battery(text: &str, delta: f64, eps: Option<f64>) -> Result<Vec<AuditInstance>> {
    let file: BatteryFile =
        toml::from_str(text).map_err(|e| Error::Parse(format!("battery file: {}", e.message())))?;
    if file.instance.is_empty() {
        return Err(Error::param(
            "battery",
            "empty",
            "at least one [[instance]]",
        ));
    }
    let mut out = Vec::new();
    for (i, fi) in file.instance.into_iter().enumerate() {
        let name = fi.name.unwrap_or_else(|| format!("instance-{}", i + 1));
        let family = fi.family.parse::<FamilyName>().map_err(|_| {
            Error::param(
                format!("family of {name}"),
                &fi.family,
                "bernoulli or gaussian",
            )
        })?;
        let family = Family::of(family, fi.sigma).map_err(|e| match e {
            Error::InvalidParameter {
                value, constraint, ..
            } => Error::InvalidParameter {
                name: format!("sigma of {name}"),
                value,
                constraint,
            },
            e => e,
        })?;
        let instance = Instance::new(family, fi.means)?;
        let d = fi.delta.unwrap_or(delta);
        crate::params::check_delta(&format!("delta of {name}"), d)?;
        out.push(AuditInstance {
            name,
            instance,
            delta: d,
            eps: fi.eps.or(eps),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::instance::Family;

    #[test]
    fn battery_file_parses_and_rejects() {
        let t = "[[instance]]\nname = \"g\"\nfamily = \"gaussian\"\nsigma = 2.0\nmeans = [1.0, 0.0]\ndelta = 0.2\neps = 0.5\n";
        let b = parse_battery(t, 0.05, None).expect("parses");
        assert_eq!(b[0].name, "g");
        assert_eq!(b[0].instance.sigma(), 2.0);
        assert_eq!((b[0].delta, b[0].eps), (0.2, Some(0.5)));
        assert!(parse_battery("[[instance]]\nmeans = [0.5, 0.5]\n", 0.1, None).is_err());
        assert!(parse_battery("[[instance]]\nmean = [0.5, 0.4]\n", 0.1, None).is_err());
        assert!(
            parse_battery(
                "[[instance]]\nmeans = [0.6, 0.4]\nfamily = \"poisson\"\n",
                0.1,
                None
            )
            .is_err()
        );
        assert!(parse_battery("instance = []\n", 0.1, None).is_err());
    }

    #[test]
    fn default_battery_covers_the_stress_cases() {
        let b = default_battery(AlgoName::Ttucb, 0.01, None).expect("builds");
        assert!(b.iter().any(|i| i.delta == 0.1));
        assert!(
            b.iter()
                .any(|i| matches!(i.instance.family(), Family::Gaussian { .. }))
        );
        let p = default_battery(AlgoName::AdapTt, 0.01, Some(1.0)).expect("builds");
        assert!(p.iter().any(|i| i.eps == Some(0.2)));
    }
}
