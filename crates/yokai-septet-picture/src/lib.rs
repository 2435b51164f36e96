//! # yokai-septet-picture
//!
//! Pictures of the table: what one picture shows (`Table`), drawn as text ([`table_text`],
//! [`seat_text`]: `text.rs`), as SVG (`svg.rs`), as a self-contained HTML replay viewer
//! (`html.rs`; with an analysis from `yokai-septet-bots`), as a ladder's chart (`chart.rs`)
//! and, with the `raster` feature, as pixels (`raster.rs`).
//!
//! A `Table` is built either from a [`State`] (the referee's view: every hand) or from a
//! [`SeatView`] (one seat's view: the other hands are only counted). Built from a
//! `SeatView`, it cannot show anything that seat does not know (R10): the view is all it
//! reads.

// Safe code only.
#![deny(unsafe_code)]
// Every public item says what it is.
#![warn(missing_docs)]

use yokai_septet::seat::left_of;
use yokai_septet::SeatView;
use yokai_septet::{rules::pass_target, Phase, RoundEnd, RoundResult, State, TrickResult};
use yokai_septet::{Card, CardSet, Suit};
use yokai_septet::{GameConfig, Variant};

pub(crate) mod chart;
mod faces;
pub(crate) mod html;
#[cfg(feature = "raster")]
pub(crate) mod raster;
pub(crate) mod svg;
mod text;

pub use chart::ladder_svg;
pub use html::{replay_html, replay_html_analysed};
#[cfg(feature = "raster")]
pub use raster::{rasterize, Raster, RasterError, MAX_SCALE};
pub use text::{seat_text, table_text};

/// The whole table as an SVG document (every hand shown).
pub fn table_svg(state: &State) -> String {
    svg::document(&Table::from_state(state))
}

/// One seat's view of the table as an SVG document: that seat's hand, the other hands
/// face down.
pub fn seat_svg(view: &SeatView<'_>) -> String {
    svg::document(&Table::from_view(view))
}

/// The table as an SVG document (as `viewer` sees it; `None`: every hand) with `trick` on
/// it in place of the state's: its cards in play order from `leader`, won by `winner`
/// (the web table keeps a finished trick in view until the next one starts).
pub fn trick_svg(
    state: &State,
    viewer: Option<usize>,
    trick: Vec<Card>,
    leader: usize,
    winner: usize,
) -> String {
    let mut t = match viewer {
        Some(p) => Table::from_view(&state.view(p)),
        None => Table::from_state(state),
    };
    t.trick = trick;
    t.trick_leader = Some(leader);
    t.trick_winner = Some(winner);
    svg::document(&t)
}

/// One seat as a picture shows it.
#[derive(Clone, Debug)]
pub(crate) struct SeatShown {
    /// The hand, or `None` when hidden from the viewer.
    pub hand: Option<CardSet>,
    pub hand_len: usize,
    /// Passing picks in order with their receivers, or `None` when hidden.
    pub picks: Option<Vec<(Card, usize)>>,
    pub num_picks: usize,
    /// Bosses captured this round.
    pub bosses: CardSet,
    pub tricks_won: usize,
}

/// Everything one picture of the table shows.
#[derive(Clone, Debug)]
pub(crate) struct Table {
    pub config: GameConfig,
    pub round: u32,
    pub phase: Phase,
    pub to_act: Option<usize>,
    /// The seat whose view this is (`None`: the whole table).
    pub viewer: Option<usize>,
    pub trump_suit: Option<Suit>,
    pub trump_card: Option<Card>,
    pub seats: Vec<SeatShown>,
    /// The trick on the table, in play order from its leader.
    pub trick: Vec<Card>,
    pub trick_leader: Option<usize>,
    /// Set when the trick shown is complete (replay steps).
    pub trick_winner: Option<usize>,
    pub tricks_played: usize,
    pub scores: [u16; 4],
    pub seals: [u8; 2],
    /// The legal actions of the seat to act, when the viewer may see them.
    pub legal: CardSet,
    /// The last finished round: its index and result.
    pub last_result: Option<(u32, RoundResult)>,
    pub over: bool,
    pub truncated: bool,
    pub winners: u8,
}

