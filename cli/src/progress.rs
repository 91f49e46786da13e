//! The progress line of long runs (`ekl receipt verify-archive`, `ekl conformance`), one rule for
//! both (docs/decisions.md#first-minutes): on stderr, only when stderr is a terminal (and not
//! turned off), redrawn in place at most every 100 ms and erased at the end; it shows the items
//! done, their rate, and when the total is known (a file's size, a number of requests) the share
//! done and the time left. Nothing is written when stderr is not a terminal: logs and pipes get the
//! summary line alone.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A progress line on stderr. Work is counted in items and in units of the known total (bytes
/// of a file, or items again); both may be ticked from several threads.
pub(crate) struct Progress {
    on: bool,
    label: &'static str,
    total: Option<u64>,
    start: Instant,
    last: Mutex<Instant>,
    items: AtomicUsize,
    done: AtomicU64,
}

/// Whether a progress line is drawn: stderr is a terminal and `--no-progress` was not given.
pub(crate) fn wanted(disabled: bool) -> bool {
    !disabled && std::io::stderr().is_terminal()
}

impl Progress {
    /// A progress line prefixed `label` (e.g. `ekl`), drawn only when `on`, over `total` units
    /// when known.
    pub(crate) fn new(on: bool, label: &'static str, total: Option<u64>) -> Progress {
        let now = Instant::now();
        Progress {
            on,
            label,
            total,
            start: now,
            last: Mutex::new(now),
            items: AtomicUsize::new(0),
            done: AtomicU64::new(0),
        }
    }

    /// When the run started.
    pub(crate) fn started(&self) -> Instant {
        self.start
    }

    /// Counts `items` more items and `units` more units of the total, and redraws when due.
    pub(crate) fn tick(&self, items: usize, units: u64) {
        self.items.fetch_add(items, Ordering::Relaxed);
        self.done.fetch_add(units, Ordering::Relaxed);
        if !self.on {
            return;
        }
        let Ok(mut last) = self.last.try_lock() else {
            return;
        };
        if last.elapsed() < Duration::from_millis(100) {
            return;
        }
        *last = Instant::now();
        say_part!(
            "\r\x1b[K{}: {}",
            self.label,
            line(
                self.items.load(Ordering::Relaxed),
                self.done.load(Ordering::Relaxed),
                self.total,
                self.start.elapsed()
            )
        );
    }

    /// Erases the line (before the summary is printed).
    pub(crate) fn clear(&self) {
        if self.on {
            say_part!("\r\x1b[K");
        }
    }
}

/// A duration for people: `45 s`, `3 min 05 s`, `2 h 07 min`.
pub(crate) fn duration_text(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min {:02} s", s / 60, s % 60),
        _ => format!("{} h {:02} min", s / 3600, s / 60 % 60),
    }
}

/// The text of the progress line: with a known total `[####------]  42% 12000 items, 2400/s,
/// 7 s left`, without one `12000 items, 2400/s, 5 s`. The time left is the time so far scaled by
/// the share still to do, shown once some work is done.
pub(crate) fn line(items: usize, done: u64, total: Option<u64>, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = items as f64 / secs.max(1e-3);
    match total {
        Some(total) if total > 0 => {
            let f = (done as f64 / total as f64).min(1.0);
            let full = (f * 30.0).round() as usize;
            let left = if done > 0 && secs > 0.0 {
                format!(
                    ", {} left",
                    duration_text(secs * (total.saturating_sub(done)) as f64 / done as f64)
                )
            } else {
                String::new()
            };
            format!(
                "[{}{}] {:>3.0}% {items} items, {rate:.0}/s{left}",
                "#".repeat(full),
                "-".repeat(30 - full),
                f * 100.0
            )
        }
        _ => format!("{items} items, {rate:.0}/s, {}", duration_text(secs)),
    }
}

/// The progress line of `ekl conformance`: requests answered, with the time left.
pub(crate) struct Requests(pub(crate) Option<Progress>);

impl ekl_conformance::Progress for Requests {
    fn start(&mut self, total: u64) {
        self.0 = Some(Progress::new(wanted(false), "ekl conformance", Some(total)));
    }
    fn answered(&self) {
        if let Some(p) = &self.0 {
            p.tick(1, 1);
        }
    }
    fn finish(&self) {
        if let Some(p) = &self.0 {
            p.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_shows_items_rate_and_time_left_when_the_total_is_known() {
        let l = line(12_000, 250, Some(1000), Duration::from_secs(5));
        assert_eq!(
            l,
            "[########----------------------]  25% 12000 items, 2400/s, 15 s left"
        );
        let l = line(500, 1000, Some(1000), Duration::from_secs(2));
        assert!(l.starts_with("[##############################] 100% 500 items, 250/s, 0 s left"));
        // Nothing done yet: no time left to guess.
        assert!(!line(0, 0, Some(10), Duration::from_millis(200)).contains("left"));
        // No total: items, rate and the time so far.
        assert_eq!(
            line(12_000, 9, None, Duration::from_secs(5)),
            "12000 items, 2400/s, 5 s"
        );
        assert_eq!(
            line(1, 1, Some(0), Duration::from_secs(75)),
            "1 items, 0/s, 1 min 15 s"
        );
    }

    #[test]
    fn durations_for_people() {
        assert_eq!(duration_text(0.4), "0 s");
        assert_eq!(duration_text(59.4), "59 s");
        assert_eq!(duration_text(185.0), "3 min 05 s");
        assert_eq!(duration_text(7620.0), "2 h 07 min");
        assert_eq!(duration_text(-3.0), "0 s");
    }

    #[test]
    fn off_draws_nothing_and_counts_still() {
        let p = Progress::new(false, "ekl", Some(10));
        p.tick(3, 4);
        p.clear();
        assert_eq!(p.items.load(Ordering::Relaxed), 3);
        assert_eq!(p.done.load(Ordering::Relaxed), 4);
    }
}
