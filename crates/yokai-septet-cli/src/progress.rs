//! The progress of long runs (`arena`, `ladder`; any command that plays many games):
//! bars with an ETA on stderr, drawn only where stderr is a terminal, so that piped
//! output and `--json` stay exactly the report.
//!
//! Before the games start, [`GameProgress::plan`] says what will be played and puts one
//! estimate of the whole run's duration on the bar, from a calibration; as the games
//! finish, that same estimate is revised in place from the games' own pace (never a
//! second, different figure on a line of its own). A run made of parts (a ladder's
//! pairings) shows one bar for the part in progress under the overall one
//! ([`GameProgress::part`]); parts go at different speeds, so its overall estimate stays
//! the calibrated one.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use indicatif::{HumanDuration, MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How many games a run plays, and where its bars are drawn.
pub struct GameProgress {
    multi: MultiProgress,
    overall: ProgressBar,
    /// When the games started (set again by [`GameProgress::plan`]).
    start: std::sync::Mutex<Instant>,
    done: AtomicU64,
    total: u64,
    /// Games after which the games' own pace revises the estimate: one per worker
    /// thread, so that every thread has finished a game (never, in a run of parts).
    calibrate_at: AtomicU64,
}

fn style(template: &str) -> ProgressStyle {
    ProgressStyle::with_template(template)
        .expect("a valid template")
        .progress_chars("█▉▊▋▌▍▎▏ ")
}

/// `threads` as a pool runs it: 0 means one per core.
pub fn worker_threads(threads: usize) -> usize {
    if threads > 0 {
        threads
    } else {
        yokai_septet::usable_cores()
    }
}

/// A bar of `total` steps of `unit` (`plays`) labelled `what`, with an ETA, for a run that
/// is not made of games (`analyze`); drawn on stderr only if `visible` and stderr is a
/// terminal. Finish it with [`ProgressBar::finish_and_clear`].
pub fn bar(what: &str, total: u64, unit: &str, visible: bool) -> ProgressBar {
    let target = if visible {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    bar.set_style(style(&format!(
        "{{prefix}} {{bar:30}} {{pos}}/{{len}} {unit} [{{elapsed_precise}} < {{eta_precise}}]"
    )));
    bar.set_prefix(what.to_string());
    bar.enable_steady_tick(Duration::from_millis(500));
    bar
}

impl GameProgress {
    /// `total` games labelled `what` (`arena 4p`), on `threads` worker threads (0: one per
    /// core). Drawn on stderr only if `visible` and stderr is a terminal.
    pub fn new(what: &str, total: u64, threads: usize, visible: bool) -> GameProgress {
        let target = if visible {
            ProgressDrawTarget::stderr()
        } else {
            ProgressDrawTarget::hidden()
        };
        let multi = MultiProgress::with_draw_target(target);
        let overall = multi.add(ProgressBar::new(total));
        overall.set_style(style(
            "{prefix} {bar:30} {pos}/{len} games [{elapsed_precise}{msg}]",
        ));
        overall.set_prefix(what.to_string());
        // Slow bots finish a game every few seconds: keep the clock and the ETA moving.
        overall.enable_steady_tick(Duration::from_millis(500));
        GameProgress {
            multi,
            overall,
            start: std::sync::Mutex::new(Instant::now()),
            done: AtomicU64::new(0),
            total,
            calibrate_at: AtomicU64::new((worker_threads(threads) as u64).clamp(1, total.max(1))),
        }
    }

    /// Whether anything is drawn (stderr is a terminal and the bars were asked for).
    pub fn is_visible(&self) -> bool {
        !self.multi.is_hidden()
    }

    /// Prints `line` above the bars (on a terminal only).
    pub fn note(&self, line: &str) {
        let _ = self.multi.println(line);
    }

    /// Says what will be played (`line`: the games, the line-up, the threads, and how
    /// the estimate was found), and puts the estimated duration (`seconds`, from a
    /// calibration, when known) on the bar, before the first game.
    pub fn plan(&self, line: &str, estimate: Option<(f64, String)>) {
        // The clocks start with the games, not with the calibration.
        *self.start.lock().unwrap() = Instant::now();
        self.overall.reset_elapsed();
        self.overall.reset_eta();
        match estimate {
            Some((seconds, how)) => {
                self.note(&format!("{line} ({how})"));
                self.show_estimate(Duration::from_secs_f64(seconds.max(0.0)));
            }
            None => self.note(line),
        }
    }

    /// The run's estimated duration, on the overall bar.
    fn show_estimate(&self, whole: Duration) {
        self.overall
            .set_message(format!(", about {} in all", HumanDuration(whole)));
    }

    /// A bar for one part of the run (`games` games labelled `label`), under the overall
    /// one; finish it with [`ProgressBar::finish_and_clear`].
    pub fn part(&self, label: &str, games: u64) -> ProgressBar {
        // One bar ticking on its own clock: a second one's ticks would be dropped by the
        // shared terminal's rate limit, and its line would stand still. The part's bar
        // ticks; the overall one moves with every game.
        self.overall.disable_steady_tick();
        // Parts (a ladder's pairings) go at different speeds: the first games say nothing
        // of the whole.
        self.calibrate_at.store(u64::MAX, Ordering::Relaxed);
        let bar = self.multi.add(ProgressBar::new(games));
        bar.enable_steady_tick(Duration::from_millis(500));
        bar.set_style(style(
            "  {prefix} {bar:30} {pos}/{len} games [{elapsed_precise} < {eta_precise}]",
        ));
        bar.set_prefix(label.to_string());
        bar
    }

    /// One game finished (from any thread), in the overall bar and in `part`'s.
    pub fn game_done(&self, part: Option<&ProgressBar>) {
        self.overall.inc(1);
        if let Some(p) = part {
            p.inc(1);
        }
        let k = self.done.fetch_add(1, Ordering::Relaxed) + 1;
        // Revised about a hundred times a run, once every thread has finished a game and a
        // second has passed (the first games pay for starting threads and loading bots).
        let step = (self.total / 100).max(1);
        if k >= self.calibrate_at.load(Ordering::Relaxed)
            && k < self.total
            && k.is_multiple_of(step)
        {
            let elapsed = self.start.lock().unwrap().elapsed();
            if elapsed >= Duration::from_secs(1) {
                self.show_estimate(elapsed.mul_f64(self.total as f64 / k as f64));
            }
        }
    }

    /// Clears the bars (the report follows on stdout).
    pub fn finish(&self) {
        self.overall.finish_and_clear();
        let _ = self.multi.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_progress_counts_without_drawing() {
        let p = GameProgress::new("arena 4p", 3, 2, false);
        assert!(!p.is_visible());
        let part = p.part("a vs b", 3);
        for _ in 0..3 {
            p.game_done(Some(&part));
        }
        assert_eq!(part.position(), 3);
        assert_eq!(p.overall.position(), 3);
        p.finish();
    }

    #[test]
    fn the_calibrated_estimate_goes_on_the_bar() {
        let p = GameProgress::new("arena 4p", 10, 1, false);
        p.plan(
            "arena 4p: 10 games",
            Some((75.0, "per decision x 3.0 µs".into())),
        );
        assert_eq!(p.overall.message(), ", about 75 seconds in all");
        let q = GameProgress::new("arena 4p", 10, 1, false);
        q.plan("arena 4p: 10 games", None);
        assert_eq!(q.overall.message(), "");
    }
}