impl Table {
    /// The referee's view: every hand and every pick.
    pub fn from_state(s: &State) -> Table {
        let n = s.num_players();
        let v = s.variant();
        let seats = (0..n)
            .map(|p| SeatShown {
                hand: Some(s.hand(p)),
                hand_len: s.hand(p).len() as usize,
                picks: Some(
                    s.picks(p)
                        .iter()
                        .enumerate()
                        .map(|(k, &c)| (c, pass_target(v, p, k)))
                        .collect(),
                ),
                num_picks: s.picks(p).len(),
                bosses: s.won_cards(p).bosses(),
                tricks_won: s.tricks_won(p),
            })
            .collect();
        Table {
            config: *s.config(),
            round: s.round(),
            phase: s.phase(),
            to_act: s.current_player(),
            viewer: None,
            trump_suit: s.trump_suit(),
            trump_card: s.trump_card(),
            seats,
            trick: s.trick_cards().to_vec(),
            trick_leader: s.trick_leader(),
            trick_winner: None,
            tricks_played: s.tricks_played(),
            scores: s.scores(),
            seals: [s.seals(0), s.seals(1)],
            legal: s.legal_actions(),
            last_result: last_result(s.last_round_result(), s.round(), s.is_over()),
            over: s.is_over(),
            truncated: s.is_truncated(),
            winners: s.winners_mask(),
        }
    }

    /// One seat's view: its own hand and picks; the others' only counted.
    pub fn from_view(v: &SeatView<'_>) -> Table {
        let n = v.num_players();
        let me = v.seat();
        let seats = (0..n)
            .map(|p| SeatShown {
                hand: (p == me).then(|| v.hand()),
                hand_len: v.hand_len(p),
                picks: (p == me).then(|| v.my_passes().collect()),
                num_picks: v.num_picks(p),
                bosses: v.won_cards(p).bosses(),
                tricks_won: v.tricks_won(p),
            })
            .collect();
        let mut scores = [0; 4];
        for (p, sc) in scores.iter_mut().enumerate().take(n) {
            *sc = v.score(p);
        }
        let over = v.phase() == Phase::Over;
        Table {
            config: v.config(),
            round: v.round(),
            phase: v.phase(),
            to_act: v.current_player(),
            viewer: Some(me),
            trump_suit: v.trump_suit(),
            trump_card: v.trump_card(),
            seats,
            trick: v.trick_cards().to_vec(),
            trick_leader: v.trick_leader(),
            trick_winner: None,
            tricks_played: v.tricks_played(),
            scores,
            seals: [v.seals(0), v.seals(1)],
            legal: v.legal_actions(),
            last_result: last_result(v.last_round_result(), v.round(), over),
            over,
            truncated: v.is_truncated(),
            winners: v.winners_mask(),
        }
    }

    /// The table the moment `trick` completed: `before` is the state before its last
    /// card, `after` the state after it (which may already be the next round, so hands
    /// and captures come from `before`, scores and seals from `after`).
    pub fn after_trick(before: &State, after: &State, trick: &TrickResult) -> Table {
        let mut t = Table::from_state(before);
        let n = t.seats.len();
        let cards = trick.cards();
        let last_seat = left_of(trick.leader as usize, cards.len() - 1, n);
        let last = cards[cards.len() - 1];
        let seat = &mut t.seats[last_seat];
        if let Some(h) = seat.hand.as_mut() {
            h.remove(last);
        }
        seat.hand_len -= 1;
        let winner = trick.winner as usize;
        t.seats[winner].tricks_won += 1;
        t.seats[winner].bosses = t.seats[winner]
            .bosses
            .union(cards.iter().copied().collect::<CardSet>().bosses());
        t.trick = cards.to_vec();
        t.trick_leader = Some(trick.leader as usize);
        t.trick_winner = Some(winner);
        t.tricks_played += 1;
        t.to_act = None;
        t.legal = CardSet::EMPTY;
        t.scores = after.scores();
        t.seals = [after.seals(0), after.seals(1)];
        t.last_result = last_result(after.last_round_result(), after.round(), after.is_over());
        t.over = after.is_over();
        t.truncated = after.is_truncated();
        t.winners = after.winners_mask();
        t
    }

