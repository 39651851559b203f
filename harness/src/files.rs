//! The one way in and the one way out for every file the CLI reads or writes (issue 28: "one
//! function opens every input file ... one function writes every output").
//!
//! An input ([`open`], and [`read`] / [`read_string`] / [`read_input`] on top of it) is a regular
//! file, or `-` for standard input where a command takes it. A FIFO, a device, a directory or a
//! socket is refused with an error naming the path and is never read: the file is opened
//! non-blocking, so opening a FIFO cannot hang, and the opened file's own `fstat` must be a
//! regular file, so a path swapped between the check and the open is refused too. At most a
//! bound is read ([`JSON_LIMIT`] for whole-file inputs), so `/dev/zero` or a huge file cannot
//! exhaust memory.
//!
//! The outputs of one command are checked together by [`check_outputs`] before it does any work:
//! each must be creatable, and no two may be the same file, compared by identity (device and
//! inode of an existing file; of the canonical folder plus the name for one not yet written), not
//! by spelling, so a symlink, a hard link or `../d/x` naming the same file is refused. [`write`]
//! writes to a temporary file in the target's folder, syncs it and renames it over the target: a
//! failed write (a full disk) leaves the previous file intact and no partial file. Temporary
//! files and renames go through `interrupt`, so SIGINT or SIGTERM removes the temporary files
//! and no rename happens after it.
//!
//! [`file_name`] turns an untrusted name (a case id) into a file name that stays inside its
//! folder.

use std::ffi::OsString;
use std::fmt;
use std::fs::{File, Metadata, OpenOptions};
use std::io::{Read, Write};
use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use rustix::fs::OFlags;
use sha2::{Digest as _, Sha256};

/// The most a whole-file input (JSON, TOML, a trace) may hold: 256 MiB, far above any vector
/// file, register, report or trace the project writes, far below what would exhaust memory.
pub const JSON_LIMIT: u64 = 256 << 20;

/// The longest file name [`file_name`] returns, in bytes (255 is the usual file system limit;
/// the rest leaves room for an extension).
pub const NAME_LIMIT: usize = 200;

/// An input or output that is refused or failed, with the path as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    pub path: PathBuf,
    /// What is wrong, as a phrase that follows the path ("is a FIFO ...").
    pub reason: String,
    /// The path exists but is no regular file (a FIFO, device, directory or socket): a command
    /// that reads standard input can tell the user to pipe it there instead.
    pub special: bool,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.path.display(), self.reason)
    }
}

impl FileError {
    fn new(path: &Path, reason: impl Into<String>) -> FileError {
        FileError { path: path.to_path_buf(), reason: reason.into(), special: false }
    }
}

/// What a path that is not a regular file is, for the refusal.
fn kind_of(meta: &Metadata) -> &'static str {
    let kind = meta.file_type();
    if kind.is_file() {
        "a regular file"
    } else if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO (named pipe)"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

fn not_regular(path: &Path, meta: &Metadata) -> FileError {
    FileError { special: true, ..FileError::new(path, format!("is {}, not a regular file: refused", kind_of(meta))) }
}

/// Opens an input file: a regular file only (a symlink to one included). This is the only
/// place the CLI opens a file to read.
pub fn open(path: &Path) -> Result<File, FileError> {
    // The path's own type first: a socket cannot be opened at all, and a device is never opened
    // (opening some has effects).
    let meta = std::fs::metadata(path).map_err(|e| FileError::new(path, format!("cannot be read: {e}")))?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    // Non-blocking: a FIFO put in place after the check above makes `open` return at once
    // instead of waiting for a writer; the fstat below then refuses it.
    let file = OpenOptions::new()
        .read(true)
        .custom_flags((OFlags::NONBLOCK | OFlags::NOCTTY).bits() as i32)
        .open(path)
        .map_err(|e| FileError::new(path, format!("cannot be read: {e}")))?;
    let meta = file.metadata().map_err(|e| FileError::new(path, format!("cannot be read: {e}")))?;
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    // A regular file never blocks; clearing the flag keeps later reads ordinary.
    if let Ok(flags) = rustix::fs::fcntl_getfl(&file) {
        let _ = rustix::fs::fcntl_setfl(&file, flags - OFlags::NONBLOCK);
    }
    Ok(file)
}

