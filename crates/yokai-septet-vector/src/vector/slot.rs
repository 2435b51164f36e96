//! One env of the vector env: its game, counters, learner seat and bots, and what a reset
//! or a step does to it and writes into its row of the outputs.

use super::{Autoreset, Elem, Illegal, Learner, Outputs, Shared, Slices};
use crate::learner::bots_until_turn_of;
use crate::reward::{rewards, round_margins, RewardMode};
use yokai_septet::observation::{encode, write_mask_bool, ObsValue};
use yokai_septet::rng::vector_seed;
use yokai_septet::state_tensor::encode_state;
use yokai_septet::{seat::side_mask, Card};
use yokai_septet::{Outcome, State};
use yokai_septet_bots::{play_card_out, Bot};

/// The one action an ended env's mask row offers under [`Autoreset::NextStep`]: the next
/// step ignores it (any integer would do) and deals the env's next game.
pub const IGNORED_ACTION: usize = 0;

/// One env: its game, deal and episode counters, learner seat (or team) and bots.
pub struct Slot {
    pub(super) index: u64,
    /// Which deal of the env's stream the game is (since the last seeded reset).
    pub(super) deal: u64,
    /// Episodes finished since the last reset.
    pub(super) episode: u64,
    pub(super) state: State,
    /// The seat (learner mode) or side (team mode) the caller plays; unused in self-play.
    pub(super) learner: u8,
    /// One bot per seat, reseeded at every deal. Learner modes: the opponents (the
    /// learner's seats' bots are idle); self-play: what `bot_actions` asks.
    pub(super) bots: Vec<Box<dyn Bot>>,
    /// The episode is over and the env holds its final state ([`Autoreset::NextStep`]:
    /// until its next step; [`Autoreset::Disabled`]: until a reset).
    pub(super) over: bool,
}

/// Which deal a reset starts ([`Op::Reset`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Deal {
    /// Deal 0 (a seeded reset).
    First,
    /// The current one again (a new core's first reset).
    Same,
    /// The next one (a reset without a seed).
    Next,
}

impl Deal {
    /// The deal a reset with `seed` starts, for envs whose master seed is `*master` and
    /// that have not been reset yet if `*fresh`: a seed becomes the master seed and deals
    /// again from the first games; no seed moves on, except before a new env's first reset.
    pub(super) fn for_reset(seed: Option<u64>, master: &mut u64, fresh: &mut bool) -> Deal {
        let deal = match seed {
            Some(s) => {
                *master = s;
                Deal::First
            }
            None if *fresh => Deal::Same,
            None => Deal::Next,
        };
        *fresh = false;
        deal
    }
}

impl Slot {
    /// The game in progress.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Whether the env's episode is over and the env holds its final state (the
    /// [`Autoreset::NextStep`] and [`Autoreset::Disabled`] modes).
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Episodes this env has finished since the last reset.
    pub fn episode(&self) -> u64 {
        self.episode
    }

    /// Which deal of its stream the env's game is, since the last seeded reset.
    pub fn deal(&self) -> u64 {
        self.deal
    }

    /// This env's index in the seed derivation (`env_offset` + its position).
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The learner's seat (one-seat mode), or the seat to move (`-1`: none; self-play and
    /// team mode).
    pub fn learner_seat(&self, sh: &Shared) -> i64 {
        match sh.learner {
            Learner::Seat(_) => self.learner as i64,
            Learner::SelfPlay | Learner::Team(_) => self.to_play(),
        }
    }

    /// The seat that decides now: `-1` once the episode is over.
    fn to_play(&self) -> i64 {
        match self.state.current_player() {
            Some(p) if !self.over => p as i64,
            _ => -1,
        }
    }

    /// The action this env's bot for the seat to move would choose (nothing is applied);
    /// `None` when no decision is pending.
    pub fn bot_action(&mut self) -> Option<Card> {
        let p = usize::try_from(self.to_play()).ok()?;
        Some(bot_act(&mut self.bots[p], &self.state.view(p)))
    }

    /// Where a play-out of this env starts: its game now, its index and its deal.
    pub(super) fn playout_start(&self) -> (State, u64, u64) {
        (self.state, self.index, self.deal)
    }

    /// Whether `action` is a legal action of the game now.
    pub(super) fn is_legal(&self, action: i64) -> bool {
        u8::try_from(action)
            .ok()
            .and_then(Card::new)
            .is_some_and(|c| self.state.legal_actions().contains(c))
    }

    /// This env's position in its core (its index less the offset).
    pub(super) fn position(&self, sh: &Shared) -> usize {
        self.index.wrapping_sub(sh.env_offset) as usize
    }

    /// The seats the caller plays (all of them in self-play).
    pub(super) fn learner_seats_mask(&self, sh: &Shared) -> u8 {
        match sh.learner {
            Learner::SelfPlay => 0xF,
            Learner::Seat(_) => 1 << self.learner,
            Learner::Team(_) => side_mask(sh.config.variant, self.learner as usize),
        }
    }

