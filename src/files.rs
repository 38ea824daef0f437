//! Files in and out. Writing output files so that a reader, or another run writing the same
//! folder, never sees a partial file: [`write_atomic`] (a temporary file in the same folder,
//! then a rename). Reading the files a user names so that no input can block or exhaust memory:
//! [`read_user_file`] (regular files within a size cap only), the one reader of every study,
//! battery, certificate, plan, jobs.txt, shard and cache file.

use crate::error::{Error, Result};
use std::path::{Path, PathBuf};

/// A fresh temporary path beside `path` (same folder, a hidden name `.<pid>-<n>-<name>` that keeps
/// the extension, which some writers read the format from), for a file to be renamed onto `path`.
pub fn temp_beside(path: &Path) -> PathBuf {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    path.with_file_name(format!(
        ".{}-{}-{name}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Creates the parent folder of `path`, if it has one.
///
/// # Errors
/// [`Error::Io`] naming the folder.
pub fn create_parent(path: &Path) -> Result<()> {
    match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => {
            std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))
        }
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path` through a temporary file of the same folder and a rename, creating
/// the folder if needed: a reader sees the old file or the new one, never a partial one, and of
/// two runs writing the same file one wins whole.
///
/// # Errors
/// [`Error::Io`] naming the path.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    create_parent(path)?;
    let tmp = temp_beside(path);
    std::fs::write(&tmp, bytes).map_err(|e| Error::io("write", &tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io("write", path, e)
    })
}

/// Reads a file the user named (a study, a battery, a certificate, a plan, a shard or cache
/// file, `jobs.txt`, …): only a regular file (symbolic links followed), of at most `max_bytes`
/// bytes. A named pipe, a device such as `/dev/zero` or a folder is refused before it is opened
/// (opening a pipe would block, reading `/dev/zero` would never end), and a file that grows past
/// the limit while it is read is refused too: the work and memory of every reader are bounded.
/// `kind` names what was expected (`"shard file"`), for the message.
///
/// # Errors
/// [`Error::Io`] when the file cannot be read (missing, no permission); [`Error::Parse`]
/// naming the path for a file that is not a regular file or is larger than `max_bytes`.
pub fn read_user_file(path: &Path, kind: &str, max_bytes: u64) -> Result<Vec<u8>> {
    use std::io::Read;
    let not_regular = || {
        Error::Parse(format!(
            "{}: not a regular file (a pipe, a device or a folder): give a {kind}",
            path.display()
        ))
    };
    let too_big = |n: u64| {
        Error::Parse(format!(
            "{}: {n} bytes or more: a {kind} has at most {max_bytes} bytes",
            path.display()
        ))
    };
    let meta = std::fs::metadata(path).map_err(|e| Error::io("read", path, e))?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    if meta.len() > max_bytes {
        return Err(too_big(meta.len()));
    }
    let file = std::fs::File::open(path).map_err(|e| Error::io("read", path, e))?;
    // The path may have been replaced between the two looks: check what was opened.
    if !file
        .metadata()
        .map_err(|e| Error::io("read", path, e))?
        .is_file()
    {
        return Err(not_regular());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Error::io("read", path, e))?;
    if bytes.len() as u64 > max_bytes {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// [`read_user_file`] of a text file: its bytes as UTF-8.
///
/// # Errors
/// As [`read_user_file`]; [`Error::Parse`] naming the path for bytes that are not UTF-8.
pub fn read_user_text(path: &Path, kind: &str, max_bytes: u64) -> Result<String> {
    String::from_utf8(read_user_file(path, kind, max_bytes)?)
        .map_err(|_| Error::Parse(format!("{}: not UTF-8 text: give a {kind}", path.display())))
}

/// Whether `path` is a regular file (symbolic links followed): what a folder scan reads, so
/// that a named pipe or a device among the files is skipped rather than opened.
pub fn is_regular(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_regular_files_within_the_limit_are_read() {
        let dir = std::env::temp_dir().join(format!("dpbai-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let f = dir.join("a.txt");
        std::fs::write(&f, "12345").expect("write");
        assert_eq!(read_user_text(&f, "test file", 5).expect("fits"), "12345");
        let e = read_user_text(&f, "test file", 4).expect_err("too big");
        assert!(e.to_string().contains("at most 4 bytes"), "{e}");
        let e = read_user_text(&dir, "test file", 4).expect_err("a folder");
        assert!(e.to_string().contains("not a regular file"), "{e}");
        #[cfg(unix)]
        {
            let e = read_user_file(Path::new("/dev/zero"), "test file", 4).expect_err("device");
            assert!(e.to_string().contains("not a regular file"), "{e}");
        }
        assert!(matches!(
            read_user_file(&dir.join("missing"), "test file", 4),
            Err(Error::Io { .. })
        ));
        std::fs::write(&f, [0xff, 0xfe]).expect("write");
        assert!(read_user_text(&f, "test file", 4).is_err());
        assert!(is_regular(&f) && !is_regular(&dir));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