/// Reads at most `limit` bytes of `reader`; more is an error naming `path`.
/// `expected`: the size the file system reports, if any: read into a buffer of that size at once
/// rather than one that doubles from a few bytes (a read and a copy per doubling).
fn read_bounded(path: &Path, reader: impl Read, limit: u64, expected: Option<u64>) -> Result<Vec<u8>, FileError> {
    // One byte more than expected, so that the end of the file is seen without growing.
    let capacity = expected.map_or(0, |size| size.min(limit).saturating_add(1));
    let mut bytes = Vec::with_capacity(usize::try_from(capacity).unwrap_or(0));
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| FileError::new(path, format!("cannot be read: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(FileError::new(path, format!("is larger than {limit} bytes: refused")));
    }
    Ok(bytes)
}

/// The whole of an input file, at most `limit` bytes.
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, FileError> {
    let file = open(path)?;
    // The size the file system reports refuses a large file without reading it; the bounded
    // read still holds for a file that grows, or one (in /proc) that reports no size.
    let expected = file.metadata().ok().map(|meta| meta.len());
    if expected.is_some_and(|size| size > limit) {
        return Err(FileError::new(path, format!("is larger than {limit} bytes: refused")));
    }
    read_bounded(path, file, limit, expected)
}

fn utf8(path: &Path, bytes: Vec<u8>) -> Result<String, FileError> {
    String::from_utf8(bytes).map_err(|e| FileError::new(path, format!("is not UTF-8 text: {}", e.utf8_error())))
}

/// The whole of an input file as text, at most `limit` bytes.
pub fn read_string(path: &Path, limit: u64) -> Result<String, FileError> {
    utf8(path, read(path, limit)?)
}

/// An input that may be standard input.
pub enum Input {
    Stdin(std::io::Stdin),
    File(File),
}

impl Read for Input {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Input::Stdin(stdin) => stdin.read(buf),
            Input::File(file) => file.read(buf),
        }
    }
}

/// Opens `name` for a command that reads standard input for `-`.
pub fn open_input(name: &str) -> Result<Input, FileError> {
    if name == "-" {
        Ok(Input::Stdin(std::io::stdin()))
    } else {
        open(Path::new(name)).map(Input::File)
    }
}

/// The whole of `name` (`-`: standard input) as text, at most `limit` bytes.
pub fn read_input(name: &str, limit: u64) -> Result<String, FileError> {
    if name == "-" {
        let stdin = Path::new("(standard input)");
        utf8(stdin, read_bounded(stdin, std::io::stdin(), limit, None)?)
    } else {
        read_string(Path::new(name), limit)
    }
}

/// Whether two paths name one existing file (device and inode), whatever their spelling: an
/// output that is one of a command's inputs would destroy it.
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::metadata(a), std::fs::metadata(b)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

/// Which file an output names, independent of its spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Identity {
    /// An existing file: device and inode (a hard link has the same).
    Existing(u64, u64),
    /// A file not yet written: its canonical folder's device and inode, and its name.
    New(u64, u64, OsString),
}

