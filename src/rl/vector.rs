//! Many games stepped together: the pure-Rust core behind Python's `VectorEnv`.
//!
//! [`VecCore`] owns `num_envs` games, their bots and a private rayon pool (one worker
//! fewer than its threads: the calling thread works too).
//! [`VecCore::reset`] and [`VecCore::step`] write one row per env into caller-provided
//! flat buffers ([`Buffers`]: observations, legal masks, rewards, end flags, seat to move);
//! finished games are reset automatically. [`VecCore::bot_actions`] asks each env's bots
//! for its pending decision. The Python class (`src/python/vector.rs`, feature `python`)
//! hands it numpy arrays; Rust users and benchmarks can hand it [`OwnedBuffers`].
//!
//! Determinism: env `i` of a core is env `env_offset + i` of the seed derivation. Its
//! `e`-th episode is dealt from `vector_seed(seed, env, e, 0)` (in `rng.rs`), its learner seat (when drawn) is
//! `vector_seed(seed, env, e, 99) % num_players`, and its bots are reseeded from
//! `vector_seed(seed, env, e, 1 + seat)` at every reset, so every env's trajectory depends only
//! on the master seed and its own actions — never on the thread count or on how the pool
//! splits the work.
//!
//! ```
//! use yokai_septet::vector::{OwnedBuffers, Shared, VecCore};
//! use yokai_septet::{GameConfig, Variant};
//!
//! let shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 7);
//! let mut core = VecCore::new(shared, 8, &["random"; 4], 1).unwrap();
//! let mut bufs = OwnedBuffers::<f32>::new(&core);
//! core.reset(&mut bufs.as_buffers());
//! for _ in 0..100 {
//!     let actions = core.bot_actions();
//!     core.step(&actions, &mut bufs.as_buffers()).unwrap();
//! }
//! ```

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use crate::bots::{bot_for_variant, Bot, BotError};
use crate::cards::Card;
use crate::error::IllegalAction;
use crate::rl::learner::bots_until_turn;
use crate::rl::observation::{encode, observation_size, write_mask_bool, ObsValue};
use crate::rl::reward::{rewards, RewardMode};
use crate::rl::state_tensor::{encode_state, state_size};
use crate::rules::config::GameConfig;
use crate::rules::state::State;

use crate::rng::vector_seed;

/// What every env shares.
#[derive(Clone, Copy, Debug)]
pub struct Shared {
    /// The game's configuration; its `seed` is ignored (each episode derives its own).
    pub config: GameConfig,
    /// The master seed.
    pub seed: u64,
    /// `None`: self-play (the caller acts for whichever seat is to move, rewards are one
    /// per seat). `Some(None)`: learner mode, the learner's seat drawn per episode;
    /// `Some(Some(s))`: learner mode, fixed seat `s`. In learner mode the bots play the
    /// other seats and the reward row is the learner's alone.
    pub learner: Option<Option<u8>>,
    /// How rewards are computed.
    pub reward: RewardMode,
    /// Env `i` of the core is env `env_offset + i` of the seed derivation (so that several
    /// cores can together step the envs of one larger, master-seeded batch).
    pub env_offset: u64,
}

impl Shared {
    /// Self-play with win rewards and no env offset.
    pub fn self_play(config: GameConfig, seed: u64) -> Shared {
        Shared {
            config,
            seed,
            learner: None,
            reward: RewardMode::Win,
            env_offset: 0,
        }
    }

    /// Reward values per env row: 1 (learner mode) or one per seat (self-play).
    pub fn reward_width(&self) -> usize {
        match self.learner {
            Some(_) => 1,
            None => self.config.num_players(),
        }
    }
}

/// One env: its game, episode counter, learner seat and bots.
pub struct Slot {
    index: u64,
    episode: u64,
    state: State,
    /// The seat the caller plays (learner mode); unused in self-play.
    learner: u8,
    /// One bot per seat, reseeded at every reset. Learner mode: the opponents (the
    /// learner's seat's bot is idle); self-play: what `bot_actions` asks.
    bots: Vec<Box<dyn Bot>>,
}