    /// Starts the game of the env's current deal.
    pub(super) fn deal_game(&mut self, sh: &Shared) {
        let mut config = sh.config;
        let (seed, i, d) = (sh.seed, self.index, self.deal);
        config.seed = vector_seed(seed, i, d, 0);
        self.state = State::new(config);
        let draw = |k: u64| (vector_seed(seed, i, d, 99) % k) as u8;
        self.learner = match sh.learner {
            Learner::SelfPlay => 0,
            Learner::Seat(Some(s)) | Learner::Team(Some(s)) => s,
            Learner::Seat(None) => draw(config.num_players() as u64),
            Learner::Team(None) => draw(2),
        };
        for (p, b) in self.bots.iter_mut().enumerate() {
            b.reseed(vector_seed(seed, i, d, 1 + p as u64));
        }
    }

    /// Moves on to the env's next deal and lets the bots move up to the learner's first
    /// decision.
    pub(super) fn next_game(&mut self, sh: &Shared) {
        self.deal += 1;
        self.deal_game(sh);
        self.run_bots(sh, &mut Tally::default());
        self.over = false;
    }

    /// Lets the bots move until one of the learner's seats is to move or the game is
    /// over, adding what their moves did to `tally`.
    pub(super) fn run_bots(&mut self, sh: &Shared, tally: &mut Tally) {
        if matches!(sh.learner, Learner::SelfPlay) {
            return;
        }
        let mine = self.learner_seats_mask(sh);
        let bots = &mut self.bots;
        let Ok(()) = bots_until_turn_of(
            &mut self.state,
            mine,
            |p, view| Ok::<_, std::convert::Infallible>(bot_act(&mut bots[p], view)),
            |out, after| tally.add(sh.reward, out, after),
        );
    }

    /// The seat whose observation is written: the learner's seat, or the seat to move.
    pub(super) fn observer(&self, sh: &Shared) -> usize {
        match sh.learner {
            Learner::Seat(_) => self.learner as usize,
            Learner::SelfPlay => self.state.current_player().unwrap_or(0),
            Learner::Team(_) => self.state.current_player().unwrap_or(self.learner as usize),
        }
    }

    /// Writes the env's row of every output but the reward and end flags.
    pub(super) fn write<T: ObsValue + Elem>(&self, sh: &Shared, row: &mut Outputs<Slices<'_>, T>) {
        let view = self.state.view(self.observer(sh));
        encode(&view, row.obs);
        if self.over {
            // No seat decides (a game ended by an illegal action still has one to move).
            row.mask.fill(false);
            if sh.autoreset == Autoreset::NextStep {
                // The env's next step ignores its action and deals the next game: that
                // step is one action, so the row offers exactly one (gymnasium's
                // convention). An empty row would make the usual masked softmax
                // (`logits.masked_fill(~mask, -inf)`) all -inf, and `Categorical` of it NaN.
                row.mask[IGNORED_ACTION] = true;
            }
        } else {
            write_mask_bool(view.legal_actions(), row.mask);
        }
        row.to_play[0] = self.to_play();
        if !row.state.is_empty() {
            encode_state(&self.state, row.state);
        }
        if let Some(id) = row.env_id.first_mut() {
            *id = self.position(sh) as i64;
        }
    }

    pub(super) fn reset_row<T: ObsValue + Elem>(
        &mut self,
        sh: &Shared,
        deal: Deal,
        row: &mut Outputs<Slices<'_>, T>,
    ) {
        self.deal = match deal {
            Deal::First => 0,
            Deal::Same => self.deal,
            Deal::Next => self.deal + 1,
        };
        self.episode = 0;
        self.over = false;
        self.deal_game(sh);
        self.run_bots(sh, &mut Tally::default());
        self.write_first(sh, row);
    }

    /// Writes the env's row as a reset does: the game now, reward 0, flags false.
    pub(super) fn write_first<T: ObsValue + Elem>(
        &self,
        sh: &Shared,
        row: &mut Outputs<Slices<'_>, T>,
    ) {
        row.reward.fill(0.0);
        row.terminated[0] = false;
        row.truncated[0] = false;
        row.round_end[0] = false;
        row.round_margin.fill(0.0);
        row.illegal.fill(false);
        self.write(sh, row);
    }

