//! `dpbai cluster status` and `dpbai cluster resubmit`: the state of every task from the
//! outputs in the plan's folder, `jobs.txt` and the Slurm clients (`squeue`, `sacct`), and the
//! resubmission of the tasks that failed or are missing.

use super::plan::{Mode, Plan, check_run_task, plan_cells, read_plan, verify_cache};
use super::scripts::{array_spec, parse_array_ranges, parse_array_spec, sh_join};
use crate::experiment::{Cell, CellSpec, shard_present};
use crate::mc::Shard;
use anyhow::Context as _;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

/// State of one task of the plan.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum TaskState {
    /// Its output files are complete.
    Done,
    /// Slurm runs it.
    Running,
    /// Slurm has it queued.
    Pending,
    /// It ran (log written, or Slurm accounting says so) and its output is incomplete.
    Failed,
    /// It never ran and is not queued.
    Missing,
}

impl TaskState {
    fn as_str(self) -> &'static str {
        match self {
            TaskState::Done => "done",
            TaskState::Running => "running",
            TaskState::Pending => "pending",
            TaskState::Failed => "failed",
            TaskState::Missing => "missing",
        }
    }
}

/// The state of a task from its evidence: complete outputs, its squeue state code (`R`, `PD`,
/// …), its sacct state (`FAILED`, `CANCELLED by 0`, …) and whether its log exists.
pub fn classify(
    done: bool,
    queued: Option<&str>,
    accounted: Option<&str>,
    log_exists: bool,
) -> TaskState {
    if done {
        return TaskState::Done;
    }
    match queued {
        Some("R" | "CG" | "S" | "ST" | "SI" | "SO" | "RS" | "RH") => return TaskState::Running,
        Some(_) => return TaskState::Pending,
        None => {}
    }
    match accounted.and_then(|s| s.split_whitespace().next()) {
        Some("RUNNING" | "COMPLETING" | "SUSPENDED") => TaskState::Running,
        Some("PENDING" | "REQUEUED") => TaskState::Pending,
        // Any end state without complete outputs (FAILED, CANCELLED, TIMEOUT, OUT_OF_MEMORY,
        // NODE_FAIL, COMPLETED with missing files, …).
        Some(_) => TaskState::Failed,
        None if log_exists => TaskState::Failed,
        None => TaskState::Missing,
    }
}

/// Parses `JOBID_TASK STATE` lines (squeue `-o "%i %t"`, or sacct `-n -P -o JobID,State` with
/// `|`) into `(job, task) → state` for the tasks below `tasks`; pending ranges
/// `JOBID_[2-5%4]` give one entry per task. Lines of other jobs, steps (`123_4.batch`) and
/// non-array jobs are skipped.
pub fn parse_job_states(text: &str, tasks: u64) -> BTreeMap<(u64, u64), String> {
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        let (id, state) = match line.split_once('|').or_else(|| line.split_once(' ')) {
            Some((a, b)) => (a.trim(), b.trim()),
            None => continue,
        };
        let Some((job, task)) = id.split_once('_') else {
            continue;
        };
        let Ok(job) = job.parse::<u64>() else {
            continue;
        };
        if task.contains('.') {
            continue;
        }
        let Some(ix) = parse_array_spec(task, tasks) else {
            continue;
        };
        for t in ix {
            out.insert((job, t), state.to_string());
        }
    }
    out
}

/// Largest `jobs.txt` read (bytes): `submit.sh` and `cluster resubmit` append one short line
/// per submission, so 1 MiB is thousands of submissions.
const MAX_JOBS_BYTES: u64 = 1 << 20;

/// The text of `DIR/jobs.txt` (empty when there is none): a regular file of at most
/// [`MAX_JOBS_BYTES`].
fn jobs_text(dir: &Path) -> anyhow::Result<String> {
    let path = dir.join("jobs.txt");
    match crate::files::read_user_text(&path, "jobs.txt of a plan", MAX_JOBS_BYTES) {
        Ok(text) => Ok(text),
        Err(crate::Error::Io { cause, .. }) if cause.kind() == std::io::ErrorKind::NotFound => {
            Ok(String::new())
        }
        Err(e) => Err(crate::cli::errors::usage(e.to_string())),
    }
}

