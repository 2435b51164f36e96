//! Many games stepped together: the pure-Rust core behind Python's `VectorEnv`.
//!
//! [`VecCore`] owns `num_envs` games, their bots and a small fork-join pool of
//! `num_threads` threads (the calling one included: `crate::pool`). [`VecCore::reset`] and
//! [`VecCore::step`] write one row per env into caller-provided buffers, one per output of
//! the `outputs` table (observations, legal masks, rewards, end flags, seat to move, and
//! optionally state tensors and final observations); what happens to a finished game is
//! [`Autoreset`]'s choice (gymnasium's three autoreset modes).
//! [`VecCore::bot_actions`] asks each env's bots for its pending decision. [`Pipeline`]
//! steps groups of envs in the background (send/receive, as EnvPool does). The Python
//! class (`yokai-septet-python`'s `vector/`) hands them numpy arrays; Rust users and
//! benchmarks can hand them [`Outputs::owned`] vectors.
//!
//! Here: what a core is built from ([`Shared`], [`Learner`], [`Autoreset`]), the errors
//! and [`VecCore`]; [`settings`] the table of Python's `VectorEnv` arguments, `slot.rs` one
//! env and its reset and step, `pass.rs` the passes over the pool and the parallel action
//! check, `outputs.rs` the output table, `pipeline.rs` the asynchronous groups.
//!
//! Determinism: env `i` of a core is env `env_offset + i` of the seed derivation
//! ([`yokai_septet::rng::vector_seed`]). Its `d`-th game since the last seeded reset is
//! seeded with `vector_seed(seed, env, d, 0)`, its learner seat (or team, when drawn) is `vector_seed(seed, env, d, 99)`
//! modulo the seats (teams), and its bots are reseeded from `vector_seed(seed, env, d, 1 +
//! seat)` at every new deal. A game that ends moves the env to its next deal (at once,
//! at its next step, or at the reset that names it: [`Autoreset`]), and so does a reset
//! without a seed (the stream continues, as Gymnasium's `reset()` does); a reset
//! with a seed starts every env at deal 0 of that seed (a new core is at deal 0 of its
//! seed until its first reset). So every env's trajectory depends only on the master seed,
//! the resets and its own actions — never on the thread count, on how the pool splits the
//! work, or on how a [`Pipeline`] groups the envs.
//!
//! ```
//! use yokai_septet_vector::{Extras, Outputs, Shared, VecCore};
//! use yokai_septet::{GameConfig, Variant};
//!
//! let shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 7);
//! let mut core = VecCore::new(shared, 8, &["random"; 4], 1).unwrap();
//! let mut out = Outputs::<_, f32>::owned(&core.layout(Extras::default()));
//! core.reset(None, out.as_slices());
//! for _ in 0..100 {
//!     let actions = core.bot_actions();
//!     core.step(&actions, out.as_slices()).unwrap();
//! }
//! ```

mod outputs;
mod pass;
mod pipeline;
pub mod settings;
mod slot;

use std::sync::Arc;

pub use crate::pool::Spin;
pub use outputs::{
    widths, Build, Dtype, Elem, Extras, Family, ForEachElem, Layout, Map, MapMut, MapRef, Output,
    OutputSpec, Outputs, Owned, Pair, Per, Slices, Visit, NUM_OUTPUTS, OUTPUTS,
};
pub use pipeline::{Batch, Pipeline, PipelineError};
pub use slot::{Slot, IGNORED_ACTION};

use pass::{check_actions, chunk_len, pass, Op};
use slot::Deal;

use crate::pool::Pool;
use crate::reward::RewardMode;
use yokai_septet::observation::ObsValue;
use yokai_septet::GameConfig;
use yokai_septet::IllegalAction;
use yokai_septet::State;
use yokai_septet_bots::{BotError, BotRegistry};