    /// Applies `action` (already checked legal), runs the bots; at the episode's end,
    /// does what `sh.autoreset` says. An env that holds its final state
    /// ([`Autoreset::NextStep`]) ignores `action` and starts its next game.
    pub(super) fn step<T: ObsValue + Elem>(
        &mut self,
        sh: &Shared,
        action: i64,
        row: &mut Outputs<Slices<'_>, T>,
    ) {
        if self.over {
            debug_assert_eq!(sh.autoreset, Autoreset::NextStep, "checked");
            self.next_game(sh);
            self.write_first(sh, row);
            return;
        }
        if let Illegal::Lose(penalty) = sh.illegal {
            if !self.is_legal(action) {
                return self.lose(sh, penalty, row);
            }
        }
        row.illegal.fill(false);
        let mut tally = Tally::default();
        let card = Card::new(action as u8).expect("checked");
        let out = self.state.apply(card).expect("checked legal");
        tally.add(sh.reward, &out, &self.state);
        self.run_bots(sh, &mut tally);
        let acc = tally.rewards;
        match sh.learner {
            // A team's seats share their side's reward; seat `side` is on side `side`.
            Learner::Seat(_) | Learner::Team(_) => row.reward[0] = acc[self.learner as usize],
            Learner::SelfPlay => row.reward.copy_from_slice(&acc[..row.reward.len()]),
        }
        row.round_end[0] = tally.round.is_some();
        let margins = tally.round.unwrap_or_default();
        row.round_margin
            .copy_from_slice(&margins[..row.round_margin.len()]);
        row.terminated[0] = crate::reward::terminated(&self.state);
        row.truncated[0] = crate::reward::truncated(&self.state);
        if self.state.is_over() {
            self.end_episode(sh, row);
        }
        self.write(sh, row);
    }

    /// An illegal action under [`Illegal::Lose`]: the game is left as it was and the
    /// episode ends as lost, the acting seat (its team, in team mode) rewarded `penalty`
    /// and the other seats 0.
    fn lose<T: ObsValue + Elem>(
        &mut self,
        sh: &Shared,
        penalty: f32,
        row: &mut Outputs<Slices<'_>, T>,
    ) {
        row.reward.fill(0.0);
        match sh.learner {
            Learner::Seat(_) | Learner::Team(_) => row.reward[0] = penalty,
            Learner::SelfPlay => row.reward[self.observer(sh)] = penalty,
        }
        row.terminated[0] = true;
        row.truncated[0] = false;
        row.round_end[0] = false;
        row.round_margin.fill(0.0);
        row.illegal.fill(true);
        self.end_episode(sh, row);
        self.write(sh, row);
    }

    /// The episode ended: counted, then the env holds its final state or (under
    /// [`Autoreset::SameStep`]) writes its last observation to `final_obs` and deals the
    /// next game.
    fn end_episode<T: ObsValue + Elem>(&mut self, sh: &Shared, row: &mut Outputs<Slices<'_>, T>) {
        self.episode += 1;
        match sh.autoreset {
            Autoreset::SameStep => {
                if !row.final_obs.is_empty() {
                    encode(&self.state.view(self.observer(sh)), row.final_obs);
                }
                self.next_game(sh);
            }
            Autoreset::NextStep | Autoreset::Disabled => self.over = true,
        }
    }
}

/// What a step's moves (the action, then the bots') add up to.
#[derive(Default)]
pub(super) struct Tally {
    /// Every seat's rewards, summed.
    rewards: [f32; 4],
    /// Each side's margin in the round that ended, if one did.
    round: Option<[f32; 3]>,
}

impl Tally {
    #[inline]
    fn add(&mut self, mode: RewardMode, out: &Outcome, after: &State) {
        for (a, x) in self.rewards.iter_mut().zip(rewards(mode, out, after)) {
            *a += x;
        }
        if let Some(res) = &out.round {
            let sum = self.round.get_or_insert([0.0; 3]);
            for (a, x) in sum.iter_mut().zip(round_margins(after.variant(), res)) {
                *a += x;
            }
        }
    }
}

/// The decision of a seat's bot. The bots were built for the env's variant, on their
/// seat's turn, so a built-in bot always decides; the vector env seats no bot that can
/// fail otherwise (a Python policy), so an error here is a bug.
pub(super) fn bot_act(bot: &mut Box<dyn Bot>, view: &yokai_septet::SeatView) -> Card {
    bot.act(view)
        .unwrap_or_else(|e| panic!("the vector env's bot failed: {e}"))
}

/// Each legal card's value for the side to move in `state` (env `env`'s game, of its deal
/// `deal`), by play-out from that true state: the card, then `bots` (one per seat,
/// reseeded for each card from `seed`, the env and its deal) to the round's end; the value
/// is that side's round margin ([`round_margins`], in points). `out` is a row of
/// `num_actions` values: NaN for the cards that are not legal, and for every card where no
/// seat is to move.
pub(super) fn playout_values(
    (state, env, deal): (State, u64, u64),
    bots: &mut [Box<dyn Bot>],
    seed: u64,
    out: &mut [f32],
) {
    out.fill(f32::NAN);
    let Some(p) = state.current_player() else {
        return;
    };
    let v = state.variant();
    for card in state.legal_actions() {
        for (seat, bot) in bots.iter_mut().enumerate() {
            let stream = 100 + 4 * u64::from(card.id()) + seat as u64;
            bot.reseed(vector_seed(seed, env, deal, stream));
        }
        let finished = play_card_out(state, card, |s, q| bot_act(&mut bots[q], &s.view(q)));
        out[card.id() as usize] =
            finished.map_or(f32::NAN, |f| round_margins(v, &f.result)[v.side_of(p)]);
    }
}