/// Flat output buffers, `num_envs` rows each (row-major): observations
/// `[N, observation_size]`, masks `[N, num_actions]`, rewards `[N, reward_width]`, end flags
/// and seat to move `[N]`, and optionally (empty when not wanted) the privileged state
/// tensors `[N, state_size]` ([`crate::state_tensor`]). Every call overwrites every row.
pub struct Buffers<'a, T> {
    pub obs: &'a mut [T],
    pub mask: &'a mut [bool],
    pub reward: &'a mut [f32],
    pub terminated: &'a mut [bool],
    pub truncated: &'a mut [bool],
    pub to_play: &'a mut [i64],
    pub state: &'a mut [T],
}

/// Owned buffers of the right sizes for a core (Rust users and benchmarks).
pub struct OwnedBuffers<T> {
    pub obs: Vec<T>,
    pub mask: Vec<bool>,
    pub reward: Vec<f32>,
    pub terminated: Vec<bool>,
    pub truncated: Vec<bool>,
    pub to_play: Vec<i64>,
    pub state: Vec<T>,
}

impl<T: ObsValue> OwnedBuffers<T> {
    /// Zeroed buffers sized for `core`, with no state tensors (see
    /// [`with_state_tensors`](Self::with_state_tensors)).
    pub fn new(core: &VecCore) -> OwnedBuffers<T> {
        let n = core.num_envs();
        let sh = core.shared();
        OwnedBuffers {
            obs: vec![T::ZERO; n * observation_size(sh.config.variant)],
            mask: vec![false; n * sh.config.num_actions()],
            reward: vec![0.0; n * sh.reward_width()],
            terminated: vec![false; n],
            truncated: vec![false; n],
            to_play: vec![0; n],
            state: Vec::new(),
        }
    }

    /// These buffers, also receiving every env's state tensor.
    pub fn with_state_tensors(mut self, core: &VecCore) -> OwnedBuffers<T> {
        self.state = vec![T::ZERO; core.num_envs() * state_size(core.shared().config.variant)];
        self
    }

