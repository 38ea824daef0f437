//! The reading flags of `dpbai run` (`--tie-break`, `--ids-beta`, …), one per entry of
//! [`crate::bandit::READING_TABLE`]: a reading added there is a flag here with no other change.

use crate::bandit::{READING_TABLE, Reading, Setting};
use clap::builder::PossibleValuesParser;
use clap::{Arg, ArgAction, ArgMatches, Command};

/// The reading flags given on the command line, with their values.
#[derive(Debug, Clone, Default)]
pub struct ReadingFlags {
    given: Vec<(&'static Reading, String)>,
}

impl ReadingFlags {
    /// Sets every given reading on `s`.
    ///
    /// # Errors
    /// A value the reading refuses (clap has already checked it against the reading's values;
    /// a number is checked here).
    pub fn apply(&self, s: &mut Setting) -> crate::Result<()> {
        for (r, v) in &self.given {
            (r.set)(s, v)?;
        }
        Ok(())
    }
}

impl clap::FromArgMatches for ReadingFlags {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut given = Vec::new();
        for r in READING_TABLE {
            if r.switch {
                if m.get_flag(r.name) {
                    given.push((r, "true".to_string()));
                }
            } else if let Some(v) = m.get_one::<String>(r.name) {
                given.push((r, v.clone()));
            }
        }
        Ok(ReadingFlags { given })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = Self::from_arg_matches(m)?;
        Ok(())
    }
}

impl clap::Args for ReadingFlags {
    fn augment_args(cmd: Command) -> Command {
        READING_TABLE.iter().fold(cmd, |cmd, r| {
            let arg = Arg::new(r.name).long(r.name).help(r.help);
            cmd.arg(if r.switch {
                arg.action(ArgAction::SetTrue)
            } else if r.number {
                // checked by the reading's `set` (one line naming the value and the range)
                arg.allow_hyphen_values(true).default_value((r.default)())
            } else {
                arg.value_parser(PossibleValuesParser::new((r.values)()))
                    .default_value((r.default)())
            })
        })
    }

    fn augment_args_for_update(cmd: Command) -> Command {
        Self::augment_args(cmd)
    }
}
