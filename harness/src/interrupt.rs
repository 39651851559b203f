//! SIGINT, SIGTERM (and SIGHUP, a closed terminal) end a command cleanly (issue 28: "signals end the adapter group and leave
//! reports either complete or absent"): every adapter's process group is killed, the temporary
//! files of outputs being written are removed, and every output the command claimed but has not
//! yet written completely is removed, so a report from an earlier run is never left looking like
//! this run's. The command then exits with 128 + the signal's number (130, 143; 129).
//!
//! The signal handler only writes the signal's number to a pipe (`write(2)` is async-signal-safe);
//! a watcher thread reads it and does the work. One lock guards the registry of live adapter
//! process groups, of temporary files and of claimed outputs, and the watcher holds it from the
//! moment it starts cleaning until the process exits: an adapter is spawned and registered under
//! that lock, a temporary file is created and registered under it, and a temporary file is renamed
//! over its target under it, so nothing is started, created or renamed behind the watcher's back.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::Read;
use std::os::fd::IntoRawFd;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Mutex, MutexGuard, Once};

struct State {
    /// A signal arrived: nothing new is spawned, created or renamed.
    interrupted: bool,
    /// Process group ids of live adapters (each adapter leads its own group).
    groups: BTreeSet<i32>,
    /// Temporary files of outputs being written (`files::write`).
    temporaries: BTreeSet<PathBuf>,
    /// Outputs the command will write, as given, not yet written by it.
    unwritten: Vec<PathBuf>,
}

static STATE: Mutex<State> =
    Mutex::new(State { interrupted: false, groups: BTreeSet::new(), temporaries: BTreeSet::new(), unwritten: Vec::new() });

/// The write end of the watcher's pipe, for the handler (-1: not installed).
static WAKE: AtomicI32 = AtomicI32::new(-1);

static INSTALL: Once = Once::new();

fn state() -> MutexGuard<'static, State> {
    // A panic while holding the lock leaves the registry as valid as before it.
    STATE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Spawns `command` (already set to lead a process group of its own) and registers its group,
/// under the registry lock, so an interrupt cannot miss a process started at the same moment.
pub fn spawn_group(command: &mut Command) -> std::io::Result<Child> {
    let mut state = state();
    if state.interrupted {
        return Err(std::io::Error::other("interrupted"));
    }
    let child = command.spawn()?;
    state.groups.insert(child.id() as i32);
    Ok(child)
}

/// Kills the process group `pgid` and forgets it. Called before the leader is reaped, so the id
/// cannot belong to another process yet.
pub fn kill_group(pgid: i32) {
    let mut state = state();
    if let Some(pid) = rustix::process::Pid::from_raw(pgid) {
        let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
    }
    state.groups.remove(&pgid);
}

/// Creates a temporary output file with `create` and registers it for removal on a signal.
pub(crate) fn create_temporary(create: impl FnOnce() -> std::io::Result<(PathBuf, File)>) -> std::io::Result<(PathBuf, File)> {
    let mut state = state();
    if state.interrupted {
        return Err(std::io::Error::other("interrupted"));
    }
    let (path, file) = create()?;
    state.temporaries.insert(path.clone());
    Ok((path, file))
}

/// Removes a temporary file (a failed write, a probe) and forgets it.
pub(crate) fn discard_temporary(path: &Path) {
    let mut state = state();
    let _ = std::fs::remove_file(path);
    state.temporaries.remove(path);
}

/// Renames a complete temporary file over its target; `given` (the output as the user named
/// it) is then written.
pub(crate) fn commit_temporary(temporary: &Path, target: &Path, given: &Path) -> std::io::Result<()> {
    let mut state = state();
    if state.interrupted {
        return Err(std::io::Error::other("interrupted"));
    }
    std::fs::rename(temporary, target)?;
    state.temporaries.remove(temporary);
    state.unwritten.retain(|claimed| claimed != given);
    Ok(())
}

/// Claims the outputs a command will write: on a signal, each not yet written by it is removed
/// (an earlier run's report must not look like this run's).
pub fn claim_outputs(paths: &[&Path]) {
    let mut state = state();
    state.unwritten.extend(paths.iter().map(|p| p.to_path_buf()));
}

/// Installs the handlers for SIGINT, SIGTERM and SIGHUP and starts the watcher (once per process).
pub fn install() {
    INSTALL.call_once(|| {
        let Ok((reader, writer)) = UnixStream::pair() else { return };
        // The handler must never block: a full pipe (a flood of signals) just drops the byte.
        if writer.set_nonblocking(true).is_err() {
            return;
        }
        WAKE.store(writer.into_raw_fd(), Ordering::SeqCst);
        let watcher = std::thread::Builder::new().name("interrupt".into()).spawn(move || watch(reader));
        if watcher.is_err() {
            return;
        }
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            // SAFETY: `on_signal` only loads an atomic and calls write(2), both async-signal-safe;
            // the sigaction struct is zeroed (an empty mask) before its fields are set.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    });
}

extern "C" fn on_signal(signal: libc::c_int) {
    let fd = WAKE.load(Ordering::SeqCst);
    if fd >= 0 {
        let byte = signal as u8;
        // SAFETY: writes one byte from a live stack variable to a descriptor this module owns.
        unsafe {
            libc::write(fd, (&byte as *const u8).cast(), 1);
        }
    }
}

fn watch(mut reader: UnixStream) {
    let mut byte = [0u8; 1];
    loop {
        match reader.read(&mut byte) {
            Ok(1) => break,
            Ok(_) => return,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return,
        }
    }
    let signal = i32::from(byte[0]);
    // Held until the process exits: nothing is spawned, created or renamed after this point.
    let mut state = state();
    state.interrupted = true;
    let groups = state.groups.len();
    for &pgid in &state.groups {
        if let Some(pid) = rustix::process::Pid::from_raw(pgid) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
    for temporary in &state.temporaries {
        let _ = std::fs::remove_file(temporary);
    }
    let mut removed = Vec::new();
    for output in &state.unwritten {
        if std::fs::symlink_metadata(output).is_ok() && std::fs::remove_file(output).is_ok() {
            removed.push(output.display().to_string());
        }
    }
    let name = match signal {
        libc::SIGINT => "SIGINT",
        libc::SIGHUP => "SIGHUP",
        _ => "SIGTERM",
    };
    let mut message = format!("\ninterrupted by {name}: {groups} adapter process group(s) killed; no further report is written");
    if !removed.is_empty() {
        message.push_str(&format!("; removed the outputs of an earlier run: {}", removed.join(", ")));
    }
    // The removed paths are the user's spelling: shown as text (`escape::terminal`).
    eprintln!("{}", crate::escape::terminal(&message));
    std::process::exit(128 + signal);
}
