//! The vector env's fork-join pool: persistent workers that spin briefly, then park (as
//! [`idle`] decides), and a calling thread that works too and never waits for a
//! worker that has not started.
//!
//! Why not rayon: between two steps of a training loop the caller computes in Python for
//! a millisecond or more, rayon's idle workers go to sleep, and a pass must then wait for
//! each spawned job to be picked up. On the 2-core machine a sleeping worker started
//! 34–39 µs after the pass began (a step of 1024 envs takes about 65 µs on one thread), by
//! which time the caller had done every chunk itself, and the pass still waited for it
//! (docs/performance.md, "VectorEnv scaling"). Here:
//!
//! - a pass is published with one atomic add; a worker that is spinning starts within a
//!   fraction of a microsecond, a parked one is unparked at once;
//! - each thread (the caller too) starts on its own share of the chunks, the same share
//!   every pass (so the envs' games and rows stay in that core's cache), and when its share
//!   is done takes chunks from the back of another's: a late worker is simply helped;
//! - when no chunk is left the caller *closes* the pass and waits only for the workers
//!   that entered it (each is finishing a chunk it claimed); a worker that arrives after
//!   the close never touches the pass.
//! - with the default adaptive waiting, a pass is done by the caller alone where that has
//!   lately been faster than sharing it (an oversubscribed machine: see `Chooser`);
//! - where the process may use one core only (its affinity or its CPU quota,
//!   [`yokai_septet::usable_cores`]),
//!   every pass is the caller's alone, whatever the number of threads: two threads taking
//!   turns on one core's worth of time only add the hand-over, so `num_threads=2` is then
//!   as fast as 1, not slower.
//!
//! This is the crate's second home of `unsafe` (after `simd`): one dereference, of the
//! pointer to the pass's closure, whose lifetime the protocol below guarantees; and the
//! call that asks which core a thread runs on (`sched_getcpu`).
//!
//! **Protocol.** `ctl` packs an epoch (high 32 bits), an `OPEN` bit and the number of
//! workers inside the current pass (`ACTIVE`, low 31 bits). The caller stores the
//! closure's address in `job`, then adds `EPOCH | OPEN`; it closes with `fetch_and(!OPEN)`
//! and returns only once `ACTIVE` is 0. A worker enters only by a compare-and-swap that
//! increments `ACTIVE` while `OPEN` is set, and leaves by decrementing it after its last
//! use of the closure. So the closure (on the caller's stack) outlives every use: it is
//! read only between a successful enter and the matching leave, and the caller's frame
//! outlives both. A panic in a worker's chunk is caught there, carried back and resumed
//! on the calling thread after the pass; a panic on the calling thread also waits for the
//! workers before it unwinds.

use std::any::Any;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};
use std::time::Instant;

mod cores;
mod idle;

pub(crate) use idle::Idle;
pub use idle::Spin;

const OPEN: u64 = 1 << 31;
const ACTIVE: u64 = OPEN - 1;
const EPOCH: u64 = 1 << 32;

/// A pass's closure, as the workers see it.
type Job<'a> = dyn Fn(usize) + Sync + 'a;

/// `Shared::caller_cpu` when the OS does not say.
const NO_CPU: usize = usize::MAX;

/// `Shared::spin_ns` for [`Spin::Adaptive`].
const ADAPTIVE: u64 = u64::MAX;

struct Shared {
    ctl: AtomicU64,
    /// Address of the current pass's `&Job` (valid while `OPEN` or `ACTIVE` > 0).
    job: AtomicPtr<()>,
    /// Workers parked (or about to park).
    sleepers: AtomicUsize,
    /// Bumped by [`Pool::prepare`]: parked workers wake and poll for the coming pass.
    wakes: AtomicU64,
    /// The core the calling thread ran the last pass on (`NO_CPU`: unknown).
    caller_cpu: AtomicUsize,
    /// Spin before parking, in nanoseconds (`ADAPTIVE`: [`Spin::Adaptive`]).
    spin_ns: AtomicU64,
    stop: AtomicBool,
    /// The first panic a worker caught in the current pass.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
}

