//! The cost model of a plan: predicted seconds per run, cell and task (balance by cost, see the
//! parent module), and the default `--mem` from measured footprints.

use crate::bandit::info::PrivacyModel;
use crate::bandit::{AlgoName, DpaEpisodes};
use crate::complexity::{TimeKind, characteristic_time, log_factor};
use crate::experiment::Cell;
use crate::instance::Instance;

/// Mean stopping time (capped runs at the cap) over the sample-complexity lower bound
/// `T* · log(1/(2.4δ))`, the algorithm's [`CostFacts::tau_over_bound`]: the median ratio over
/// the cells of each algorithm in the paper profile's table (paper-profile/REPORT.md, δ = 0.01;
/// TTUCB 0.36 to 1.4 times this value, CTB-TT and DP-SE 0.2 to 4.5 times, AdaP-TT(*) 0.1 to 60
/// times: starvation). The provable thresholds are far from their asymptotic forms at δ = 0.01
/// (F.30).
///
/// [`CostFacts::tau_over_bound`]: crate::bandit::info::CostFacts::tau_over_bound
pub fn tau_over_bound(algo: AlgoName) -> f64 {
    algo.info().cost.tau_over_bound
}

/// Measured cost of one sample on one thread, in ns, the algorithm's
/// [`CostFacts::ns_per_sample`] (`1e9 / samples_per_s` of `dpbai run --algo A --delta 0.01
/// --runs 6 --threads 1 --json` on the 2-core development machine: TTUCB 185 on μ1; CTB-TT 124
/// to 127 on μ1; DP-SE 0.7 to 2.5 and AdaP-TT(*) 8 to 29 on μ1 and μ6 at ε from 0.001 to 0.5,
/// because they skip the samples between two releases at once; DPA-TT 50 on μ4).
///
/// [`CostFacts::ns_per_sample`]: crate::bandit::info::CostFacts::ns_per_sample
pub fn ns_per_sample(algo: AlgoName) -> f64 {
    algo.info().cost.ns_per_sample
}

/// Fixed cost of one cell in one task (algorithm set-up, thread pool, shard file), seconds.
pub const CELL_OVERHEAD_S: f64 = 0.005;

/// Predicted single-thread seconds of one run of `algo` on `nu` (see the module docs).
///
/// # Errors
/// Those of the characteristic time (e.g. an instance outside its domain).
pub fn run_seconds(
    algo: AlgoName,
    nu: &Instance,
    eps: Option<f64>,
    delta: f64,
    max_steps: u64,
    episodes: DpaEpisodes,
) -> crate::Result<f64> {
    let cap = max_steps as f64;
    let info = algo.info();
    if episodes == DpaEpisodes::Global {
        if let Some(ns) = info.cost.global_episodes_ns_per_sample {
            return Ok(cap * ns * 1e-9);
        }
    }
    let samples = {
        let kind = match (info.privacy, eps) {
            (PrivacyModel::Local, Some(eps)) => TimeKind::Local { eps },
            (PrivacyModel::Global, Some(eps)) => TimeKind::Global { eps },
            _ => TimeKind::Kl,
        };
        let t = characteristic_time(kind, nu)?.value;
        (tau_over_bound(algo) * t * log_factor(crate::params::Delta::new(delta)?)).clamp(1.0, cap)
    };
    Ok(samples * ns_per_sample(algo) * 1e-9)
}

/// One cell of the cost model: predicted seconds per run, and its run count.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellCost {
    /// Predicted single-thread seconds of one run.
    pub run_s: f64,
    /// Runs of the cell.
    pub runs: u64,
}

pub(super) fn cell_cost(cell: &Cell) -> anyhow::Result<CellCost> {
    let nu = cell.instance()?;
    Ok(CellCost {
        run_s: run_seconds(
            cell.setting.algo,
            &nu,
            cell.setting.eps_value(),
            cell.setting.delta.get(),
            cell.max_steps,
            cell.setting.dpa_episodes,
        )?,
        runs: cell.runs,
    })
}

/// Predicted single-thread seconds of every task `0..n` when task `i` runs the runs
/// `r ≡ i (mod n)` of every cell (plus [`CELL_OVERHEAD_S`] per cell).
pub fn predicted_task_seconds(cells: &[CellCost], n: u64) -> Vec<f64> {
    (0..n)
        .map(|i| {
            cells
                .iter()
                .map(|c| {
                    let runs = c.runs / n + u64::from(i < c.runs % n);
                    runs as f64 * c.run_s + CELL_OVERHEAD_S
                })
                .sum()
        })
        .collect()
}

/// Loads of `n` tasks when whole cells are assigned greedily, most expensive first, each to the
/// least loaded task (the alternative the module docs compare with).
pub fn whole_cell_loads(cells: &[CellCost], n: u64) -> Vec<f64> {
    let mut costs: Vec<f64> = cells
        .iter()
        .map(|c| c.runs as f64 * c.run_s + CELL_OVERHEAD_S)
        .collect();
    costs.sort_by(|a, b| b.total_cmp(a));
    let mut loads: Vec<f64> = vec![0.0; n as usize];
    for c in costs {
        if let Some(min) = loads.iter_mut().min_by(|a, b| a.total_cmp(b)) {
            *min += c;
        }
    }
    loads
}

