//! POSIX shell words, for the `dpbai run` command lines that reproduce a cell (results.csv's
//! `run_command`, a summary's `options`) and the scripts of `dpbai cluster`.

/// `args` as one POSIX shell command line of [`shell_word`]s.
pub fn shell_words(args: &[String]) -> String {
    args.iter()
        .map(|a| shell_word(a))
        .collect::<Vec<_>>()
        .join(" ")
}

/// One POSIX shell word: an argument made only of characters the shell takes literally is
/// written as it is, any other is single-quoted (a `'` inside as `'\''`).
///
/// # Example
/// ```
/// use dpbai::experiment::shell::shell_word;
/// assert_eq!(shell_word("0.9,0.5"), "0.9,0.5");
/// assert_eq!(shell_word("log(1/delta)"), "'log(1/delta)'");
/// assert_eq!(shell_word("it's"), r"'it'\''s'");
/// ```
pub fn shell_word(a: &str) -> String {
    let plain = !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.,:/=+-@%".contains(c));
    if plain {
        a.to_string()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}