/// The job ids in jobs.txt: the latest array job of every task below `tasks`, and the latest
/// assembly job.
pub(super) fn read_jobs(
    dir: &Path,
    tasks: u64,
) -> anyhow::Result<(BTreeMap<u64, u64>, Option<u64>)> {
    Ok(parse_jobs(&jobs_text(dir)?, tasks))
}

/// Parses jobs.txt (`tasks JOBID SPEC` and `assemble JOBID` lines, later lines win) for the
/// tasks `0..tasks`. The work is linear in the text and `tasks`, whatever ranges the lines
/// name: the lines are read last to first, and a task already given its (latest) job is
/// skipped in `O(1)` amortised (a "next unassigned task" forest with path halving).
pub fn parse_jobs(text: &str, tasks: u64) -> (BTreeMap<u64, u64>, Option<u64>) {
    let n = tasks as usize;
    // next[i]: a task >= i that may be unassigned; `n` means none.
    let mut next: Vec<usize> = (0..=n).collect();
    fn find(next: &mut [usize], mut i: usize) -> usize {
        while next[i] != i {
            next[i] = next[next[i]];
            i = next[i];
        }
        i
    }
    let mut out = BTreeMap::new();
    let mut assemble = None;
    for line in text.lines().rev() {
        let f: Vec<&str> = line.split_whitespace().collect();
        match f.as_slice() {
            ["tasks", id, spec] => {
                let (Ok(id), Some(ranges)) = (id.parse::<u64>(), parse_array_ranges(spec)) else {
                    continue;
                };
                for (a, b) in ranges {
                    if a >= tasks {
                        continue;
                    }
                    let b = b.min(tasks - 1) as usize;
                    let mut i = find(&mut next, a as usize);
                    while i <= b {
                        out.insert(i as u64, id);
                        next[i] = i + 1;
                        i = find(&mut next, i + 1);
                    }
                }
            }
            ["assemble", id] if assemble.is_none() => assemble = id.parse().ok(),
            _ => {}
        }
    }
    (out, assemble)
}

/// Whether every output of task `i` is in `dir` (read through the library's own readers).
/// `cache` is the verify cache folder, `cells` the cells of a `verify` plan, `spec` the
/// specification of a `run` plan: a shard file counts only when it carries exactly that
/// specification (its digest), so that the files of another experiment in the folder are
/// never taken for this plan's. A shard file that is there but does not count is named on
/// stderr with the reason.
pub(super) fn task_done(
    dir: &Path,
    plan: &Plan,
    cache: &Path,
    cells: &[Cell],
    spec: Option<&CellSpec>,
    i: u64,
) -> anyhow::Result<bool> {
    let shard = Shard::new(i, plan.tasks)?;
    Ok(match (plan.mode, spec) {
        (Mode::Verify | Mode::Experiment, _) => {
            cells.iter().all(|c| shard_present(c, cache, shard))
        }
        (Mode::Run, None) => false,
        (Mode::Run, Some(spec)) => {
            let path = dir.join("shards").join(format!("run-{i}.json"));
            if !path.exists() {
                return Ok(false);
            }
            let why = match crate::experiment::shard::ShardFile::read(&path) {
                Ok(f) if f.spec.digest() != spec.digest() => format!(
                    "shard file {}: its specification (cell {}) is not the plan's (cell {}): a \
                     file of another experiment",
                    path.display(),
                    f.spec.digest(),
                    spec.digest()
                ),
                Ok(f) if f.shard != shard => format!(
                    "shard file {}: holds shard {}/{}, the plan's task {i} writes {}/{}",
                    path.display(),
                    f.shard.index,
                    f.shard.count,
                    shard.index,
                    shard.count
                ),
                Ok(f) if !f.records.iter().map(|r| r.run).eq(shard.runs(f.spec.runs)) => format!(
                    "shard file {}: does not hold exactly the runs of shard {i}/{}",
                    path.display(),
                    shard.count
                ),
                Ok(_) => return Ok(true),
                Err(e) => e.to_string(),
            };
            eprintln!("warning: {why}; task {i} is not done");
            false
        }
    })
}