/// Who the caller plays in every env.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Learner {
    /// Every seat: the caller decides for whichever seat is to move, and the reward row
    /// holds one reward per seat.
    SelfPlay,
    /// One seat (`None`: drawn per deal); the bots play the others, and the reward row is
    /// that seat's.
    Seat(Option<u8>),
    /// One team of a 4-player variant: side 0 (seats 0 and 2) or 1 (seats 1 and 3), or
    /// `None`: drawn per deal. The caller decides for whichever of its seats is to move
    /// (the observation is that seat's); the bots play the other team; the reward row is
    /// the team's.
    Team(Option<u8>),
}

/// What a step does to an env whose episode it ended: gymnasium's `AutoresetMode`s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Autoreset {
    /// The same step deals the next game: its row's observation is the new game's, its
    /// reward and flags the step's (the ended game's last observation goes to `final_obs`
    /// when [`Extras::final_obs`] asks for it).
    #[default]
    SameStep,
    /// The step's row is the ended game's last one; the env holds that final state, and its
    /// next step ignores its action and deals the next game (reward 0, flags false). The
    /// row's mask offers one action, [`IGNORED_ACTION`], so that a masked softmax over it
    /// stays finite (`to_play` is -1: no seat decides).
    NextStep,
    /// The env holds its final state until a reset names it ([`VecCore::reset_some`]);
    /// stepping it before is refused ([`StepError::Over`]).
    Disabled,
}

impl Autoreset {
    /// Gymnasium's name for the mode (`AutoresetMode(name)`).
    pub fn gymnasium_name(self) -> &'static str {
        match self {
            Autoreset::SameStep => "SameStep",
            Autoreset::NextStep => "NextStep",
            Autoreset::Disabled => "Disabled",
        }
    }
}

/// What a step does with an action outside an env's legal-action mask.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Illegal {
    /// The batch is refused ([`StepError::Illegal`] names the first such env) and
    /// nothing changes.
    #[default]
    Raise,
    /// The env's episode ends (`terminated`), as a game lost: the acting seat (in team
    /// mode its team) is rewarded this, the other seats 0, and the env moves on as at any
    /// episode's end ([`Autoreset`]). The other envs step as usual.
    Lose(f32),
}

/// What every env shares.
#[derive(Clone, Copy, Debug)]
pub struct Shared {
    /// The game's configuration; its `seed` is ignored (each deal derives its own).
    pub config: GameConfig,
    /// The master seed.
    pub seed: u64,
    /// Who the caller plays.
    pub learner: Learner,
    /// How rewards are computed.
    pub reward: RewardMode,
    /// Env `i` of the core is env `env_offset + i` of the seed derivation (so that several
    /// cores can together step the envs of one larger, master-seeded batch).
    pub env_offset: u64,
    /// What a step does at an episode's end.
    pub autoreset: Autoreset,
    /// What a step does with an illegal action.
    pub illegal: Illegal,
}

impl Shared {
    /// Self-play with win rewards, no env offset, and illegal actions refused.
    pub fn self_play(config: GameConfig, seed: u64) -> Shared {
        Shared {
            config,
            seed,
            learner: Learner::SelfPlay,
            reward: RewardMode::Win,
            env_offset: 0,
            autoreset: Autoreset::SameStep,
            illegal: Illegal::Raise,
        }
    }

    /// Reward values per env row: one per seat (self-play), else 1.
    pub fn reward_width(&self) -> usize {
        match self.learner {
            Learner::SelfPlay => self.config.num_players(),
            Learner::Seat(_) | Learner::Team(_) => 1,
        }
    }
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
    /// Team mode in a variant without teams, or a side that is not 0 or 1.
    LearnerTeam { side: Option<u8>, teams: bool },
    /// The pool's threads could not start.
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
            VecCoreError::LearnerTeam { teams: false, .. } => {
                write!(f, "learner_team needs a 4-player variant (3p has no teams)")
            }
            VecCoreError::LearnerTeam { side, .. } => write!(
                f,
                "learner_team {} is out of range: teams are 0 (seats 0, 2) and 1 (seats 1, 3)",
                side.map_or("None".into(), |s| s.to_string())
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
    /// The first env whose episode is over under [`Autoreset::Disabled`]: it must be
    /// reset ([`VecCore::reset_some`]) before it steps again.
    Over { env: usize },
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
            StepError::Over { env } => write!(
                f,
                "env {env}'s episode is over and autoreset_mode is DISABLED: reset it first \
                 (reset(options={{\"reset_mask\": mask}}) with mask[{env}] set)"
            ),
        }
    }
}

