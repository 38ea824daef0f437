//! Judging a claim: its check run with its context, its rule applied to the statistics and to
//! the errors its evidence gathering recorded.

use super::context::Context;
use super::declare::{AnyClaim, Checked, id_key};
use super::record::{ClaimResult, ClaimVerdict};
use super::rule;

/// Judges one claim: runs its check and applies its rule to the statistics and to the errors
/// its evidence gathering recorded.
pub fn judge(claim: &dyn AnyClaim, ctx: &mut Context) -> ClaimResult {
    let m = claim.meta();
    ctx.evidence.take();
    crate::fault::take_touched();
    let outcome = claim.run(ctx);
    let areas = crate::fault::take_touched();
    let mut errors = ctx.evidence.take();
    // A fault reached through a path that cannot fail (the engine's forms of the special
    // functions) decides as much as one reached through an entry point that fails.
    if let Some(f) = ctx.fault.filter(|f| areas.contains(f) && errors.is_empty()) {
        errors.push(format!(
            "injected fault: the check called the `{}` area",
            f.as_str()
        ));
    }
    let mut r = ClaimResult {
        id: m.id,
        title: m.title,
        source: m.source,
        paper: m.statement.to_string(),
        rule: rule::rule_text(&m.rule),
        statistics: Default::default(),
        computed: String::new(),
        verdict: ClaimVerdict::NotCheckable,
        note: String::new(),
        areas,
        raw: Vec::new(),
        ran: true,
    };
    match outcome {
        Checked::Skipped => {
            r.ran = false;
            r.computed = "not run: `verify --no-experiments`".into();
            r.note = "not run: `verify --no-experiments`".into();
            return r;
        }
        Checked::Failed(computed) => r.computed = computed,
        Checked::Done { computed, stats } => {
            r.computed = computed;
            r.raw = stats;
        }
    }
    r.statistics = r.raw.iter().map(|&(n, v)| (n.to_string(), v)).collect();
    if let Some(e) = errors.first() {
        r.note = format!(
            "error: {e}{}",
            if errors.len() > 1 {
                format!(" (+{} more)", errors.len() - 1)
            } else {
                String::new()
            }
        );
        return r;
    }
    (r.verdict, r.note) = rule::decide(&m.rule, &r.raw);
    r
}

/// Runs and judges every claim of `claims` with `ctx`'s fault injected, in id order.
pub fn run_claims(claims: &[&'static dyn AnyClaim], ctx: &mut Context) -> Vec<ClaimResult> {
    run_claims_counted(claims, ctx, &mut |_, _| {})
}

/// [`run_claims`], telling `before(done, total)` before each claim is judged (`done` of the
/// `total` claims are judged by then).
pub fn run_claims_counted(
    claims: &[&'static dyn AnyClaim],
    ctx: &mut Context,
    before: &mut dyn FnMut(usize, usize),
) -> Vec<ClaimResult> {
    let _fault = crate::fault::inject(ctx.fault);
    let mut out: Vec<ClaimResult> = claims
        .iter()
        .enumerate()
        .map(|(i, c)| {
            before(i, claims.len());
            judge(*c, ctx)
        })
        .collect();
    out.sort_by_key(|r| id_key(r.id));
    out
}