/// `threads - 1` persistent workers; the thread that calls [`Pool::run`] is the other.
pub(crate) struct Pool {
    shared: Arc<Shared>,
    workers: Vec<JoinHandle<()>>,
    /// One pass at a time; the lock holds, per kind of pass, the choice between sharing
    /// it and not.
    busy: Mutex<[Chooser; KINDS]>,
    /// The process may use one core only: every pass is the caller's.
    alone: bool,
}

/// What a pass does, as far as choosing how to run it goes. Passes of one kind cost about
/// the same per item; passes of different kinds do not (checking 4096 actions costs a
/// small fraction of stepping them), and one estimate fed by both alternated between
/// them: whichever way was in use averaged in the cheap passes and looked faster than the
/// way only tried on expensive ones, so the first choice stuck. So each kind keeps its own
/// [`Chooser`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Stepping the envs (the bulk of a training loop's env time).
    Step,
    /// Checking a batch of actions before it is stepped.
    Check,
    /// Anything else: resets, the bots' picks.
    Other,
}

const KINDS: usize = 3;

impl Pool {
    /// A pool for `threads` threads (the caller's included): `threads - 1` workers.
    pub(crate) fn new(threads: usize, spin: Spin) -> std::io::Result<Pool> {
        Pool::with_cores(threads, spin, yokai_septet::usable_cores())
    }

    /// [`Pool::new`] for a process that may use `cores` cores: the first `cores - 1`
    /// workers may poll (the caller keeps a core for itself), and with one core every pass
    /// is the caller's.
    fn with_cores(threads: usize, spin: Spin, cores: usize) -> std::io::Result<Pool> {
        let shared = Arc::new(Shared {
            ctl: AtomicU64::new(0),
            job: AtomicPtr::new(std::ptr::null_mut()),
            sleepers: AtomicUsize::new(0),
            wakes: AtomicU64::new(0),
            caller_cpu: AtomicUsize::new(NO_CPU),
            spin_ns: AtomicU64::new(spin_ns(spin)),
            stop: AtomicBool::new(false),
            panic: Mutex::new(None),
        });
        let mut pool = Pool {
            shared,
            workers: Vec::new(),
            busy: Mutex::new(Default::default()),
            alone: cores < 2,
        };
        for i in 1..threads.max(1) {
            let shared = Arc::clone(&pool.shared);
            let handle = thread::Builder::new()
                .name(format!("ys-vector-{i}"))
                .spawn(move || worker(&shared, i, threads - 1 - i, i < cores))?;
            pool.workers.push(handle);
        }
        Ok(pool)
    }

    /// Threads that work on a pass (the caller's included).
    pub(crate) fn threads(&self) -> usize {
        self.workers.len() + 1
    }

    /// How long idle workers (and the asynchronous driver) spin before they park.
    pub(crate) fn spin(&self) -> Spin {
        self.shared.spin()
    }

    /// Sets how long idle workers spin before they park (from their next wait on).
    pub(crate) fn set_spin(&self, spin: Spin) {
        self.shared.spin_ns.store(spin_ns(spin), Ordering::Relaxed);
    }

    /// Wakes the parked workers if the next pass of `kind` will be shared (adaptive
    /// waiting only): a step calls it before checking its actions, so that the wake-up
    /// (tens of microseconds) overlaps the check instead of delaying the workers' start on
    /// the step. Woken workers poll for up to [`WOKEN_SPIN`], then park again.
    pub(crate) fn prepare(&self, kind: Kind) {
        let sh = &*self.shared;
        if self.workers.is_empty()
            || self.alone
            || sh.spin() != Spin::Adaptive
            || sh.sleepers.load(Ordering::SeqCst) == 0
        {
            return;
        }
        let mut next = self.busy.lock().unwrap_or_else(|p| p.into_inner())[kind as usize];
        if next.share_next() {
            sh.wakes.fetch_add(1, Ordering::SeqCst);
            for w in &self.workers {
                w.thread().unpark();
            }
        }
    }

