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
//! - no core is wanted: every [`CHECK_EVERY`] it asks the kernel (Linux) whether more
//!   threads are runnable than there are cores, or whether it was itself kept off a core
//!   while runnable (its run delay grew); either means that its polling delays someone,
//!   so it blocks at once. Each excess runnable thread sends one poller to sleep, by rank
//!   (the pool's last worker first): on a many-core machine one stray thread should not
//!   park every worker.
//!
//! Between checks it yields its core after each short burst of polls (`HOT_SPIN`
//! aside), so that a thread the scheduler put on the same core runs first.
//! `Spin::Fixed` (the `spin_us` option) is the old expert's setting: poll that long,
//! yielding, whatever the machine does, then block.

use std::time::{Duration, Instant};

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
}

impl Idle {
    /// A waiter that gives way to the `rank + 1`-th runnable thread beyond the cores.
    pub(crate) fn new(rank: usize) -> Idle {
        Idle {
            typical: Duration::ZERO,
            rank,
        }
    }

    /// How long the next wait may poll.
    fn budget(&self, spin: Spin) -> Duration {
        match spin {
            Spin::Fixed(d) => d,
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

/// How many more threads are runnable on the machine than it has cores (this one
/// included): that many runnable threads wait for a core a poller may hold.
#[cfg(target_os = "linux")]
fn excess_runnable() -> usize {
    use std::sync::OnceLock;
    static CPUS: OnceLock<usize> = OnceLock::new();
    let cpus = *CPUS.get_or_init(|| {
        // Every core of the machine, not this process's share: the count of runnable
        // threads below is the machine's too.
        std::fs::read_to_string("/proc/stat")
            .map(|s| {
                s.lines()
                    .filter(|l| {
                        l.starts_with("cpu") && l.as_bytes().get(3).is_some_and(u8::is_ascii_digit)
                    })
                    .count()
            })
            .unwrap_or(0)
    });
    // "0.20 0.18 0.12 3/80 11206": the fourth field is runnable/all threads.
    let Some(text) = read_small("/proc/loadavg") else {
        return 0;
    };
    let running = text
        .split_ascii_whitespace()
        .nth(3)
        .and_then(|f| f.split('/').next())
        .and_then(|r| r.parse::<usize>().ok());
    match running {
        Some(r) if cpus > 0 => r.saturating_sub(cpus),
        _ => 0,
    }
}

#[cfg(not(target_os = "linux"))]
fn excess_runnable() -> usize {
    0
}

/// This thread's total time spent runnable but not running (the second field of
/// `/proc/thread-self/schedstat`), where the kernel keeps it.
#[cfg(target_os = "linux")]
fn own_run_delay() -> Option<Duration> {
    let text = read_small("/proc/thread-self/schedstat")?;
    let ns = text.split_ascii_whitespace().nth(1)?.parse::<u64>().ok()?;
    Some(Duration::from_nanos(ns))
}

#[cfg(not(target_os = "linux"))]
fn own_run_delay() -> Option<Duration> {
    None
}

/// A small text file (a `/proc` line) read into a stack buffer.
#[cfg(target_os = "linux")]
fn read_small(path: &str) -> Option<String> {
    use std::io::Read;
    let mut buf = [0u8; 128];
    let mut f = std::fs::File::open(path).ok()?;
    let n = f.read(&mut buf).ok()?;
    Some(String::from_utf8_lossy(&buf[..n]).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn adaptive_spin_follows_recent_gaps_and_stops_for_long_ones() {
        let mut idle = Idle::new(0);
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
        let mut idle = Idle::new(0);
        let mut n = 0;
        assert_eq!(
            idle.spin(Spin::Adaptive, || {
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

    #[cfg(target_os = "linux")]
    #[test]
    fn the_kernel_counters_are_read() {
        assert!(own_run_delay().is_some());
        let _ = excess_runnable();
    }
}