/// The cell digest a `summary.json` names (`None`: not a summary dpbai can read).
fn summary_cell(path: &Path) -> Option<String> {
    let text = crate::files::read_user_text(path, "summary (JSON)", 1 << 20).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    v.get("cell")?.as_str().map(str::to_string)
}

/// Output of a Slurm client, if it is installed and succeeds.
pub(super) fn slurm_query(cmd: &str, args: &[String]) -> Option<String> {
    let out = std::process::Command::new(cmd).args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// States of every task, and a line on the assembly.
/// What `cluster status` finds.
pub(super) struct Progress {
    /// The state of every task.
    states: Vec<TaskState>,
    /// Whether the assembled output (REPORT.md or summary.json) is there.
    assembled: bool,
    /// Whether the latest assembly job is queued.
    assembly_queued: bool,
    /// One line on the assembly.
    line: String,
}

pub(super) fn task_states(dir: &Path, plan: &Plan) -> anyhow::Result<Progress> {
    let cells = plan_cells(dir, plan)?;
    let spec = match plan.mode {
        Mode::Run => Some(check_run_task(&plan.args, plan.tasks)?),
        Mode::Verify | Mode::Experiment => None,
    };
    let cache = match plan.mode {
        Mode::Verify => verify_cache(dir, plan)?,
        Mode::Experiment => dir.join("cache"),
        Mode::Run => dir.join("shards"),
    };
    let (jobs, assemble) = read_jobs(dir, plan.tasks)?;
    let mut ids: Vec<u64> = jobs.values().copied().collect();
    ids.extend(assemble);
    ids.sort_unstable();
    ids.dedup();
    let id_list = ids
        .iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let (queue, acct, assemble_queued) = if ids.is_empty() {
        (BTreeMap::new(), BTreeMap::new(), None)
    } else {
        let q = slurm_query(
            "squeue",
            &["-h", "-r", "-j", &id_list, "-o", "%i %t"].map(String::from),
        );
        let a = slurm_query(
            "sacct",
            &["-n", "-P", "-X", "-j", &id_list, "-o", "JobID,State"].map(String::from),
        );
        let assemble_queued = q.as_deref().and_then(|q| {
            let id = assemble?.to_string();
            q.lines().find_map(|l| {
                let (j, s) = l.trim().split_once(' ')?;
                (j == id).then(|| s.to_string())
            })
        });
        (
            q.as_deref()
                .map(|q| parse_job_states(q, plan.tasks))
                .unwrap_or_default(),
            a.as_deref()
                .map(|a| parse_job_states(a, plan.tasks))
                .unwrap_or_default(),
            assemble_queued,
        )
    };
    let mut states = Vec::new();
    for i in 0..plan.tasks {
        let job = jobs.get(&i).copied();
        let key = job.map(|j| (j, i));
        let q = key.and_then(|k| queue.get(&k)).map(String::as_str);
        let s = key.and_then(|k| acct.get(&k)).map(String::as_str);
        let log = dir.join("logs").join(format!("task-{i}.out")).exists();
        states.push(classify(
            task_done(dir, plan, &cache, &cells, spec.as_ref(), i)?,
            q,
            s,
            log,
        ));
    }
    let output = match plan.mode {
        Mode::Verify => "REPORT.md",
        Mode::Run => "summary.json",
        Mode::Experiment => "SUMMARY.md",
    };
    // A summary.json counts only when it is the plan's experiment's (its cell digest).
    let foreign = match (&spec, dir.join(output).exists()) {
        (Some(spec), true) => summary_cell(&dir.join(output))
            .filter(|c| *c == spec.digest().as_str())
            .is_none(),
        _ => false,
    };
    let assembled = dir.join(output).exists() && !foreign;
    let assembly_queued = assemble_queued.is_some();
    let line = if assembled {
        format!("{output} written")
    } else if foreign {
        format!(
            "{output} is not this plan's (not a summary of cell {}): it is rewritten by the \
             assembly",
            spec.as_ref()
                .map(|s| s.digest().to_string())
                .unwrap_or_default()
        )
    } else {
        match (assemble, assemble_queued) {
            (Some(j), Some(s)) => {
                format!("{output} not yet written; assembly job {j} queued ({s})")
            }
            (Some(j), None) => format!("{output} not written; assembly job {j} not queued"),
            (None, _) => format!("{output} not written; not submitted (bash submit.sh)"),
        }
    };
    Ok(Progress {
        states,
        assembled,
        assembly_queued,
        line,
    })
}

/// `dpbai cluster status`.
pub(super) fn status(dir: &Path) -> anyhow::Result<()> {
    let plan = read_plan(dir)?;
    let Progress {
        states,
        line: assembled,
        ..
    } = task_states(dir, &plan)?;
    let (jobs, _) = read_jobs(dir, plan.tasks)?;
    println!(
        "plan: dpbai {} {} as {} tasks",
        plan.mode.as_str(),
        sh_join(&plan.args),
        plan.tasks
    );
    println!("task  state    job");
    for (i, s) in states.iter().enumerate() {
        let job = jobs
            .get(&(i as u64))
            .map_or("-".to_string(), |j| format!("{j}_{i}"));
        println!("{i:<5} {:<8} {job}", s.as_str());
    }
    let count = |t: TaskState| states.iter().filter(|&&s| s == t).count();
    println!(
        "done {}, running {}, pending {}, failed {}, missing {} of {}; {assembled}",
        count(TaskState::Done),
        count(TaskState::Running),
        count(TaskState::Pending),
        count(TaskState::Failed),
        count(TaskState::Missing),
        plan.tasks
    );
    Ok(())
}

/// `dpbai cluster resubmit`.
pub(super) fn resubmit(dir: &Path, dry_run: bool) -> anyhow::Result<()> {
    let plan = read_plan(dir)?;
    let progress = task_states(dir, &plan)?;
    let states = &progress.states;
    let busy: Vec<u64> = (0..plan.tasks)
        .filter(|&i| matches!(states[i as usize], TaskState::Running | TaskState::Pending))
        .collect();
    if !busy.is_empty() {
        return Err(crate::cli::errors::usage(format!(
            "tasks {} are still queued or running: wait for them (or scancel them) before \
             resubmitting",
            array_spec(&busy)
        )));
    }
    let redo: Vec<u64> = (0..plan.tasks)
        .filter(|&i| matches!(states[i as usize], TaskState::Failed | TaskState::Missing))
        .collect();
    if redo.is_empty() && (progress.assembled || progress.assembly_queued) {
        println!(
            "nothing to resubmit: all {} tasks done; {}",
            plan.tasks, progress.line
        );
        return Ok(());
    }
    let (_, old_assemble) = read_jobs(dir, plan.tasks)?;
    let mut cmds: Vec<Vec<String>> = Vec::new();
    if let Some(j) = old_assemble {
        // Its dependency can no longer be met; it may still wait (without
        // --kill-on-invalid-dep on older Slurm).
        cmds.push(vec!["scancel".into(), j.to_string()]);
    }
    let spec = array_spec(&redo);
    if !redo.is_empty() {
        cmds.push(
            [
                "sbatch",
                "--parsable",
                &format!("--array={spec}"),
                "task.sh",
            ]
            .map(String::from)
            .to_vec(),
        );
    }
    if dry_run {
        for c in &cmds {
            println!("{}", sh_join(c));
        }
        println!(
            "{}",
            sh_join(
                &[
                    "sbatch",
                    "--parsable",
                    if redo.is_empty() {
                        ""
                    } else {
                        "--dependency=afterok:TASKS"
                    },
                    "--kill-on-invalid-dep=yes",
                    "assemble.sh",
                ]
                .iter()
                .filter(|s| !s.is_empty())
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
            )
        );
        return Ok(());
    }
    std::fs::create_dir_all(dir.join("logs"))
        .map_err(|e| crate::Error::io("create", dir.join("logs"), e))?;
    if plan.mode == Mode::Run {
        std::fs::create_dir_all(dir.join("shards"))
            .map_err(|e| crate::Error::io("create", dir.join("shards"), e))?;
    }
    let run = |args: &[String]| -> anyhow::Result<String> {
        let out = std::process::Command::new(&args[0])
            .args(&args[1..])
            .current_dir(dir)
            .output()
            .with_context(|| format!("running {} (is Slurm installed?)", args[0]))?;
        if !out.status.success() && args[0] != "scancel" {
            anyhow::bail!(
                "{} failed: {}",
                sh_join(args),
                String::from_utf8_lossy(&out.stderr).trim()
            );
        }
        Ok(String::from_utf8_lossy(&out.stdout)
            .trim()
            .split(';')
            .next()
            .unwrap_or("")
            .to_string())
    };
    let mut log = String::new();
    let mut dep = Vec::new();
    for c in &cmds {
        let id = run(c)?;
        if c[0] == "sbatch" {
            let _ = writeln!(log, "tasks {id} {spec}");
            dep.push(format!("--dependency=afterok:{id}"));
        }
    }
    let mut asm: Vec<String> = vec!["sbatch".into(), "--parsable".into()];
    asm.extend(dep);
    asm.extend(["--kill-on-invalid-dep=yes".into(), "assemble.sh".into()]);
    let id = run(&asm)?;
    let _ = writeln!(log, "assemble {id}");
    let jobs = dir.join("jobs.txt");
    let mut text = jobs_text(dir)?;
    text.push_str(&log);
    crate::files::write_atomic(&jobs, text.as_bytes())?;
    if redo.is_empty() {
        println!("no task to resubmit; assembly job {id} submitted");
    } else {
        println!(
            "resubmitted tasks {spec} ({} of {}) and the assembly job {id} chained to them",
            redo.len(),
            plan.tasks
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squeue_and_sacct_lines_parse() {
        let q = "41_0 R\n41_[2-3] PD\n42 PD\n41_1.batch R\n";
        let m = parse_job_states(q, 4);
        assert_eq!(m.get(&(41, 0)).map(String::as_str), Some("R"));
        assert_eq!(m.get(&(41, 3)).map(String::as_str), Some("PD"));
        assert!(!m.contains_key(&(41, 1)), "job steps are skipped");
        assert_eq!(m.len(), 3, "the non-array job 42 is skipped");
        let a = parse_job_states("41_2|CANCELLED by 0\n41_0|COMPLETED\n", 4);
        assert_eq!(a.get(&(41, 2)).map(String::as_str), Some("CANCELLED by 0"));
        let (tasks, asm) = parse_jobs(
            "tasks 41 0-3\nassemble 42\ntasks 50 2\nassemble 51\ntasks 60 9-99\n",
            4,
        );
        assert_eq!(tasks.get(&2), Some(&50));
        assert_eq!(tasks.get(&3), Some(&41));
        assert_eq!(asm, Some(51));
    }

    #[test]
    fn task_states_from_evidence() {
        use TaskState::*;
        assert_eq!(classify(true, Some("R"), Some("FAILED"), true), Done);
        assert_eq!(classify(false, Some("R"), None, true), Running);
        assert_eq!(classify(false, Some("PD"), None, false), Pending);
        assert_eq!(classify(false, None, Some("CANCELLED by 0"), false), Failed);
        assert_eq!(classify(false, None, Some("COMPLETED"), true), Failed);
        assert_eq!(classify(false, None, None, true), Failed);
        assert_eq!(classify(false, None, None, false), Missing);
    }
}
