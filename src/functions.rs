//! The catalogue of the toolkit's scalar functions: every special function ([`crate::special`])
//! and divergence ([`crate::divergence`]) that `dpbai fn`, the Python module `dpbai.special`,
//! and the golden-value checks evaluate by name, declared once with its names, parameters,
//! domain and evaluation.
//!
//! A function has one canonical name in `snake_case` (the Rust and Python name) and a command
//! spelling for `dpbai fn` (`kebab-case`, or the short name the threshold language also uses:
//! `cg`, `wbar`); [`lookup`] accepts either, and the aliases.
//!
//! ```
//! let f = dpbai::functions::lookup("wbar").unwrap();
//! assert_eq!(f.name, "wbar_m1");
//! assert_eq!(f.call(&[1.0]).unwrap(), 1.0);
//! assert!(dpbai::functions::lookup("c-g").is_some() && dpbai::functions::lookup("nope").is_none());
//! assert!(f.call(&[1.0, 2.0]).is_err(), "wrong arity");
//! ```

use crate::error::{Error, Result};
use crate::{divergence, special};

/// How a function is evaluated: by its number of real arguments. A number of arms `K` is passed
/// as a real and must be an integer >= 2.
#[derive(Clone, Copy)]
pub enum Eval {
    /// `f(x)`.
    One(fn(f64) -> Result<f64>),
    /// `f(x, y)`.
    Two(fn(f64, f64) -> Result<f64>),
    /// `f(x, y, z)`.
    Three(fn(f64, f64, f64) -> Result<f64>),
}

/// One function of the catalogue.
#[derive(Clone, Copy)]
pub struct Function {
    /// Canonical name (Rust item, Python function).
    pub name: &'static str,
    /// Spelling of `dpbai fn` (and `--list`).
    pub command: &'static str,
    /// Other accepted names.
    pub aliases: &'static [&'static str],
    /// Parameter names, in order.
    pub params: &'static [&'static str],
    /// Domain and definition, one line.
    pub domain: &'static str,
    /// The evaluation.
    pub eval: Eval,
    /// Whether, and as what, the threshold expression language (`--threshold`) knows the
    /// function, under its `command` name.
    pub expr: Option<ExprFn>,
    /// Where, inside its domain, the value is `+∞` by definition (not an overflow; a finite
    /// value beyond the largest `f64` is an [`Error::Overflow`] instead): `None` for a function
    /// that is finite on its whole domain.
    pub infinite: Option<Infinite>,
}

/// The points of a function's domain where its value is `+∞` by definition, stated in its
/// `domain` line: `dpbai fn` prints `inf` there (`"inf"` in JSON), and nowhere else does any
/// function of the catalogue return a non-finite value (a property test checks both ways).
#[derive(Clone, Copy)]
pub struct Infinite {
    /// The condition, as the domain line states it.
    pub when: &'static str,
    /// Whether `args` satisfy it.
    pub test: fn(&[f64]) -> bool,
}

/// A special function of the threshold expression language: the stack machine, constant
/// folding and the interval enclosure each evaluate it (`threshold::expr`). The language spells it
/// as the catalogue entry's `command` and takes its `params`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExprFn {
    /// `cg(x)` = `C_G(x)` (Eq. (20)).
    Cg,
    /// `wbar(x)` = `W̄_{-1}(x)` (L. 40).
    Wbar,
    /// `zeta(s)`, the Riemann zeta.
    Zeta,
    /// `k(x)` = `log2 x + 2` (L. 23).
    K,
    /// `h(x, delta, K)` of L. 23.
    H,
}

impl Function {
    /// Number of arguments.
    pub fn arity(&self) -> usize {
        self.params.len()
    }

    /// The value at `args`.
    ///
    /// # Errors
    /// [`Error::InvalidParameter`] for a wrong number of arguments, and the function's own errors
    /// (an argument outside its domain, a non-integer `K`).
    pub fn call(&self, args: &[f64]) -> Result<f64> {
        match (self.eval, args) {
            (Eval::One(f), &[x]) => f(x),
            (Eval::Two(f), &[x, y]) => f(x, y),
            (Eval::Three(f), &[x, y, z]) => f(x, y, z),
            _ => Err(Error::param(
                "arguments",
                args.len(),
                format!(
                    "{} argument(s) for {} ({})",
                    self.arity(),
                    self.name,
                    self.params.join(", ")
                ),
            )),
        }
    }
}

/// A number of arms `K` given as a real: an integer in `[2, 10^15]`.
fn arms(k: f64) -> Result<usize> {
    if k.fract() == 0.0 && (2.0..=1e15).contains(&k) {
        Ok(k as usize)
    } else {
        Err(Error::param("K", k, "an integer >= 2"))
    }
}

/// `x`, or an error for NaN: the total functions (`erf`, `erfc`) take every other value, ±∞
/// included, and refuse NaN as every function does.
fn number(x: f64, f: &str) -> Result<f64> {
    if x.is_nan() {
        Err(Error::param("x", x, format!("a number, ±∞ included ({f})")))
    } else {
        Ok(x)
    }
}