/// Where an output is really written (a symlink followed to its target) and which file that is.
fn resolve(path: &Path) -> Result<(PathBuf, Identity), String> {
    let folder_of = |path: &Path| -> Result<(PathBuf, OsString), String> {
        let name = path.file_name().ok_or_else(|| "does not name a file".to_string())?.to_os_string();
        let parent = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let folder = std::fs::canonicalize(parent).map_err(|_| format!("the directory {} does not exist", parent.display()))?;
        if !folder.is_dir() {
            return Err(format!("{} is not a directory", parent.display()));
        }
        Ok((folder, name))
    };
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let (folder, name) = folder_of(path)?;
            let meta = std::fs::metadata(&folder).map_err(|e| format!("the directory {}: {e}", folder.display()))?;
            let target = folder.join(&name);
            Ok((target, Identity::New(meta.dev(), meta.ino(), name)))
        }
        Err(e) => Err(format!("cannot be examined: {e}")),
        Ok(link) => {
            let meta = match std::fs::metadata(path) {
                Ok(meta) => meta,
                Err(_) if link.file_type().is_symlink() => {
                    return Err("is a symlink to a file that does not exist: refused (give the target's path)".into());
                }
                Err(e) => return Err(format!("cannot be examined: {e}")),
            };
            if meta.is_dir() {
                return Err("is a directory".into());
            }
            if !meta.is_file() {
                return Err(format!("is {}, not a regular file: an output replaces a regular file only", kind_of(&meta)));
            }
            let target = std::fs::canonicalize(path).map_err(|e| format!("cannot be examined: {e}"))?;
            Ok((target, Identity::Existing(meta.dev(), meta.ino())))
        }
    }
}

/// A temporary file next to `target`, created exclusively (never through an existing name).
fn create_temporary(target: &Path) -> std::io::Result<(PathBuf, File)> {
    let folder = target.parent().unwrap_or(Path::new("."));
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // Registered for removal on SIGINT or SIGTERM (`interrupt`), which refuses it after one.
    crate::interrupt::create_temporary(|| {
        let mut attempt = 0u32;
        loop {
            let suffix = if attempt == 0 { String::new() } else { format!(".{attempt}") };
            let temporary = folder.join(format!(".{name}.{}{suffix}.tmp", std::process::id()));
            match OpenOptions::new().write(true).create_new(true).mode(0o666).open(&temporary) {
                Ok(file) => return Ok((temporary, file)),
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
                Err(e) => return Err(e),
            }
        }
    })
}

/// Checks, before a command does any work, that each output (`(flag, path)`) can be written and
/// that no two are the same file. Nothing is left behind.
pub fn check_outputs(outputs: &[(&str, &Path)]) -> Result<(), String> {
    let mut seen: Vec<(Identity, &str, &Path)> = Vec::new();
    for &(flag, path) in outputs {
        let (target, identity) = resolve(path).map_err(|reason| format!("{flag} {}: {reason}", path.display()))?;
        if let Some((_, other_flag, other)) = seen.iter().find(|(known, _, _)| *known == identity) {
            return Err(format!(
                "{flag} {}: the same path is given for two outputs (it is the file of {other_flag} {})",
                path.display(),
                other.display()
            ));
        }
        seen.push((identity.clone(), flag, path));
        if let Identity::Existing(..) = identity {
            OpenOptions::new()
                .append(true)
                .open(&target)
                .map_err(|e| format!("{flag} {}: cannot be written: {e}", path.display()))?;
        }
        let (temporary, file) =
            create_temporary(&target).map_err(|e| format!("{flag} {}: cannot be created: {e}", path.display()))?;
        drop(file);
        crate::interrupt::discard_temporary(&temporary);
    }
    Ok(())
}

/// Checks, before a command does any work, that `dir` is a folder outputs can be written into,
/// or one that can be created (its nearest existing ancestor is a writable folder). Nothing is
/// created.
pub fn check_output_dir(flag: &str, dir: &Path) -> Result<(), String> {
    let mut at = dir.to_path_buf();
    loop {
        match std::fs::metadata(&at) {
            Ok(meta) if meta.is_dir() => {
                let (temporary, file) = create_temporary(&at.join("probe"))
                    .map_err(|e| format!("{flag} {}: cannot be written in {}: {e}", dir.display(), at.display()))?;
                drop(file);
                crate::interrupt::discard_temporary(&temporary);
                return Ok(());
            }
            Ok(meta) => return Err(format!("{flag} {}: {} is {}, not a directory", dir.display(), at.display(), kind_of(&meta))),
            // Missing, or below a file (ENOTDIR): the ancestor that exists decides.
            Err(e) if matches!(e.kind(), std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory) => {
                if std::fs::symlink_metadata(&at).is_ok() {
                    return Err(format!("{flag} {}: {} is a symlink to nothing", dir.display(), at.display()));
                }
                at = match at.parent() {
                    Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
                    _ => PathBuf::from("."),
                };
            }
            Err(e) => return Err(format!("{flag} {}: {}: {e}", dir.display(), at.display())),
        }
    }
}

