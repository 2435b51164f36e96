//! Asynchronous stepping, as EnvPool does it: the envs are split into groups of
//! `batch_size`; [`Pipeline::send`] hands one group and its actions to a background
//! driver thread and returns at once; [`Pipeline::recv`] returns the results of the oldest
//! group sent (the first to finish: the driver steps groups in the order they were sent).
//! While Rust steps one group, the caller computes the actions of another.
//!
//! The driver runs each group's pass on the core's pool (the driver is its calling
//! thread, so `num_threads` threads step while the caller computes), writing into buffers
//! it owns; a [`Batch`] hands them over without a copy. Each env's trajectory is the one
//! [`VecCore`] would produce with the same actions: the same per-env code and seeds, so it
//! does not depend on the grouping, the order of sends or the thread count.

use std::any::Any;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender, TryRecvError};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

use super::pass::{check_actions, check_range, pass, Op};
use super::slot::Deal;
use super::{Elem, Extras, Layout, Outputs, Owned, Shared, Slot, StepError, VecCore};
use crate::pool::Pool;
use crate::pool::{Idle, Spin};
use yokai_septet::observation::ObsValue;
use yokai_septet::usable_cores;

/// One group's results: `batch_size` rows of every output, `env_id` included (ascending).
pub struct Batch<T: ObsValue + Elem> {
    /// The group (its envs are `group * batch_size ..` `(group + 1) * batch_size`).
    pub group: usize,
    pub outputs: Outputs<Owned, T>,
}

/// Why a [`Pipeline`] call was refused (nothing changed), or failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PipelineError {
    /// `batch_size` is 0, above `num_envs`, or does not divide it.
    BatchSize { batch_size: usize, num_envs: usize },
    /// The call needs every group back, and some are still being stepped.
    InFlight { groups: usize },
    /// `recv` with nothing sent.
    NothingSent,
    /// The group is being stepped (received results are needed before sending it again).
    NotHeld { group: usize },
    /// The env ids given to `send` are not exactly the envs of one group.
    EnvIds(String),
    /// An action is not legal (the env is named), or not one action per env of the group.
    Step(StepError),
    /// An internal error (a caught panic) stopped a group midway: the pipeline is unusable.
    Failed(String),
}

impl std::fmt::Display for PipelineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PipelineError::BatchSize {
                batch_size,
                num_envs,
            } => write!(
                f,
                "batch_size {batch_size} must divide num_envs {num_envs} (1 <= batch_size <= num_envs)"
            ),
            PipelineError::InFlight { groups } => write!(
                f,
                "{groups} batch(es) sent and not yet received: recv() them first"
            ),
            PipelineError::NothingSent => write!(f, "recv() with nothing sent"),
            PipelineError::NotHeld { group } => write!(
                f,
                "the envs of batch {group} are being stepped: recv() them before sending them again"
            ),
            PipelineError::EnvIds(why) => write!(f, "{why}"),
            PipelineError::Step(e) => e.fmt(f),
            PipelineError::Failed(why) => write!(f, "an internal error stopped a batch: {why}"),
        }
    }
}

impl std::error::Error for PipelineError {}

/// What the driver steps.
struct Job {
    group: usize,
    slots: Vec<Slot>,
    actions: Vec<i64>,
    op: Op,
    shared: Shared,
}

/// What the driver hands back.
struct Done<T: ObsValue + Elem> {
    group: usize,
    slots: Vec<Slot>,
    outputs: Result<Outputs<Owned, T>, Box<dyn Any + Send>>,
    /// Each env's legal actions now (bit `a`: action `a`), packed from the mask rows.
    legal: Vec<u64>,
}

