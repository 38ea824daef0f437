//! The text of `task.sh`, `assemble.sh` and `submit.sh`: shell quoting, Slurm time and
//! array specs, and the writing of the script files.

use super::plan::{Mode, Plan, task_run_args};
/// Shell quoting of one word and of a command line: the library's (`dpbai experiment` writes
/// the same command lines).
pub(super) use crate::experiment::shell::{shell_word as sh_quote, shell_words as sh_join};
use std::fmt::Write as _;
use std::path::Path;

/// Slurm time from minutes: `H:MM:00`, or `D-HH:MM:00` from one day on.
pub fn slurm_time(minutes: u64) -> String {
    let (d, h, m) = (minutes / 1440, (minutes % 1440) / 60, minutes % 60);
    if d > 0 {
        format!("{d}-{h:02}:{m:02}:00")
    } else {
        format!("{h}:{m:02}:00")
    }
}

/// The array spec of a set of task indices: `0-3,7,9-10`.
pub fn array_spec(tasks: &[u64]) -> String {
    let mut v = tasks.to_vec();
    v.sort_unstable();
    v.dedup();
    let mut parts = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len() && v[j + 1] == v[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            v[i].to_string()
        } else {
            format!("{}-{}", v[i], v[j])
        });
        i = j + 1;
    }
    parts.join(",")
}

/// The task ranges `a..=b` of an array spec (`0-3,7`, optionally with a `%limit` or brackets),
/// unexpanded: the work is linear in the length of the spec, whatever its ranges cover.
pub fn parse_array_ranges(spec: &str) -> Option<Vec<(u64, u64)>> {
    let spec = spec.trim().trim_start_matches('[').trim_end_matches(']');
    let spec = spec.split('%').next()?;
    let mut out = Vec::new();
    for part in spec.split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u64, u64) = (a.parse().ok()?, b.parse().ok()?);
                if b < a {
                    return None;
                }
                out.push((a, b));
            }
            None => {
                let a = part.parse().ok()?;
                out.push((a, a));
            }
        }
    }
    Some(out)
}

/// The task indices below `tasks` of an array spec ([`parse_array_ranges`]), expanded: at most
/// `tasks` per range.
pub fn parse_array_spec(spec: &str, tasks: u64) -> Option<Vec<u64>> {
    Some(
        parse_array_ranges(spec)?
            .into_iter()
            .flat_map(|(a, b)| a..=b.min(tasks.saturating_sub(1)))
            .collect(),
    )
}

/// The text of the three scripts (task.sh, assemble.sh, submit.sh).
pub(super) fn scripts(plan: &Plan, merge_out: Option<&Path>) -> [String; 3] {
    let n = plan.tasks;
    let c = plan.cpus_per_task;
    let bin = sh_quote(&plan.bin);
    let user = sh_join(&plan.args);
    // For the comment lines: a quoted newline would end the comment.
    let user_line = user.replace(['\n', '\r'], " ");
    let what = plan.mode.as_str();
    let header = |name: &str, output: &str| {
        let mut s = format!(
            "#!/bin/bash\n# Written by `dpbai cluster slurm` (dpbai {}): {}.\n\
             #SBATCH --job-name={name}\n#SBATCH --cpus-per-task={c}\n#SBATCH --mem={}\n\
             #SBATCH --time={}\n#SBATCH --output={output}\n",
            plan.version,
            match name {
                "dpbai-tasks" => format!(
                    "task i of the job array runs shard i/{n} of `dpbai {what} {user_line}`"
                ),
                _ => format!("assembles the {n} shards of `dpbai {what} {user_line}`"),
            },
            plan.mem,
            plan.time,
        );
        if let Some(p) = &plan.partition {
            let _ = writeln!(s, "#SBATCH --partition={p}");
        }
        if let Some(p) = &plan.account {
            let _ = writeln!(s, "#SBATCH --account={p}");
        }
        if let Some(p) = &plan.qos {
            let _ = writeln!(s, "#SBATCH --qos={p}");
        }
        for l in &plan.sbatch_extra {
            let _ = writeln!(s, "#SBATCH {l}");
        }
        s
    };
    // The user's set-up commands (e.g. `module load`), after `set -eu`: a failing one fails the job.
    let setup: String = plan.setup.iter().map(|l| format!("{l}\n")).collect();
    let mut task = header("dpbai-tasks", "logs/task-%a.out");
    let _ = writeln!(task, "#SBATCH --array=0-{}", n - 1);
    task.push_str(
        "set -eu\ni=\"${SLURM_ARRAY_TASK_ID:?submit with sbatch --array, see submit.sh}\"\n",
    );
    task.push_str(&setup);
    let mut assemble = header("dpbai-assemble", "logs/assemble.out");
    assemble.push_str("set -eu\n");
    assemble.push_str(&setup);
    match plan.mode {
        Mode::Verify => {
            let _ = writeln!(
                task,
                "exec {bin} verify {user} --shard \"$i/{n}\" --threads {c} --out-dir ."
            );
            let _ = writeln!(
                assemble,
                "exec {bin} verify {user} --threads {c} --out-dir ."
            );
        }
        Mode::Experiment => {
            let _ = writeln!(
                task,
                "exec {bin} experiment {user} --shard \"$i/{n}\" --threads {c} --out-dir ."
            );
            let _ = writeln!(
                assemble,
                "exec {bin} experiment {user} --threads {c} --out-dir ."
            );
        }
        Mode::Run => {
            let targs = sh_join(&task_run_args(&plan.args));
            let _ = writeln!(
                task,
                "exec {bin} run {targs} --shard \"$i/{n}\" --threads {c} --out \"shards/run-$i.json\""
            );
            // `merge` reads every shard file of the folder (its size does not grow with n).
            let out = merge_out.map_or(String::new(), |p| {
                format!(" --out {}", sh_quote(&p.to_string_lossy()))
            });
            let _ = writeln!(
                assemble,
                "{bin} merge shards --json{out} > summary.json.part\nmv summary.json.part summary.json"
            );
        }
    }
    let submit = format!(
        "#!/bin/bash\n\
         # Written by `dpbai cluster slurm` (dpbai {}): submits the job array (task.sh, {n} tasks)\n\
         # and the assembly (assemble.sh) chained to it with --dependency=afterok; appends the job\n\
         # ids to jobs.txt, which `dpbai cluster status` and `dpbai cluster resubmit` read.\n\
         set -eu\n\
         cd \"$(dirname \"$0\")\"\n\
         mkdir -p logs{}\n\
         tasks=$(sbatch --parsable --array=0-{} task.sh)\n\
         tasks=${{tasks%%;*}}\n\
         echo \"tasks $tasks 0-{}\" >> jobs.txt\n\
         assemble=$(sbatch --parsable --dependency=afterok:$tasks --kill-on-invalid-dep=yes assemble.sh)\n\
         assemble=${{assemble%%;*}}\n\
         echo \"assemble $assemble\" >> jobs.txt\n\
         echo \"submitted job array $tasks ({n} tasks) and assembly job $assemble\"\n\
         printf 'follow with: dpbai cluster status --dir %q\\n' \"$PWD\"\n",
        plan.version,
        if plan.mode == Mode::Run {
            " shards"
        } else {
            ""
        },
        n - 1,
        n - 1,
    );
    [task, assemble, submit]
}