    /// Runs `work` on every item, shared out over the calling thread and the workers:
    /// each starts on its own share and then helps with the others'. Returns when every
    /// item is done. A panic in `work` (on any thread) is resumed here once every thread is
    /// out.
    pub(crate) fn run<I: Send>(&self, kind: Kind, items: Vec<I>, work: impl Fn(I) + Sync) {
        if self.workers.is_empty() || self.alone || items.len() <= 1 {
            return items.into_iter().for_each(work);
        }
        let mut choosers = self.busy.lock().unwrap_or_else(|p| p.into_inner());
        let chooser = &mut choosers[kind as usize];
        let n = items.len();
        let adaptive = self.shared.spin() == Spin::Adaptive;
        let started = Instant::now();
        if adaptive && !chooser.share_next() {
            items.into_iter().for_each(work);
            chooser.record(false, started.elapsed(), n);
            return;
        }
        let threads = self.threads().min(n);
        let cells: Vec<Mutex<Option<I>>> = items.into_iter().map(|i| Mutex::new(Some(i))).collect();
        // Thread `k`'s home: items [k n / threads, (k + 1) n / threads), as (front, back)
        // packed in one word. It takes from the front; when its home is empty it steals
        // from the back of the others', so the same envs stay on the same core from one
        // pass to the next (their games and rows stay in its cache) unless a thread lags.
        let homes: Vec<AtomicU64> = (0..threads)
            .map(|k| AtomicU64::new(span(k * n / threads, (k + 1) * n / threads)))
            .collect();
        let job = |k: usize| {
            let k = k % homes.len();
            let order = (0..homes.len()).map(|j| (k + j) % homes.len());
            for (j, h) in order.enumerate() {
                while let Some(i) = take(&homes[h], j == 0) {
                    let item = cells[i].lock().unwrap_or_else(|p| p.into_inner()).take();
                    if let Some(item) = item {
                        work(item);
                    }
                }
            }
        };
        let job_ref: &Job<'_> = &job;
        let sh = &*self.shared;
        sh.job
            .store(&job_ref as *const &Job<'_> as *mut (), Ordering::Release);
        // SeqCst, with the load of `sleepers` after it: a worker about to park either is
        // counted there or sees this epoch when it checks again (see `wait`).
        let before = sh.ctl.fetch_add(EPOCH | OPEN, Ordering::SeqCst);
        debug_assert_eq!(before & (OPEN | ACTIVE), 0, "one pass at a time");
        if sh.sleepers.load(Ordering::SeqCst) > 0 {
            for w in &self.workers {
                w.thread().unpark();
            }
        }
        let mine = catch_unwind(AssertUnwindSafe(|| job_ref(0)));
        sh.caller_cpu
            .store(current_cpu().unwrap_or(NO_CPU), Ordering::Relaxed);
        // Close: from now on no worker enters; wait for those inside.
        let mut c = sh.ctl.fetch_and(!OPEN, Ordering::AcqRel);
        let mut spins = 0u32;
        while c & ACTIVE != 0 {
            spins += 1;
            if spins < 1 << 12 {
                std::hint::spin_loop();
            } else {
                thread::yield_now();
            }
            c = sh.ctl.load(Ordering::Acquire);
        }
        sh.job.store(std::ptr::null_mut(), Ordering::Relaxed);
        if let Err(p) = mine {
            resume_unwind(p);
        }
        let theirs = sh.panic.lock().unwrap_or_else(|p| p.into_inner()).take();
        if let Some(p) = theirs {
            resume_unwind(p);
        }
        if adaptive {
            chooser.record(true, started.elapsed(), n);
        }
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        for w in &self.workers {
            w.thread().unpark();
        }
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

impl Shared {
    fn spin(&self) -> Spin {
        match self.spin_ns.load(Ordering::Relaxed) {
            ADAPTIVE => Spin::Adaptive,
            ns => Spin::Fixed(std::time::Duration::from_nanos(ns)),
        }
    }
}

fn spin_ns(spin: Spin) -> u64 {
    match spin {
        Spin::Adaptive => ADAPTIVE,
        Spin::Fixed(d) => d.as_nanos().min(ADAPTIVE as u128 - 1) as u64,
    }
}

/// Whether the next pass is shared with the workers or done by the calling thread alone
/// (`Spin::Adaptive` only). Sharing is the point of the pool, but where no core is free
/// for a worker it loses: on an oversubscribed machine a worker that is woken, or
/// preempted in the middle of a chunk, can hold a pass for a scheduler slice
/// (milliseconds, for work of a hundred microseconds); and where the policy's own
/// threads keep every core busy between steps (numpy's OpenBLAS and torch's OpenMP
/// workers busy-wait for a long while after each product, without yielding), a woken
/// worker is put on the calling thread's core and preempts it, so the pass moves to
/// another thread instead of being split (docs/vector.md, "Threads"). So the pool keeps
/// the recent time per item of each way, per [`Kind`] of pass, and takes the faster:
/// the first `WARM_UP` passes alternate (each way's estimate is its fastest pass there,
/// as a cold first pass or a preempted one says nothing about the next), then the other
/// way is tried every `EXPLORE_EVERY`-th pass, or every fourth of those when one way is
/// clearly faster (> 1.25x): then a try costs under 0.5% of the passes' time where
/// sharing wins, and a bounded share where it loses.
#[derive(Clone, Copy, Default)]
struct Chooser {
    /// Smoothed nanoseconds per item of shared passes and of passes alone (0: none yet).
    shared_ns: f64,
    alone_ns: f64,
    passes: u64,
}

const EXPLORE_EVERY: u64 = 64;

/// Passes of a kind that alternate between the two ways before the faster one is chosen:
/// a short loop (a benchmark's window, an evaluation) should not spend its first
/// `EXPLORE_EVERY` passes on the slower way.
const WARM_UP: u64 = 8;

impl Chooser {
    fn share_next(&mut self) -> bool {
        self.passes += 1;
        if self.passes <= WARM_UP {
            return !self.passes.is_multiple_of(2);
        }
        let share = self.shared_ns <= self.alone_ns;
        let (fast, slow) = if share {
            (self.shared_ns, self.alone_ns)
        } else {
            (self.alone_ns, self.shared_ns)
        };
        let every = if slow > 1.25 * fast {
            4 * EXPLORE_EVERY
        } else {
            EXPLORE_EVERY
        };
        share != self.passes.is_multiple_of(every)
    }

    fn record(&mut self, shared: bool, took: std::time::Duration, items: usize) {
        let x = took.as_nanos() as f64 / items.max(1) as f64;
        let est = if shared {
            &mut self.shared_ns
        } else {
            &mut self.alone_ns
        };
        // One pass hit by a preemption moves the estimate by at most a quarter of it.
        *est = if *est == 0.0 {
            x
        } else if self.passes <= WARM_UP {
            est.min(x)
        } else {
            0.75 * *est + 0.25 * x.min(2.0 * *est)
        };
    }
}

/// `[front, back)` as one word.
fn span(front: usize, back: usize) -> u64 {
    (front as u64) | (back as u64) << 32
}

/// The next item of a home: its front (`own`) or its back (a thief's), `None` when empty.
fn take(home: &AtomicU64, own: bool) -> Option<usize> {
    let mut w = home.load(Ordering::Relaxed);
    loop {
        let (front, back) = (w & 0xFFFF_FFFF, w >> 32);
        if front >= back {
            return None;
        }
        let (next, i) = if own {
            (span(front as usize + 1, back as usize), front)
        } else {
            (span(front as usize, back as usize - 1), back - 1)
        };
        match home.compare_exchange_weak(w, next, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return Some(i as usize),
            Err(now) => w = now,
        }
    }
}

/// A worker: waits for each new pass, enters it if it is still open, works, leaves.
/// `rank`: how many workers give way before it when the machine is short of cores;
/// `own_core`: whether the process's cores leave it one to poll on.
fn worker(sh: &Shared, index: usize, rank: usize, own_core: bool) {
    let mut seen = sh.ctl.load(Ordering::Acquire) >> 32;
    let mut idle = Idle::new(rank, own_core);
    while let Some(mut c) = wait(sh, seen, &mut idle) {
        seen = c >> 32;
        let entered = loop {
            if c >> 32 != seen || c & OPEN == 0 {
                break false;
            }
            match sh
                .ctl
                .compare_exchange_weak(c, c + 1, Ordering::AcqRel, Ordering::Acquire)
            {
                Ok(_) => break true,
                Err(now) => c = now,
            }
        };
        if !entered {
            continue;
        }
        let p = sh.job.load(Ordering::Acquire) as *const &Job<'static>;
        // SAFETY: the pass is open and this worker is counted in ACTIVE, so the caller is
        // still inside `Pool::run`, whose frame holds the `&Job` at `p` and the closure it
        // points to (stored before the pass opened, with Release; our CAS is Acquire). The
        // caller returns only after ACTIVE is back to 0, i.e. after the decrement below,
        // which follows the last use of `job`. The `'static` is never relied on: `job` does
        // not escape this block.
        let job: &Job<'_> = unsafe { *p };
        if let Err(e) = catch_unwind(AssertUnwindSafe(|| job(index))) {
            let mut slot = sh.panic.lock().unwrap_or_else(|p| p.into_inner());
            slot.get_or_insert(e);
        }
        sh.ctl.fetch_sub(1, Ordering::Release);
    }
}

/// The core this thread runs on now (`None` where the OS does not say).
#[cfg(target_os = "linux")]
fn current_cpu() -> Option<usize> {
    // SAFETY: sched_getcpu takes no argument and only reads the calling thread's state.
    let cpu = unsafe { libc::sched_getcpu() };
    usize::try_from(cpu).ok()
}

#[cfg(not(target_os = "linux"))]
fn current_cpu() -> Option<usize> {
    None
}

/// Whether this thread runs on the core where the caller ran the last pass.
fn on_callers_core(sh: &Shared) -> bool {
    let caller = sh.caller_cpu.load(Ordering::Relaxed);
    caller != NO_CPU && current_cpu() == Some(caller)
}

/// How long a worker woken by [`Pool::prepare`] polls for the pass it was woken for (a
/// check of a few thousand actions comes first), whatever the machine's load.
const WOKEN_SPIN: std::time::Duration = std::time::Duration::from_micros(200);

/// Waits until the epoch is no longer `seen` (returns the control word then) or the pool
/// stops (`None`): polls as [`Idle::spin`] says, then parks; woken ahead of a pass
/// ([`Pool::prepare`]), polls again for [`WOKEN_SPIN`].
fn wait(sh: &Shared, seen: u64, idle: &mut Idle) -> Option<u64> {
    let start = Instant::now();
    let ready = || {
        let c = sh.ctl.load(Ordering::Acquire);
        if c >> 32 != seen {
            Some(Some(c))
        } else if sh.stop.load(Ordering::Relaxed) {
            Some(None)
        } else {
            None
        }
    };
    let mut spin = sh.spin();
    if spin == Spin::Adaptive && on_callers_core(sh) {
        // The scheduler put this worker on the calling thread's core (no other core was
        // idle: the policy's threads busy-wait on them). Polling here would take turns
        // with the caller while it runs the policy: park, and leave it the core.
        spin = Spin::Fixed(std::time::Duration::ZERO);
    }
    loop {
        if let Some(out) = idle.spin(spin, ready) {
            idle.waited(start.elapsed());
            return out;
        }
        // SeqCst with `prepare`'s bump then load of `sleepers`: a wake asked after this
        // load either is seen below or finds this worker counted and unparks it.
        let asked = sh.wakes.load(Ordering::SeqCst);
        sh.sleepers.fetch_add(1, Ordering::SeqCst);
        let out = loop {
            let c = sh.ctl.load(Ordering::SeqCst);
            if c >> 32 != seen {
                break Some(Some(c));
            }
            if sh.stop.load(Ordering::SeqCst) {
                break Some(None);
            }
            if sh.wakes.load(Ordering::SeqCst) != asked {
                break None;
            }
            thread::park();
        };
        sh.sleepers.fetch_sub(1, Ordering::SeqCst);
        if let Some(out) = out {
            idle.waited(start.elapsed());
            return out;
        }
        spin = Spin::Fixed(WOKEN_SPIN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU32;
    use std::time::Duration;

    #[test]
    fn every_item_once_at_any_thread_count_and_spin() {
        for threads in [1, 2, 3, 8] {
            for spin in [
                Spin::Fixed(Duration::ZERO),
                Spin::Fixed(Duration::from_micros(200)),
                Spin::Adaptive,
            ] {
                let pool = Pool::new(threads, spin).unwrap();
                assert_eq!(pool.threads(), threads);
                for round in 0..200 {
                    let n = round % 37;
                    let hits: Vec<AtomicU32> = (0..n).map(|_| AtomicU32::new(0)).collect();
                    pool.run(Kind::Other, (0..n).collect(), |i| {
                        hits[i].fetch_add(1, Ordering::Relaxed);
                    });
                    assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
                    if round % 50 == 0 {
                        // Let the workers park, so the next pass wakes them.
                        thread::sleep(Duration::from_millis(2));
                    }
                }
            }
        }
    }

    #[test]
    fn borrowed_mutable_chunks() {
        let pool = Pool::new(4, Spin::Adaptive).unwrap();
        let mut v = vec![0u64; 1000];
        for k in 1..50u64 {
            pool.run(Kind::Other, v.chunks_mut(7).collect(), |c| {
                for x in c {
                    *x += k;
                }
            });
        }
        assert!(v.iter().all(|&x| x == (1..50).sum::<u64>()));
    }

    #[test]
    fn a_panic_in_any_thread_reaches_the_caller_and_the_pool_still_works() {
        let pool = Pool::new(3, Spin::Fixed(Duration::from_micros(100))).unwrap();
        for bad in [0usize, 5, 63] {
            let r = catch_unwind(AssertUnwindSafe(|| {
                pool.run(Kind::Other, (0..64).collect(), |i| {
                    if i == bad {
                        panic!("item {i}");
                    }
                })
            }));
            let msg = r.unwrap_err();
            assert_eq!(
                msg.downcast_ref::<String>().map(String::as_str),
                Some(&*format!("item {bad}"))
            );
        }
        let sum = AtomicUsize::new(0);
        pool.run(Kind::Other, (0..64).collect(), |i| {
            sum.fetch_add(i, Ordering::Relaxed);
        });
        assert_eq!(sum.into_inner(), 63 * 64 / 2);
    }

    #[test]
    fn passes_go_the_faster_way_and_try_the_other_now_and_then() {
        let us = Duration::from_micros;
        let mut c = Chooser::default();
        let mut ways = Vec::new();
        for _ in 0..32 * EXPLORE_EVERY {
            let shared = c.share_next();
            // Sharing is 5x slower here (an oversubscribed machine).
            c.record(shared, if shared { us(500) } else { us(100) }, 100);
            ways.push(shared);
        }
        let warm = WARM_UP as usize;
        assert!(
            ways[..warm].iter().step_by(2).all(|&s| s)
                && !ways[..warm].iter().skip(1).step_by(2).any(|&s| s),
            "the first passes alternate, shared first"
        );
        assert!(
            !ways[warm..4 * EXPLORE_EVERY as usize - 1].contains(&true),
            "alone as soon as the warm-up has measured both ways"
        );
        let late = &ways[16 * EXPLORE_EVERY as usize..];
        let shared = late.iter().filter(|&&s| s).count();
        assert_eq!(
            shared, 4,
            "alone, but for a try of sharing every 4 x {EXPLORE_EVERY} passes"
        );
        // The machine quiets down: sharing becomes faster and wins again.
        for _ in 0..64 * EXPLORE_EVERY {
            let shared = c.share_next();
            c.record(shared, if shared { us(50) } else { us(100) }, 100);
        }
        assert!(c.share_next() || c.passes.is_multiple_of(4 * EXPLORE_EVERY));
        assert!(c.shared_ns < c.alone_ns);
    }

    #[test]
    fn each_kind_of_pass_chooses_its_own_way() {
        let us = Duration::from_micros;
        // A step shared is faster than alone; a check (a tenth of its cost) is faster
        // alone. Fed to one chooser, the cheap checks would pull down the estimate of
        // whichever way is in use and keep it there.
        let (mut step, mut check) = (Chooser::default(), Chooser::default());
        for _ in 0..8 * EXPLORE_EVERY {
            let s = step.share_next();
            step.record(s, if s { us(200) } else { us(340) }, 16);
            let c = check.share_next();
            check.record(c, if c { us(40) } else { us(30) }, 16);
        }
        assert!(step.shared_ns < step.alone_ns && check.alone_ns < check.shared_ns);
        let (s, c) = (step.share_next(), check.share_next());
        assert!(s || step.passes.is_multiple_of(EXPLORE_EVERY));
        assert!(!c || check.passes.is_multiple_of(4 * EXPLORE_EVERY));
        // The pool keeps one chooser per kind.
        let pool = Pool::new(2, Spin::Adaptive).unwrap();
        for _ in 0..5 {
            pool.run(Kind::Step, (0..8).collect(), |_| {});
        }
        pool.run(Kind::Check, (0..8).collect(), |_| {});
        let busy = pool.busy.lock().unwrap();
        assert_eq!(
            [
                busy[Kind::Step as usize].passes,
                busy[Kind::Check as usize].passes
            ],
            [5, 1]
        );
    }

    #[test]
    fn workers_woken_ahead_of_a_pass_still_do_each_item_once() {
        let pool = Pool::new(3, Spin::Adaptive).unwrap();
        for round in 0..100 {
            if round % 10 == 0 {
                // Let the workers park, so that `prepare` has someone to wake.
                thread::sleep(Duration::from_millis(12));
            }
            pool.prepare(Kind::Step);
            let hits: Vec<AtomicU32> = (0..40).map(|_| AtomicU32::new(0)).collect();
            pool.run(Kind::Step, (0..40).collect(), |i: usize| {
                hits[i].fetch_add(1, Ordering::Relaxed);
            });
            assert!(hits.iter().all(|h| h.load(Ordering::Relaxed) == 1));
        }
        pool.prepare(Kind::Step);
        drop(pool);
    }

    /// Runs `f` on a thread of its own and fails if it has not returned within `limit`, so
    /// that a pool that hangs fails its test instead of hanging the suite.
    fn within(limit: Duration, what: &str, f: impl FnOnce() + Send + 'static) {
        let (done, finished) = std::sync::mpsc::channel();
        let handle = thread::spawn(move || {
            f();
            let _ = done.send(());
        });
        match finished.recv_timeout(limit) {
            Ok(()) => handle.join().unwrap(),
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                resume_unwind(handle.join().unwrap_err())
            }
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                panic!("{what}: not done within {limit:?}")
            }
        }
    }

    #[test]
    fn drop_stops_parked_and_spinning_workers() {
        for spin in [
            Spin::Fixed(Duration::ZERO),
            Spin::Fixed(Duration::from_secs(10)),
            Spin::Adaptive,
        ] {
            // Well under the 10 s spin: a worker that finished its spin before it looked
            // at `stop` would miss the deadline.
            within(Duration::from_secs(5), &format!("{spin:?}"), move || {
                let pool = Pool::new(4, spin).unwrap();
                pool.run(Kind::Other, (0..10).collect(), |_| {});
                drop(pool);
            });
        }
    }

    #[test]
    fn the_deadline_fails_a_pool_call_that_hangs() {
        let hung = catch_unwind(|| {
            within(Duration::from_millis(50), "sleeper", || {
                thread::sleep(Duration::from_millis(500))
            })
        });
        let msg = hung.unwrap_err();
        let msg = msg.downcast_ref::<String>().map(String::as_str);
        assert_eq!(msg, Some("sleeper: not done within 50ms"));
    }

    #[test]
    fn with_one_core_every_pass_is_the_callers_alone() {
        let caller = thread::current().id();
        for spin in [Spin::Adaptive, Spin::Fixed(Duration::from_micros(200))] {
            let pool = Pool::with_cores(2, spin, 1).unwrap();
            assert_eq!(pool.threads(), 2);
            for _ in 0..20 {
                pool.prepare(Kind::Step);
                let ran_on = Mutex::new(Vec::new());
                pool.run(Kind::Step, (0..64).collect(), |i: usize| {
                    ran_on.lock().unwrap().push((i, thread::current().id()));
                });
                let ran_on = ran_on.into_inner().unwrap();
                assert_eq!(ran_on.len(), 64);
                assert!(ran_on.iter().all(|&(_, t)| t == caller), "{spin:?}");
            }
        }
        // With two cores the worker takes a share (sharing is the warm-up's first way).
        let pool = Pool::with_cores(2, Spin::Fixed(Duration::from_millis(50)), 2).unwrap();
        let workers = AtomicUsize::new(0);
        for _ in 0..20 {
            pool.run(Kind::Step, (0..64).collect(), |_| {
                if thread::current().id() != caller {
                    workers.fetch_add(1, Ordering::Relaxed);
                }
                thread::sleep(Duration::from_micros(20));
            });
        }
        assert!(workers.into_inner() > 0, "the worker never took an item");
    }
}
