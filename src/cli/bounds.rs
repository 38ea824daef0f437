//! `dpbai bounds`: characteristic times with certificates, optimal allocations, regime switches,
//! sample-complexity lower bounds and the asymptotic upper-bound formulas (READINGS.md §B, §E.3, §E.4).

use crate::complexity::{self, Certified, upper};
use crate::error::fixed;
use crate::instance::{Family, FamilyName, Instance};
use anyhow::Result;
use serde_json::{Value, json};

/// Arguments of `dpbai bounds`.
#[derive(clap::Args, Debug)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// Arm means, comma separated (e.g. 0.95,0.9,0.9,0.9,0.5).
    #[arg(long, allow_hyphen_values = true)]
    means: String,
    /// Reward family: bernoulli (means in `[0, 1]`) or gaussian (known --sigma).
    #[arg(long, default_value = "bernoulli")]
    family: String,
    /// Standard deviation of the Gaussian arms (default 1; ignored for Bernoulli, sigma = 1/2).
    #[arg(long, allow_hyphen_values = true)]
    sigma: Option<f64>,
    /// Privacy budget epsilon in [1e-300, 354.198...] (adds the local/global times and the
    /// private bounds; beyond, c(eps) = 4(e^eps - 1)^2 exceeds the largest double).
    #[arg(long, allow_hyphen_values = true)]
    eps: Option<f64>,
    /// Risk delta in (0,1) for the sample-complexity lower bounds.
    #[arg(long, default_value_t = 0.01, allow_hyphen_values = true)]
    delta: f64,
    /// Leader proportion beta in (0,1) of the beta-times and of the upper bounds.
    #[arg(long, default_value_t = 0.5, allow_hyphen_values = true)]
    beta: f64,
    /// Print one JSON object instead of the table.
    #[arg(long)]
    json: bool,
    /// LO:HI:N — print a CSV of every eps-dependent quantity on N log-spaced eps in [LO, HI]
    /// (HI at most 354.198..., as --eps).
    #[arg(long, allow_hyphen_values = true)]
    eps_grid: Option<String>,
    /// Also print the docs/GLOSSARY.md entries of what was printed (symbol, where the paper
    /// defines it, units, meaning); on stderr with --json or --eps-grid.
    #[arg(long)]
    explain: bool,
}

fn instance(a: &Args) -> Result<Instance> {
    let means = super::errors::parse_list("means", &a.means)?;
    crate::params::limits::check_arms(means.len())?;
    let name = a.family.parse::<FamilyName>().map_err(|_| {
        super::errors::usage(format!(
            "invalid family = {:?}: must be bernoulli or gaussian",
            a.family
        ))
    })?;
    let family = Family::of(name, a.sigma)?;
    Ok(Instance::new(family, means)?)
}

/// The ε range of `bounds` (table, `--json` and `--eps-grid` alike): every quantity it prints
/// is finite up to [`C_LOCAL_EPS_MAX`](crate::divergence::C_LOCAL_EPS_MAX), where the local
/// contraction constant `c(ε) = 4(e^ε − 1)²` reaches the largest `f64`; beyond, `--eps` and the
/// grid's HI are refused, naming the option.
fn check_c_eps(option: &str, eps: f64) -> Result<()> {
    let max = crate::divergence::C_LOCAL_EPS_MAX;
    if eps <= max {
        Ok(())
    } else {
        Err(super::errors::usage(format!(
            "invalid {option} {}: must be at most {max} for bounds (c(eps) = 4(e^eps - 1)^2, \
             which the local times use, exceeds the largest double beyond)",
            crate::error::compact_number(eps)
        )))
    }
}

fn parse_grid(s: &str) -> Result<Vec<f64>> {
    let bad = || {
        super::errors::usage(format!(
            "invalid eps-grid = {s:?}: must be LO:HI:N with 0 < LO <= HI finite and N >= 1"
        ))
    };
    let parts: Vec<&str> = s.split(':').collect();
    if parts.len() != 3 {
        return Err(bad());
    }
    let lo: f64 = parts[0].trim().parse().map_err(|_| bad())?;
    let hi: f64 = parts[1].trim().parse().map_err(|_| bad())?;
    let n: u64 = parts[2].trim().parse().map_err(|_| bad())?;
    if !(lo > 0.0 && hi >= lo && hi.is_finite() && n >= 1) {
        return Err(bad());
    }
    let n = crate::params::limits::check_grid_points("eps-grid points", n)? as usize;
    if n == 1 {
        return Ok(vec![lo]);
    }
    let (l0, l1) = (lo.ln(), hi.ln());
    Ok((0..n)
        .map(|i| {
            if i == 0 {
                lo
            } else if i == n - 1 {
                hi
            } else {
                (l0 + (l1 - l0) * i as f64 / (n - 1) as f64).exp()
            }
        })
        .collect())
}