    /// Borrows them as [`Buffers`].
    pub fn as_buffers(&mut self) -> Buffers<'_, T> {
        Buffers {
            obs: &mut self.obs,
            mask: &mut self.mask,
            reward: &mut self.reward,
            terminated: &mut self.terminated,
            truncated: &mut self.truncated,
            to_play: &mut self.to_play,
            state: &mut self.state,
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

    /// Episodes this env has finished since the last [`VecCore::reset`].
    pub fn episode(&self) -> u64 {
        self.episode
    }

    /// This env's index in the seed derivation (`env_offset` + its position).
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The learner's seat (learner mode), or the seat to move (`-1`: none; self-play).
    pub fn learner_seat(&self, sh: &Shared) -> i64 {
        match sh.learner {
            Some(_) => self.learner as i64,
            None => self.state.current_player().map_or(-1, |p| p as i64),
        }
    }

    /// The action this env's bot for the seat to move would choose (nothing is applied);
    /// `None` when no decision is pending.
    pub fn bot_action(&mut self) -> Option<Card> {
        let p = self.state.current_player()?;
        Some(self.bots[p].act(&self.state.view(p)))
    }

    /// This env's position in the core (its index less the offset).
    fn position(&self, sh: &Shared) -> usize {
        self.index.wrapping_sub(sh.env_offset) as usize
    }

    fn reset(&mut self, sh: &Shared) {
        let mut config = sh.config;
        config.seed = vector_seed(sh.seed, self.index, self.episode, 0);
        self.state = State::new(config);
        let n = config.num_players() as u64;
        self.learner = match sh.learner {
            Some(Some(s)) => s,
            _ => (vector_seed(sh.seed, self.index, self.episode, 99) % n) as u8,
        };
        for (p, b) in self.bots.iter_mut().enumerate() {
            b.reseed(vector_seed(sh.seed, self.index, self.episode, 1 + p as u64));
        }
    }

    /// Lets the bots move until it is the learner's turn or the game is over, adding the
    /// learner's rewards to `acc`.
    fn run_bots(&mut self, sh: &Shared, acc: &mut [f32; 4]) {
        if sh.learner.is_none() {
            return;
        }
        let bots = &mut self.bots;
        bots_until_turn(
            &mut self.state,
            self.learner as usize,
            sh.reward,
            |p, view| bots[p].act(view),
            |r| add(acc, *r),
        );
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
        *row.terminated = crate::rl::reward::terminated(&self.state);
        *row.truncated = crate::rl::reward::truncated(&self.state);
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

/// `Err` naming the first env of `slots` (numbered from `first`) whose action is not
/// legal there, with the reason [`State::apply_action`] gives.
fn check_range(slots: &[Slot], actions: &[i64], first: usize) -> Result<(), StepError> {
    for (i, (slot, &a)) in slots.iter().zip(actions).enumerate() {
        let legal = slot.state.legal_actions();
        if !(0..56).contains(&a) || !Card::new(a as u8).is_some_and(|c| legal.contains(c)) {
            // The quick test above only filters: the engine's own check, on a copy, says
            // whether and why the action is illegal.
            let mut probe = slot.state;
            if let Err(action) = probe.apply_action(a as i128) {
                return Err(StepError::Illegal {
                    env: first + i,
                    action,
                });
            }
        }
    }
    Ok(())
}

/// A run of consecutive envs and their rows of every buffer: the unit of parallel work.
struct Chunk<'a, T> {
    slots: &'a mut [Slot],
    bufs: Buffers<'a, T>,
}

impl<'a, T: ObsValue> Buffers<'a, T> {
    /// Splits the buffers and `slots` into chunks of `ch` envs (checking every size).
    fn chunks<'s>(
        &'s mut self,
        sh: &Shared,
        slots: &'s mut [Slot],
        ch: usize,
    ) -> Vec<Chunk<'s, T>> {
        let n = slots.len();
        let d = observation_size(sh.config.variant);
        let a = sh.config.num_actions();
        let r = sh.reward_width();
        let st = if self.state.is_empty() {
            0
        } else {
            state_size(sh.config.variant)
        };
        assert!(
            self.obs.len() == n * d
                && self.mask.len() == n * a
                && self.reward.len() == n * r
                && self.terminated.len() == n
                && self.truncated.len() == n
                && self.to_play.len() == n
                && self.state.len() == n * st,
            "VecCore buffers have the wrong sizes"
        );
        let mut rest = Chunk {
            slots,
            bufs: Buffers {
                obs: &mut *self.obs,
                mask: &mut *self.mask,
                reward: &mut *self.reward,
                terminated: &mut *self.terminated,
                truncated: &mut *self.truncated,
                to_play: &mut *self.to_play,
                state: &mut *self.state,
            },
        };
        let mut out = Vec::with_capacity(n.div_ceil(ch.max(1)));
        while rest.slots.len() > ch {
            let (head, tail) = rest.split_at(ch, [d, a, r, st]);
            out.push(head);
            rest = tail;
        }
        out.push(rest);
        out
    }
}

impl<'a, T: ObsValue> Chunk<'a, T> {
    /// The first `k` envs, and the rest (`[d, a, r, st]`: values per row of the
    /// observation, mask, reward and state buffers).
    fn split_at(self, k: usize, [d, a, r, st]: [usize; 4]) -> (Chunk<'a, T>, Chunk<'a, T>) {
        let b = self.bufs;
        let (st0, st1) = b.state.split_at_mut(k * st);
        let (s0, s1) = self.slots.split_at_mut(k);
        let (o0, o1) = b.obs.split_at_mut(k * d);
        let (m0, m1) = b.mask.split_at_mut(k * a);
        let (r0, r1) = b.reward.split_at_mut(k * r);
        let (te0, te1) = b.terminated.split_at_mut(k);
        let (tr0, tr1) = b.truncated.split_at_mut(k);
        let (p0, p1) = b.to_play.split_at_mut(k);
        let chunk = |slots, obs, mask, reward, terminated, truncated, to_play, state| Chunk {
            slots,
            bufs: Buffers {
                obs,
                mask,
                reward,
                terminated,
                truncated,
                to_play,
                state,
            },
        };
        (
            chunk(s0, o0, m0, r0, te0, tr0, p0, st0),
            chunk(s1, o1, m1, r1, te1, tr1, p1, st1),
        )
    }

