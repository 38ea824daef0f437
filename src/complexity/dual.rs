//! The lower side of the solver's certificate (READINGS.md §B.2; the derivation is in the module doc
//! of `solver`, section "Certificate"): for non-negative weights `π_{b,j}` on the linear
//! minorants ("pieces") of every `ψ_b` at the solution,
//! `T >= Σπ / max(Σ π r, max_b Σ_j π_{bj} s_{bj})`; the weights solve that small LP greedily on
//! the concave frontiers of the pieces.

use super::solver::{Piece, rounding_margin};

/// Frontier vertex of one challenger in the LP: which piece is saturated (`None` = origin).
#[derive(Clone, Copy, Debug)]
struct Vertex {
    rr: f64,
    pp: f64,
    piece: Option<usize>,
}

/// Position of one challenger after the greedy: between two vertices, or on a ray.
#[derive(Clone, Copy, Debug)]
enum Pos {
    At(Vertex),
    Between(Vertex, Vertex, f64),
    Ray(Vertex, usize, f64),
}

/// Certified lower bound of `T` from the pieces at the solution (free leader weight).
pub(crate) fn lower_free(pieces: &[Vec<Piece>]) -> f64 {
    // per challenger: concave frontier Π_b(R) of "mass π obtainable with a*-budget R"
    // segments: (slope, dR, b, from, to) or rays
    struct Seg {
        slope: f64,
        dr: f64,
        b: usize,
        from: Vertex,
        to: Option<Vertex>,
        ray: usize,
    }
    let mut segs: Vec<Seg> = Vec::new();
    for (b, ps) in pieces.iter().enumerate() {
        let mut pts: Vec<Vertex> = ps
            .iter()
            .enumerate()
            .filter(|(_, p)| p.s > 0.0 && p.r >= 0.0 && p.r.is_finite() && p.s.is_finite())
            .map(|(j, p)| Vertex {
                rr: p.r / p.s,
                pp: 1.0 / p.s,
                piece: Some(j),
            })
            // a (sub)normal s this small overflows the frontier coordinates: drop the piece
            // (dropping pieces only weakens the bound; it stays valid)
            .filter(|v| v.rr.is_finite() && v.pp.is_finite())
            .collect();
        pts.sort_by(|a, c| a.rr.total_cmp(&c.rr).then(c.pp.total_cmp(&a.pp)));
        // best ray (pieces with s = 0): slope 1/r
        let mut ray: Option<(usize, f64)> = None;
        for (j, p) in ps.iter().enumerate() {
            if p.s == 0.0 && p.r > 0.0 && p.r.is_finite() {
                let sl = 1.0 / p.r;
                if ray.is_none_or(|(_, s0)| sl > s0) {
                    ray = Some((j, sl));
                }
            }
        }
        // upper hull from the origin, increasing part only
        let mut hull: Vec<Vertex> = vec![Vertex {
            rr: 0.0,
            pp: 0.0,
            piece: None,
        }];
        for v in pts {
            if v.pp <= hull.last().map_or(0.0, |h| h.pp) {
                continue; // dominated (more budget, no more mass)
            }
            if v.rr == hull.last().map_or(0.0, |h| h.rr) {
                hull.pop();
                if hull.is_empty() {
                    hull.push(v);
                    continue;
                }
            }
            while hull.len() >= 2 {
                let (a, c) = (hull[hull.len() - 2], hull[hull.len() - 1]);
                // remove c if it lies on or below the segment a -> v
                let cross = (c.rr - a.rr) * (v.pp - a.pp) - (c.pp - a.pp) * (v.rr - a.rr);
                if cross >= 0.0 {
                    hull.pop();
                } else {
                    break;
                }
            }
            hull.push(v);
        }
        // emit segments, switching to the ray once it is steeper
        let mut i = 0;
        // a vertex at R = 0 with positive mass (pieces with r = 0) is free: start there
        let start = hull[0];
        if start.rr == 0.0 && start.pp > 0.0 {
            segs.push(Seg {
                slope: f64::INFINITY,
                dr: 0.0,
                b,
                from: Vertex {
                    rr: 0.0,
                    pp: 0.0,
                    piece: None,
                },
                to: Some(start),
                ray: usize::MAX,
            });
        }
        loop {
            let from = hull[i];
            let next = hull.get(i + 1).copied();
            let seg_slope = next.map(|n| (n.pp - from.pp) / (n.rr - from.rr));
            match (next, seg_slope, ray) {
                (Some(n), Some(sl), r) if r.is_none_or(|(_, rs)| sl > rs) => {
                    segs.push(Seg {
                        slope: sl,
                        dr: n.rr - from.rr,
                        b,
                        from,
                        to: Some(n),
                        ray: usize::MAX,
                    });
                    i += 1;
                }
                (_, _, Some((j, rs))) => {
                    segs.push(Seg {
                        slope: rs,
                        dr: f64::INFINITY,
                        b,
                        from,
                        to: None,
                        ray: j,
                    });
                    break;
                }
                _ => break,
            }
        }
    }
    segs.sort_by(|a, c| c.slope.total_cmp(&a.slope));
    let origin = Vertex {
        rr: 0.0,
        pp: 0.0,
        piece: None,
    };
    let mut pos: Vec<Pos> = vec![Pos::At(origin); pieces.len()];
    let mut budget = 1.0f64;
    for s in &segs {
        if budget <= 0.0 {
            break;
        }
        if s.dr <= budget {
            budget -= s.dr;
            pos[s.b] = Pos::At(s.to.expect("invariant: finite segments have an end"));
        } else {
            let take = budget;
            budget = 0.0;
            pos[s.b] = match s.to {
                Some(t) => Pos::Between(s.from, t, take / s.dr),
                None => Pos::Ray(s.from, s.ray, take),
            };
        }
    }
    // weights π_{b,j}, then the bound Σπ / max(Σπ r, max_b Σ_j π s)
    let mut total = 0.0;
    let mut a_star = 0.0;
    let mut cap_max = 0.0f64;
    for (b, ps) in pieces.iter().enumerate() {
        let mut pis: Vec<(usize, f64)> = Vec::new();
        let add_vertex = |v: Vertex, wgt: f64, pis: &mut Vec<(usize, f64)>| {
            if let Some(j) = v.piece {
                pis.push((j, wgt / ps[j].s));
            }
        };
        match pos[b] {
            Pos::At(v) => add_vertex(v, 1.0, &mut pis),
            Pos::Between(v1, v2, th) => {
                add_vertex(v1, 1.0 - th, &mut pis);
                add_vertex(v2, th, &mut pis);
            }
            Pos::Ray(v, j, extra) => {
                add_vertex(v, 1.0, &mut pis);
                pis.push((j, extra / ps[j].r));
            }
        }
        let mut cap = 0.0;
        for &(j, pi) in &pis {
            total += pi;
            a_star += pi * ps[j].r;
            cap += pi * ps[j].s;
        }
        cap_max = cap_max.max(cap);
    }
    let denom = a_star.max(cap_max);
    if denom.is_nan() || denom <= 0.0 || !total.is_finite() {
        return 0.0;
    }
    total / denom * (1.0 - rounding_margin(pieces.len()))
}