/// A [`VecCore`] whose envs are stepped in groups, in the background.
pub struct Pipeline<T: ObsValue + Elem> {
    shared: Shared,
    batch: usize,
    /// Group `g`'s envs while the caller holds them (`None`: being stepped).
    groups: Vec<Option<Vec<Slot>>>,
    /// Group `g`'s legal actions per env, as its last results gave them (empty before).
    legal: Vec<Vec<u64>>,
    /// Groups sent and not yet received, oldest first.
    in_flight: VecDeque<usize>,
    /// Results of groups the calling thread stepped itself (see `submit`), oldest first.
    stepped_here: VecDeque<Done<T>>,
    /// `None`: a nudge that only wakes the driver.
    to_driver: Option<Sender<Option<Job>>>,
    /// Set while the driver is blocked waiting for a job (not polling).
    driver_asleep: Arc<AtomicBool>,
    /// The driver's chunk length and extras, for a group stepped on the calling thread.
    drive_chunk_len: usize,
    extras: Extras,
    from_driver: Receiver<Done<T>>,
    driver: Option<JoinHandle<()>>,
    pool: Arc<Pool>,
    chunk_len: usize,
    fresh: bool,
    failed: Option<String>,
    /// The calling thread's memory of its waits in `recv`.
    recv_idle: Idle,
}

impl VecCore {
    /// This core's envs in groups of `batch_size` (which must divide `num_envs`), stepped
    /// by a background driver; its results hold the outputs `extras` asks for, and each
    /// row's env id.
    pub fn into_pipeline<T: ObsValue + Elem>(
        self,
        batch_size: usize,
        extras: Extras,
    ) -> Result<Pipeline<T>, Box<(VecCore, PipelineError)>> {
        let n = self.slots.len();
        if batch_size == 0 || batch_size > n || !n.is_multiple_of(batch_size) {
            let e = PipelineError::BatchSize {
                batch_size,
                num_envs: n,
            };
            return Err(Box::new((self, e)));
        }
        let (to_driver, jobs) = channel::<Option<Job>>();
        let driver_asleep = Arc::new(AtomicBool::new(false));
        let asleep = Arc::clone(&driver_asleep);
        let (done, from_driver) = channel::<Done<T>>();
        let pool = Arc::clone(&self.pool);
        let chunk_len = super::chunk_len(batch_size, pool.threads());
        let extras = Extras {
            env_ids: true,
            ..extras
        };
        let driver = std::thread::Builder::new()
            .name("ys-vector-driver".into())
            .spawn(move || {
                // Rank 0: it gives way to the first thread that waits for a core. It polls
                // only where the process has a core beyond the caller's.
                let mut idle = Idle::new(0, usable_cores() > 1);
                while let Some(job) = poll_recv(&jobs, pool.spin(), &mut idle, Some(&asleep)) {
                    let Some(job) = job else { continue };
                    let out = drive(&pool, job, chunk_len, extras);
                    if done.send(out).is_err() {
                        break;
                    }
                }
            });
        let driver = match driver {
            Ok(d) => d,
            Err(e) => {
                let why = format!("cannot start the driver thread: {e}");
                return Err(Box::new((self, PipelineError::Failed(why))));
            }
        };
        let mut rest = self.slots;
        let mut groups = Vec::with_capacity(n / batch_size);
        while !rest.is_empty() {
            let tail = rest.split_off(batch_size);
            groups.push(Some(rest));
            rest = tail;
        }
        Ok(Pipeline {
            shared: self.shared,
            batch: batch_size,
            legal: vec![Vec::new(); groups.len()],
            groups,
            in_flight: VecDeque::new(),
            stepped_here: VecDeque::new(),
            to_driver: Some(to_driver),
            driver_asleep,
            drive_chunk_len: chunk_len,
            extras,
            from_driver,
            driver: Some(driver),
            pool: self.pool,
            chunk_len: self.chunk_len,
            fresh: self.fresh,
            failed: None,
            recv_idle: Idle::new(0, usable_cores() > 1),
        })
    }
}