impl std::error::Error for StepError {}

impl StepError {
    /// The env it names (0 for a wrong length).
    fn env(&self) -> usize {
        match self {
            StepError::Length { .. } => 0,
            StepError::Illegal { env, .. } | StepError::Over { env } => *env,
        }
    }

    /// The same error with env indices numbered from `first`.
    fn offset(self, first: usize) -> StepError {
        match self {
            StepError::Illegal { env, action } => StepError::Illegal {
                env: env + first,
                action,
            },
            StepError::Over { env } => StepError::Over { env: env + first },
            e => e,
        }
    }
}

/// `num_envs` games stepped together by `num_threads` threads: the caller's and a pool's.
pub struct VecCore {
    shared: Shared,
    slots: Vec<Slot>,
    /// `num_threads - 1` workers (none for one thread): the calling thread is the other.
    pool: Arc<Pool>,
    /// Envs per unit of parallel work.
    chunk_len: usize,
    /// No reset yet: the first one (seeded or not) deals deal 0.
    fresh: bool,
}

impl VecCore {
    /// `num_envs` envs (env `i` is env `shared.env_offset + i` of the seed derivation),
    /// with one bot per seat named by `opponents` (learner modes: the opponents; self-play:
    /// what [`bot_actions`](Self::bot_actions) asks), stepped by `num_threads` threads.
    /// Call [`reset`](Self::reset) before the first step. The bots are the built-in ones
    /// ([`VecCore::with_registry`] takes the registry that builds them).
    pub fn new<S: AsRef<str>>(
        shared: Shared,
        num_envs: usize,
        opponents: &[S],
        num_threads: usize,
    ) -> Result<VecCore, VecCoreError> {
        VecCore::with_registry(
            shared,
            num_envs,
            &BotRegistry::new(),
            opponents,
            num_threads,
        )
    }

    /// [`VecCore::new`] with the bots built by `registry`.
    pub fn with_registry<S: AsRef<str>>(
        shared: Shared,
        num_envs: usize,
        registry: &BotRegistry,
        opponents: &[S],
        num_threads: usize,
    ) -> Result<VecCore, VecCoreError> {
        let seats = shared.config.num_players();
        match shared.learner {
            Learner::Seat(Some(seat)) if seat as usize >= seats => {
                return Err(VecCoreError::LearnerSeat { seat, seats })
            }
            Learner::Team(side) => {
                let teams = shared.config.variant.has_teams();
                if !teams || side.is_some_and(|s| s > 1) {
                    return Err(VecCoreError::LearnerTeam { side, teams });
                }
            }
            _ => {}
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
                .map(|name| registry.build(name.as_ref(), 0, shared.config.variant))
                .collect::<Result<Vec<_>, _>>()
                .map_err(VecCoreError::Bot)?;
            slots.push(Slot {
                index: shared.env_offset.wrapping_add(i as u64),
                deal: 0,
                episode: 0,
                state: State::new(shared.config),
                learner: 0,
                bots,
                over: false,
            });
        }
        let pool = Pool::new(num_threads.max(1), Spin::Adaptive)
            .map_err(|e| VecCoreError::ThreadPool(e.to_string()))?;
        Ok(VecCore {
            shared,
            slots,
            pool: Arc::new(pool),
            chunk_len: chunk_len(num_envs, num_threads.max(1)),
            fresh: true,
        })
    }

    /// What every env shares.
    pub fn shared(&self) -> &Shared {
        &self.shared
    }

    /// Number of envs.
    pub fn num_envs(&self) -> usize {
        self.slots.len()
    }

    /// Threads that step the envs (the caller's included).
    pub fn num_threads(&self) -> usize {
        self.pool.threads()
    }

