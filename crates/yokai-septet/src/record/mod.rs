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
use crate::error::{DealError, IllegalAction};
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
    /// Who sits at each seat (the record's optional `players`).
    players: Option<Vec<Option<String>>>,
}

impl Match {
    /// A new game dealt from the config's seed.
    pub fn new(config: GameConfig) -> Match {
        let state = State::new(config);
        Match {
            state,
            rounds: vec![RoundRecord::start(&state)],
            deals: Vec::new(),
            determinization: false,
            players: None,
        }
    }

    /// A new game whose first rounds use the given deals (e.g. from a real table, or the
    /// same deals for both halves of a duplicate match); later rounds come from the seed.
    /// Every deal is checked now ([`Deal::check`]), and each is dealt through
    /// [`State::apply_deal`] when its round comes.
    pub fn with_deals(config: GameConfig, deals: Vec<Deal>) -> Result<Match, DealError> {
        for d in &deals {
            d.check(config.variant)?;
        }
        let mut m = Match::new(config);
        if let Some(&d) = deals.first() {
            m.apply_deal(d)?;
        }
        m.deals = deals;
        Ok(m)
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
            players: None,
        }
    }

    /// False for a [`Match::determinization`], whose [`Match::record`] is not a history.
    pub fn has_record(&self) -> bool {
        !self.determinization
    }

    /// Deals through [`State::apply_deal`] and logs the deal: the next round when a round
    /// is over ([`Phase::RoundOver`], after [`Match::apply_in_round`]), or a new deal for
    /// the round in progress before its first passing pick (a deal that arrives from
    /// outside round by round: a real table, or OpenSpiel's chance player). On error
    /// nothing changes.
    pub fn apply_deal(&mut self, deal: Deal) -> Result<(), DealError> {
        let next_round = self.state.phase() == Phase::RoundOver;
        self.state.apply_deal(deal)?;
        if self.determinization {
            return Ok(());
        }
        let start = RoundRecord::start(&self.state);
        if next_round {
            self.rounds.push(start);
        } else {
            *self.rounds.last_mut().expect("a match always has a round") = start;
        }
        Ok(())
    }

    /// Who sits at each seat: a bot's name, or `None` for a person (the record's optional
    /// `players`; `play --save` writes it). Not part of the game: the rules never read it.
    pub fn players(&self) -> Option<&[Option<String>]> {
        self.players.as_deref()
    }

    /// Sets who sits at each seat (see [`Match::players`]); one entry per seat.
    pub fn set_players(&mut self, players: Option<Vec<Option<String>>>) {
        debug_assert!(players
            .as_ref()
            .is_none_or(|p| p.len() == self.state.num_players()));
        self.players = players;
    }

    /// The position now.
    #[inline]
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Applies the current player's decision and logs it; a move that ends a round (and
    /// not the game) also deals the next one: the explicit deal given for it, else the
    /// seeded dealer's. On error nothing changes.
    pub fn apply(&mut self, card: Card) -> Result<Outcome, IllegalAction> {
        let out = self.apply_in_round(card)?;
        self.deal_next_round();
        Ok(out)
    }

    /// When a round is over ([`Phase::RoundOver`]), deals the next one through
    /// [`Match::apply_deal`]: the explicit deal given for it, else the seeded dealer's.
    /// Otherwise does nothing.
    pub fn deal_next_round(&mut self) {
        if self.state.phase() != Phase::RoundOver {
            return;
        }
        let next = self.state.round() as usize + 1;
        let deal = match self.deals.get(next) {
            Some(&d) => d,
            None => self.state.seeded_deal(),
        };
        self.apply_deal(deal)
            .expect("a round is over, and explicit deals were checked by with_deals");
    }

    /// As [`Match::apply`], but a move that ends a round (and not the game) leaves the
    /// game in [`Phase::RoundOver`], the finished round's last position, until
    /// [`Match::apply_deal`]. On error nothing changes.
    pub fn apply_in_round(&mut self, card: Card) -> Result<Outcome, IllegalAction> {
        let before = self.state;
        let out = self.state.apply_in_round(card)?;
        if self.determinization {
            // No history to log.
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
            Phase::RoundOver | Phase::Over => {
                unreachable!("apply fails when the game or the round is over")
            }
        }
        if let Some(r) = out.round {
            log.result = Some(ResultRecord::new(&r, before.num_players()));
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

    /// As [`Match::apply_action`], stopping at a round's end ([`Match::apply_in_round`]).
    pub fn apply_action_in_round(&mut self, action: i128) -> Result<Outcome, IllegalAction> {
        let card = self.state.card_for_action(action)?;
        self.apply_in_round(card)
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
            players: self.players.clone(),
            rounds: self.rounds.clone(),
            scores: s.scores()[..s.num_players()].to_vec(),
            winners: s.winners().map(|p| p as u8).collect(),
            over: s.is_over(),
        }
    }
}