/// The next message of `rx` (`None`: its sender is gone), polled as `idle` decides (as
/// the pool's workers wait for a pass: a send that follows a policy's forward pass then
/// finds the driver awake, instead of paying a wake-up), then waited for (with `asleep`
/// set meanwhile, where given).
fn poll_recv<M>(
    rx: &Receiver<M>,
    spin: Spin,
    idle: &mut Idle,
    asleep: Option<&AtomicBool>,
) -> Option<M> {
    let start = Instant::now();
    let polled = idle.spin(spin, || match rx.try_recv() {
        Ok(m) => Some(Some(m)),
        Err(TryRecvError::Disconnected) => Some(None),
        Err(TryRecvError::Empty) => None,
    });
    let out = match polled {
        Some(m) => m,
        None => {
            asleep.inspect(|a| a.store(true, Ordering::SeqCst));
            let m = rx.recv().ok();
            asleep.inspect(|a| a.store(false, Ordering::SeqCst));
            m
        }
    };
    idle.waited(start.elapsed());
    out
}

/// Steps one job on the pool (the driver is the pass's calling thread).
fn drive<T: ObsValue + Elem>(pool: &Pool, job: Job, chunk_len: usize, extras: Extras) -> Done<T> {
    let Job {
        group,
        mut slots,
        actions,
        op,
        shared,
    } = job;
    let layout = Layout::new(&shared, slots.len(), extras);
    let outputs = catch_unwind(AssertUnwindSafe(|| {
        let mut outs = Outputs::<Owned, T>::owned(&layout);
        pass(
            pool,
            &shared,
            &mut slots,
            &actions,
            outs.as_slices(),
            chunk_len,
            op,
        );
        outs
    }));
    // Packed here, in the background: `send` checks the next actions against these bits
    // (a few bytes per env) instead of reading every game on the calling thread.
    let legal = match &outputs {
        Ok(o) => {
            let a = layout.widths[super::Output::mask as usize];
            o.mask
                .chunks_exact(a)
                .map(|row| row.iter().rev().fold(0u64, |acc, &b| acc << 1 | b as u64))
                .collect()
        }
        Err(_) => Vec::new(),
    };
    Done {
        group,
        slots,
        outputs,
        legal,
    }
}

impl<T: ObsValue + Elem> Pipeline<T> {
    /// Envs per group.
    pub fn batch_size(&self) -> usize {
        self.batch
    }

    /// Number of groups.
    pub fn num_groups(&self) -> usize {
        self.groups.len()
    }

    /// Number of envs.
    pub fn num_envs(&self) -> usize {
        self.batch * self.groups.len()
    }

    /// What every env shares.
    pub fn shared(&self) -> &Shared {
        &self.shared
    }

    /// See [`VecCore::spin`].
    pub fn spin(&self) -> Spin {
        self.pool.spin()
    }

    /// See [`VecCore::set_spin`].
    pub fn set_spin(&self, spin: Spin) {
        self.pool.set_spin(spin)
    }

    /// Groups sent and not yet received.
    pub fn in_flight(&self) -> usize {
        self.in_flight.len()
    }

    /// Env `i`, if the caller holds its group (`None` while it is being stepped).
    pub fn slot(&self, i: usize) -> Option<&Slot> {
        let g = self.groups.get(i / self.batch)?.as_ref()?;
        g.get(i % self.batch)
    }

    fn check_usable(&self) -> Result<(), PipelineError> {
        match &self.failed {
            Some(why) => Err(PipelineError::Failed(why.clone())),
            None => Ok(()),
        }
    }

