//! What the page's table needs beyond the game's state (`games.rs`), kept apart from it:
//! the trick just finished kept on the table, a refused card in a person's words, the
//! hands left when the game is over, and seeds read as decimal strings (a JavaScript
//! number loses the low digits of a `u64`).

use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::cards::Card;
use crate::error::IllegalAction;
use crate::picture::{svg, Table};
use crate::record::Match;
use crate::rules::config::Variant;
use crate::rules::pass_target;
use crate::rules::state::{Phase, State};

/// Who receives each of `seat`'s passing picks, in pick order (R4.2).
pub fn pass_targets(v: Variant, seat: usize) -> Vec<usize> {
    (0..v.pass_count())
        .map(|k| pass_target(v, seat, k))
        .collect()
}

/// Round `round`'s deal as its review shows it (the round is over): each seat's hand as
/// dealt and the cards it passed, as card codes, and the trump card.
pub fn round_deal(m: &Match, round: usize) -> Value {
    let rec = m.record();
    let Some(r) = rec.rounds.get(round) else {
        return Value::Null;
    };
    let codes = |ids: &[u8]| -> Vec<String> {
        ids.iter()
            .filter_map(|&id| Card::new(id))
            .map(|c| c.to_string())
            .collect()
    };
    serde_json::json!({
        "hands": r.hands.iter().map(|h| codes(h)).collect::<Vec<_>>(),
        "passes": r.passes.iter().map(|h| codes(h)).collect::<Vec<_>>(),
        "trump_card": r.trump_card.and_then(Card::new).map(|c| c.to_string()),
    })
}

/// The table's picture with the trick just finished still on it, its winner marked, as
/// `viewer` sees it (`None`: every hand): while no card of the next trick is played, and
/// `events` (the game's public events) end with that trick. `None` otherwise (a new
/// round's deal is never drawn under the last round's trick).
pub fn finished_trick_svg(s: &State, viewer: Option<usize>, events: &[Value]) -> Option<String> {
    let e = events.last()?;
    if e["kind"] != "trick"
        || e["round"].as_u64() != Some(u64::from(s.round()))
        || s.phase() != Phase::Play
        || !s.trick_cards().is_empty()
    {
        return None;
    }
    let cards: Vec<Card> = e["cards"]
        .as_array()?
        .iter()
        .map(|c| c["card"].as_str()?.parse().ok())
        .collect::<Option<_>>()?;
    let mut t = match viewer {
        Some(p) => Table::from_view(&s.view(p)),
        None => Table::from_state(s),
    };
    t.trick = cards;
    t.trick_leader = Some(e["leader"].as_u64()? as usize);
    t.trick_winner = Some(e["winner"].as_u64()? as usize);
    Some(svg::document(&t))
}

/// Why the player to move may not choose `card` now, in the terminal's words (`play`'s
/// prompt, `src/cli/play/`), or `None` when it may.
pub fn refusal_words(s: &State, card: Card) -> Option<String> {
    let mut probe = *s;
    let e = probe.apply_in_round(card).err()?;
    let legal = s.legal_actions();
    Some(match e {
        IllegalAction::MustFollowSuit { card, led } => format!(
            "You cannot play {card}: you must follow {}. Playable: {legal}.",
            led.name()
        ),
        IllegalAction::AlreadyPicked { card, .. } => format!("You already chose {card} to pass."),
        IllegalAction::NotInHand { card, .. } => format!("{card} is not in your hand."),
        other => {
            // The rule text, as a sentence.
            let text = other.to_string();
            let mut chars = text.chars();
            match chars.next() {
                Some(first) => first.to_uppercase().chain(chars).collect::<String>() + ".",
                None => text,
            }
        }
    })
}

/// Every seat's hand once the game is over (cards codes; the record shows them anyway),
/// else `null`: the cards nobody played when the game ended.
pub fn hands_left(s: &State) -> Value {
    if !s.is_over() {
        return Value::Null;
    }
    (0..s.num_players())
        .map(|p| {
            s.hand(p)
                .iter()
                .map(|c| Value::from(c.to_string()))
                .collect::<Vec<_>>()
        })
        .collect::<Vec<_>>()
        .into()
}

/// A seed as the API shows it: a decimal string (every digit survives JavaScript).
pub fn seed_text(seed: u64) -> String {
    seed.to_string()
}

/// Reads a seed given as a whole number or as a decimal string (`"16545473962774781750"`),
/// or null; anything else is refused with what a seed must be.
pub fn seed_number_or_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Seed {
        Number(u64),
        Text(String),
    }
    use serde::de::Error;
    let expected = "a seed is a whole number (a u64) from 0 to 18446744073709551615 (a \
                    number or a decimal string)";
    match Option::<Value>::deserialize(d)? {
        None | Some(Value::Null) => Ok(None),
        Some(v) => match Seed::deserialize(v).map_err(|_| D::Error::custom(expected))? {
            Seed::Number(n) => Ok(Some(n)),
            Seed::Text(t) => t
                .trim()
                .parse::<u64>()
                .map(Some)
                .map_err(|_| D::Error::custom(format!("{expected}; got {t:?}"))),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::config::{GameConfig, Variant};
    use crate::rules::state::Phase;

    #[derive(Deserialize)]
    struct Body {
        #[serde(default, deserialize_with = "seed_number_or_text")]
        seed: Option<u64>,
    }

    fn seed(body: &str) -> Result<Option<u64>, String> {
        serde_json::from_str::<Body>(body)
            .map(|b| b.seed)
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_seed_is_read_from_a_number_or_a_decimal_string_to_the_last_digit() {
        assert_eq!(seed(r#"{"seed": 7}"#), Ok(Some(7)));
        assert_eq!(
            seed(r#"{"seed": "16545473962774781750"}"#),
            Ok(Some(16545473962774781750))
        );
        assert_eq!(seed(r#"{"seed": null}"#), Ok(None));
        assert_eq!(seed("{}"), Ok(None));
        for bad in [
            r#"{"seed": "18446744073709551616"}"#,
            r#"{"seed": -1}"#,
            r#"{"seed": 1.5}"#,
            r#"{"seed": "x"}"#,
        ] {
            let e = seed(bad).unwrap_err();
            assert!(e.contains("a seed is a whole number"), "{bad}: {e}");
        }
        assert_eq!(seed_text(u64::MAX), "18446744073709551615");
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