/// `(max − min) / mean` of task times (0 for no task or a zero mean).
pub fn spread(times: &[f64]) -> f64 {
    let mean = times.iter().sum::<f64>() / times.len().max(1) as f64;
    let max = times.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min = times.iter().copied().fold(f64::INFINITY, f64::min);
    if times.is_empty() || mean <= 0.0 {
        0.0
    } else {
        (max - min) / mean
    }
}

// ---------------------------------------------------------------------------------------------
// Memory

/// Peak RSS of a `verify --shard` job on one thread, KiB (`/usr/bin/time -v dpbai verify
/// --profile quick --runs 16 --shard 0/2 --threads 1`: 5456 KiB).
pub const MEASURED_BASE_KIB: u64 = 5456;
/// Extra peak RSS per thread, KiB (same command with `--threads 2`: 5908 KiB).
pub const MEASURED_PER_THREAD_KIB: u64 = 452;
/// Peak RSS of the assembly without its per-thread part, KiB (`verify` rendering REPORT.md and
/// figures from a complete cache, `--profile quick --runs 16 --threads 2`: 18064 KiB).
pub const MEASURED_ASSEMBLY_KIB: u64 = 18_064 - 2 * MEASURED_PER_THREAD_KIB;
/// Safety factor on the measured footprints (allocator slack, larger cells of bigger profiles).
pub const MEM_SAFETY: u64 = 4;

/// Default `--mem` in MiB for `cpus` threads: the measured footprint of a task or of the
/// assembly, whichever is larger, times [`MEM_SAFETY`], rounded up to a multiple of 64 MiB.
pub fn default_mem_mb(cpus: u32) -> u64 {
    let task = MEASURED_BASE_KIB + MEASURED_PER_THREAD_KIB * u64::from(cpus);
    let kib = task.max(MEASURED_ASSEMBLY_KIB + MEASURED_PER_THREAD_KIB * u64::from(cpus));
    let mib = (kib * MEM_SAFETY).div_ceil(1024);
    mib.div_ceil(64) * 64
}

#[cfg(test)]
mod tests {
    use super::super::plan::verify_cells;
    use super::*;

    #[test]
    fn remainder_runs_go_to_the_first_tasks() {
        // Cell A: 10 runs of 1 s on 4 tasks -> 3,3,2,2 runs; cell B: 3 runs of 10 s -> 1,1,1,0.
        let cells = [
            CellCost {
                run_s: 1.0,
                runs: 10,
            },
            CellCost {
                run_s: 10.0,
                runs: 3,
            },
        ];
        let t = predicted_task_seconds(&cells, 4);
        let o = 2.0 * CELL_OVERHEAD_S;
        let want = [13.0 + o, 13.0 + o, 12.0 + o, 2.0 + o];
        for (g, w) in t.iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{t:?}");
        }
        // Whole cells: B (30 s) on one task, A (10 s) on another; two tasks idle.
        let w = whole_cell_loads(&cells, 4);
        assert_eq!(w.iter().filter(|&&x| x == 0.0).count(), 2);
        let sum: f64 = w.iter().sum();
        assert!((sum - (40.0 + o)).abs() < 1e-12);
        // Spread of [1, 2, 3]: (3 - 1) / 2.
        assert!((spread(&[1.0, 2.0, 3.0]) - 1.0).abs() < 1e-15);
    }

    #[test]
    fn paper_profile_on_16_tasks_differs_only_by_the_remainder_run() {
        let cells: Vec<CellCost> = verify_cells(&["--profile".into(), "paper".into()])
            .expect("paper cells")
            .iter()
            .map(|c| cell_cost(c).expect("cost"))
            .collect();
        // Every cell a `verify --shard` job runs (grid of both rule sets and the controls).
        let study = crate::claims::dp_bai::evidence::study("paper", None).expect("paper study");
        assert_eq!(cells.len(), study.distinct_cells().len());
        // F.57's direct local points run 20 runs each; the rest of the grid runs 1000 or 10 000.
        let small = study
            .cells
            .iter()
            .filter(|c| study.algorithms[c.algorithm].group == "feasibility")
            .count();
        assert_eq!(cells.iter().filter(|c| c.runs == 20).count(), small);
        let cells: Vec<CellCost> = cells.into_iter().filter(|c| c.runs != 20).collect();
        assert!(cells.iter().all(|c| c.runs == 1000 || c.runs == 10_000));
        let t = predicted_task_seconds(&cells, 16);
        // 1000 = 62 * 16 + 8 runs: tasks 0..8 get 63 runs of every 1000-run cell, tasks 8..16
        // get 62; the 10 000-run TTUCB cells split evenly (625 each).
        let extra: f64 = cells
            .iter()
            .filter(|c| c.runs == 1000)
            .map(|c| c.run_s)
            .sum();
        for i in 0..8 {
            assert!((t[i] - t[0]).abs() < 1e-9 && (t[i + 8] - t[8]).abs() < 1e-9);
        }
        assert!((t[0] - t[8] - extra).abs() < 1e-9 * t[0], "{t:?}");
        // Whole cells per task are far less balanced than slices of every cell.
        assert!(spread(&whole_cell_loads(&cells, 16)) > 10.0 * spread(&t));
    }

    #[test]
    fn default_mem_from_measured_footprints() {
        // 4 x (17160 + 452) KiB = 68.8 MiB -> 128 MiB; 4 x (17160 + 16 x 452) KiB = 95.3 MiB.
        assert_eq!(default_mem_mb(1), 128);
        assert_eq!(default_mem_mb(16), 128);
        assert_eq!(default_mem_mb(64), 192);
    }
}
