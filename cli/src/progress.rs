//! A progress line on stderr for long runs: depth, states so far, and the rate.
//!
//! A thin wrapper over indicatif with the two rules every command wants:
//! - **Quiet when quick.** Nothing is drawn during the first [`DELAY`]: a run that ends sooner
//!   leaves no flicker behind.
//! - **Quiet when not watched.** When stderr is not a terminal (a pipe, a file, CI) nothing is
//!   drawn at all, so logs hold only the messages that matter.
//!
//! The line appears by itself once the delay has passed (a timer thread switches it on), so a
//! run whose updates are far apart, one huge BFS layer or a long write, still shows that it is
//! alive: the spinner turns while the last message stays. Dropping a `Progress` clears the line,
//! so an early return leaves nothing on the screen either.

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a run goes before its progress line appears.
pub const DELAY: Duration = Duration::from_secs(1);

/// A spinner line: `⠋ export: depth 7, 123,456 states, 850,000 states/s`.
pub struct Progress {
    bar: ProgressBar,
    started: Instant,
    /// Whether the run is over; the timer thread shows the line only while it is not. Behind a
    /// lock so that "show" and "finish" cannot interleave and leave a stale line drawn.
    finished: Arc<Mutex<bool>>,
}

impl Progress {
    /// A progress line for the run called `label`, drawn after [`DELAY`] if stderr is a
    /// terminal; the clock starts now.
    pub fn new(label: &str) -> Self {
        Self::with_terminal(label, std::io::stderr().is_terminal())
    }

    fn with_terminal(label: &str, watched: bool) -> Self {
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::hidden());
        bar.set_style(
            ProgressStyle::with_template("{spinner} {prefix}: {msg}")
                .expect("the template is valid"),
        );
        bar.set_prefix(label.to_string());
        bar.set_message("starting");
        let finished = Arc::new(Mutex::new(false));
        if watched {
            let (bar, finished) = (bar.clone(), Arc::clone(&finished));
            std::thread::spawn(move || {
                std::thread::sleep(DELAY);
                let finished = finished.lock().unwrap_or_else(|e| e.into_inner());
                if !*finished {
                    bar.set_draw_target(ProgressDrawTarget::stderr());
                    bar.enable_steady_tick(Duration::from_millis(100));
                }
            });
        }
        Progress {
            bar,
            started: Instant::now(),
            finished,
        }
    }

    /// Reports the depth reached and the states found so far.
    pub fn update(&mut self, depth: u32, states: u64) {
        let seconds = self.started.elapsed().as_secs_f64();
        let rate = if seconds > 0.0 {
            (states as f64 / seconds) as u64
        } else {
            0
        };
        self.bar.set_message(format!(
            "depth {depth}, {} states, {} states/s",
            HumanCount(states),
            HumanCount(rate)
        ));
    }

    /// Replaces the message, for a stage that is not counted in states (`writing json`).
    pub fn note(&mut self, message: &str) {
        self.bar.set_message(message.to_string());
    }

    /// Clears the line (if it was shown); it will not appear after this.
    pub fn finish(self) {
        // Drop does the work; this names the moment in the caller's code.
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        let mut finished = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        *finished = true;
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_quick_run_draws_nothing() {
        let mut progress = Progress::with_terminal("test", true);
        progress.update(1, 10);
        assert!(progress.bar.is_hidden());
        let bar = progress.bar.clone();
        progress.finish();
        // The timer fires after the run ended: it must leave the line hidden.
        std::thread::sleep(DELAY + Duration::from_millis(200));
        assert!(bar.is_hidden());
    }

    #[test]
    fn an_unwatched_run_stays_hidden_after_the_delay() {
        let mut progress = Progress::with_terminal("test", false);
        std::thread::sleep(DELAY + Duration::from_millis(200));
        progress.update(3, 1000);
        progress.note("writing");
        assert!(progress.bar.is_hidden());
    }
}
