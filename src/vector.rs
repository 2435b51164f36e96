//! Many games stepped together: the pure-Rust core behind Python's `VectorEnv`.
//!
//! [`VecCore`] owns the games and a private rayon pool; [`VecCore::reset_all`] and
//! [`VecCore::step_all`] write one row per env into caller-provided flat buffers
//! ([`Buffers`]: observations, legal masks, rewards, end flags, seat to move). The Python
//! binding (`src/python/vector.rs`) hands it numpy arrays; benchmarks hand it `Vec`s.
//!
//! Determinism: env `i`'s `e`-th episode is dealt from `derive(seed, i, e, 0)` and its bots
//! are reseeded from `derive(seed, i, e, 1 + seat)` at every reset, so every env's
//! trajectory depends only on the master seed and its own actions — never on the thread
//! count or on how the pool splits the work.

use rayon::prelude::*;

use crate::bots::{bot_by_name, Bot, UnknownBot};
use crate::card::Card;
use crate::config::GameConfig;
use crate::observation::{encode, observation_size, write_mask_bool, ObsValue};
use crate::reward::{rewards, RewardMode};
use crate::state::State;

/// SplitMix64 finaliser.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A seed for stream `k` of episode `episode` of env `env` under master seed `seed`.
#[inline]
pub fn derive(seed: u64, env: u64, episode: u64, k: u64) -> u64 {
    let mut h = mix(seed ^ 0x9e37_79b9_7f4a_7c15);
    for x in [env, episode, k] {
        h = mix(h ^ x.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    }
    h
}

/// What every env shares.
#[derive(Clone, Copy, Debug)]
pub struct Shared {
    pub config: GameConfig,
    pub seed: u64,
    /// `None`: self-play (the caller acts for whichever seat is to move).
    /// `Some(None)`: learner seat drawn per episode; `Some(Some(s))`: fixed seat `s`.
    pub learner: Option<Option<u8>>,
    pub reward: RewardMode,
}

impl Shared {
    /// Reward values per env row: 1 (learner mode) or one per seat (self-play).
    pub fn reward_width(&self) -> usize {
        match self.learner {
            Some(_) => 1,
            None => self.config.num_players(),
        }
    }
}

/// One env.
pub struct Slot {
    index: u64,
    episode: u64,
    state: State,
    /// The seat the caller plays (learner mode); unused in self-play.
    learner: u8,
    /// One bot per seat (learner mode only; the learner's seat's bot is idle).
    bots: Vec<Box<dyn Bot>>,
}

/// Flat output buffers, `num_envs` rows each (row-major): observations `[N, D]`, masks
/// `[N, num_actions]`, rewards `[N, reward_width]`, flags and seat to move `[N]`.
pub struct Buffers<'a, T> {
    pub obs: &'a mut [T],
    pub mask: &'a mut [bool],
    pub reward: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub to_play: &'a mut [i64],
}

/// Owned buffers of the right sizes (benchmarks and Rust users).
pub struct OwnedBuffers<T> {
    pub obs: Vec<T>,
    pub mask: Vec<bool>,
    pub reward: Vec<f32>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub to_play: Vec<i64>,
}

impl<T: ObsValue> OwnedBuffers<T> {
    pub fn new(core: &VecCore) -> OwnedBuffers<T> {
        let n = core.num_envs();
        let cfg = core.shared.config;
        OwnedBuffers {
            obs: vec![T::ZERO; n * observation_size(cfg.variant)],
            mask: vec![false; n * cfg.num_actions()],
            reward: vec![0.0; n * core.shared.reward_width()],
            terminated: vec![false; n],
            truncated: vec![false; n],
            to_play: vec![0; n],
        }
    }

    pub fn as_buffers(&mut self) -> Buffers<'_, T> {
        Buffers {
            obs: &mut self.obs,
            mask: &mut self.mask,
            reward: &mut self.reward,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            to_play: &mut self.to_play,
        }
    }
}

/// One env's row of every output buffer.
struct Row<'a, T> {
    obs: &'a mut [T],
    mask: &'a mut [bool],
    reward: &'a mut [f32],
    terminated: &'a mut bool,
    truncated: &'a mut bool,
    to_play: &'a mut i64,
}