/// Writes an output file: to a temporary file in its folder, synced, then renamed over `path`
/// (a symlink is followed: its target is replaced).
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    write_many(&[(path, bytes)])
}

/// Writes several output files (the traces of a run) as [`write`] does one: the only place the
/// CLI writes a file. Every file is written to its temporary file first, all are synced at once
/// (one `syncfs` per file system instead of one `fsync` per file: 1233 traces took 10 s with
/// `fsync` each, 2 s without), then each is renamed over its target. A failure before the
/// renames leaves every target as it was.
pub fn write_many(files: &[(&Path, &[u8])]) -> Result<(), FileError> {
    let paths: Vec<&Path> = files.iter().map(|(path, _)| *path).collect();
    write_each(&paths, |i, file| file.write_all(files[i].1))
}

/// [`write_many`] with the content of file `i` produced by `fill(i, file)`; an error of `fill`,
/// of the sync or of a rename removes the temporary files not yet renamed.
fn write_each(paths: &[&Path], mut fill: impl FnMut(usize, &mut File) -> std::io::Result<()>) -> Result<(), FileError> {
    // (temporary, target) of each file written so far.
    let mut pending: Vec<(PathBuf, PathBuf)> = Vec::with_capacity(paths.len());
    // One open file per file system, for its syncfs (thousands of traces stay far below the
    // limit of open files).
    let mut sync_handles: Vec<(u64, usize, File)> = Vec::new();
    let clean = |pending: &[(PathBuf, PathBuf)]| {
        for (temporary, _) in pending {
            crate::interrupt::discard_temporary(temporary);
        }
    };
    let written = |e: std::io::Error, path: &Path| FileError::new(path, format!("cannot be written: {e}"));
    for (i, path) in paths.iter().enumerate() {
        let prepared = resolve(path).map_err(|reason| FileError::new(path, reason)).and_then(|(target, identity)| {
            let (temporary, file) = create_temporary(&target).map_err(|e| written(e, path))?;
            pending.push((temporary, target.clone()));
            Ok((target, identity, file))
        });
        let (target, identity, mut file) = match prepared {
            Ok(prepared) => prepared,
            Err(e) => {
                clean(&pending);
                return Err(e);
            }
        };
        let result = (|| {
            if let Identity::Existing(..) = identity {
                // The replacement keeps the permissions of the file it replaces.
                let mode = std::fs::metadata(&target)?.permissions().mode();
                file.set_permissions(std::fs::Permissions::from_mode(mode))?;
            }
            fill(i, &mut file)
        })();
        if let Err(e) = result {
            clean(&pending);
            return Err(written(e, path));
        }
        // One file is synced by itself; many by one syncfs per file system below.
        if paths.len() == 1 {
            if let Err(e) = file.sync_all() {
                clean(&pending);
                return Err(written(e, path));
            }
        } else {
            let device = file.metadata().map(|m| m.dev()).unwrap_or(0);
            if !sync_handles.iter().any(|(known, _, _)| *known == device) {
                sync_handles.push((device, i, file));
            }
        }
    }
    for (_, i, file) in &sync_handles {
        if let Err(e) = rustix::fs::syncfs(file) {
            clean(&pending);
            return Err(written(e.into(), paths[*i]));
        }
    }
    drop(sync_handles);
    let mut folders: Vec<PathBuf> = Vec::new();
    for (i, (temporary, target)) in pending.iter().enumerate() {
        if let Err(e) = crate::interrupt::commit_temporary(temporary, target, paths[i]) {
            clean(&pending[i..]);
            return Err(written(e, paths[i]));
        }
        if let Some(folder) = target.parent() {
            if !folders.iter().any(|f| f == folder) {
                folders.push(folder.to_path_buf());
            }
        }
    }
    // The renames reach the disk with their folders.
    for folder in folders {
        if let Ok(folder) = File::open(&folder) {
            let _ = folder.sync_all();
        }
    }
    Ok(())
}