    fn submit(&mut self, group: usize, actions: Vec<i64>, op: Op) -> Result<(), PipelineError> {
        let slots = self.groups[group]
            .take()
            .ok_or(PipelineError::NotHeld { group })?;
        let job = Job {
            group,
            slots,
            actions,
            op,
            shared: self.shared,
        };
        if self.pool.spin() == Spin::Adaptive && self.driver_asleep.load(Ordering::SeqCst) {
            // The driver gave up polling: its waits were long, or other threads (a
            // policy's, busy-waiting on every core) wanted its core. Waking it would cost
            // a wake-up and a core taken from them; the calling thread steps the group
            // now, as `step` would, and nudges the driver to poll again for the next one
            // (so the overlap comes back where a core is free).
            let done = drive(&self.pool, job, self.drive_chunk_len, self.extras);
            self.stepped_here.push_back(done);
            self.in_flight.push_back(group);
            if let Some(d) = &self.to_driver {
                let _ = d.send(None);
            }
            return Ok(());
        }
        let sent = self.to_driver.as_ref().map(|d| d.send(Some(job)));
        match sent {
            Some(Ok(())) => {
                self.in_flight.push_back(group);
                Ok(())
            }
            Some(Err(back)) => {
                let job = back.0.expect("a job was sent");
                self.groups[group] = Some(job.slots);
                let why = "the driver thread has stopped".to_string();
                self.failed = Some(why.clone());
                Err(PipelineError::Failed(why))
            }
            None => unreachable!("the driver lives as long as the pipeline"),
        }
    }

    /// Resets every env (as [`VecCore::reset`]: with a seed, deal 0 of that seed; without,
    /// each env's next deal) and sends every group: the next `num_groups` receives return
    /// the first observations, group 0 first. Refused while groups are in flight.
    pub fn reset(&mut self, seed: Option<u64>) -> Result<(), PipelineError> {
        self.check_usable()?;
        if !self.in_flight.is_empty() {
            return Err(PipelineError::InFlight {
                groups: self.in_flight.len(),
            });
        }
        let deal = Deal::for_reset(seed, &mut self.shared.seed, &mut self.fresh);
        for g in 0..self.groups.len() {
            self.submit(g, Vec::new(), Op::Reset(deal))?;
        }
        Ok(())
    }

    /// The group whose envs are exactly `env_ids` (any order), and `actions` (one per id,
    /// in the order of `env_ids`) in the group's env order.
    pub fn group_of(
        &self,
        env_ids: &[i64],
        actions: &[i64],
    ) -> Result<(usize, Vec<i64>), PipelineError> {
        let b = self.batch;
        if env_ids.len() != b || actions.len() != b {
            return Err(PipelineError::EnvIds(format!(
                "one batch is {b} env ids and {b} actions, got {} and {}",
                env_ids.len(),
                actions.len()
            )));
        }
        let n = self.num_envs() as i64;
        let first = env_ids[0];
        if !(0..n).contains(&first) {
            return Err(PipelineError::EnvIds(format!(
                "env id {first} is out of range: envs are 0..{}",
                n - 1
            )));
        }
        let g = first as usize / b;
        let mut ordered = vec![-1i64; b];
        let mut seen = vec![false; b];
        for (&id, &a) in env_ids.iter().zip(actions) {
            let k = id - (g * b) as i64;
            if !(0..b as i64).contains(&k) || std::mem::replace(&mut seen[k as usize], true) {
                return Err(PipelineError::EnvIds(format!(
                    "env ids must be the {b} envs of one batch (as recv() returned them): \
                     env {id} is not in batch {g} (envs {}..{}) or appears twice",
                    g * b,
                    (g + 1) * b - 1
                )));
            }
            ordered[k as usize] = a;
        }
        Ok((g, ordered))
    }

    /// Sends group `group` with one action per env (in env order), checked first: an
    /// illegal action is refused (the env is named) and nothing changes. Returns at once,
    /// or, where the driver was asleep (adaptive waiting), once the calling thread has
    /// stepped the group itself.
    pub fn send(&mut self, group: usize, actions: Vec<i64>) -> Result<(), PipelineError> {
        self.check_usable()?;
        let b = self.batch;
        let slots = match self.groups.get_mut(group) {
            None => {
                return Err(PipelineError::EnvIds(format!(
                    "batch {group} is out of range: batches are 0..{}",
                    self.groups.len() - 1
                )))
            }
            Some(None) => return Err(PipelineError::NotHeld { group }),
            Some(Some(s)) => s,
        };
        if actions.len() != b {
            return Err(PipelineError::Step(StepError::Length {
                expected: b,
                got: actions.len(),
            }));
        }
        // On the calling thread (the pool may be stepping another group): against the
        // legal bits of the group's last results, and by the engine where they say no (to
        // name the reason), or when there are none.
        let legal = &self.legal[group];
        let quick_ok = legal.len() == b
            && actions
                .iter()
                .zip(legal)
                .all(|(&a, &l)| (0..64).contains(&a) && l >> a & 1 == 1);
        if !quick_ok {
            check_range(&self.shared, slots, &actions, group * b).map_err(PipelineError::Step)?;
        }
        self.submit(group, actions, Op::Step)
    }

