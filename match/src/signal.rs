//! Ctrl-C: the first SIGINT asks the match to stop and print its result; a second one exits
//! at once.
//!
//! The standard library has no signal API and the allowed crates include none, so this
//! installs a handler through the C library's `signal`. The handler does only what is
//! async-signal-safe: an atomic store, and `_exit` on the second signal.

use std::sync::Arc;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// The flag the handler sets; shared with the match.
static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();

/// SIGINT's number on Linux (and every Unix).
const SIGINT: i32 = 2;
/// The exit status after a second Ctrl-C: 128 + SIGINT, as shells report it.
const INTERRUPTED_STATUS: i32 = 130;

unsafe extern "C" {
    fn signal(signum: i32, handler: extern "C" fn(i32)) -> usize;
    fn _exit(status: i32) -> !;
}

extern "C" fn on_sigint(_: i32) {
    if let Some(flag) = FLAG.get()
        && flag.swap(true, Ordering::SeqCst)
    {
        // SAFETY: `_exit` is async-signal-safe and takes any status.
        unsafe { _exit(INTERRUPTED_STATUS) }
    }
}

/// Installs the handler; Ctrl-C sets `flag` from then on.
pub fn install(flag: Arc<AtomicBool>) {
    if FLAG.set(flag).is_err() {
        return;
    }
    // SAFETY: `on_sigint` has the C signature `signal` expects and only touches an atomic
    // (set before the handler is installed, never moved) and `_exit`.
    unsafe {
        signal(SIGINT, on_sigint);
    }
}
