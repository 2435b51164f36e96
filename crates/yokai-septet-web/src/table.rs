//! What the page's table needs beyond the game's state (`projection.rs`), kept apart from it:
//! the trick just finished kept on the table, the
//! hands left when the game is over, a passing pick's receivers, a finished round's deal
//! for its review, and a new game's seed read from a number or a decimal string.

use serde::{Deserialize, Deserializer};

use super::answers::{Event, RoundDeal};
use yokai_septet::rules::pass_target;
use yokai_septet::Card;
use yokai_septet::Match;
use yokai_septet::Variant;
use yokai_septet::{Phase, State};
use yokai_septet_picture::trick_svg;

/// Who receives each of `seat`'s passing picks, in pick order (R4.2).
pub fn pass_targets(v: Variant, seat: usize) -> Vec<usize> {
    (0..v.pass_count())
        .map(|k| pass_target(v, seat, k))
        .collect()
}

/// Round `round`'s deal as its review shows it (the round is over; `None`: no such round).
pub fn round_deal(m: &Match, round: usize) -> Option<RoundDeal> {
    let rec = m.record();
    let r = rec.rounds.get(round)?;
    let codes = |ids: &[u8]| -> Vec<String> {
        ids.iter()
            .filter_map(|&id| Card::new(id))
            .map(|c| c.to_string())
            .collect()
    };
    Some(RoundDeal {
        hands: r.hands.iter().map(|h| codes(h)).collect(),
        passes: r.passes.iter().map(|h| codes(h)).collect(),
        trump_card: r.trump_card.and_then(Card::new).map(|c| c.to_string()),
    })
}

/// The table's picture with the trick just finished still on it, its winner marked, as
/// `viewer` sees it (`None`: every hand): while no card of the next trick is played, and
/// `events` (the game's public events) end with that trick. `None` otherwise (a new
/// round's deal is never drawn under the last round's trick). Once the game is over: its
/// deciding trick (the last), with every hand left face up (nothing is hidden any more).
pub fn finished_trick_svg(s: &State, viewer: Option<usize>, events: &[Event]) -> Option<String> {
    let over = s.is_over();
    let last = if over {
        events
            .iter()
            .rev()
            .find(|e| matches!(e, Event::Trick { .. }))
    } else {
        events.last()
    };
    let Some(Event::Trick {
        round,
        leader,
        cards,
        winner,
        ..
    }) = last
    else {
        return None;
    };
    if !over && (*round != s.round() || s.phase() != Phase::Play || !s.trick_cards().is_empty()) {
        return None;
    }
    let cards: Vec<Card> = cards
        .iter()
        .map(|c| c.card.parse().ok())
        .collect::<Option<_>>()?;
    let viewer = viewer.filter(|_| !over);
    Some(trick_svg(
        s,
        viewer,
        cards,
        usize::from(*leader),
        usize::from(*winner),
    ))
}

/// Every seat's hand once the game is over (cards codes; the record shows them anyway),
/// else `None`: the cards nobody played when the game ended.
pub fn hands_left(s: &State) -> Option<Vec<Vec<String>>> {
    s.is_over().then(|| {
        (0..s.num_players())
            .map(|p| s.hand(p).iter().map(|c| c.to_string()).collect())
            .collect()
    })
}

/// A new game's seed, given as a number or as its decimal string (a JavaScript number
/// loses the low digits of a large one).
pub fn seed<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Given {
        Number(u64),
        Text(String),
    }
    let wrong = || {
        serde::de::Error::custom(
            "seed: give a whole number from 0 to 18446744073709551615, or its decimal string",
        )
    };
    match Option::<Given>::deserialize(d).map_err(|_| wrong())? {
        None => Ok(None),
        Some(Given::Number(n)) => Ok(Some(n)),
        Some(Given::Text(t)) => match digits_only(&t) {
            Some(n) => Ok(Some(n)),
            None => Err(wrong()),
        },
    }
}

/// `text` as a `u64` when it is decimal digits only.
fn digits_only(text: &str) -> Option<u64> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use yokai_septet::Phase;
    use yokai_septet::{GameConfig, Variant};

    /// Why the player to move may not choose `card`, in a person's words, as the
    /// state's `words` gives it.
    fn refusal_words(s: &State, card: Card) -> Option<String> {
        let mut probe = *s;
        let e = probe.apply_in_round(card).err()?;
        Some(e.in_words(s.legal_actions()))
    }

    #[test]
    fn a_card_that_does_not_follow_is_refused_in_the_terminals_words() {
        let mut s = State::new(GameConfig::new(Variant::FourPlayer, 3));
        let mut seen = false;
        while let Some(p) = s.current_player() {
            let legal = s.legal_actions();
            if s.phase() == Phase::Play {
                for c in s.hand(p).iter().filter(|c| !legal.contains(*c)) {
                    let words = refusal_words(&s, c).unwrap();
                    assert!(
                        words.starts_with(&format!("You cannot play {c}: you must follow ")),
                        "{words}"
                    );
                    assert!(words.ends_with(&format!("Playable: {legal}.")), "{words}");
                    seen = true;
                }
            }
            let c = legal.iter().next().unwrap();
            assert_eq!(refusal_words(&s, c), None);
            s.apply(c).unwrap();
            if s.round() > 0 {
                break;
            }
        }
        assert!(seen);
    }
}