    pub fn variant(&self) -> Variant {
        self.config.variant
    }

    pub fn num_players(&self) -> usize {
        self.seats.len()
    }

    /// The seat that played the `i`-th card of the trick shown.
    pub fn trick_seat(&self, i: usize) -> usize {
        left_of(self.trick_leader.unwrap_or(0), i, self.num_players())
    }

    /// The headline: variant, scoring, round, phase and who acts.
    pub fn title(&self) -> String {
        let v = self.variant();
        let mut t = format!("Yokai Septet {v}");
        if !v.is_seal() {
            t += &format!(" ({})", self.config.scoring);
        }
        t += &format!(" · round {} · {}", self.round, self.phase.name());
        if let Some(p) = self.to_act {
            t += &format!(" · seat {p} to act");
        }
        t
    }

    /// The side's label: `team 0 (seats 0,2)` or `seat 1`.
    pub fn side_label(&self, side: usize) -> String {
        if self.variant().has_teams() {
            let [a, b] = yokai_septet::seat::team_seats(side);
            format!("team {side} (seats {a},{b})")
        } else {
            format!("seat {side}")
        }
    }

    /// Suits sealed by `team`, by name.
    pub fn sealed_suits(&self, team: usize) -> Vec<Suit> {
        Suit::ALL
            .into_iter()
            .filter(|&s| self.seals[team] >> (s as u8) & 1 == 1)
            .collect()
    }

    /// Suits sealed by `team` as names (`Wind Fire`), or `-`.
    pub fn sealed_text(&self, team: usize) -> String {
        let suits: Vec<&str> = self.sealed_suits(team).iter().map(|s| s.name()).collect();
        if suits.is_empty() {
            "-".to_string()
        } else {
            suits.join(" ")
        }
    }

    /// How the last finished round ended, in words (`None` before the first one ends).
    pub fn last_result_text(&self) -> Option<String> {
        let (r, res) = self.last_result?;
        let winners: Vec<usize> = res.winner_seats().collect();
        let pts: Vec<String> = res.points[..self.num_players()]
            .iter()
            .map(|p| format!("+{p}"))
            .collect();
        Some(format!(
            "Round {} over: {} — {} · points {}",
            r,
            seats_text(&winners),
            reason_text(res.reason, self.variant()),
            pts.join(" ")
        ))
    }

    /// The game's end in words (`None` while it goes on).
    pub fn game_over_text(&self) -> Option<String> {
        if !self.over {
            return None;
        }
        Some(if self.truncated {
            "Game truncated by the round cap".to_string()
        } else {
            let w: Vec<String> = (0..4)
                .filter(|p| self.winners >> p & 1 == 1)
                .map(|p| p.to_string())
                .collect();
            format!("Game over · winners: seats {}", w.join(", "))
        })
    }
}

fn last_result(res: Option<RoundResult>, round: u32, over: bool) -> Option<(u32, RoundResult)> {
    // Once over, the state stays on its last round; otherwise it has moved to the next.
    res.map(|r| (if over { round } else { round - 1 }, r))
}

/// Why a round ended, in words (R7/R9).
pub fn reason_text(reason: RoundEnd, variant: Variant) -> &'static str {
    let four = variant.has_teams();
    match reason {
        RoundEnd::Bosses if four => "captured 4 bosses (R7.1)",
        RoundEnd::Bosses => "captured 3 bosses (R7.1)",
        RoundEnd::Tricks if four => "the other team took 7 tricks without 4 bosses (R7.2)",
        RoundEnd::Tricks => "a player took 7 tricks without 3 bosses (R7.2)",
        RoundEnd::LastTrick => "won the last trick (R7.3)",
        RoundEnd::Complete => "all 14 tricks played, no game win (R9)",
        RoundEnd::Sealed => "sealed enough suits to win the game (R9)",
    }
}

/// Seats as `seats 0, 2` / `seat 1` / `nobody`.
pub fn seats_text(seats: &[usize]) -> String {
    match seats {
        [] => "nobody".into(),
        [s] => format!("seat {s}"),
        _ => {
            let v: Vec<String> = seats.iter().map(|s| s.to_string()).collect();
            format!("seats {}", v.join(", "))
        }
    }
}
