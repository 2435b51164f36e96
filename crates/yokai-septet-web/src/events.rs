//! A game's event log: what happened, as the person at its table may know it (R10), in
//! order: the passing exchange (only the person's own cards), each trick, each round's end
//! and the game's end. The page draws its history from it, and the trick just finished is
//! kept on the table from its last entry (`table.rs`).

use super::answers::{Event, Passed, Played};
use yokai_septet::Variant;
use yokai_septet::{seat::left_of, seat::team_of, seat::team_seats, Card, Suit};
use yokai_septet::{Outcome, Phase, State};
use yokai_septet_picture::reason_text;

/// Card codes (`S13`), as the answers name cards.
pub fn cards_json(cards: impl IntoIterator<Item = Card>) -> Vec<String> {
    cards.into_iter().map(|c| c.to_string()).collect()
}

/// The names of the suits set in `mask` (bit `s` for suit `s`): a side's seals.
pub fn suits_json(mask: u8) -> Vec<&'static str> {
    Suit::ALL
        .iter()
        .filter(|&&s| mask >> s as u8 & 1 == 1)
        .map(|s| s.name())
        .collect()
}

/// The seats of each side: a team's two seats, or one seat.
fn side_seats(v: Variant, side: usize) -> Vec<usize> {
    if v.has_teams() {
        team_seats(side).to_vec()
    } else {
        vec![side]
    }
}

/// The public events of one game, and how many of its rounds are over.
#[derive(Default)]
pub struct EventLog {
    events: Vec<Event>,
    /// The rounds that are over (their review can be asked for).
    finished_rounds: usize,
}

impl EventLog {
    /// The events so far, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// The rounds that are over.
    pub fn finished_rounds(&self) -> usize {
        self.finished_rounds
    }

    /// Logs what the person at `me` (`None`: nobody) may know of the decision that led
    /// from `before` to `after` with `outcome`. A round's end is logged from `after`, the
    /// finished round's last position (its captures are still there), before the next deal.
    pub fn log(&mut self, before: &State, outcome: &Outcome, after: &State, me: Option<usize>) {
        let v = after.variant();
        let round = before.round();
        if before.phase() == Phase::Pass {
            if after.phase() != Phase::Pass {
                self.exchange(round, after, me);
            }
            return;
        }
        let Some(t) = outcome.trick else {
            return;
        };
        let n = v.num_players();
        let cards: Vec<Played> = t
            .cards()
            .iter()
            .enumerate()
            .map(|(i, &c)| Played {
                seat: left_of(t.leader as usize, i, n),
                card: c.to_string(),
            })
            .collect();
        self.events.push(Event::Trick {
            round,
            trick: before.tricks_played(),
            leader: t.leader,
            cards,
            winner: t.winner,
            bosses: cards_json(t.cards().iter().copied().filter(|c| c.is_boss())),
            seals: suits_json(outcome.new_seals),
            sealing_team: (outcome.new_seals != 0).then(|| team_of(t.winner as usize)),
        });
        if let Some(r) = outcome.round {
            let view = after.view(0);
            let bosses: Vec<Vec<String>> = (0..v.num_sides())
                .map(|side| {
                    cards_json(
                        side_seats(v, side)
                            .into_iter()
                            .flat_map(|q| view.won_cards(q).bosses().iter()),
                    )
                })
                .collect();
            self.events.push(Event::RoundEnd {
                round,
                winners: r.winner_seats().collect(),
                reason: reason_text(r.reason, v),
                points: r.points[..v.num_sides()].to_vec(),
                scores: (0..v.num_sides()).map(|s| view.score(s)).collect(),
                bosses,
            });
            self.finished_rounds = round as usize + 1;
        }
        if after.is_over() {
            self.events.push(Event::GameOver {
                winners: after.winners().collect(),
                truncated: after.is_truncated(),
            });
        }
    }

    /// The passing exchange of `round`, once every pick is made: the person's own cards
    /// passed and received (none for a game without a person).
    fn exchange(&mut self, round: u32, after: &State, me: Option<usize>) {
        let mine = me.map(|me| after.view(me));
        let passed = mine.as_ref().map(|view| {
            view.my_passes()
                .map(|(c, to)| Passed {
                    card: c.to_string(),
                    to: Some(to),
                    from: None,
                })
                .collect()
        });
        let received = mine.as_ref().map(|view| {
            view.received()
                .map(|(c, from)| Passed {
                    card: c.to_string(),
                    to: None,
                    from: Some(from),
                })
                .collect()
        });
        self.events.push(Event::Exchange {
            round,
            leader: after.round_leader(),
            passed,
            received,
        });
    }
}