    /// How long the pool's idle workers keep polling for the next pass before they park
    /// (default [`Spin::Adaptive`]; see docs/vector.md, "Threads").
    pub fn spin(&self) -> Spin {
        self.pool.spin()
    }

    /// Sets [`spin`](Self::spin).
    pub fn set_spin(&self, spin: Spin) {
        self.pool.set_spin(spin)
    }

    /// The sizes of the buffers a pass over every env writes, with the optional outputs
    /// `extras` asks for.
    pub fn layout(&self, extras: Extras) -> Layout {
        Layout::new(&self.shared, self.slots.len(), extras)
    }

    /// Every env, in order.
    pub fn slots(&self) -> &[Slot] {
        &self.slots
    }

    /// Env `i`, if there is one.
    pub fn slot(&self, i: usize) -> Option<&Slot> {
        self.slots.get(i)
    }

    /// The learner's seat in each env (one-seat mode), or the seat to move (self-play and
    /// team mode).
    pub fn learner_seats(&self) -> Vec<i64> {
        let sh = &self.shared;
        self.slots.iter().map(|s| s.learner_seat(sh)).collect()
    }

    /// Episodes finished by each env since the last reset.
    pub fn episodes(&self) -> Vec<u64> {
        self.slots.iter().map(|s| s.episode).collect()
    }

    /// Resets every env (episode counters restart at 0), lets the bots move up to the
    /// learner's first decision, and writes the first rows (rewards and flags 0). With a
    /// seed: it becomes the master seed and every env starts at deal 0 of its stream (so
    /// the same seed replays the same games); without: every env moves on to its next deal
    /// (a new core's first reset deals deal 0).
    ///
    /// Panics if a buffer has the wrong size.
    pub fn reset<T: ObsValue + Elem>(&mut self, seed: Option<u64>, outs: Outputs<Slices<'_>, T>) {
        let deal = self.next_reset(seed);
        pass(
            &self.pool,
            &self.shared,
            &mut self.slots,
            &[],
            outs,
            self.chunk_len,
            Op::Reset(deal),
        );
    }

    /// Makes the next reset without a seed deal the current games again, as a new core's
    /// first reset does (the Python class resets once to fill its buffers, and the caller's
    /// first `reset()` must still deal the seed's first games).
    pub fn keep_fresh(&mut self) {
        self.fresh = true;
    }

    /// Resets the envs whose `mask` entry is set, as [`reset`](Self::reset) resets every
    /// env but without a seed (each moves on to its next deal; a new core's first reset
    /// deals deal 0); the other envs keep their games (an env that holds a finished
    /// episode keeps holding it). Every row is written: the reset envs' first rows, the
    /// others' games as they are (rewards and flags 0 for all).
    ///
    /// Panics if `mask` is not one entry per env, or a buffer has the wrong size.
    pub fn reset_some<T: ObsValue + Elem>(&mut self, mask: &[bool], outs: Outputs<Slices<'_>, T>) {
        assert_eq!(mask.len(), self.slots.len(), "one mask entry per env");
        let deal = self.next_reset(None);
        let mask: Vec<i64> = mask.iter().map(|&m| i64::from(m)).collect();
        pass(
            &self.pool,
            &self.shared,
            &mut self.slots,
            &mask,
            outs,
            self.chunk_len,
            Op::ResetSome(deal),
        );
    }

    /// The deal a reset with `seed` starts (setting the seed).
    fn next_reset(&mut self, seed: Option<u64>) -> Deal {
        Deal::for_reset(seed, &mut self.shared.seed, &mut self.fresh)
    }

    /// `Err` for a batch that is not one action per env, or (under [`Illegal::Raise`])
    /// not one legal action per env (the first illegal one is named, with the reason
    /// [`State::apply_action`] gives). Checked in parallel.
    pub fn check_actions(&mut self, actions: &[i64]) -> Result<(), StepError> {
        // A step follows: the workers it will need wake while the actions are checked.
        self.pool.prepare(crate::pool::Kind::Step);
        check_actions(
            &self.pool,
            &self.shared,
            &mut self.slots,
            actions,
            self.chunk_len,
        )
    }

