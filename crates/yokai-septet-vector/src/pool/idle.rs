//! How an idle stepping thread (a pool worker, the asynchronous driver, a caller waiting
//! in `recv`) waits for its next piece of work without taking a core that someone else
//! needs.
//!
//! Why spin at all: a parked thread takes tens of microseconds to wake (34–39 µs on the
//! 2-core machine, docs/performance.md), about half the time a step of 1024 envs takes on
//! one thread; a thread that polls starts within a fraction of a microsecond. Why not
//! always: the policy runs between two steps, and numpy's BLAS and torch's intra-op
//! threads want every core then (and themselves spin after each product). A poller that
//! holds a core they need stalls them all; on 2 cores that made 2 stepping threads slower
//! than 1 (issue 46). So by default (`Spin::Adaptive`) a waiter polls only while
//!
//! - the wait is likely to end soon: it spins about twice the recent waits (an EWMA of
//!   the gaps between steps), at most [`MAX_SPIN`], and not at all beyond [`HOT_SPIN`]
//!   when the gaps are longer than that (a policy that long hides a wake-up anyway);
//! - it has a core of its own: the process may use more cores than the threads that
//!   poll and the one that computes between steps (its affinity and CPU quota,
//!   [`super::cores`]); with one core's worth, every poll is time taken from the caller,
//!   so no thread polls;
//! - no core is wanted: every [`CHECK_EVERY`] it asks the kernel (Linux) whether more
//!   threads are runnable on the machine than it has cores, or whether it was itself kept
//!   off a core while runnable (its run delay grew: preempted, or its cgroup throttled);
//!   either means that its polling delays someone, so it blocks at once. Each excess
//!   runnable thread sends one poller to sleep, by rank (the pool's last worker first):
//!   on a many-core machine one stray thread should not park every worker.
//!
//! Between checks it yields its core after each short burst of polls (`HOT_SPIN`
//! aside), so that a thread the scheduler put on the same core runs first.
//! `Spin::Fixed` (the `spin_us` option) is the old expert's setting: poll that long,
//! yielding, whatever the machine does, then block.

use std::time::{Duration, Instant};

use super::cores::{excess_runnable, own_run_delay};

/// The longest an adaptive waiter polls: long enough to cover a small policy's forward
/// pass between two steps, so that the next step finds the threads awake.
pub(crate) const MAX_SPIN: Duration = Duration::from_millis(5);

/// Of any spin, how long a waiter polls without yielding its core or checking the
/// machine: most steps of a tight loop (bots, a tiny policy) come back within this.
pub(crate) const HOT_SPIN: Duration = Duration::from_micros(50);

/// How often an adaptive waiter past `HOT_SPIN` asks whether its core is wanted (each
/// ask reads two small `/proc` files, a few microseconds).
const CHECK_EVERY: Duration = Duration::from_micros(100);

/// How long idle threads poll before they block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spin {
    /// As long as recent gaps between steps suggest, while no other thread needs the core.
    Adaptive,
    /// Exactly this long (yielding the core between polls after `HOT_SPIN`).
    Fixed(Duration),
}

/// One waiting thread's memory of its recent waits.
pub(crate) struct Idle {
    /// EWMA of how long recent waits lasted (spin and block together).
    typical: Duration,
    /// How many excess runnable threads this poller tolerates before it blocks (its
    /// rank among the pollers that give way first).
    rank: usize,
    /// Whether the process's cores leave this poller one of its own (adaptive waiting
    /// polls only then).
    own_core: bool,
}

impl Idle {
    /// A waiter that gives way to the `rank + 1`-th runnable thread beyond the cores;
    /// `own_core`: whether the process's cores leave it one of its own (else adaptive
    /// waiting blocks at once).
    pub(crate) fn new(rank: usize, own_core: bool) -> Idle {
        Idle {
            typical: Duration::ZERO,
            rank,
            own_core,
        }
    }

    /// How long the next wait may poll.
    fn budget(&self, spin: Spin) -> Duration {
        match spin {
            Spin::Fixed(d) => d,
            Spin::Adaptive if !self.own_core => Duration::ZERO,
            // Gaps longer than the longest spin: polling would end in a block anyway.
            Spin::Adaptive if self.typical > MAX_SPIN => HOT_SPIN,
            Spin::Adaptive => (self.typical * 2 + HOT_SPIN).min(MAX_SPIN),
        }
    }