/// A file name for an untrusted `name` (a case id) plus `extension`, inside its folder whatever
/// the name holds: every byte but ASCII letters, digits, `-`, `_` and an inner `.` is
/// percent-encoded (so `/`, `\`, NUL and `..` cannot act), and a name longer than [`NAME_LIMIT`]
/// bytes is cut and ends in a hash of the whole name (so two long names stay apart). Distinct
/// names give distinct file names.
pub fn file_name(name: &str, extension: &str) -> String {
    let mut encoded = String::with_capacity(name.len());
    for (i, byte) in name.bytes().enumerate() {
        let plain = byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_' || (byte == b'.' && i > 0 && i + 1 < name.len());
        if plain {
            encoded.push(byte as char);
        } else {
            encoded.push_str(&format!("%{byte:02X}"));
        }
    }
    // A leading or trailing dot is encoded, so no name is `.`, `..` or hidden; the empty name
    // becomes `%`, which no encoding of another name is.
    if encoded.is_empty() {
        encoded.push('%');
    }
    let room = NAME_LIMIT.saturating_sub(extension.len());
    if encoded.len() > room {
        let hash: String = Sha256::digest(name.as_bytes()).iter().take(8).map(|b| format!("{b:02x}")).collect();
        let keep = room.saturating_sub(hash.len() + 1);
        // Cut on a whole escape: `%` and its two digits stay together.
        let mut cut = keep.min(encoded.len());
        while cut > 0 && encoded[..cut].rfind('%').is_some_and(|at| at + 3 > cut) {
            cut -= 1;
        }
        encoded = format!("{}~{hash}", &encoded[..cut]);
    }
    format!("{encoded}{extension}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("harness-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn mkfifo(path: &Path) {
        rustix::fs::mkfifoat(rustix::fs::CWD, path, rustix::fs::Mode::from_raw_mode(0o600)).unwrap();
    }

    #[test]
    fn a_regular_file_is_read_whole() {
        let dir = scratch("regular");
        let path = dir.join("a.json");
        std::fs::write(&path, "{}").unwrap();
        assert_eq!(read_string(&path, JSON_LIMIT).unwrap(), "{}");
        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert_eq!(read_string(&link, JSON_LIMIT).unwrap(), "{}");
    }

    #[test]
    fn a_fifo_is_refused_at_once_naming_the_path() {
        let dir = scratch("fifo");
        let path = dir.join("requirements.json");
        mkfifo(&path);
        let (sender, receiver) = std::sync::mpsc::channel();
        let probe = path.clone();
        std::thread::spawn(move || {
            let _ = sender.send(read(&probe, JSON_LIMIT));
        });
        let error = receiver.recv_timeout(std::time::Duration::from_secs(5)).expect("a FIFO hangs the reader").unwrap_err();
        assert_eq!(error.path, path);
        assert!(error.to_string().contains("requirements.json is a FIFO"), "{error}");
        assert!(error.special);
        // Also through a symlink, and when opened directly.
        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        assert!(open(&link).unwrap_err().reason.contains("FIFO"));
    }

    #[test]
    fn devices_directories_and_sockets_are_refused() {
        let error = read(Path::new("/dev/zero"), JSON_LIMIT).unwrap_err();
        assert!(error.to_string().contains("/dev/zero is a character device, not a regular file"), "{error}");
        let dir = scratch("kinds");
        assert!(read(&dir, JSON_LIMIT).unwrap_err().reason.contains("is a directory"));
        let socket = dir.join("s.json");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        assert!(read(&socket, JSON_LIMIT).unwrap_err().reason.contains("is a socket"));
        let missing = read(&dir.join("missing.json"), JSON_LIMIT).unwrap_err();
        assert!(missing.to_string().contains("missing.json cannot be read"), "{missing}");
        assert!(!missing.special);
    }

    #[test]
    fn more_than_the_bound_is_refused() {
        let dir = scratch("bound");
        let path = dir.join("big.json");
        std::fs::write(&path, vec![b' '; 101]).unwrap();
        let error = read(&path, 100).unwrap_err();
        assert_eq!(error.to_string(), format!("{} is larger than 100 bytes: refused", path.display()));
        assert_eq!(read(&path, 101).unwrap().len(), 101);
        // A file that reports no size (procfs) is still bounded by what is read.
        let error = read_bounded(&path, &b"0123456789"[..], 4, None).unwrap_err();
        assert!(error.reason.contains("larger than 4 bytes"));
    }

    #[test]
    fn the_same_file_under_another_spelling_is_one_output() {
        let dir = scratch("identity");
        std::fs::create_dir_all(dir.join("d")).unwrap();
        let report = dir.join("x.json");
        let other = dir.join("d").join("..").join("x.json");
        // Not yet existing: the canonical folder and the name decide.
        let error = check_outputs(&[("--report", &report), ("--html", &other)]).unwrap_err();
        assert!(error.contains("the same path is given for two outputs"), "{error}");
        let folder_link = dir.join("alias");
        std::os::unix::fs::symlink(&dir, &folder_link).unwrap();
        assert!(check_outputs(&[("--report", &report), ("--junit", &folder_link.join("x.json"))]).is_err());
        // Existing: a symlink and a hard link are the same file.
        std::fs::write(&report, "{}").unwrap();
        let symlink = dir.join("link.json");
        std::os::unix::fs::symlink(&report, &symlink).unwrap();
        let error = check_outputs(&[("--report", &report), ("--junit", &symlink)]).unwrap_err();
        assert!(error.contains("--junit") && error.contains("--report"), "{error}");
        let hard = dir.join("hard.json");
        std::fs::hard_link(&report, &hard).unwrap();
        assert!(check_outputs(&[("--report", &report), ("--markdown", &hard)]).is_err());
        // Different files pass, and the check leaves nothing behind.
        check_outputs(&[("--report", &report), ("--junit", &dir.join("j.xml"))]).unwrap();
        let mut names: Vec<String> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
        names.sort();
        assert_eq!(names, ["alias", "d", "hard.json", "link.json", "x.json"]);
    }

    #[test]
    fn outputs_that_cannot_be_written_are_refused() {
        let dir = scratch("unwritable");
        let missing = dir.join("no-such-dir").join("r.json");
        assert!(check_outputs(&[("--report", &missing)]).unwrap_err().contains("does not exist"));
        assert!(check_outputs(&[("--report", &dir)]).unwrap_err().contains("is a directory"));
        let fifo = dir.join("fifo.json");
        mkfifo(&fifo);
        assert!(check_outputs(&[("--report", &fifo)]).unwrap_err().contains("FIFO"));
        assert!(check_outputs(&[("--report", Path::new("/dev/null"))]).unwrap_err().contains("character device"));
        let dangling = dir.join("dangling.json");
        std::os::unix::fs::symlink(dir.join("nowhere.json"), &dangling).unwrap();
        assert!(check_outputs(&[("--report", &dangling)]).unwrap_err().contains("symlink"));
        let file = dir.join("plain");
        std::fs::write(&file, "").unwrap();
        assert!(check_outputs(&[("--report", &file.join("r.json"))]).is_err());
    }

    #[test]
    fn an_output_folder_is_checked_without_creating_it() {
        let dir = scratch("out-dir");
        check_output_dir("--out", &dir.join("a").join("b")).unwrap();
        assert!(!dir.join("a").exists(), "nothing is created");
        check_output_dir("--out", &dir).unwrap();
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "the probe is removed");
        let file = dir.join("file");
        std::fs::write(&file, "").unwrap();
        let error = check_output_dir("--out", &file.join("rcip")).unwrap_err();
        assert!(error.contains("is a regular file") || error.contains("not a directory"), "{error}");
        assert!(check_output_dir("--out", &file).is_err());
        assert!(check_output_dir("--out", Path::new("/dev/null/x")).is_err());
    }

    #[test]
    fn a_failed_write_leaves_the_previous_file_and_no_temporary() {
        let dir = scratch("failed-write");
        let path = dir.join("report.json");
        std::fs::write(&path, "previous").unwrap();
        // A full disk: part of the text is written, then the write fails.
        let error = write_each(&[&path], |_, file| {
            file.write_all(b"{\"partial\":")?;
            Err(std::io::Error::other("No space left on device"))
        })
        .unwrap_err();
        assert!(error.to_string().contains("report.json cannot be written: No space left"), "{error}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "previous");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "the temporary file is removed");
        // A missing folder: nothing is created.
        assert!(write(&dir.join("gone").join("r.json"), b"x").is_err());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        // Several files: the third fails, and none of them is replaced or created.
        let (a, b, c) = (dir.join("a.jsonl"), dir.join("b.jsonl"), dir.join("c.jsonl"));
        std::fs::write(&a, "old a").unwrap();
        let error = write_each(&[&a, &b, &c], |i, file| {
            file.write_all(b"new")?;
            if i == 2 { Err(std::io::Error::other("No space left on device")) } else { Ok(()) }
        })
        .unwrap_err();
        assert_eq!(error.path, c);
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        assert!(!b.exists());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2, "no temporary file is left");
        // A path refused midway (a directory) also leaves the earlier ones untouched.
        assert!(write_many(&[(&a, b"new"), (&dir, b"x")]).is_err());
        assert_eq!(std::fs::read_to_string(&a).unwrap(), "old a");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
        write_many(&[(&a, b"new a"), (&b, b"new b")]).unwrap();
        assert_eq!((std::fs::read_to_string(&a).unwrap(), std::fs::read_to_string(&b).unwrap()), ("new a".into(), "new b".into()));
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
    }

    #[test]
    fn a_write_replaces_the_file_whole_and_follows_a_symlink() {
        let dir = scratch("write");
        let path = dir.join("report.json");
        std::fs::write(&path, "a much longer previous content").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o640)).unwrap();
        write(&path, b"new").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new");
        assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o640);
        let link = dir.join("link.json");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        write(&link, b"through the link").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "through the link");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);
    }

    #[test]
    fn an_untrusted_name_becomes_a_file_name_inside_the_folder() {
        assert_eq!(file_name("rcip.policy-race.001", ".jsonl"), "rcip.policy-race.001.jsonl");
        for hostile in ["../../escape", "a/b", "a\\b", "..", ".", "", "a\0b", ".hidden", "x/../../y"] {
            let name = file_name(hostile, ".jsonl");
            assert!(!name.contains('/') && !name.contains('\\') && !name.contains('\0'), "{hostile:?} -> {name}");
            assert!(!name.starts_with('.'), "{hostile:?} -> {name}");
            assert_eq!(Path::new(&name).components().count(), 1, "{hostile:?} -> {name}");
        }
        assert_eq!(file_name("../x", ""), "%2E.%2Fx");
        let long = "rui.x.".to_string() + &"a".repeat(300);
        let longer = long.clone() + "b";
        let (a, b) = (file_name(&long, ".jsonl"), file_name(&longer, ".jsonl"));
        assert!(a.len() <= NAME_LIMIT && b.len() <= NAME_LIMIT, "{} {}", a.len(), b.len());
        assert_ne!(a, b, "two long names stay apart");
        let escapes = "/".repeat(300);
        let cut = file_name(&escapes, ".jsonl");
        assert!(cut.len() <= NAME_LIMIT && cut.contains('~'), "{cut}");
        assert!(cut.split('~').next().unwrap().len().is_multiple_of(3), "an escape is never cut: {cut}");
    }
}