    /// Applies one action per env (a card id: the learner's decision, or in self-play the
    /// decision of the seat to move), then in parallel lets the bots move, handles finished
    /// games as [`Shared::autoreset`] says (under [`Autoreset::SameStep`] they are reset:
    /// the row's flags and rewards describe the step that ended them, its observation is
    /// the new game's) and writes every row. Every action is checked first, in parallel:
    /// if any is illegal under [`Illegal::Raise`] (or steps a finished env under
    /// [`Autoreset::Disabled`]), nothing changes; under [`Illegal::Lose`] an illegal
    /// action ends its env's episode instead.
    ///
    /// Panics if a buffer has the wrong size.
    pub fn step<T: ObsValue + Elem>(
        &mut self,
        actions: &[i64],
        outs: Outputs<Slices<'_>, T>,
    ) -> Result<(), StepError> {
        self.check_actions(actions)?;
        self.step_checked(actions, outs);
        Ok(())
    }

    /// [`step`](Self::step) for actions that passed [`check_actions`](Self::check_actions)
    /// with no change to the core since (an illegal action panics).
    pub fn step_checked<T: ObsValue + Elem>(
        &mut self,
        actions: &[i64],
        outs: Outputs<Slices<'_>, T>,
    ) {
        assert_eq!(actions.len(), self.slots.len(), "one action per env");
        pass(
            &self.pool,
            &self.shared,
            &mut self.slots,
            actions,
            outs,
            self.chunk_len,
            Op::Step,
        );
    }

    /// Each legal card's value for the side to move in each env of `envs`, by play-out
    /// from the env's true state: the card, then the bot `bot` (built by `registry`, one
    /// per seat) for every seat to the round's end; the value is that side's round margin
    /// (in points, as `round_margin`). One row of `num_actions` values per env of `envs`,
    /// NaN for the cards that are not legal there (every card where no seat is to move).
    /// Nothing changes in the envs. For training-time analysis: it reads every hand.
    ///
    /// Panics if an index of `envs` is out of range.
    pub fn playout_values(
        &mut self,
        registry: &BotRegistry,
        bot: &str,
        envs: &[usize],
    ) -> Result<Vec<f32>, BotError> {
        let variant = self.shared.config.variant;
        let build = || {
            (0..variant.num_players())
                .map(|_| registry.build(bot, 0, variant))
                .collect::<Result<Vec<_>, _>>()
        };
        build()?; // refused here, once, before any work
        let width = self.shared.config.num_actions();
        let mut out = vec![f32::NAN; envs.len() * width];
        let seed = self.shared.seed;
        let starts: Vec<_> = envs
            .iter()
            .map(|&i| self.slots[i].playout_start())
            .collect();
        let ch = self.chunk_len.clamp(1, 8);
        let items = starts.chunks(ch).zip(out.chunks_mut(ch * width));
        self.pool.run(
            crate::pool::Kind::Other,
            items.collect(),
            |(starts, out)| {
                let mut bots = build().expect("built once already");
                for (&start, row) in starts.iter().zip(out.chunks_mut(width)) {
                    slot::playout_values(start, &mut bots, seed, row);
                }
            },
        );
        Ok(out)
    }

    /// The action each env's bots choose for its pending decision (`-1` where none is
    /// pending; nothing is applied). In self-play the bot of the seat to move decides, in
    /// the learner modes the bot of that seat. Bots are reseeded from the master seed at
    /// every deal, so stepping with these actions is deterministic.
    pub fn bot_actions(&mut self) -> Vec<i64> {
        let mut out = vec![-1i64; self.slots.len()];
        let ch = self.chunk_len;
        let items = self.slots.chunks_mut(ch).zip(out.chunks_mut(ch));
        self.pool
            .run(crate::pool::Kind::Other, items.collect(), |(slots, out)| {
                for (s, o) in slots.iter_mut().zip(out) {
                    *o = s.bot_action().map_or(-1, |c| c.id() as i64);
                }
            });
        out
    }
}

#[cfg(test)]
mod tests;