/// Certified lower bound of `T_β` from one piece per challenger (smooth ψ_b):
/// `max_{ω_{a*} = β} min_b ψ_b <= β Σπ_b r_b + (1 − β) max_b π_b s_b` with `π_b ∝ 1/s_b`.
/// A piece `(r, 0)` of any challenger (its cost saturated at the level `r`, reached at a
/// finite weight: `T*_ε` with a mean at 0 or 1) gives `max_ω min_b ψ_b <= β r` on its own; the
/// better of the two bounds is returned.
pub(crate) fn lower_beta(pieces: &[Vec<Piece>], beta: f64) -> f64 {
    // one piece per challenger: the first (the piece at the solution's minimiser)
    let mut inv_sum = 0.0;
    let mut ratio_sum = 0.0;
    let mut smooth = true;
    for ps in pieces {
        let p = ps[0];
        if p.s.is_nan() || p.s <= 0.0 {
            smooth = false;
            break;
        }
        inv_sum += 1.0 / p.s;
        ratio_sum += p.r / p.s;
    }
    // π_b = (1/s_b)/inv_sum: G_b = 1/inv_sum for all b, G_{a*} = ratio_sum/inv_sum
    let from_mix = if smooth {
        let l = (beta * ratio_sum + (1.0 - beta)) / inv_sum;
        1.0 / l
    } else {
        0.0
    };
    // saturated pieces: π concentrated on one challenger
    let saturated = pieces
        .iter()
        .flatten()
        .filter(|p| p.s == 0.0 && p.r > 0.0 && p.r.is_finite())
        .map(|p| beta * p.r)
        .fold(f64::INFINITY, f64::min);
    let from_saturated = if saturated.is_finite() {
        1.0 / saturated
    } else {
        0.0
    };
    from_mix.max(from_saturated) * (1.0 - rounding_margin(pieces.len()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_free_tv_pieces_give_t_tv() {
        // T_TV for gaps (0.1, 0.2): pieces (0, Δ) and (Δ, 0) per challenger; T = 1/0.1 + 1/0.1 + 1/0.2
        let ps = vec![
            vec![Piece { r: 0.0, s: 0.1 }, Piece { r: 0.1, s: 0.0 }],
            vec![Piece { r: 0.0, s: 0.2 }, Piece { r: 0.2, s: 0.0 }],
        ];
        let t = lower_free(&ps);
        assert!((t / 25.0 - 1.0).abs() < 1e-12 && t <= 25.0, "{t}");
    }
}