/// Every function, in the order `dpbai fn --list` shows them.
pub const FUNCTIONS: &[Function] = &[
    Function {
        name: "lambert_w0",
        command: "lambert-w0",
        aliases: &[],
        params: &["x"],
        domain: "x >= -1/e; principal branch W_0",
        eval: Eval::One(special::lambert_w0),
        expr: None,
        infinite: None,
    },
    Function {
        name: "lambert_wm1",
        command: "lambert-wm1",
        aliases: &[],
        params: &["x"],
        domain: "-1/e <= x < 0; lower branch W_{-1}",
        eval: Eval::One(special::lambert_wm1),
        expr: None,
        infinite: None,
    },
    Function {
        name: "wbar_m1",
        command: "wbar",
        aliases: &[],
        params: &["x"],
        domain: "x >= 1; W-bar_{-1}(x) = -W_{-1}(-e^{-x})",
        eval: Eval::One(special::wbar_m1),
        expr: Some(ExprFn::Wbar),
        infinite: None,
    },
    Function {
        name: "zeta",
        command: "zeta",
        aliases: &[],
        params: &["s"],
        domain: "s > 1; Riemann zeta",
        eval: Eval::One(special::zeta),
        expr: Some(ExprFn::Zeta),
        infinite: None,
    },
    Function {
        name: "c_g",
        command: "cg",
        aliases: &[],
        params: &["x"],
        domain: "x > 0; Kaufmann-Koolen C_G(x) = min_l (g_G(l) + x)/l",
        eval: Eval::One(special::c_g),
        expr: Some(ExprFn::Cg),
        infinite: None,
    },
    Function {
        name: "k",
        command: "k",
        aliases: &[],
        params: &["x"],
        domain: "x >= 1; k(x) = log2 x + 2",
        eval: Eval::One(special::k),
        expr: Some(ExprFn::K),
        infinite: None,
    },
    Function {
        name: "h",
        command: "h",
        aliases: &[],
        params: &["x", "delta", "K"],
        domain: "x >= 1, delta in (0, 1), integer K >= 2; h(x, delta) of Lemma 23",
        eval: Eval::Three(|x, d, k| special::h(x, d, arms(k)?)),
        expr: Some(ExprFn::H),
        infinite: None,
    },
    Function {
        name: "c_l36",
        command: "c-l36",
        aliases: &[],
        params: &["x", "delta", "K"],
        domain: "x >= 1, delta in (0, 1), integer K >= 2; the threshold c_{L36}(x, delta) of Lemma 36",
        eval: Eval::Three(|x, d, k| special::c_l36(x, d, arms(k)?)),
        expr: None,
        infinite: None,
    },
    Function {
        name: "h1",
        command: "h1",
        aliases: &[],
        params: &["z", "y"],
        domain: "z > 0, y/z + log z >= 1; h_1(z, y) = z W-bar_{-1}(y/z + log z) of Lemma 41",
        eval: Eval::Two(special::h1),
        expr: None,
        infinite: None,
    },
    Function {
        name: "g1",
        command: "g1",
        aliases: &[],
        params: &["y"],
        domain: "y >= 0; g1(y) = sup{x : x^2 < x + y sqrt(2x) + y^2/4}",
        eval: Eval::One(special::g1),
        expr: None,
        infinite: None,
    },
    Function {
        name: "g2",
        command: "g2",
        aliases: &[],
        params: &["y"],
        domain: "y > 0; g2(y) = y (1 + sqrt(1 + 1/y))^2",
        eval: Eval::One(special::g2),
        expr: None,
        infinite: None,
    },
    Function {
        name: "erf",
        command: "erf",
        aliases: &[],
        params: &["x"],
        domain: "any x but NaN; error function",
        eval: Eval::One(|x| number(x, "erf").map(special::erf)),
        expr: None,
        infinite: None,
    },
    Function {
        name: "erfc",
        command: "erfc",
        aliases: &[],
        params: &["x"],
        domain: "any x but NaN; complementary error function",
        eval: Eval::One(|x| number(x, "erfc").map(special::erfc)),
        expr: None,
        infinite: None,
    },
    Function {
        name: "kl_bernoulli",
        command: "kl-bernoulli",
        aliases: &["kl"],
        params: &["p", "q"],
        domain: "p, q in [0, 1]; KL(Ber(p) || Ber(q)) in nats; +inf when q = 0 < p or p < 1 = q",
        eval: Eval::Two(divergence::kl_bernoulli),
        expr: None,
        infinite: Some(Infinite {
            when: "q = 0 < p or p < 1 = q",
            test: |a| (a[1] == 0.0 && a[0] > 0.0) || (a[1] == 1.0 && a[0] < 1.0),
        }),
    },
    Function {
        name: "kl_gaussian",
        command: "kl-gaussian",
        aliases: &[],
        params: &["p", "q", "sigma"],
        domain: "p, q finite, sigma > 0; (p - q)^2 / (2 sigma^2)",
        eval: Eval::Three(divergence::kl_gaussian),
        expr: None,
        infinite: None,
    },
    Function {
        name: "tv_bernoulli",
        command: "tv-bernoulli",
        aliases: &[],
        params: &["p", "q"],
        domain: "p, q in [0, 1]; TV(Ber(p), Ber(q)) = |p - q|",
        eval: Eval::Two(divergence::tv_bernoulli),
        expr: None,
        infinite: None,
    },
    Function {
        name: "tv2_bernoulli",
        command: "tv2-bernoulli",
        aliases: &[],
        params: &["p", "q"],
        domain: "p, q in [0, 1]; TV(Ber(p), Ber(q))^2",
        eval: Eval::Two(divergence::tv2_bernoulli),
        expr: None,
        infinite: None,
    },
    Function {
        name: "tv_gaussian",
        command: "tv-gaussian",
        aliases: &[],
        params: &["m", "m2", "sigma"],
        domain: "m, m2 finite, sigma > 0; TV(N(m, sigma^2), N(m2, sigma^2))",
        eval: Eval::Three(divergence::tv_gaussian),
        expr: None,
        infinite: None,
    },
    Function {
        name: "d_eps_plus",
        command: "d-eps-plus",
        aliases: &[],
        params: &["mu", "x", "eps"],
        domain: "mu, x in [0, 1], eps > 0; the cost d+_eps of moving a Bernoulli mean up from mu \
                 to x under eps-global DP ([BAI25] poster)",
        eval: Eval::Three(divergence::d_eps_plus),
        expr: None,
        infinite: None,
    },
    Function {
        name: "d_eps_minus",
        command: "d-eps-minus",
        aliases: &[],
        params: &["mu", "x", "eps"],
        domain: "mu, x in [0, 1], eps > 0; d-_eps(mu, x) = d+_eps(1 - mu, 1 - x), the cost of \
                 moving a mean down ([BAI25] poster)",
        eval: Eval::Three(divergence::d_eps_minus),
        expr: None,
        infinite: None,
    },
    Function {
        name: "d_eps",
        command: "d-eps",
        aliases: &[],
        params: &["mu", "x", "eps"],
        domain: "mu, x in [0, 1], eps > 0; d_eps(mu, x) = inf_z eps|z - mu| + kl(z, x), the \
                 two-sided d+/d- ([REG25], [BAI25] poster)",
        eval: Eval::Three(divergence::d_eps),
        expr: None,
        infinite: None,
    },
    Function {
        name: "c_local",
        command: "c-local",
        aliases: &[],
        params: &["eps"],
        domain: "eps > 0; c(eps) = min{4, e^{2 eps}} (e^eps - 1)^2",
        eval: Eval::One(divergence::c_local),
        expr: None,
        infinite: None,
    },
    Function {
        name: "rr_mean",
        command: "rr-mean",
        aliases: &[],
        params: &["mu", "eps"],
        domain: "mu in [0, 1], eps > 0; the mean of a randomised-response reward",
        eval: Eval::Two(divergence::rr_mean),
        expr: None,
        infinite: None,
    },
    Function {
        name: "kl_delta",
        command: "kl-delta",
        aliases: &[],
        params: &["delta"],
        domain: "delta in [1e-300, 1); kl(1 - delta, delta), the change-of-measure constant of Lemma 5",
        eval: Eval::One(|d| Ok(divergence::kl_delta(crate::params::Delta::new(d)?))),
        expr: None,
        infinite: None,
    },
];