fn cert_json(c: &Certified) -> Value {
    json!({"value": c.value, "lower": c.lower, "upper": c.upper, "allocation": c.allocation})
}

/// A gap of the instance at 12 significant digits, trailing zeros dropped: a difference of two
/// means carries their rounding (`0.95 − 0.9 = 0.04999999999999993`), which 12 digits hide
/// while keeping every gap a user types distinct.
fn gap_text(x: f64) -> String {
    let s = crate::numbers::sig(x, 12);
    if s.contains('.') && !s.contains('e') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// The value of the characteristic time `lt` (`None` when it is not computed: no ε).
fn lower_value(lt: upper::LowerTime, t_kl: f64, p: Option<&Private>) -> Option<f64> {
    match lt {
        upper::LowerTime::Kl => Some(t_kl),
        upper::LowerTime::Local => p.map(|p| p.local.value),
        upper::LowerTime::Global => p.map(|p| p.global.value),
        upper::LowerTime::Eps => p.and_then(|p| p.t_eps.as_ref().map(|c| c.value)),
    }
}

fn ub_json(u: &upper::UpperBound, t_kl: f64, p: Option<&Private>) -> Value {
    json!({
        "value": u.finite(),
        "note": u.note,
        "model": u.model,
        "regime": u.regime,
        "lower_time": u.lower_time.name(),
        "lower_time_value": lower_value(u.lower_time, t_kl, p),
        "refused": u.refused,
    })
}

fn star_json(s: &upper::AdaPTTStar, t_kl: f64, p: Option<&Private>) -> Value {
    json!({
        "thm24_main": s.thm24_main,
        "lemma52_app": s.lemma52_app,
        "proof_max": s.proof_max,
        "note": s.note,
        "model": s.model,
        "regime": s.regime,
        "lower_time": s.lower_time.name(),
        "lower_time_value": lower_value(s.lower_time, t_kl, p),
        "thm24_main_branch": s.thm24_main_branch,
        "lemma52_app_branch": s.lemma52_app_branch,
        "proof_max_branch": s.proof_max_branch,
        "switch_eps_main": s.switch_eps_main,
        "switch_eps_lemma52": s.switch_eps_lemma52,
    })
}

/// The ε-dependent quantities of one `--eps`.
struct Private {
    eps: f64,
    local: Certified,
    global: Certified,
    kl_g_eps: Certified,
    kl_beta_g_eps: Certified,
    ub: upper::UpperBounds,
    /// BAI25's `T*_ε` and `T*_{ε,β}` (Bernoulli arms only).
    t_eps: Option<Certified>,
    t_eps_beta: Option<Certified>,
    /// DP-TT's upper bounds (BAI25; refused for Gaussian arms).
    dp_tt: upper::DpTtBounds,
}

/// The sample-complexity lower bounds' factors: the first paper's (L. 5, Thm. 10, 17) and
/// BAI25's (its `T*_ε` bound).
const FACTOR_SEED: &str = "log(1/(2.4 delta))";
const FACTOR_BAI25: &str = "log(1/(3 delta))";

/// Every quantity `dpbai bounds` prints for one instance (and one optional ε).
struct Quantities {
    t_kl: Certified,
    t_klg: Certified,
    t_klb: Certified,
    t_tv: Certified,
    t_tv2: Certified,
    h: f64,
    eps_l: f64,
    eps_g: f64,
    lf: f64,
    lf_bai25: f64,
    switch_lp: Option<complexity::LowPrivacySwitch>,
    dpa: upper::UpperBound,
    per_arm: Vec<Option<f64>>,
    private: Option<Private>,
}

impl Quantities {
    fn new(
        nu: &Instance,
        eps: Option<f64>,
        delta: crate::params::Delta,
        beta: f64,
    ) -> Result<Self> {
        let sigma = nu.sigma();
        let t_kl = complexity::t_kl(nu)?;
        let t_klg = complexity::t_kl_gaussian(nu, sigma)?;
        let t_klb = complexity::t_kl_beta(nu, beta)?;
        let t_tv = complexity::t_tv(nu)?;
        let t_tv2 = complexity::t_tv2(nu)?;
        let h = nu.hardness_h(sigma);
        let eps_l = complexity::c_local_inverse(t_tv2.value / t_kl.value)?;
        let eps_g = t_tv.value / t_kl.value;
        let lf = complexity::log_factor(delta);
        let lf_bai25 = complexity::log_factor_bai25(delta);
        let bern = nu.family() == Family::Bernoulli;
        let switch_lp = if bern {
            Some(complexity::eps_switch_low_privacy(nu)?)
        } else {
            None
        };
        let dpa = upper::dpa(nu, beta)?;
        // per-arm privacy regime switch ε = 2Δ_a (Sec. 4.1, B.10), null for the best arm
        let per_arm: Vec<Option<f64>> = (0..nu.k())
            .map(|i| (i != nu.best()).then(|| 2.0 * (nu.best_mean() - nu.means()[i])))
            .collect();

        let private = match eps {
            None => None,
            Some(eps) => Some(Private {
                eps,
                local: complexity::t_local(nu, eps)?,
                global: complexity::t_global(nu, eps)?,
                kl_g_eps: complexity::t_kl_g_eps(nu, eps)?,
                kl_beta_g_eps: complexity::t_kl_beta_g_eps(nu, eps, beta)?,
                ub: upper::upper_bounds(nu, eps, beta)?,
                t_eps: bern.then(|| complexity::t_eps(nu, eps)).transpose()?,
                t_eps_beta: bern
                    .then(|| complexity::t_eps_beta(nu, eps, beta))
                    .transpose()?,
                dp_tt: upper::dp_tt(nu, eps, beta, upper::DP_TT_ETA)?,
            }),
        };
        Ok(Quantities {
            t_kl,
            t_klg,
            t_klb,
            t_tv,
            t_tv2,
            h,
            eps_l,
            eps_g,
            lf,
            lf_bai25,
            switch_lp,
            dpa,
            per_arm,
            private,
        })
    }
}

/// The object `dpbai bounds --json` prints (and the Python `bounds()` returns, typed): the
/// characteristic times with their certificates, the switches, the sample-complexity lower
/// bounds and the upper-bound formulas of `nu`, with the ε-dependent ones when `eps` is given.
///
/// # Errors
/// A time that cannot be certified, a bound out of its domain.
pub fn bounds_json(
    nu: &Instance,
    eps: Option<f64>,
    delta: crate::params::Delta,
    beta: f64,
) -> Result<Value> {
    let Quantities {
        t_kl,
        t_klg,
        t_klb,
        t_tv,
        t_tv2,
        h,
        eps_l,
        eps_g,
        lf,
        lf_bai25,
        switch_lp,
        dpa,
        per_arm,
        private,
    } = Quantities::new(nu, eps, delta, beta)?;
    let bern = nu.family() == Family::Bernoulli;
    let sigma = nu.sigma();
    let mut o = json!({
        "family": if bern { "bernoulli" } else { "gaussian" },
        "sigma": sigma,
        "means": nu.means(),
        "best_arm": nu.best() + 1,
        "delta": delta.get(),
        "beta": beta,
        "eps": eps,
        "t_kl": cert_json(&t_kl),
        "t_kl_gaussian": cert_json(&t_klg),
        "t_kl_beta": cert_json(&t_klb),
        "t_tv": cert_json(&t_tv),
        "t_tv2": cert_json(&t_tv2),
        "hardness_h": h,
        "eps_switch_local": eps_l,
        "eps_switch_global": eps_g,
        "eps_switch_per_arm": per_arm,
        "log_factor": lf,
        "log_factor_bai25": lf_bai25,
        "eps_switch_low_privacy": switch_lp,
    });
    let m = o.as_object_mut().expect("invariant: json! object");
    let mut slb = json!({"non_private": t_kl.value * lf, "local": null, "global": null,
                         "t_eps": null,
                         "factors": {"non_private": FACTOR_SEED, "local": FACTOR_SEED,
                                     "global": FACTOR_SEED, "t_eps": FACTOR_BAI25}});
    let pv = private.as_ref();
    let mut ub = json!({"ctb_tt": null, "ctb_tt_ids": null, "adap_tt": null, "adap_tt_star": null,
                        "dp_tt": null, "dp_tt_8t_eps": null,
                        "dpa": ub_json(&dpa, t_kl.value, pv)});
    if let Some(p) = &private {
        m.insert("t_local".into(), cert_json(&p.local));
        m.insert("t_global".into(), cert_json(&p.global));
        m.insert("t_kl_g_eps".into(), cert_json(&p.kl_g_eps));
        m.insert("t_kl_beta_g_eps".into(), cert_json(&p.kl_beta_g_eps));
        m.insert("c_eps".into(), json!(crate::divergence::c_local(p.eps)?));
        m.insert(
            "two_h_g_eps".into(),
            json!(complexity::two_h_g_eps(nu, p.eps)?),
        );
        m.insert("h_eps_sec43".into(), json!(nu.hardness_h_eps_sec43(p.eps)));
        m.insert("h_eps_app_b".into(), json!(nu.hardness_h_eps_app_b(p.eps)));
        let opt_cert = |c: &Option<Certified>| c.as_ref().map_or(Value::Null, cert_json);
        m.insert("t_eps".into(), opt_cert(&p.t_eps));
        m.insert("t_eps_beta".into(), opt_cert(&p.t_eps_beta));
        slb["local"] = json!(p.local.value * lf);
        slb["global"] = json!(p.global.value * lf);
        slb["t_eps"] = json!(p.t_eps.as_ref().map(|c| c.value * lf_bai25));
        ub["dp_tt"] = ub_json(&p.dp_tt.dp_tt, t_kl.value, pv);
        ub["dp_tt_8t_eps"] = ub_json(&p.dp_tt.dp_tt_8t_eps, t_kl.value, pv);
        ub["ctb_tt"] = ub_json(&p.ub.ctb_tt, t_kl.value, pv);
        ub["ctb_tt_ids"] = ub_json(&p.ub.ctb_tt_ids, t_kl.value, pv);
        ub["adap_tt"] = ub_json(&p.ub.adap_tt, t_kl.value, pv);
        ub["adap_tt_star"] = star_json(&p.ub.adap_tt_star, t_kl.value, pv);
    }
    m.insert("sample_lower_bounds".into(), slb);
    m.insert("upper_bounds".into(), ub);
    Ok(o)
}

/// Runs the command. A characteristic time that cannot be certified at these parameters
/// (gaps or ε so extreme that double precision cannot bracket it) is refused (exit 2) rather
/// than printed approximately.
pub fn run(a: Args) -> Result<()> {
    let what = format!(
        "--means {} (family {}){}",
        a.means,
        a.family,
        a.eps.map_or(String::new(), |e| {
            let s = e.to_string();
            format!(
                ", --eps {}",
                if s.len() > 12 { format!("{e:e}") } else { s }
            )
        })
    );
    const OPTIONS: [&str; 6] = ["delta", "beta", "eps", "sigma", "eps-grid points", "K"];
    run_checked(a).map_err(|e| match e.downcast_ref::<crate::Error>() {
        Some(crate::Error::NoConvergence { .. }) => super::errors::usage(format!(
            "{what}: a characteristic time cannot be certified in double precision here \
             ({e}); use less extreme means, gaps, --beta or --eps"
        )),
        // An inner quantity out of its domain (e.g. an argument of g2 underflowing at
        // ε = 1e-300): refused, naming the user's options.
        Some(crate::Error::InvalidParameter { name, .. })
            if !OPTIONS.contains(&name.as_str()) && !name.starts_with("mean") =>
        {
            super::errors::usage(format!(
                "{what}: a bound cannot be computed in double precision here ({e}); use less \
                 extreme means, --sigma, --beta or --eps"
            ))
        }
        _ => e,
    })
}

fn run_checked(a: Args) -> Result<()> {
    let nu = instance(&a)?;
    if nu.family() != Family::Bernoulli {
        crate::params::check_gaussian_arms(nu.sigma(), nu.means())?;
    }
    let delta = crate::params::Delta::new(a.delta)?;
    crate::params::Beta::new(a.beta)?;
    if let Some(e) = a.eps {
        crate::params::check_eps("eps", e)?;
        check_c_eps("--eps", e)?;
    }
    if let Some(g) = &a.eps_grid {
        let grid = parse_grid(g)?;
        if let Some(&hi) = grid.last() {
            check_c_eps("--eps-grid HI", hi)?;
        }
        print_grid(&nu, &grid, delta, a.beta)?;
        if a.explain {
            super::glossary::explain("dpbai bounds --eps-grid", true);
        }
        return Ok(());
    }
    if a.json {
        println!(
            "{}",
            serde_json::to_string(&bounds_json(&nu, a.eps, delta, a.beta)?)?
        );
        if a.explain {
            super::glossary::explain("dpbai bounds (text output)", true);
        }
        return Ok(());
    }
    let Quantities {
        t_kl,
        t_klg,
        t_klb,
        t_tv,
        t_tv2,
        h,
        eps_l,
        eps_g,
        lf,
        lf_bai25,
        switch_lp,
        dpa,
        per_arm,
        private,
    } = Quantities::new(&nu, a.eps, delta, a.beta)?;
    let bern = nu.family() == Family::Bernoulli;
    let sigma = nu.sigma();

    // human-readable table
    let fam = if bern {
        "Bernoulli".to_string()
    } else {
        format!("Gaussian (sigma = {sigma})")
    };
    println!(
        "instance: {fam}, K = {}, best arm {} (mean {}), Delta_min = {}, Delta_max = {}",
        nu.k(),
        nu.best() + 1,
        nu.best_mean(),
        gap_text(nu.delta_min()),
        gap_text(nu.delta_max())
    );
    println!("delta = {}, beta = {}", a.delta, a.beta);
    println!();
    println!(
        "{:<30} {:>18}  {:<44} {:>9}  allocation",
        "characteristic time", "value", "[certified lower, upper]", "rel width"
    );
    let row = |name: &str, c: &Certified| {
        let alloc: Vec<String> = c.allocation.iter().map(|w| format!("{w:.4}")).collect();
        println!(
            "{:<30} {:>18}  [{:.14e}, {:.14e}] {:>9.1e}  ({})",
            name,
            fixed(c.value, 10),
            c.lower,
            c.upper,
            c.rel_width(),
            alloc.join(", ")
        );
    };
    row(
        if bern {
            "T_KL (Bernoulli)"
        } else {
            "T_KL (Gaussian)"
        },
        &t_kl,
    );
    row(&format!("T_KL^G (sigma = {sigma})"), &t_klg);
    row(&format!("T_KL,beta (beta = {})", a.beta), &t_klb);
    row("T_TV", &t_tv);
    row("T_TV2", &t_tv2);
    if let Some(p) = &private {
        row(&format!("T_local (eps = {})", p.eps), &p.local);
        row(&format!("T_global (eps = {})", p.eps), &p.global);
        row(&format!("T_KL(nu_G,eps) (sigma = {sigma})"), &p.kl_g_eps);
        row(
            &format!("T_KL,beta(nu_G,eps) (s. {sigma})"),
            &p.kl_beta_g_eps,
        );
        if let Some(t) = &p.t_eps {
            row(&format!("T*_eps [BAI25] (eps = {})", p.eps), t);
        }
        if let Some(t) = &p.t_eps_beta {
            row(&format!("T*_eps,beta [BAI25] (b. {})", a.beta), t);
        }
    }
    println!();
    println!("H (sigma = {sigma})           {}", fixed(h, 8));
    println!(
        "eps switch local  (c(eps) = T_TV2/T_KL)  {}",
        fixed(eps_l, 8)
    );
    println!(
        "eps switch global (T_TV/T_KL)            {}",
        fixed(eps_g, 8)
    );
    let pa: Vec<String> = per_arm
        .iter()
        .map(|v| v.map_or("-".into(), |e| fixed(e, 6)))
        .collect();
    println!("eps switch per arm (2 Delta_a)           {}", pa.join(", "));
    if let Some(s) = &switch_lp {
        let inf = |v: f64| {
            if v.is_finite() {
                fixed(v, 8)
            } else {
                "none (a mean at 0 or 1: d_eps < kl at every eps)".into()
            }
        };
        println!(
            "eps switch low privacy [BAI25]: exact (T*_eps = T_KL iff eps >= it; C*_eps = C*_KL \
             at the KL-optimal allocation) {}; the poster's sufficient condition {}",
            inf(s.exact),
            inf(s.sufficient)
        );
    }
    if let Some((te, p)) = private
        .as_ref()
        .and_then(|p| p.t_eps.as_ref().map(|t| (t, p)))
    {
        println!(
            "T*_eps / T_global = {} (T*_eps >= T_global >= max(T_KL, T_TV/eps) = {})",
            fixed(te.value / p.global.value, 6),
            fixed(t_kl.value.max(t_tv.value / p.eps), 6)
        );
    }
    println!();
    println!(
        "sample-complexity lower bounds, each with its factor ({FACTOR_SEED} = {lf:.6}, \
         {FACTOR_BAI25} = {lf_bai25:.6}):"
    );
    let lb = |who: &str, time: &str, factor: &str, source: &str, v: f64| {
        println!(
            "  {who:<12} {:<30} {source:<24} {}",
            format!("{time} {factor}"),
            fixed(v, 6)
        )
    };
    lb(
        "non-private",
        "T_KL",
        FACTOR_SEED,
        "[first paper, L. 5]",
        t_kl.value * lf,
    );
    if let Some(p) = &private {
        lb(
            "local",
            "T_local",
            FACTOR_SEED,
            "[first paper, Thm. 10]",
            p.local.value * lf,
        );
        lb(
            "global",
            "T_global",
            FACTOR_SEED,
            "[first paper, Thm. 17]",
            p.global.value * lf,
        );
        if let Some(t) = &p.t_eps {
            lb(
                "global",
                "T*_eps",
                FACTOR_BAI25,
                "[BAI25] poster",
                t.value * lf_bai25,
            );
            println!(
                "  ({FACTOR_BAI25}/{FACTOR_SEED} = {:.4}: where two times are equal the [BAI25] \
                 bound is the smaller number; \"tighter\" compares the times)",
                lf_bai25 / lf
            );
        }
    }
    println!();
    print_upper(&nu, (a.delta, a.beta), t_kl.value, &dpa, private.as_ref());
    if a.explain {
        super::glossary::explain("dpbai bounds (text output)", false);
    }
    Ok(())
}

/// The upper-bound table: each bound with its privacy model, beside the characteristic time of
/// the lower bound that binds its algorithm, then the Thm. 24 branch points.
fn print_upper(
    nu: &Instance,
    (delta, beta): (f64, f64),
    t_kl: f64,
    dpa: &upper::UpperBound,
    p: Option<&Private>,
) {
    let l1d = (1.0 / delta).ln();
    println!(
        "upper bounds U on limsup E[tau]/log(1/delta): {} (the paper's E[tau] <= U log(1/delta) \
         + o(log(1/delta))); U >= T, the time of the lower bound that binds the algorithm:",
        upper::ASYMPTOTIC
    );
    println!(
        "  {:<28} {:<14} {:>16} {:>16}  {:<26} {:>9}",
        "algorithm (result)", "privacy model", "U", "U log(1/delta)", "T of its model", "U/T"
    );
    let time_name = |lt: upper::LowerTime| match lt {
        upper::LowerTime::Kl => "T_KL",
        upper::LowerTime::Local => "T_local",
        upper::LowerTime::Global => "T_global",
        upper::LowerTime::Eps => "T*_eps",
    };
    let line = |name: &str, model: upper::PrivacyModel, lt: upper::LowerTime, u: Option<f64>| {
        let t = lower_value(lt, t_kl, p);
        let tcol = t.map_or(String::new(), |t| {
            format!("{} = {}", time_name(lt), fixed(t, 6))
        });
        match u {
            Some(u) => println!(
                "  {:<28} {:<14} {:>16} {:>16}  {:<26} {:>9}",
                name,
                model.label(),
                fixed(u, 6),
                fixed(u * l1d, 6),
                tcol,
                t.map_or(String::new(), |t| fixed(u / t, 4))
            ),
            None => println!("  {:<28} {:<14} {:>16}", name, model.label(), "refused"),
        }
    };
    let mut notes: Vec<(String, String)> = Vec::new();
    let mut note = |who: &str, n: &Option<String>| {
        if let Some(n) = n {
            if let Some(e) = notes.iter_mut().find(|(_, m)| m == n) {
                e.0.push_str(&format!(", {who}"));
            } else {
                notes.push((who.to_string(), n.clone()));
            }
        }
    };
    if let Some(p) = p {
        let u = &p.ub;
        for (name, b) in [
            ("CTB-TT (Sec. 3.2)", &u.ctb_tt),
            ("CTB-TT IDS (Sec. 3.2)", &u.ctb_tt_ids),
            ("AdaP-TT (Thm. 22)", &u.adap_tt),
        ] {
            line(name, b.model, b.lower_time, b.finite());
            note(name, &b.note);
            if let Some(r) = &b.refused {
                note(name, &Some(format!("refused: {r}")));
            }
        }
        let s = &u.adap_tt_star;
        for (name, v, br) in [
            ("AdaP-TT* (Thm. 24)", s.thm24_main, s.thm24_main_branch),
            ("AdaP-TT* (L. 52)", s.lemma52_app, s.lemma52_app_branch),
            ("AdaP-TT* (proof's max)", s.proof_max, s.proof_max_branch),
        ] {
            line(
                &format!("{name} [{}]", br.name()),
                s.model,
                s.lower_time,
                Some(v),
            );
        }
        note("AdaP-TT*", &s.note);
        let d = &p.dp_tt;
        for (name, b) in [
            ("DP-TT [BAI25] (eta = 1)", &d.dp_tt),
            ("DP-TT [BAI25] 8 T*_eps", &d.dp_tt_8t_eps),
        ] {
            line(name, b.model, b.lower_time, b.finite());
        }
        note("DP-TT", &d.dp_tt.note);
        if let Some(r) = &d.dp_tt.refused {
            note("DP-TT", &Some(format!("refused: {r}")));
        }
    }
    line("DPA-TT (App. H)", dpa.model, dpa.lower_time, dpa.finite());
    note("DPA-TT", &dpa.note);
    println!(
        "  DPA-TT is the non-private batched algorithm (TTUCB with DPA, eps = infinity): its U \
         is not an eps-private bound"
    );
    if p.is_some() {
        println!(
            "  DP-TT ([BAI25] poster): U = 2(1 + eta) T*_eps,beta with eta = {}, beta = {beta}; \
             <= 8 T*_eps at (eta, beta) = (1, 1/2); its lower bound is T*_eps {FACTOR_BAI25}",
            upper::DP_TT_ETA
        );
    }
    for (who, n) in &notes {
        println!("  note ({who}): {n}");
    }
    if let Some(p) = p {
        print_thm24(nu, p);
    }
}

/// Where the Thm. 24 curve changes branch, and why it is not monotone in eps.
fn print_thm24(nu: &Instance, p: &Private) {
    let s = &p.ub.adap_tt_star;
    let kinks: Vec<String> = nu
        .suboptimal_gaps()
        .iter()
        .map(|d| format!("{:.6}", 2.0 * d))
        .collect();
    println!();
    println!(
        "AdaP-TT* (Thm. 24) branches at eps = {}: [g1] = 4 T^G_KL,beta g1(Delta_max/(sigma^2 eps)), \
         [g2] = 2 T_KL,beta(nu_G,eps) g2(y)/sigma^2, y = eps^2 T_KL,beta(nu_G,eps) max{{beta, 1-beta}}/4:",
        p.eps
    );
    println!(
        "  main text and proof: [g1] iff Delta_max < eps/2, i.e. eps > 2 Delta_max = {:.6}; \
         L. 52: [g1] iff eps > Delta_max/3 = {:.6}; the curve jumps there",
        s.switch_eps_main, s.switch_eps_lemma52
    );
    println!(
        "  T_KL,beta(nu_G,eps) has a kink at each eps = 2 Delta_a ({}), where arm a changes privacy \
         regime (Sec. 4.1); the proof's D^(1) jumps there too",
        kinks.join(", ")
    );
    println!(
        "  below 2 Delta_max = {:.6} the [g2] branch grows like 2 T (4y + 2)/sigma^2 once \
         T_KL,beta(nu_G,eps) stops falling, so the curve can rise with eps before it drops at the \
         switch: this is Thm. 24 as printed (its proof's max{{D^(1), 1{{Delta_max >= eps/2}} D^(2)}} \
         jumps the same way), not a property of the algorithm",
        s.switch_eps_main
    );
}

fn print_grid(nu: &Instance, grid: &[f64], delta: crate::params::Delta, beta: f64) -> Result<()> {
    use complexity::curves::{EPS_CURVE_COLUMNS, eps_curves};
    let rows = eps_curves(nu, grid, delta, beta)?;
    let mut w = csv::Writer::from_writer(std::io::stdout().lock());
    w.write_record(EPS_CURVE_COLUMNS)?;
    for row in rows {
        // NaN marks an undefined quantity (relaxed_local of Gaussian arms): an empty cell.
        w.write_record(row.iter().map(|v| {
            if v.is_nan() {
                String::new()
            } else {
                format!("{v:e}")
            }
        }))?;
    }
    w.flush()?;
    Ok(())
}
