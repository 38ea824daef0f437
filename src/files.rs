//! Writing output files so that a reader, or another run writing the same folder, never sees a
//! partial file: [`write_atomic`] (a temporary file in the same folder, then a rename).

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