pub(super) fn write_file(path: &Path, text: &str, executable: bool) -> anyhow::Result<()> {
    crate::files::write_atomic(path, text.as_bytes())?;
    #[cfg(unix)]
    if executable {
        use std::os::unix::fs::PermissionsExt as _;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
            .map_err(|e| crate::Error::io("make executable", path, e))?;
    }
    #[cfg(not(unix))]
    let _ = executable;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::plan::PLAN_FORMAT;
    use super::*;

    #[test]
    fn a_newline_in_the_arguments_stays_quoted() {
        let plan = Plan {
            format: PLAN_FORMAT.into(),
            version: "0".into(),
            mode: Mode::Verify,
            args: vec!["--expected".into(), "a\ntouch x".into()],
            tasks: 2,
            cpus_per_task: 1,
            time: "10".into(),
            mem: "1G".into(),
            partition: None,
            account: None,
            qos: None,
            sbatch_extra: vec![],
            setup: vec![],
            bin: "my dpbai".into(),
            predicted_task_s: vec![1.0, 1.0],
        };
        for text in scripts(&plan, None).iter().take(2) {
            let lines: Vec<&str> = text.lines().collect();
            assert!(lines[1].starts_with("# Written") && lines[1].contains("'a touch x'"));
            assert!(
                lines[2].starts_with("#SBATCH") || lines[2] == "set -eu",
                "{text}"
            );
        }
        let [task, ..] = scripts(&plan, None);
        assert!(task.contains("exec 'my dpbai' verify --expected 'a\ntouch x' --shard"));
    }

    #[test]
    fn array_specs_round_trip() {
        assert_eq!(array_spec(&[7, 0, 1, 2, 3, 9, 10]), "0-3,7,9-10");
        assert_eq!(array_spec(&[2]), "2");
        assert_eq!(
            parse_array_spec("0-3,7,9-10", 100),
            Some(vec![0, 1, 2, 3, 7, 9, 10])
        );
        assert_eq!(parse_array_spec("[2-4%2]", 100), Some(vec![2, 3, 4]));
        assert_eq!(parse_array_spec("[2-4%2]", 4), Some(vec![2, 3]));
        assert_eq!(
            parse_array_spec("0-18446744073709551615", 2),
            Some(vec![0, 1])
        );
        assert_eq!(parse_array_spec("4-2", 100), None);
        assert_eq!(parse_array_spec("x", 100), None);
    }

    #[test]
    fn slurm_formats() {
        assert_eq!(slurm_time(70), "1:10:00");
        assert_eq!(slurm_time(24 * 60 + 61), "1-01:01:00");
        assert_eq!(sh_quote("a b'c"), r"'a b'\''c'");
        assert_eq!(sh_quote("--runs"), "--runs");
    }
}