/// The function named `name`: its canonical name, its command spelling, an alias, or the
/// canonical name with `-` for `_`.
pub fn lookup(name: &str) -> Option<&'static Function> {
    FUNCTIONS.iter().find(|f| {
        f.name == name
            || f.command == name
            || f.aliases.contains(&name)
            || f.name.replace('_', "-") == name
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_resolve_to_their_function() {
        let mut seen = std::collections::BTreeSet::new();
        for f in FUNCTIONS {
            for n in [f.name, f.command].iter().chain(f.aliases) {
                assert!(
                    seen.insert(*n) || *n == f.name || *n == f.command,
                    "{n} twice"
                );
                assert_eq!(lookup(n).map(|g| g.name), Some(f.name), "{n}");
            }
            assert_eq!(
                f.arity(),
                match f.eval {
                    Eval::One(_) => 1,
                    Eval::Two(_) => 2,
                    Eval::Three(_) => 3,
                },
                "{}: params and evaluation disagree",
                f.name
            );
        }
    }

    #[test]
    fn arms_must_be_an_integer_of_at_least_two() {
        let h = lookup("h").expect("h");
        assert!(h.call(&[8.0, 0.01, 5.0]).is_ok());
        for k in [1.0, 2.5, f64::NAN] {
            assert!(h.call(&[8.0, 0.01, k]).is_err(), "K = {k}");
        }
    }
}