    /// Waits for the oldest group sent and returns its results (rows in env order, with
    /// their env ids). Its envs are the caller's again: send them with their next actions.
    pub fn recv(&mut self) -> Result<Batch<T>, PipelineError> {
        self.check_usable()?;
        let Some(&group) = self.in_flight.front() else {
            return Err(PipelineError::NothingSent);
        };
        // A group stepped here is after every group the driver had (it was asleep).
        let here = self.stepped_here.front().is_some_and(|d| d.group == group);
        // Polled first, like the driver's wait: the batch is usually ready or nearly so.
        let got = if here {
            self.stepped_here.pop_front()
        } else {
            poll_recv(
                &self.from_driver,
                self.pool.spin(),
                &mut self.recv_idle,
                None,
            )
        };
        let done = match got {
            Some(d) => d,
            None => {
                let why = "the driver thread has stopped".to_string();
                self.failed = Some(why.clone());
                return Err(PipelineError::Failed(why));
            }
        };
        debug_assert_eq!(done.group, group, "the driver keeps the order of sends");
        self.in_flight.pop_front();
        self.groups[done.group] = Some(done.slots);
        self.legal[done.group] = done.legal;
        match done.outputs {
            Ok(outputs) => Ok(Batch { group, outputs }),
            Err(p) => {
                let why = p
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| p.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                self.failed = Some(why.clone());
                Err(PipelineError::Failed(why))
            }
        }
    }

    /// The action each env of group `group` would get from its bots (see
    /// [`VecCore::bot_actions`]), in env order; the group must be held.
    pub fn bot_actions(&mut self, group: usize) -> Result<Vec<i64>, PipelineError> {
        let slots = match self.groups.get_mut(group) {
            Some(Some(s)) => s,
            Some(None) => return Err(PipelineError::NotHeld { group }),
            None => {
                return Err(PipelineError::EnvIds(format!(
                    "batch {group} is out of range"
                )))
            }
        };
        Ok(slots
            .iter_mut()
            .map(|s| s.bot_action().map_or(-1, |c| c.id() as i64))
            .collect())
    }

    /// Checks a full batch of actions (one per env, in env order) against every group the
    /// caller holds, in parallel: what [`VecCore::check_actions`] does.
    pub fn check_all(&mut self, actions: &[i64]) -> Result<(), PipelineError> {
        if !self.in_flight.is_empty() {
            return Err(PipelineError::InFlight {
                groups: self.in_flight.len(),
            });
        }
        if actions.len() != self.num_envs() {
            return Err(PipelineError::Step(StepError::Length {
                expected: self.num_envs(),
                got: actions.len(),
            }));
        }
        let b = self.batch;
        for (g, slots) in self.groups.iter_mut().enumerate() {
            let slots = slots.as_mut().expect("nothing in flight");
            check_actions(
                &self.pool,
                &self.shared,
                slots,
                &actions[g * b..(g + 1) * b],
                self.chunk_len,
            )
            .map_err(|e| PipelineError::Step(e.offset(g * b)))?;
        }
        Ok(())
    }

