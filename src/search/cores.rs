//! How many cores are free right now, so that a search spreads over the
//! second core only when nothing else wants it. Under a full load (another
//! program keeping every core busy) a helper thread made the GOLAD search
//! overrun its deadline by tens of milliseconds; a search alone on its core
//! stops on time.

/// Cores with nothing runnable on them besides the calling thread, read
/// from `/proc/loadavg` (Linux): the cores the process may use less the
/// tasks running now other than the caller. `None` where it cannot be read.
pub fn idle_cores() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/loadavg").ok()?;
    let cores = std::thread::available_parallelism().ok()?.get();
    idle_from_loadavg(&text, cores)
}

/// [`idle_cores`] from the text of `/proc/loadavg` (its fourth field is
/// `running/total`, the caller among the running) and the usable cores.
pub fn idle_from_loadavg(loadavg: &str, cores: usize) -> Option<usize> {
    let running: usize = loadavg
        .split_whitespace()
        .nth(3)?
        .split('/')
        .next()?
        .parse()
        .ok()?;
    // `running` counts the caller (at least 1 while it reads).
    Some(cores.saturating_sub(running.max(1)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caller_takes_one_core_and_every_other_running_task_another() {
        // Alone: one core for us, the other free.
        assert_eq!(idle_from_loadavg("0.10 0.20 0.30 1/88 16115\n", 2), Some(1));
        // Two programs running besides us: nothing free.
        assert_eq!(idle_from_loadavg("2.53 3.08 2.96 3/88 16115", 2), Some(0));
        assert_eq!(idle_from_loadavg("2.53 3.08 2.96 9/88 16115", 2), Some(0));
        assert_eq!(idle_from_loadavg("0 0 0 2/10 1", 8), Some(6));
        // Unreadable text.
        assert_eq!(idle_from_loadavg("0.1 0.2", 2), None);
        assert_eq!(idle_from_loadavg("a b c x/y z", 2), None);
    }
}