    /// Runs `f` on each env of the chunk and its row.
    fn for_each_row(self, sh: &Shared, f: &impl Fn(&mut Slot, &Shared, &mut Row<'_, T>)) {
        let n = self.slots.len();
        let b = self.bufs;
        let d = b.obs.len() / n.max(1);
        let a = b.mask.len() / n.max(1);
        let r = b.reward.len() / n.max(1);
        let rows = b
            .obs
            .chunks_exact_mut(d)
            .zip(b.mask.chunks_exact_mut(a))
            .zip(b.reward.chunks_exact_mut(r))
            .zip(b.terminated.iter_mut())
            .zip(b.truncated.iter_mut())
            .zip(b.to_play.iter_mut());
        for (slot, (((((obs, mask), reward), terminated), truncated), to_play)) in
            self.slots.iter_mut().zip(rows)
        {
            let mut row = Row {
                obs,
                mask,
                reward,
                terminated,
                truncated,
                to_play,
            };
            f(slot, sh, &mut row);
        }
        if !b.state.is_empty() {
            let st = b.state.len() / n;
            for (slot, out) in self.slots.iter().zip(b.state.chunks_exact_mut(st)) {
                encode_state(&slot.state, out);
            }
        }
    }

    /// Steps every env of the chunk with its action from `actions` (all envs', checked).
    fn step(self, sh: &Shared, actions: &[i64]) {
        self.for_each_row(sh, &|slot, sh, row| {
            slot.step(sh, actions[slot.position(sh)] as u8, row)
        });
    }
}

/// Envs per unit of parallel work: about eight units per thread (so a thread that falls
/// behind is helped), but never fewer than 16 envs (so scheduling stays cheap next to
/// the work).
fn chunk_len(num_envs: usize, num_threads: usize) -> usize {
    (num_envs / (8 * num_threads)).max(16)
}

/// Why [`VecCore::new`] failed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum VecCoreError {
    /// A name in `opponents` is not a bot.
    Bot(BotError),
    /// `opponents` does not name one bot per seat.
    Opponents { given: usize, seats: usize },
    /// The fixed learner seat is not a seat of the variant.
    LearnerSeat { seat: u8, seats: usize },
    /// The rayon pool could not start.
    ThreadPool(String),
}

impl std::fmt::Display for VecCoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            VecCoreError::Bot(e) => e.fmt(f),
            VecCoreError::Opponents { given, seats } => write!(
                f,
                "opponents lists {given} names, expected one per seat ({seats})"
            ),
            VecCoreError::LearnerSeat { seat, seats } => write!(
                f,
                "learner_seat {seat} is out of range: seats are 0..{}",
                seats - 1
            ),
            VecCoreError::ThreadPool(e) => write!(f, "cannot start the thread pool: {e}"),
        }
    }
}

impl std::error::Error for VecCoreError {}

/// Why [`VecCore::step`] refused a batch of actions (nothing changed).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StepError {
    /// Not one action per env.
    Length { expected: usize, got: usize },
    /// The first env whose action is not legal there, and why.
    Illegal { env: usize, action: IllegalAction },
}

impl std::fmt::Display for StepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StepError::Length { expected, got } => {
                write!(f, "expected {expected} actions (one per env), got {got}")
            }
            StepError::Illegal { env, action } => {
                write!(f, "illegal action in env {env}: {action}")
            }
        }
    }
}

impl std::error::Error for StepError {}

impl StepError {
    /// The env it names (0 for a wrong length).
    fn env(&self) -> usize {
        match self {
            StepError::Length { .. } => 0,
            StepError::Illegal { env, .. } => *env,
        }
    }
}

/// `num_envs` games stepped together by `num_threads` threads: the caller's and a
/// private rayon pool's.
pub struct VecCore {
    shared: Shared,
    slots: Vec<Slot>,
    /// `num_threads - 1` workers (none for one thread): the calling thread is the other.
    pool: Option<rayon::ThreadPool>,
    num_threads: usize,
    /// Envs per unit of parallel work.
    chunk_len: usize,
}