    /// The core again, once every group is back (refused while groups are in flight).
    pub fn into_core(mut self) -> Result<VecCore, Box<(Self, PipelineError)>> {
        if let Err(e) = self.check_usable() {
            return Err(Box::new((self, e)));
        }
        if !self.in_flight.is_empty() {
            let e = PipelineError::InFlight {
                groups: self.in_flight.len(),
            };
            return Err(Box::new((self, e)));
        }
        self.stop_driver();
        let mut slots = Vec::with_capacity(self.num_envs());
        for g in self.groups.iter_mut() {
            slots.append(g.as_mut().expect("nothing in flight"));
        }
        Ok(VecCore {
            shared: self.shared,
            slots,
            pool: Arc::clone(&self.pool),
            chunk_len: super::chunk_len(self.num_envs(), self.pool.threads()),
            fresh: self.fresh,
        })
    }

    fn stop_driver(&mut self) {
        self.to_driver = None;
        if let Some(d) = self.driver.take() {
            let _ = d.join();
        }
    }
}

impl<T: ObsValue + Elem> Drop for Pipeline<T> {
    fn drop(&mut self) {
        self.stop_driver();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use yokai_septet::{GameConfig, Variant};

    /// A per-env deterministic choice among the legal actions of a mask row.
    fn choose(mask: &[bool], env: i64, t: u64) -> i64 {
        let legal: Vec<usize> = (0..mask.len()).filter(|&i| mask[i]).collect();
        let h = yokai_septet::rng::splitmix64_finalize(env as u64 ^ t.wrapping_mul(0x9E37_79B9));
        legal[(h % legal.len() as u64) as usize] as i64
    }

    /// Each env's sequence of (obs, reward, terminated, mask) under `choose`, stepped
    /// synchronously.
    fn sync_traj(n: usize, threads: usize, steps: usize) -> Vec<Vec<Vec<u8>>> {
        let shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 11);
        let mut core = VecCore::new(shared, n, &["random"; 4], threads).unwrap();
        let mut b = Outputs::<_, u8>::owned(&core.layout(Extras::default()));
        core.reset(Some(4), b.as_slices());
        let (d, a, r) = (b.obs.len() / n, b.mask.len() / n, b.reward.len() / n);
        let mut traj = vec![Vec::new(); n];
        for t in 0..steps as u64 {
            let acts: Vec<i64> = (0..n)
                .map(|i| choose(&b.mask[i * a..(i + 1) * a], i as i64, t))
                .collect();
            core.step(&acts, b.as_slices()).unwrap();
            for (i, tr) in traj.iter_mut().enumerate() {
                let mut row = b.obs[i * d..(i + 1) * d].to_vec();
                row.extend(b.mask[i * a..(i + 1) * a].iter().map(|&x| x as u8));
                row.extend(b.reward[i * r..(i + 1) * r].iter().map(|&x| x as i8 as u8));
                row.push(b.terminated[i] as u8);
                tr.push(row);
            }
        }
        traj
    }

