//! `dpbai fn NAME ARGS...`: evaluate one special function or divergence.
//!
//! Prints one number on stdout in its shortest round-trip form (Rust's `{}` for `f64`, or its
//! exponent form `{:e}` when `|x| < 1e-4` or `|x| >= 1e15`), or with `--json` one object
//! `{"name": ..., "args": [...], "value": ...}` (an infinite value, e.g. `kl(0, 1)`, is written as
//! the string `"inf"`). `dpbai fn --list` lists the names with their domains. Bad input (unknown
//! name, wrong arity, unparsable number, out-of-domain value) and a finite value beyond the
//! largest `f64` ("value overflows f64 (≈ 10^…)") are a one-line message on stderr and exit
//! code 2.

use dpbai::{divergence, special};

/// Arguments of `dpbai fn`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Print `{"name": ..., "args": [...], "value": ...}` instead of the bare number.
    #[arg(long)]
    json: bool,
    /// List the function names, their arguments and domains.
    #[arg(long)]
    list: bool,
    /// The function name followed by its arguments (negative numbers are accepted as is,
    /// e.g. `dpbai fn lambert-w0 -0.2`).
    #[arg(
        trailing_var_arg = true,
        allow_hyphen_values = true,
        value_name = "NAME ARGS"
    )]
    call: Vec<String>,
}

/// How the arguments of one function are parsed.
#[derive(Clone, Copy)]
enum Kind {
    /// All arguments are real numbers.
    Reals(fn(&[f64]) -> dpbai::Result<f64>),
    /// Two real numbers then a number of arms `K` (integer >= 2).
    RealsThenArms(fn(f64, f64, usize) -> dpbai::Result<f64>),
}

struct Entry {
    name: &'static str,
    params: &'static [&'static str],
    domain: &'static str,
    kind: Kind,
}

const TABLE: &[Entry] = &[
    Entry {
        name: "lambert-w0",
        params: &["x"],
        domain: "x >= -1/e; principal branch W_0",
        kind: Kind::Reals(|a| special::lambert_w0(a[0])),
    },
    Entry {
        name: "lambert-wm1",
        params: &["x"],
        domain: "-1/e <= x < 0; lower branch W_{-1}",
        kind: Kind::Reals(|a| special::lambert_wm1(a[0])),
    },
    Entry {
        name: "wbar",
        params: &["x"],
        domain: "x >= 1; W-bar_{-1}(x) = -W_{-1}(-e^{-x})",
        kind: Kind::Reals(|a| special::wbar_m1(a[0])),
    },
    Entry {
        name: "zeta",
        params: &["s"],
        domain: "s > 1; Riemann zeta",
        kind: Kind::Reals(|a| special::zeta(a[0])),
    },
    Entry {
        name: "cg",
        params: &["x"],
        domain: "x > 0; Kaufmann-Koolen C_G(x) = min_l (g_G(l) + x)/l",
        kind: Kind::Reals(|a| special::c_g(a[0])),
    },
    Entry {
        name: "k",
        params: &["x"],
        domain: "x >= 1; k(x) = log2 x + 2",
        kind: Kind::Reals(|a| special::k(a[0])),
    },
    Entry {
        name: "h",
        params: &["x", "delta", "K"],
        domain: "x >= 1, delta in (0, 1), integer K >= 2; h(x, delta) of Lemma 23",
        kind: Kind::RealsThenArms(special::h),
    },
    Entry {
        name: "g1",
        params: &["y"],
        domain: "y >= 0; g1(y) = sup{x : x^2 < x + y sqrt(2x) + y^2/4}",
        kind: Kind::Reals(|a| special::g1(a[0])),
    },
    Entry {
        name: "g2",
        params: &["y"],
        domain: "y > 0; g2(y) = y (1 + sqrt(1 + 1/y))^2",
        kind: Kind::Reals(|a| special::g2(a[0])),
    },
    Entry {
        name: "kl-bernoulli",
        params: &["p", "q"],
        domain: "p, q in [0, 1]; KL(Ber(p) || Ber(q)) in nats",
        kind: Kind::Reals(|a| divergence::kl_bernoulli(a[0], a[1])),
    },
    Entry {
        name: "kl-gaussian",
        params: &["p", "q", "sigma"],
        domain: "p, q finite, sigma > 0; (p - q)^2 / (2 sigma^2)",
        kind: Kind::Reals(|a| divergence::kl_gaussian(a[0], a[1], a[2])),
    },
    Entry {
        name: "tv-bernoulli",
        params: &["p", "q"],
        domain: "p, q in [0, 1]; TV(Ber(p), Ber(q)) = |p - q|",
        kind: Kind::Reals(|a| divergence::tv_bernoulli(a[0], a[1])),
    },
    Entry {
        name: "c-local",
        params: &["eps"],
        domain: "eps > 0; c(eps) = min{4, e^{2 eps}} (e^eps - 1)^2",
        kind: Kind::Reals(|a| divergence::c_local(a[0])),
    },
    Entry {
        name: "kl",
        params: &["x", "y"],
        domain: "x, y in [0, 1]; binary relative entropy kl(x, y) in nats",
        kind: Kind::Reals(|a| divergence::kl_bernoulli(a[0], a[1])),
    },
];

