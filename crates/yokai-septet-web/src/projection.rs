//! The page's projection of a game ([`project`]): the state as its person's seat sees it
//! (R10): their own [`SeatView`](yokai_septet::SeatView) (their hand, what they passed and
//! received) and public events (cards played, tricks, captured bosses, scores, seals,
//! round ends), never another seat's hand, nor the seed that deals them, before the game
//! is over. The whole table is shown only in a game without a person. Every field that
//! leaves is typed in `answers.rs`.

use super::answers::{GameState, HandCard, Passing, Played};
use super::events::{cards_json, suits_json};
use super::games::Game;
use super::table::{finished_trick_svg, hands_left, pass_targets};
use yokai_septet::SeatView;
use yokai_septet::{seat::left_of, seat::partner_of, CardSet};
use yokai_septet::{Phase, State};
use yokai_septet_picture::{seat_svg, table_svg};

/// The person's hand, each card with whether it may be played now and, on their turn,
/// why not (the rule's text and the person's words, from one probe).
fn hand(s: &State, view: &SeatView<'_>, my_turn: bool) -> Vec<HandCard> {
    let legal = if my_turn {
        view.legal_actions()
    } else {
        CardSet::EMPTY
    };
    view.hand()
        .iter()
        .map(|card| {
            let refused = (my_turn && !legal.contains(card))
                .then(|| {
                    let mut probe = *s;
                    probe.apply_in_round(card).err()
                })
                .flatten();
            HandCard {
                card: card.to_string(),
                id: card.id(),
                legal: legal.contains(card),
                reason: refused.map(|e| e.to_string()),
                words: refused.map(|e| e.in_words(legal)),
            }
        })
        .collect()
}

/// The cards of the trick on the table, by seat.
fn trick(view: &SeatView<'_>, n: usize) -> Vec<Played> {
    match view.trick_leader() {
        Some(l) => view
            .trick_cards()
            .iter()
            .enumerate()
            .map(|(i, &c)| Played {
                seat: left_of(l, i, n),
                card: c.to_string(),
            })
            .collect(),
        None => Vec::new(),
    }
}

/// The game `g` (called `id`) as the person sees it (R10), or the whole table in a game
/// of bots only, with its picture: the SVG is drawn here, so this runs off the threads
/// that answer requests (`render.rs`).
pub fn project<'a>(g: &'a Game, id: &'a str) -> GameState<'a> {
    let s = g.as_match().state();
    let me = g.me();
    let c = s.config();
    let v = c.variant;
    let n = v.num_players();
    let view = s.view(me.unwrap_or(0));
    let events = g.log().events();
    let my_turn = me.is_some() && s.current_player() == me;
    let hand = if me.is_some() {
        hand(s, &view, my_turn)
    } else {
        Vec::new()
    };
    // The trick just finished stays in the picture until the next card is played.
    let svg = match finished_trick_svg(s, me, events) {
        Some(kept) => kept,
        None if me.is_some() => seat_svg(&view),
        None => table_svg(s),
    };
    let passing = (s.phase() == Phase::Pass).then(|| Passing {
        count: v.pass_count(),
        picked: me.map(|_| cards_json(view.my_passes().map(|x| x.0))),
        to: me.map(|me| pass_targets(v, me)),
    });
    GameState {
        id,
        variant: v.name(),
        scoring: (!v.is_seal()).then(|| c.scoring.name()),
        seed: g.may_show_all().then(|| c.seed.to_string()),
        episode: c.episode.name(),
        max_rounds: c.max_rounds,
        players: g.seats().players(),
        seat: me,
        partner: me.filter(|_| v.has_teams()).map(partner_of),
        round: s.round(),
        phase: match s.phase() {
            Phase::Pass => "pass",
            Phase::Play => "play",
            Phase::RoundOver => "round_over",
            Phase::Over => "over",
        },
        to_act: s.current_player(),
        thinking: g.seats().thinking(),
        your_turn: my_turn,
        over: s.is_over(),
        truncated: s.is_truncated(),
        winners: s.winners().collect(),
        scores: (0..v.num_sides()).map(|side| view.score(side)).collect(),
        target: (!v.is_seal()).then(|| c.scoring.target()),
        seals: if v.is_seal() {
            (0..2).map(|t| suits_json(view.seals(t))).collect()
        } else {
            Vec::new()
        },
        trump_suit: view.trump_suit().map(|t| t.name()),
        trump_card: view.trump_card().map(|t| t.to_string()),
        tricks_played: view.tricks_played(),
        tricks_per_round: v.tricks_per_round(),
        tricks_won: (0..n).map(|p| view.tricks_won(p)).collect(),
        bosses: (0..n)
            .map(|p| cards_json(view.won_cards(p).bosses().iter()))
            .collect(),
        hand_len: (0..n).map(|p| view.hand_len(p)).collect(),
        hands_left: hands_left(s),
        hand,
        trick: trick(&view, n),
        passing,
        events,
        reviewable: (0..g.log().finished_rounds()).collect(),
        replay: g.may_show_all(),
        svg,
    }
}
