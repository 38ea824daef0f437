//! `dpbai fn NAME ARGS...`: evaluate one special function or divergence.
//!
//! Prints one number on stdout in its shortest round-trip form (Rust's `{}` for `f64`, or its
//! exponent form `{:e}` when `|x| < 1e-4` or `|x| >= 1e15`), or with `--json` one object
//! `{"name": ..., "args": [...], "value": ...}` (an infinite value, e.g. `kl(0, 1)`, is written as
//! the string `"inf"`). `dpbai fn --list` lists the names with their domains. Bad input (unknown
//! name, wrong arity, unparsable number, out-of-domain value) and a finite value beyond the
//! largest `f64` ("value overflows f64 (≈ 10^…)") are a one-line message on stderr and exit
//! code 2.

use crate::functions::{FUNCTIONS, lookup};

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

fn parse_real(param: &str, s: &str) -> anyhow::Result<f64> {
    s.trim().parse::<f64>().map_err(|_| {
        super::errors::usage(format!(
            "cannot parse {param} = {s:?} as a number (use e.g. 0.5, -1e-3)"
        ))
    })
}

/// `--list`: one line per function (its command spelling, parameters and domain), and one per
/// alias.
fn list() -> String {
    let mut out = String::new();
    for f in FUNCTIONS {
        for name in std::iter::once(&f.command).chain(f.aliases) {
            let sig = format!("{name} {}", f.params.join(" "));
            let domain = if *name == f.command {
                f.domain.to_string()
            } else {
                format!("alias of {}", f.command)
            };
            out.push_str(&format!("{sig:<28} {domain}\n"));
        }
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
        return Err(super::errors::usage(
            "missing function name: `dpbai fn NAME ARGS...` (see `dpbai fn --list`)",
        ));
    };
    let Some(entry) = lookup(name) else {
        return Err(super::errors::usage(format!(
            "unknown function {name:?} (see `dpbai fn --list`)"
        )));
    };
    if rest.len() != entry.params.len() {
        return Err(super::errors::usage(format!(
            "`{}` takes {} argument(s) ({}), got {}",
            name,
            entry.params.len(),
            entry.params.join(" "),
            rest.len()
        )));
    }
    let shown = rest
        .iter()
        .zip(entry.params)
        .map(|(s, p)| parse_real(p, s))
        .collect::<anyhow::Result<Vec<f64>>>()?;
    let value = entry.call(&shown)?;
    if json {
        let v = if value.is_finite() {
            serde_json::json!(value)
        } else {
            serde_json::json!(value.to_string())
        };
        let obj = serde_json::json!({ "name": name, "args": shown, "value": v });
        println!("{obj}");
    } else {
        println!("{}", crate::error::compact_number(value));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_and_alias_is_listed() {
        let l = list();
        for f in FUNCTIONS {
            for n in std::iter::once(&f.command).chain(f.aliases) {
                assert!(
                    l.lines().any(|x| x.split_whitespace().next() == Some(n)),
                    "{n}"
                );
            }
        }
    }
}