    /// Polls `ready` until it gives a value, or until the spin is over (or, adaptive,
    /// another thread wants this core): `None`, and the caller blocks. Call
    /// [`Idle::waited`] once the wait is over, however it ended.
    pub(crate) fn spin<T>(
        &mut self,
        spin: Spin,
        mut ready: impl FnMut() -> Option<T>,
    ) -> Option<T> {
        let start = Instant::now();
        let budget = self.budget(spin);
        if budget.is_zero() {
            return ready();
        }
        let adaptive = spin == Spin::Adaptive;
        let mut next_check = HOT_SPIN;
        let mut delay0 = None;
        let mut polls = 0u32;
        loop {
            if let Some(v) = ready() {
                return Some(v);
            }
            polls = polls.wrapping_add(1);
            if polls.is_multiple_of(64) {
                let waited = start.elapsed();
                if waited >= budget {
                    return None;
                }
                if waited >= HOT_SPIN {
                    if adaptive && waited >= next_check {
                        next_check = waited + CHECK_EVERY;
                        let delay = own_run_delay();
                        let base = *delay0.get_or_insert(delay);
                        if excess_runnable() > self.rank || delayed(base, delay, waited) {
                            return None;
                        }
                    }
                    std::thread::yield_now();
                    continue;
                }
            }
            std::hint::spin_loop();
        }
    }

    /// Records how long a wait lasted (from its start to its work arriving).
    pub(crate) fn waited(&mut self, d: Duration) {
        // Clamped: one long pause (a learner's update between rollouts) should not stop
        // the spinning for the many short gaps that follow it.
        let d = d.min(MAX_SPIN * 2);
        self.typical = (self.typical * 3 + d) / 4;
    }
}

/// Whether this thread's time waiting for a core (while runnable) grew noticeably since
/// `base`, over a spin of `waited`: the scheduler ran someone else here.
fn delayed(base: Option<Duration>, now: Option<Duration>, waited: Duration) -> bool {
    match (base, now) {
        (Some(b), Some(n)) => n.saturating_sub(b) > (waited / 10).max(Duration::from_micros(20)),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adaptive_spin_follows_recent_gaps_and_stops_for_long_ones() {
        let mut idle = Idle::new(0, true);
        assert_eq!(idle.budget(Spin::Adaptive), HOT_SPIN);
        for _ in 0..20 {
            idle.waited(Duration::from_micros(400));
        }
        let b = idle.budget(Spin::Adaptive);
        assert!(b > Duration::from_micros(800) && b <= MAX_SPIN, "{b:?}");
        for _ in 0..20 {
            idle.waited(Duration::from_millis(50));
        }
        assert_eq!(idle.budget(Spin::Adaptive), HOT_SPIN);
        assert_eq!(
            idle.budget(Spin::Fixed(Duration::from_millis(3))),
            Duration::from_millis(3)
        );
    }

    #[test]
    fn spin_returns_the_value_or_gives_up_after_a_fixed_spin() {
        let mut idle = Idle::new(0, true);
        let mut n = 0;
        // A fixed spin far longer than 1000 polls take even on a loaded machine: an
        // adaptive one (50 µs here) may rightly give up first when the machine is busy.
        assert_eq!(
            idle.spin(Spin::Fixed(Duration::from_secs(10)), || {
                n += 1;
                (n == 1000).then_some(7)
            }),
            Some(7)
        );
        let t = Instant::now();
        assert_eq!(
            idle.spin(Spin::Fixed(Duration::from_micros(300)), || None::<()>),
            None
        );
        assert!(t.elapsed() >= Duration::from_micros(300));
    }

    #[test]
    fn a_run_delay_counts_only_beyond_a_tenth_of_the_spin() {
        let us = Duration::from_micros;
        assert!(!delayed(Some(us(100)), Some(us(110)), us(1000)));
        assert!(delayed(Some(us(100)), Some(us(300)), us(1000)));
        assert!(!delayed(None, Some(us(300)), us(1000)));
    }

    #[test]
    fn a_waiter_without_a_core_of_its_own_never_polls_adaptively() {
        let mut idle = Idle::new(0, false);
        for _ in 0..20 {
            idle.waited(Duration::from_micros(400));
        }
        assert_eq!(idle.budget(Spin::Adaptive), Duration::ZERO);
        // Work that is ready at once is still taken, but none that needs polling for.
        assert_eq!(idle.spin(Spin::Adaptive, || Some(1)), Some(1));
        let mut polls = 0;
        let got = idle.spin(Spin::Adaptive, || {
            polls += 1;
            (polls == 10_000).then_some(())
        });
        assert_eq!(got, None);
        assert_eq!(polls, 1, "one look, no polling");
        // The expert's fixed spin is kept as asked.
        assert_eq!(
            idle.budget(Spin::Fixed(Duration::from_millis(1))),
            Duration::from_millis(1)
        );
    }
}
