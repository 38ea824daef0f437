//! The `[[figure]]` tables of a study file, validated: distinct file stems of safe characters,
//! a private model and instances the study declares.

use super::config::{FigureFile, StudyFigure, StudyInstance, bad};
use crate::error::Result;
use crate::params::PrivacyModel;

/// The validated `[[figure]]` tables: distinct stems of safe characters, known instances.
pub(super) fn validate(
    list: &[FigureFile],
    instances: &[StudyInstance],
) -> Result<Vec<StudyFigure>> {
    let mut out: Vec<StudyFigure> = Vec::new();
    for (k, f) in list.iter().enumerate() {
        let p = format!("figure[{k}]");
        if f.stem.is_empty()
            || !f
                .stem
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_".contains(c))
        {
            return Err(bad(
                &format!("{p}.stem"),
                format!("{:?}: must be non-empty letters, digits, '-', '_'", f.stem),
            ));
        }
        if out.iter().any(|g| g.stem == f.stem) {
            return Err(bad(
                &format!("{p}.stem"),
                format!("{:?} is used twice", f.stem),
            ));
        }
        if f.model == PrivacyModel::NonPrivate {
            return Err(bad(
                &format!("{p}.model"),
                "non-private: a figure draws τ against ε, so its model is local or global",
            ));
        }
        let chosen = match &f.instances {
            None => (0..instances.len()).collect(),
            Some(names) => names
                .iter()
                .enumerate()
                .map(|(j, n)| {
                    instances.iter().position(|x| &x.name == n).ok_or_else(|| {
                        bad(
                            &format!("{p}.instances[{j}]"),
                            format!("{n:?} is not an instance of the study"),
                        )
                    })
                })
                .collect::<Result<Vec<usize>>>()?,
        };
        out.push(StudyFigure {
            stem: f.stem.clone(),
            title: f.title.clone(),
            description: f.description.clone().unwrap_or_else(|| f.title.clone()),
            kind: f.kind,
            model: f.model,
            instances: chosen,
            rules: f.rules.unwrap_or_default(),
            statistic: f.statistic,
            y_log: f.y_log.unwrap_or(true),
        });
    }
    Ok(out)
}