    /// Each env's trajectory stepped through a pipeline of `batch`-env groups on
    /// `threads` threads, as [`sync_traj`] records it; `pause` before each send (the
    /// policy's time). Returns it and whether the calling thread stepped some group itself.
    fn async_traj(
        n: usize,
        threads: usize,
        batch: usize,
        steps: usize,
        pause: std::time::Duration,
    ) -> (Vec<Vec<Vec<u8>>>, bool) {
        let shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 11);
        let core = VecCore::new(shared, n, &["random"; 4], threads).unwrap();
        let mut p = core
            .into_pipeline::<u8>(batch, Extras::default())
            .ok()
            .unwrap();
        p.reset(Some(4)).unwrap();
        let mut t = vec![0u64; n];
        let mut got = vec![Vec::new(); n];
        // Skip the reset batches' rows: only steps are compared.
        let mut first = vec![true; n];
        let mut here = false;
        while got.iter().any(|g| g.len() < steps) {
            let b = p.recv().unwrap();
            let o = &b.outputs;
            let (d, a, r) = (
                o.obs.len() / batch,
                o.mask.len() / batch,
                o.reward.len() / batch,
            );
            let mut acts = vec![0i64; batch];
            for (k, act) in acts.iter_mut().enumerate() {
                let i = o.env_id[k] as usize;
                assert_eq!(i, b.group * batch + k, "rows in env order");
                if !std::mem::replace(&mut first[i], false) && got[i].len() < steps {
                    let mut row = o.obs[k * d..(k + 1) * d].to_vec();
                    row.extend(o.mask[k * a..(k + 1) * a].iter().map(|&x| x as u8));
                    row.extend(o.reward[k * r..(k + 1) * r].iter().map(|&x| x as i8 as u8));
                    row.push(o.terminated[k] as u8);
                    got[i].push(row);
                }
                *act = choose(&o.mask[k * a..(k + 1) * a], i as i64, t[i]);
                t[i] += 1;
            }
            std::thread::sleep(pause);
            p.send(b.group, acts).unwrap();
            here |= !p.stepped_here.is_empty();
        }
        while p.in_flight() > 0 {
            p.recv().unwrap();
        }
        let core = p.into_core().ok().unwrap();
        assert_eq!(core.num_envs(), n);
        (got, here)
    }

    #[test]
    fn async_and_sync_give_identical_per_env_trajectories() {
        let (n, steps) = (24, 120);
        let want = sync_traj(n, 1, steps);
        for (threads, batch) in [(1, 8), (2, 12), (3, 24), (2, 6)] {
            let (got, _) = async_traj(n, threads, batch, steps, std::time::Duration::ZERO);
            assert_eq!(got, want, "threads {threads}, batch {batch}");
        }
    }

    #[test]
    fn a_group_sent_while_the_driver_sleeps_is_stepped_by_the_caller_with_the_same_results() {
        let (n, steps) = (24, 12);
        let want = sync_traj(n, 1, steps);
        // 20 ms between sends: longer than any adaptive poll, so the driver blocks.
        for (threads, batch) in [(1, 12), (2, 8)] {
            let pause = std::time::Duration::from_millis(20);
            let (got, here) = async_traj(n, threads, batch, steps, pause);
            assert_eq!(got, want, "threads {threads}, batch {batch}");
            assert!(here, "no group was stepped on the calling thread");
        }
    }

    #[test]
    fn refusals_change_nothing() {
        let shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 1);
        let core = VecCore::new(shared, 8, &["random"; 4], 2).unwrap();
        let (core, e) = *core
            .into_pipeline::<f32>(3, Extras::default())
            .err()
            .unwrap();
        assert!(matches!(e, PipelineError::BatchSize { .. }));
        let mut p = core
            .into_pipeline::<f32>(4, Extras::default())
            .ok()
            .unwrap();
        assert_eq!(p.recv().err(), Some(PipelineError::NothingSent));
        p.reset(None).unwrap();
        assert!(matches!(
            p.reset(None),
            Err(PipelineError::InFlight { groups: 2 })
        ));
        let b0 = p.recv().unwrap();
        assert_eq!(b0.group, 0);
        let mut acts = p.bot_actions(0).unwrap();
        assert!(matches!(
            p.bot_actions(1),
            Err(PipelineError::NotHeld { group: 1 })
        ));
        acts[2] = 60;
        let e = p.send(0, acts.clone()).unwrap_err();
        assert!(
            e.to_string().starts_with("illegal action in env 2: "),
            "{e}"
        );
        acts = p.bot_actions(0).unwrap();
        assert!(p.group_of(&[0, 1, 2, 4], &acts).is_err());
        assert!(p.group_of(&[0, 1, 1, 3], &acts).is_err());
        let (g, ordered) = p.group_of(&[3, 2, 1, 0], &acts).unwrap();
        assert_eq!(
            (g, ordered),
            (0, acts.iter().rev().copied().collect::<Vec<_>>())
        );
        p.send(0, acts.clone()).unwrap();
        assert!(matches!(
            p.send(0, acts),
            Err(PipelineError::NotHeld { group: 0 })
        ));
        let p = match p.into_core().map_err(|b| *b) {
            Err((p, PipelineError::InFlight { groups: 2 })) => p,
            _ => panic!("into_core with groups in flight"),
        };
        drop(p); // the driver stops with groups still in flight
    }
}