impl VecCore {
    /// `num_envs` envs (env `i` is env `shared.env_offset + i` of the seed derivation),
    /// with one bot per seat named by `opponents` (learner mode: the opponents; self-play:
    /// what [`bot_actions`](Self::bot_actions) asks), stepped by `num_threads` threads.
    /// Call [`reset`](Self::reset) before the first step.
    pub fn new<S: AsRef<str>>(
        shared: Shared,
        num_envs: usize,
        opponents: &[S],
        num_threads: usize,
    ) -> Result<VecCore, VecCoreError> {
        let seats = shared.config.num_players();
        if let Some(Some(seat)) = shared.learner {
            if seat as usize >= seats {
                return Err(VecCoreError::LearnerSeat { seat, seats });
            }
        }
        if opponents.len() != seats {
            return Err(VecCoreError::Opponents {
                given: opponents.len(),
                seats,
            });
        }
        let mut slots = Vec::with_capacity(num_envs);
        for i in 0..num_envs {
            let bots = opponents
                .iter()
                .map(|name| bot_for_variant(name.as_ref(), 0, shared.config.variant))
                .collect::<Result<Vec<_>, _>>()
                .map_err(VecCoreError::Bot)?;
            slots.push(Slot {
                index: shared.env_offset.wrapping_add(i as u64),
                episode: 0,
                state: State::new(shared.config),
                learner: 0,
                bots,
            });
        }
        // The calling thread is one of the `num_threads` (see `share_out`).
        let pool = match num_threads {
            0 | 1 => None,
            t => Some(
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t - 1)
                    .build()
                    .map_err(|e| VecCoreError::ThreadPool(e.to_string()))?,
            ),
        };
        Ok(VecCore {
            shared,
            slots,
            pool,
            num_threads,
            chunk_len: chunk_len(num_envs, num_threads),
        })
    }

    /// What every env shares.
    pub fn shared(&self) -> &Shared {
        &self.shared
    }

    /// Replaces the master seed (takes effect at the next reset of each env).
    pub fn set_seed(&mut self, seed: u64) {
        self.shared.seed = seed;
    }

    /// Number of envs.
    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// Threads in the pool.
    pub fn num_threads(&self) -> usize {
        self.num_threads
    }

    /// Every env, in order.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Env `i`, if there is one.
    pub fn slot(&self, i: usize) -> Option<&Slot> {
        self.slots.get(i)
    }

    /// The learner's seat in each env (learner mode), or the seat to move (self-play).
    pub fn learner_seats(&self) -> Vec<i64> {
        let sh = &self.shared;
        self.slots.iter().map(|s| s.learner_seat(sh)).collect()
    }

    /// Episodes finished so far by each env.
    pub fn episodes(&self) -> Vec<u64> {
        self.slots.iter().map(|s| s.episode).collect()
    }

    /// Runs `f` on every env and its row, in chunks of envs shared out over the threads.
    fn for_rows<T: ObsValue>(
        &mut self,
        bufs: &mut Buffers<'_, T>,
        f: impl Fn(&mut Slot, &Shared, &mut Row<'_, T>) + Sync,
    ) {
        let sh = self.shared;
        let chunks = bufs.chunks(&sh, &mut self.slots, self.chunk_len);
        share_out(self.pool.as_ref(), chunks, |c| c.for_each_row(&sh, &f));
    }

    /// Resets every env (episode counters restart at 0), lets the bots move up to the
    /// learner's first decision, and writes the first rows; rewards and flags become 0.
    ///
    /// Panics if a buffer has the wrong size.
    pub fn reset<T: ObsValue>(&mut self, bufs: &mut Buffers<'_, T>) {
        self.for_rows(bufs, |slot, sh, row| slot.reset_row(sh, row));
    }

    /// `Err` for a batch that is not one legal action per env (the first illegal one is
    /// named, with the reason [`State::apply_action`] gives). Checked in parallel
    /// (`&mut`: the bots make an env `Send` but not `Sync`).
    pub fn check_actions(&mut self, actions: &[i64]) -> Result<(), StepError> {
        if actions.len() != self.slots.len() {
            return Err(StepError::Length {
                expected: self.slots.len(),
                got: actions.len(),
            });
        }
        let ch = self.chunk_len;
        let first: Mutex<Option<StepError>> = Mutex::new(None);
        let items = self
            .slots
            .chunks_mut(ch)
            .zip(actions.chunks(ch))
            .enumerate();
        share_out(self.pool.as_ref(), items.collect(), |(k, (s, a))| {
            if let Err(e) = check_range(s, a, k * ch) {
                let mut f = first.lock().unwrap_or_else(|p| p.into_inner());
                // Keep the lowest env index, whichever thread finds what first.
                if f.as_ref().is_none_or(|g| g.env() > e.env()) {
                    *f = Some(e);
                }
            }
        });
        match first.into_inner().unwrap_or_else(|p| p.into_inner()) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// Applies one action per env (a card id: the learner's decision, or in self-play the
    /// decision of the seat to move), then in parallel lets the bots move, resets finished
    /// games (the row's flags and rewards describe the step that ended them; its
    /// observation is the new game's) and writes every row. Every action is checked first,
    /// in parallel: if any is illegal, nothing changes.
    ///
    /// Panics if a buffer has the wrong size.
    pub fn step<T: ObsValue>(
        &mut self,
        actions: &[i64],
        bufs: &mut Buffers<'_, T>,
    ) -> Result<(), StepError> {
        self.check_actions(actions)?;
        self.step_checked(actions, bufs);
        Ok(())
    }

    /// [`step`](Self::step) for actions that passed [`check_actions`](Self::check_actions)
    /// with no change to the core since (an illegal action panics).
    pub(crate) fn step_checked<T: ObsValue>(&mut self, actions: &[i64], bufs: &mut Buffers<'_, T>) {
        assert_eq!(actions.len(), self.slots.len(), "one action per env");
        let sh = self.shared;
        let chunks = bufs.chunks(&sh, &mut self.slots, self.chunk_len);
        share_out(self.pool.as_ref(), chunks, |c| c.step(&sh, actions));
    }

    /// The action each env's bots choose for its pending decision (`-1` where none is
    /// pending; nothing is applied). In self-play the bot of the seat to move decides, in
    /// learner mode the bot of the learner's seat. Bots are reseeded from the master seed
    /// at every episode, so stepping with these actions is deterministic.
    pub fn bot_actions(&mut self) -> Vec<i64> {
        let mut out = vec![-1i64; self.slots.len()];
        let ch = self.chunk_len;
        let items = self.slots.chunks_mut(ch).zip(out.chunks_mut(ch));
        share_out(self.pool.as_ref(), items.collect(), |(slots, out)| {
            for (s, o) in slots.iter_mut().zip(out) {
                *o = s.bot_action().map_or(-1, |c| c.id() as i64);
            }
        });
        out
    }
}

/// Runs `work` on every item, shared out over the pool's workers and the calling thread:
/// each takes the next item left until none is (so a thread that falls behind is helped).
/// The pool has one worker fewer than the core's threads, as the calling thread works
/// too: a call wakes only the workers, and with no pool (one thread) nothing is handed
/// over at all.
fn share_out<I: Send>(pool: Option<&rayon::ThreadPool>, items: Vec<I>, work: impl Fn(I) + Sync) {
    let pool = match pool {
        Some(p) if items.len() > 1 => p,
        _ => return items.into_iter().for_each(work),
    };
    let cells: Vec<Mutex<Option<I>>> = items.into_iter().map(|i| Mutex::new(Some(i))).collect();
    let next = AtomicUsize::new(0);
    let run = || {
        while let Some(cell) = cells.get(next.fetch_add(1, Ordering::Relaxed)) {
            let item = cell.lock().unwrap_or_else(|p| p.into_inner()).take();
            if let Some(item) = item {
                work(item);
            }
        }
    };
    pool.in_place_scope(|s| {
        for _ in 0..pool.current_num_threads() {
            s.spawn(|_| run());
        }
        run();
    });
}

/// The work a step does per env, by hand and without the batch machinery: the yardstick
/// of the VectorEnv's own cost (`benches/engine.rs`, `benches/python_speed.py`). For each
/// game: a random legal action (`pick` from `rng`), `apply`, a new game (seed `*next_seed`,
/// then incremented) when it ends, the mover's observation into its row of `obs` and its
/// mask into its row of `mask`. Returns the decisions made (one per game).
#[doc(hidden)]
pub fn yardstick_pass<T: ObsValue>(
    games: &mut [State],
    obs: &mut [T],
    mask: &mut [bool],
    mut pick: impl FnMut() -> u32,
    next_seed: &mut u64,
) -> u64 {
    let Some(first) = games.first() else { return 0 };
    let v = first.variant();
    let (d, a) = (observation_size(v), first.config().num_actions());
    let rows = obs.chunks_exact_mut(d).zip(mask.chunks_exact_mut(a));
    for (s, (o, m)) in games.iter_mut().zip(rows) {
        s.apply(s.legal_actions().pick(pick()).expect("a legal action"))
            .expect("legal");
        if s.is_over() {
            *s = State::new(GameConfig {
                seed: *next_seed,
                ..*s.config()
            });
            *next_seed += 1;
        }
        let view = s.view(s.current_player().expect("a new game has a mover"));
        encode(&view, o);
        write_mask_bool(view.legal_actions(), m);
    }
    games.len() as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::config::Variant;

    fn run(threads: usize, learner: Option<Option<u8>>, offset: u64) -> (Vec<f32>, Vec<u64>) {
        let mut shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 5);
        shared.learner = learner;
        shared.env_offset = offset;
        let mut core = VecCore::new(shared, 40, &["random"; 4], threads).unwrap();
        let mut b = OwnedBuffers::<f32>::new(&core);
        core.reset(&mut b.as_buffers());
        let mut obs = Vec::new();
        for _ in 0..300 {
            let acts = core.bot_actions();
            core.step(&acts, &mut b.as_buffers()).unwrap();
            obs.extend_from_slice(&b.obs[..64]);
            obs.extend_from_slice(&b.reward);
        }
        (obs, core.episodes())
    }

    #[test]
    fn deterministic_at_any_thread_count() {
        for learner in [None, Some(None), Some(Some(2))] {
            let a = run(1, learner, 0);
            assert_eq!(a, run(3, learner, 0));
            assert!(a.1.iter().all(|&e| e > 0), "every env finished a game");
        }
    }

    #[test]
    fn offset_changes_the_deals() {
        assert_ne!(run(1, None, 0), run(1, None, 1000));
    }

    #[test]
    fn illegal_actions_change_nothing() {
        let shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 1);
        let mut core = VecCore::new(shared, 3, &["random"; 4], 1).unwrap();
        let mut b = OwnedBuffers::<u8>::new(&core);
        core.reset(&mut b.as_buffers());
        let before = b.obs.clone();
        assert!(matches!(
            core.step(&[0, 0], &mut b.as_buffers()),
            Err(StepError::Length {
                expected: 3,
                got: 2
            })
        ));
        let mut acts = core.bot_actions();
        acts[1] = i64::MAX;
        let e = core.step(&acts, &mut b.as_buffers()).unwrap_err();
        assert!(
            e.to_string().starts_with("illegal action in env 1: "),
            "{e}"
        );
        assert_eq!(b.obs, before);
        assert!(core.episodes().iter().all(|&e| e == 0));
    }

    #[test]
    fn parallel_check_names_the_first_illegal_env_and_changes_nothing() {
        let shared = Shared::self_play(GameConfig::new(Variant::Seal, 0), 2);
        let mut core = VecCore::new(shared, 100, &["random"; 4], 2).unwrap();
        let mut b = OwnedBuffers::<u8>::new(&core).with_state_tensors(&core);
        core.reset(&mut b.as_buffers());
        let (obs, state) = (b.obs.clone(), b.state.clone());
        let mut acts = core.bot_actions();
        acts[70] = -1;
        acts[33] = 99;
        let e = core.step(&acts, &mut b.as_buffers()).unwrap_err();
        assert!(
            e.to_string().starts_with("illegal action in env 33: "),
            "{e}"
        );
        assert_eq!((b.obs == obs, b.state == state), (true, true));
        assert_eq!(core.check_actions(&acts).unwrap_err(), e);
        acts = core.bot_actions();
        core.step(&acts, &mut b.as_buffers()).unwrap();
        assert_ne!(
            b.state, state,
            "the state tensors are written with the step"
        );
    }

    #[test]
    fn constructor_errors() {
        let cfg = GameConfig::new(Variant::FourPlayer, 0);
        assert!(matches!(
            VecCore::new(Shared::self_play(cfg, 0), 1, &["random"; 3], 1),
            Err(VecCoreError::Opponents { given: 3, seats: 4 })
        ));
        assert!(matches!(
            VecCore::new(Shared::self_play(cfg, 0), 1, &["nobot"; 4], 1),
            Err(VecCoreError::Bot(_))
        ));
        let mut sh = Shared::self_play(cfg, 0);
        sh.learner = Some(Some(4));
        assert!(matches!(
            VecCore::new(sh, 1, &["random"; 4], 1),
            Err(VecCoreError::LearnerSeat { .. })
        ));
    }
}