impl Slot {
    /// The game in progress.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Episodes this env has finished.
    pub fn episode(&self) -> u64 {
        self.episode
    }

    /// The learner's seat (learner mode).
    pub fn learner(&self) -> u8 {
        self.learner
    }

    fn reset(&mut self, sh: &Shared) {
        let mut config = sh.config;
        config.seed = derive(sh.seed, self.index, self.episode, 0);
        self.state = State::new(config);
        let n = config.num_players() as u64;
        self.learner = match sh.learner {
            Some(Some(s)) => s,
            _ => (derive(sh.seed, self.index, self.episode, 99) % n) as u8,
        };
        for (p, b) in self.bots.iter_mut().enumerate() {
            b.reseed(derive(sh.seed, self.index, self.episode, 1 + p as u64));
        }
    }

    /// Lets the bots move until it is the learner's turn or the game is over, adding the
    /// learner's rewards to `acc`.
    fn run_bots(&mut self, sh: &Shared, acc: &mut [f32; 4]) {
        if sh.learner.is_none() {
            return;
        }
        while let Some(p) = self.state.current_player() {
            if p == self.learner as usize {
                break;
            }
            let card = self.bots[p].act(&self.state.view(p));
            let out = self
                .state
                .apply(card)
                .expect("a bot returned an illegal action");
            add(acc, rewards(sh.reward, &out, &self.state));
        }
    }

    /// The seat whose observation is written: the learner, or the player to move.
    fn observer(&self, sh: &Shared) -> usize {
        match sh.learner {
            Some(_) => self.learner as usize,
            None => self.state.current_player().unwrap_or(0),
        }
    }

    fn write<T: ObsValue>(&self, sh: &Shared, row: &mut Row<'_, T>) {
        let seat = self.observer(sh);
        let view = self.state.view(seat);
        encode(&view, row.obs);
        write_mask_bool(view.legal_actions(), row.mask);
        *row.to_play = self.state.current_player().map_or(-1, |p| p as i64);
    }

    fn reset_row<T: ObsValue>(&mut self, sh: &Shared, row: &mut Row<'_, T>) {
        self.episode = 0;
        self.reset(sh);
        self.run_bots(sh, &mut [0f32; 4]);
        row.reward.fill(0.0);
        *row.terminated = false;
        *row.truncated = false;
        self.write(sh, row);
    }

    /// Applies `action` (already checked legal), runs the bots, auto-resets at the end.
    fn step<T: ObsValue>(&mut self, sh: &Shared, action: u8, row: &mut Row<'_, T>) {
        let mut acc = [0f32; 4];
        let card = Card::new(action).expect("checked");
        let out = self.state.apply(card).expect("checked legal");
        add(&mut acc, rewards(sh.reward, &out, &self.state));
        self.run_bots(sh, &mut acc);
        match sh.learner {
            Some(_) => row.reward[0] = acc[self.learner as usize],
            None => row.reward.copy_from_slice(&acc[..row.reward.len()]),
        }
        *row.terminated = self.state.is_over() && !self.state.is_truncated();
        *row.truncated = self.state.is_truncated();
        if self.state.is_over() {
            self.episode += 1;
            self.reset(sh);
            self.run_bots(sh, &mut [0f32; 4]);
        }
        self.write(sh, row);
    }
}

#[inline]
fn add(acc: &mut [f32; 4], r: [f32; 4]) {
    for (a, x) in acc.iter_mut().zip(r) {
        *a += x;
    }
}

/// Why [`VecCore::new`] failed.
#[derive(Debug)]
pub enum VecCoreError {
    UnknownBot(UnknownBot),
    ThreadPool(String),
}

impl std::fmt::Display for VecCoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VecCoreError::UnknownBot(e) => e.fmt(f),
            VecCoreError::ThreadPool(e) => write!(f, "cannot start the thread pool: {e}"),
        }
    }
}

/// `num_envs` games stepped together on a private rayon pool.
pub struct VecCore {
    pub shared: Shared,
    slots: Vec<Slot>,
    pool: rayon::ThreadPool,
    num_threads: usize,
}

