//! The box a proof by dominance covers, its deterministic subdivision, and the criterion a leaf
//! box must meet: shared by the prover ([`super::dominates`]) and the certificate checker
//! ([`super::check_certificate`]), which re-derives every box from the assumptions.

use super::simplify::difference;
use crate::threshold::expr::{Node, enclose};
use crate::threshold::interval::Interval;

pub(crate) use crate::threshold::expr::Bx;

/// A variable a proof may split: slot, name, integer-valued, the letter of the certificate's
/// subdivision string.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Free {
    pub slot: usize,
    pub name: &'static str,
    pub integer: bool,
    pub letter: char,
}

/// Every splittable variable (`eps` and `sigma` are not split: a range of them, the hull of
/// several algorithms' domains, is enclosed whole).
pub(crate) const FREE: [Free; 8] = [
    Free {
        slot: 0,
        name: "delta",
        integer: false,
        letter: 'd',
    },
    Free {
        slot: 1,
        name: "K",
        integer: true,
        letter: 'K',
    },
    Free {
        slot: 4,
        name: "t",
        integer: true,
        letter: 't',
    },
    Free {
        slot: 5,
        name: "na",
        integer: true,
        letter: 'a',
    },
    Free {
        slot: 6,
        name: "nb",
        integer: true,
        letter: 'b',
    },
    Free {
        slot: 7,
        name: "ka",
        integer: true,
        letter: 'p',
    },
    Free {
        slot: 8,
        name: "kb",
        integer: true,
        letter: 'q',
    },
    Free {
        slot: 9,
        name: "gap",
        integer: false,
        letter: 'g',
    },
];

/// The free variable of a subdivision letter.
pub(crate) fn free_of_letter(c: char) -> Option<Free> {
    FREE.iter().copied().find(|f| f.letter == c)
}

/// The domain of a proof (all ends included; see the module docs of [`super`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Domain {
    pub delta: [f64; 2],
    pub k: [usize; 2],
    pub eps: [f64; 2],
    pub sigma: [f64; 2],
    pub max_steps: u64,
    pub gap_max: f64,
}

impl Domain {
    /// Largest phase index `k(M) = ⌊log2 M⌋ + 2`.
    pub fn kmax(&self) -> f64 {
        (self.max_steps as f64).log2().floor() + 2.0
    }
    /// The run constants to fold into the expressions: points only (`NaN` = a range, left free).
    pub fn constants(&self) -> [f64; 4] {
        let point = |lo: f64, hi: f64| if lo == hi { lo } else { f64::NAN };
        [
            point(self.delta[0], self.delta[1]),
            point(self.k[0] as f64, self.k[1] as f64),
            point(self.eps[0], self.eps[1]),
            point(self.sigma[0], self.sigma[1]),
        ]
    }
    /// The whole box.
    pub fn root(&self) -> Bx {
        let m = self.max_steps as f64;
        let mut b = [Interval::point(0.0); 10];
        b[0] = Interval::new(self.delta[0], self.delta[1]);
        b[1] = Interval::new(self.k[0] as f64, self.k[1] as f64);
        b[2] = Interval::new(self.eps[0], self.eps[1]);
        b[3] = Interval::new(self.sigma[0], self.sigma[1]);
        b[4] = Interval::new(2.0, m);
        b[5] = Interval::new(1.0, m);
        b[6] = Interval::new(1.0, m);
        b[7] = Interval::new(1.0, self.kmax());
        b[8] = Interval::new(1.0, self.kmax());
        b[9] = Interval::new(0.0, self.gap_max);
        b
    }
}

/// No point of the box is reachable: every run has pulled the other `K − 2` arms at least once,
/// so `t >= na + nb + K − 2`.
pub(crate) fn unreachable(b: &Bx) -> bool {
    b[5].lo + b[6].lo + b[1].lo - 2.0 > b[4].hi
}

/// Splits the box along `f` (integers at the geometric midpoint into `[lo, mid]`,
/// `[mid + 1, hi]`; `δ` at the geometric midpoint, `gap` at the arithmetic one, or at
/// `max(1, 2 lo)` when unbounded; both into `[lo, mid]`, `[mid, hi]`); `None` when the variable
/// cannot be split further (an integer at one value, a real of relative width below `1e-12`).
pub(crate) fn split(b: &Bx, f: Free) -> Option<(Bx, Bx)> {
    let iv = b[f.slot];
    let (lo, hi) = (iv.lo, iv.hi);
    let (l, r) = if f.integer {
        if hi - lo < 1.0 {
            return None;
        }
        let mid = (lo * hi).sqrt().floor().clamp(lo, hi - 1.0);
        (Interval::new(lo, mid), Interval::new(mid + 1.0, hi))
    } else {
        let mid = if hi == f64::INFINITY {
            if lo > 1e300 {
                return None;
            }
            (2.0 * lo).max(1.0)
        } else {
            if hi - lo <= 1e-12 * hi.abs().max(1e-300) {
                return None;
            }
            if f.slot == 0 && lo > 0.0 && hi / lo > 2.0 {
                (lo * hi).sqrt()
            } else {
                0.5 * (lo + hi)
            }
        };
        if !(mid > lo && mid < hi) {
            return None;
        }
        (Interval::new(lo, mid), Interval::new(mid, hi))
    };
    let (mut bl, mut br) = (*b, *b);
    bl[f.slot] = l;
    br[f.slot] = r;
    Some((bl, br))
}

/// The leaf criterion: a lower bound of `E − P` on the box, valid when `E` and `P` are finite at
/// every point of it; `−∞` when either enclosure is not finite (NaN or ±∞ possible) or nothing
/// better is known.
///
/// # Definition
/// `max(lower(E) − upper(P), lower(difference(E, P)))` with the outward-rounded enclosures of
/// [`crate::threshold::interval`] and the simplified difference of [`super::simplify`].
pub(crate) fn leaf_margin(e: &Node, p: &Node, b: &Bx) -> f64 {
    let ie = enclose(e, b);
    let ip = enclose(p, b);
    if !ie.is_finite() || !ip.is_finite() {
        return f64::NEG_INFINITY;
    }
    let naive = ie.sub(ip);
    let d = difference(e, p, b);
    let mut m = if naive.nan {
        f64::NEG_INFINITY
    } else {
        naive.lo
    };
    if !d.nan && !d.is_empty() && d.lo > m {
        m = d.lo;
    }
    if m.is_nan() { f64::NEG_INFINITY } else { m }
}

/// A node of the split tree.
#[derive(Debug, Clone, Copy)]
pub(super) enum TreeNode {
    Open,
    Leaf(f64),
    Unreachable,
    Split { letter: char, left: u32, right: u32 },
}