fn parse_real(param: &str, s: &str) -> anyhow::Result<f64> {
    s.trim().parse::<f64>().map_err(|_| {
        super::usage(format!(
            "cannot parse {param} = {s:?} as a number (use e.g. 0.5, -1e-3)"
        ))
    })
}

fn parse_arms(s: &str) -> anyhow::Result<usize> {
    match s.trim().parse::<usize>() {
        Ok(k) if k >= 2 => Ok(k),
        _ => Err(super::usage(format!(
            "invalid K = {s:?}: must be an integer >= 2"
        ))),
    }
}

fn list() -> String {
    let mut out = String::new();
    for e in TABLE {
        let sig = format!("{} {}", e.name, e.params.join(" "));
        out.push_str(&format!("{sig:<28} {}\n", e.domain));
    }
    out
}

/// Runs the command.
pub fn run(args: Args) -> anyhow::Result<()> {
    let mut json = args.json;
    let mut want_list = args.list;
    // Flags written after NAME are swallowed by the trailing argument list: honour them there.
    let call: Vec<String> = args
        .call
        .into_iter()
        .filter(|a| match a.as_str() {
            "--json" => {
                json = true;
                false
            }
            "--list" => {
                want_list = true;
                false
            }
            _ => true,
        })
        .collect();
    if want_list {
        print!("{}", list());
        return Ok(());
    }
    let Some((name, rest)) = call.split_first() else {
        return Err(super::usage(
            "missing function name: `dpbai fn NAME ARGS...` (see `dpbai fn --list`)",
        ));
    };
    let Some(entry) = TABLE.iter().find(|e| e.name == name.as_str()) else {
        return Err(super::usage(format!(
            "unknown function {name:?} (see `dpbai fn --list`)"
        )));
    };
    if rest.len() != entry.params.len() {
        return Err(super::usage(format!(
            "`{}` takes {} argument(s) ({}), got {}",
            entry.name,
            entry.params.len(),
            entry.params.join(" "),
            rest.len()
        )));
    }
    let (value, shown): (f64, Vec<f64>) = match entry.kind {
        Kind::Reals(f) => {
            let xs = rest
                .iter()
                .zip(entry.params)
                .map(|(s, p)| parse_real(p, s))
                .collect::<anyhow::Result<Vec<f64>>>()?;
            (f(&xs)?, xs)
        }
        Kind::RealsThenArms(f) => {
            let x = parse_real(entry.params[0], &rest[0])?;
            let d = parse_real(entry.params[1], &rest[1])?;
            let k = parse_arms(&rest[2])?;
            (f(x, d, k)?, vec![x, d, k as f64])
        }
    };
    if json {
        let v = if value.is_finite() {
            serde_json::json!(value)
        } else {
            serde_json::json!(value.to_string())
        };
        let obj = serde_json::json!({ "name": entry.name, "args": shown, "value": v });
        println!("{obj}");
    } else {
        println!("{}", dpbai::error::compact_number(value));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_names_unique_and_listed() {
        let l = list();
        for (i, e) in TABLE.iter().enumerate() {
            assert!(TABLE[i + 1..].iter().all(|f| f.name != e.name));
            assert!(l.contains(e.name));
        }
    }
}
