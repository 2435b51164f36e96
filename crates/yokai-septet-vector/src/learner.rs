//! The learner-vs-bots loop, once: after the learner's decision the bots play every other
//! seat until it is the learner's turn again or the game is over. The vector env runs it
//! on its `State`s, the single-agent Gymnasium env (`Game.play_bots`) on a recorded game.

use yokai_septet::Card;
use yokai_septet::IllegalAction;
use yokai_septet::Match;
use yokai_septet::SeatView;
use yokai_septet::{Outcome, State};

/// A game the loop can play on: a bare position, or a [`Match`] that records each move.
pub trait Playing {
    /// The position.
    fn state(&self) -> &State;
    /// Plays `card` at it.
    fn apply(&mut self, card: Card) -> Result<Outcome, IllegalAction>;
}

impl Playing for State {
    #[inline]
    fn state(&self) -> &State {
        self
    }

    #[inline]
    fn apply(&mut self, card: Card) -> Result<Outcome, IllegalAction> {
        State::apply(self, card)
    }
}

impl Playing for Match {
    #[inline]
    fn state(&self) -> &State {
        Match::state(self)
    }

    #[inline]
    fn apply(&mut self, card: Card) -> Result<Outcome, IllegalAction> {
        Match::apply(self, card)
    }
}

/// Lets the bots move until it is `learner`'s turn or the game is over: `act(seat, view)`
/// is the decision of the bot in `seat`, and `on_move` sees what each move did and the
/// game after it (to score it: [`rewards`](crate::reward::rewards)). A decision that fails
/// stops the loop with its error. Panics if a bot plays an illegal card (the built-in bots
/// never do).
#[inline]
pub fn bots_until_turn<G: Playing, E>(
    game: &mut G,
    learner: usize,
    act: impl FnMut(usize, &SeatView) -> Result<Card, E>,
    on_move: impl FnMut(&Outcome, &State),
) -> Result<(), E> {
    bots_until_turn_of(game, 1 << learner, act, on_move)
}

/// [`bots_until_turn`] for a learner that plays every seat of `learners` (a seat mask: one
/// seat, or a team's seats).
#[inline]
pub(crate) fn bots_until_turn_of<G: Playing, E>(
    game: &mut G,
    learners: u8,
    mut act: impl FnMut(usize, &SeatView) -> Result<Card, E>,
    mut on_move: impl FnMut(&Outcome, &State),
) -> Result<(), E> {
    while let Some(p) = game.state().current_player() {
        if learners >> p & 1 == 1 {
            break;
        }
        let card = act(p, &game.state().view(p))?;
        let out = game.apply(card).expect("a bot returned an illegal action");
        on_move(&out, game.state());
    }
    Ok(())
}