impl VecCore {
    /// `num_envs` envs; in learner mode `opponents` names one bot per seat.
    /// Call [`reset_all`](Self::reset_all) before the first step.
    pub fn new(
        shared: Shared,
        num_envs: usize,
        opponents: &[String],
        num_threads: usize,
    ) -> Result<VecCore, VecCoreError> {
        let mut slots = Vec::with_capacity(num_envs);
        for i in 0..num_envs {
            let bots = if shared.learner.is_some() {
                opponents
                    .iter()
                    .map(|name| bot_by_name(name, 0))
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(VecCoreError::UnknownBot)?
            } else {
                Vec::new()
            };
            slots.push(Slot {
                index: i as u64,
                episode: 0,
                state: State::new(shared.config),
                learner: 0,
                bots,
            });
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(num_threads)
            .build()
            .map_err(|e| VecCoreError::ThreadPool(e.to_string()))?;
        Ok(VecCore {
            shared,
            slots,
            pool,
            num_threads,
        })
    }

    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    pub fn num_threads(&self) -> usize {
        self.num_threads
    }

    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Runs `f` on every env and its row, in parallel.
    fn for_rows<T: ObsValue>(
        &mut self,
        bufs: Buffers<'_, T>,
        f: impl Fn(&mut Slot, &Shared, &mut Row<'_, T>) + Sync,
    ) {
        let n = self.slots.len();
        let sh = self.shared;
        let d = observation_size(sh.config.variant);
        let a = sh.config.num_actions();
        let r = sh.reward_width();
        assert!(
            bufs.obs.len() == n * d
                && bufs.mask.len() == n * a
                && bufs.reward.len() == n * r
                && bufs.terminated.len() == n
                && bufs.truncated.len() == n
                && bufs.to_play.len() == n,
            "VecCore buffers have the wrong sizes"
        );
        let slots = &mut self.slots;
        self.pool.install(|| {
            slots
                .par_iter_mut()
                .zip(bufs.obs.par_chunks_mut(d))
                .zip(bufs.mask.par_chunks_mut(a))
                .zip(bufs.reward.par_chunks_mut(r))
                .zip(bufs.terminated.par_iter_mut())
                .zip(bufs.truncated.par_iter_mut())
                .zip(bufs.to_play.par_iter_mut())
                .with_min_len(16)
                .for_each(
                    |((((((slot, obs), mask), reward), terminated), truncated), to_play)| {
                        let mut row = Row {
                            obs,
                            mask,
                            reward,
                            terminated,
                            truncated,
                            to_play,
                        };
                        f(slot, &sh, &mut row);
                    },
                );
        });
    }

    /// Resets every env (episode counters restart at 0) and writes the first rows;
    /// rewards and flags become 0.
    pub fn reset_all<T: ObsValue>(&mut self, bufs: Buffers<'_, T>) {
        self.for_rows(bufs, |slot, sh, row| slot.reset_row(sh, row));
    }

    /// `Err((env, why))` for the first action that is not legal in its env.
    pub fn check_actions(&self, actions: &[i64]) -> Result<(), (usize, String)> {
        for (i, (slot, &a)) in self.slots.iter().zip(actions).enumerate() {
            let legal = slot.state.legal_actions();
            if !(0..56).contains(&a) || !Card::new(a as u8).is_some_and(|c| legal.contains(c)) {
                let mut probe = slot.state;
                let why = match probe.apply_action(a as i128) {
                    Err(e) => e.to_string(),
                    Ok(_) => "not legal".into(),
                };
                return Err((i, why));
            }
        }
        Ok(())
    }

    /// Applies one action per env (checked legal by [`check_actions`](Self::check_actions);
    /// an illegal one panics), runs the bots, resets finished games, writes every row.
    pub fn step_all<T: ObsValue>(&mut self, actions: &[u8], bufs: Buffers<'_, T>) {
        assert_eq!(actions.len(), self.slots.len(), "one action per env");
        self.for_rows(bufs, |slot, sh, row| {
            slot.step(sh, actions[slot.index as usize], row)
        });
    }
}
