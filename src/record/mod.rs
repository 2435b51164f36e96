//! Game records and validated replays: the schema (version 1) and its generated
//! documentation in `schema`, the replay in `replay`.
//!
//! A [`Match`] is a [`State`] plus its history. It writes the record as it goes, so
//! [`Match::record`] costs no replay. [`Match::from_record`] rebuilds a game from a record:
//! it takes every round's deal from the record, replays the recorded passes and plays
//! (each must be legal, in the engine's order), then recomputes every derived field and
//! compares the whole record with what it computed. Any disagreement, missing or unknown
//! key, or value of the wrong JSON type is a [`RecordError`] naming the field's path,
//! e.g. `rounds[1].tricks[4].winner`. An accepted record rebuilds to exactly itself.

mod replay;
mod schema;

pub use schema::{Record, ResultRecord, RoundRecord, TrickRecord, RECORD_VERSION};

use crate::cards::Card;
use crate::error::IllegalAction;
use crate::rules::config::{Episode, GameConfig};
use crate::rules::deal::Deal;
use crate::rules::{Outcome, Phase, State};

/// A game in progress with its history: the state, and the record written so far.
#[derive(Clone, Debug)]
pub struct Match {
    state: State,
    rounds: Vec<RoundRecord>,
    /// Explicit deals for rounds `0..deals.len()`; later rounds are dealt from the seed.
    deals: Vec<Deal>,
    /// A determinization (hidden cards sampled for one seat's view): its history is not
    /// known, so it has no record.
    determinization: bool,
}

impl Match {
    /// A new game dealt from the config's seed.
    pub fn new(config: GameConfig) -> Match {
        Match::with_deals(config, Vec::new())
    }

    /// A new game whose first rounds use the given deals (e.g. from a real table, or the
    /// same deals for both halves of a duplicate match); later rounds come from the seed.
    pub fn with_deals(config: GameConfig, deals: Vec<Deal>) -> Match {
        let state = match deals.first() {
            Some(&d) => State::with_deal(config, d),
            None => State::new(config),
        };
        let rounds = vec![RoundRecord::start(&state)];
        Match {
            state,
            rounds,
            deals,
            determinization: false,
        }
    }

    /// A game continuing from `state`, a determinization of some seat's view (see
    /// [`crate::sampler`]): it plays on like any game, but it has no record, since the
    /// history that led to the sampled hands is unknown ([`Match::has_record`]).
    pub fn determinization(state: State) -> Match {
        Match {
            state,
            rounds: vec![RoundRecord::start(&state)],
            deals: Vec::new(),
            determinization: true,
        }
    }

    /// False for a [`Match::determinization`], whose [`Match::record`] is not a history.
    pub fn has_record(&self) -> bool {
        !self.determinization
    }

    /// Replaces the deal of the round in progress, which must not have had a passing pick
    /// yet (a deal that arrives from outside round by round: a real table, or OpenSpiel's
    /// chance player). The record's round takes the new deal. On error nothing changes.
    pub fn redeal(&mut self, deal: Deal) -> Result<(), &'static str> {
        if self.state.is_over() {
            return Err("the game is over: there is no round to deal");
        }
        self.state.redeal(deal)?;
        *self.rounds.last_mut().expect("a match always has a round") =
            RoundRecord::start(&self.state);
        Ok(())
    }

    /// The position now.
    #[inline]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Applies the current player's decision and logs it. On error nothing changes.
    pub fn apply(&mut self, card: Card) -> Result<Outcome, IllegalAction> {
        let before = self.state;
        let out = self.state.apply(card)?;
        if self.determinization {
            // No history to log (and no explicit deals for later rounds).
            return Ok(out);
        }
        let log = self.rounds.last_mut().expect("a match always has a round");
        let p = before
            .current_player()
            .expect("apply succeeded, so it was someone's turn");
        match before.phase() {
            Phase::Pass => {
                log.passes[p].push(card.id());
                if self.state.phase() == Phase::Play {
                    log.leader = self.state.round_leader().map(|l| l as u8);
                }
            }
            Phase::Play => {
                if before.trick_cards().is_empty() {
                    log.tricks.push(TrickRecord {
                        leader: p as u8,
                        cards: Vec::new(),
                        winner: None,
                    });
                }
                let t = log.tricks.last_mut().expect("pushed above");
                t.cards.push(card.id());
                if let Some(tr) = out.trick {
                    t.winner = Some(tr.winner);
                    let team = crate::cards::team_of(tr.winner as usize) as u8;
                    for suit in 0..7u8 {
                        if out.new_seals >> suit & 1 == 1 {
                            log.seals.push([team, suit]);
                        }
                    }
                }
                log.trump_suit = before
                    .trump_suit()
                    .or(self.state.trump_suit())
                    .map(|t| t as u8);
            }
            Phase::Over => unreachable!("apply fails when the game is over"),
        }
        if let Some(r) = out.round {
            log.result = Some(ResultRecord::new(&r, before.num_players()));
            if !out.game_over {
                if let Some(&d) = self.deals.get(self.state.round() as usize) {
                    self.state
                        .redeal(d)
                        .expect("a new round has had no passing picks yet");
                }
                self.rounds.push(RoundRecord::start(&self.state));
            }
        }
        Ok(out)
    }

    /// Applies a raw action number (as given by a user): range-checked, then [`apply`].
    ///
    /// [`apply`]: Match::apply
    pub fn apply_action(&mut self, action: i128) -> Result<Outcome, IllegalAction> {
        let card = self.state.card_for_action(action)?;
        self.apply(card)
    }

    /// The record of the game so far.
    pub fn record(&self) -> Record {
        let s = &self.state;
        let c = s.config();
        Record {
            version: RECORD_VERSION,
            variant: c.variant.name(),
            scoring: (!c.variant.is_seal()).then(|| c.scoring.name()),
            seed: c.seed,
            episode: (c.episode != Episode::Game).then(|| c.episode.name()),
            max_rounds: c.max_rounds,
            rounds: self.rounds.clone(),
            scores: s.scores()[..s.num_players()].to_vec(),
            winners: s.winners().map(|p| p as u8).collect(),
            over: s.is_over(),
        }
    }
}
