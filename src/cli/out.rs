//! A command's output lines on stdout. A reader that stops early (`| head
//! -1`) closes the pipe: the next write fails with a broken pipe, which
//! `println!` turns into a panic. Here it ends the output quietly: the line
//! is dropped, [`closed`] turns true and every later line is dropped too.
//! Long commands look at [`closed`] to stop early (a session starts no
//! further game); records on disk are written elsewhere and stay whole.

use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

static CLOSED: AtomicBool = AtomicBool::new(false);

type Hook = Box<dyn Fn() + Send>;
static ON_CLOSE: Mutex<Vec<Hook>> = Mutex::new(Vec::new());

/// Calls `f` once stdout is found closed (at once if it already is): a
/// session stops starting games.
pub fn on_close(f: impl Fn() + Send + 'static) {
    if closed() {
        f();
    } else {
        ON_CLOSE
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Box::new(f));
    }
}

/// Whether stdout was found closed (or failing): nobody reads the output.
pub fn closed() -> bool {
    CLOSED.load(Ordering::Relaxed)
}

/// Writes one line (and flushes it); false if stdout is closed.
pub fn line(args: fmt::Arguments) -> bool {
    if closed() {
        return false;
    }
    let mut out = std::io::stdout().lock();
    match out.write_fmt(args).and_then(|_| {
        out.write_all(b"\n")?;
        out.flush()
    }) {
        Ok(()) => true,
        Err(e) => {
            drop(out);
            if !CLOSED.swap(true, Ordering::Relaxed) {
                if e.kind() != std::io::ErrorKind::BrokenPipe {
                    tracing::warn!(error = %e, "cannot write to stdout; no more output");
                }
                let hooks =
                    std::mem::take(&mut *ON_CLOSE.lock().unwrap_or_else(|e| e.into_inner()));
                for f in hooks {
                    f();
                }
            }
            false
        }
    }
}

/// `println!` for command output: see the module.
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::out::line(format_args!($($arg)*))
    };
}
pub(crate) use say;
