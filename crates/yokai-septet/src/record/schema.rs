//! The record's schema (version 1): the types [`Match::record`](super::Match::record)
//! writes, and the table of their fields that documents them (`docs/records.md`,
//! generated from [`record_schema_docs`]; a test fails when the file is stale).

use serde::Serialize;
use serde_json::Value;

use crate::cards::Card;
#[cfg(test)]
use crate::rules::RoundEnd;
use crate::rules::{RoundResult, State};

/// The record schema version written and accepted.
pub const RECORD_VERSION: u64 = 1;

/// One trick as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TrickRecord {
    /// The trick's leader.
    pub leader: u8,
    /// Its cards (ids) in play order from the leader.
    pub cards: Vec<u8>,
    /// Its winner (`None` for a partial last trick).
    pub winner: Option<u8>,
}

/// A round's result as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultRecord {
    /// The seats that won the round (none for a `complete` seal round).
    pub winners: Vec<u8>,
    /// Why the round ended (a `RoundEnd`'s name).
    pub reason: &'static str,
    /// Points gained by each seat this round (seal variants: the seals each seat's team
    /// made).
    pub points: Vec<u16>,
}

impl ResultRecord {
    pub(super) fn new(r: &RoundResult, n: usize) -> ResultRecord {
        ResultRecord {
            winners: r.winner_seats().map(|p| p as u8).collect(),
            reason: r.reason.name(),
            points: r.points[..n].to_vec(),
        }
    }
}

/// One round as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RoundRecord {
    /// Each seat's hand as dealt, before passing, ascending (card ids).
    pub hands: Vec<Vec<u8>>,
    /// The face-up card (`None` in the seal variants).
    pub trump_card: Option<u8>,
    /// Each seat's passing picks in the order made (R4.2).
    pub passes: Vec<Vec<u8>>,
    /// The round's first leader; `None` until known (after passing).
    pub leader: Option<u8>,
    /// The trump suit; `None` in a seal round until its first lead.
    pub trump_suit: Option<u8>,
    /// The tricks in the order played.
    pub tricks: Vec<TrickRecord>,
    /// Seal variants: `[team, suit]` pairs in the order made this round (R9).
    pub seals: Vec<[u8; 2]>,
    /// `None` while the round is played.
    pub result: Option<ResultRecord>,
}

impl RoundRecord {
    pub(super) fn start(s: &State) -> RoundRecord {
        let n = s.num_players();
        let d = s.deal();
        RoundRecord {
            hands: (0..n).map(|p| d.hands[p].to_ids()).collect(),
            trump_card: d.trump_card.map(Card::id),
            passes: vec![Vec::new(); n],
            leader: s.round_leader().map(|p| p as u8),
            trump_suit: s.trump_suit().map(|t| t as u8),
            tricks: Vec::new(),
            seals: Vec::new(),
            result: None,
        }
    }
}

/// A whole game record (schema in docs/records.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
    /// The schema version (1).
    pub version: u64,
    /// The variant's name.
    pub variant: &'static str,
    /// The scoring mode's name (`None` in the seal variants, which have none).
    pub scoring: Option<&'static str>,
    /// The game's seed.
    pub seed: u64,
    /// Written only when not the default (`"game"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub episode: Option<&'static str>,
    /// Written only when a round cap is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_rounds: Option<u32>,
    /// Who sits at each seat: a bot's name, or `None` for a person. Written only when
    /// known (`play --save`), so that `play --load` resumes with the same bots and seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<Option<String>>>,
    /// Every round played, in order.
    pub rounds: Vec<RoundRecord>,
    /// The final score of each seat.
    pub scores: Vec<u16>,
    /// The game's winners (seats, ascending).
    pub winners: Vec<u8>,
    /// Whether the game is over.
    pub over: bool,
}

impl Record {
    /// The record as compact JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record always serialises")
    }

    /// The record as a JSON value.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("a record always serialises")
    }

    /// Every decision of the game, in the order the engine took them (each round's picks
    /// seat by seat, then its tricks). The record must be one [`Match::record`] wrote, or a
    /// validated one (its card ids are valid).
    ///
    /// [`Match::record`]: super::Match::record
    pub fn actions(&self) -> Vec<crate::cards::Card> {
        let mut ids = Vec::new();
        for round in &self.rounds {
            ids.extend(round.passes.iter().flatten().copied());
            ids.extend(round.tricks.iter().flat_map(|t| t.cards.iter().copied()));
        }
        ids.into_iter()
            .map(|id| crate::cards::Card::new(id).expect("a validated record holds valid card ids"))
            .collect()
    }

    /// Every round's deal, to replay the game move by move with
    /// [`Match::with_deals`](super::Match::with_deals). The record must be one
    /// [`Match::record`](super::Match::record) wrote (its deals are valid).
    pub fn deals(&self) -> Vec<crate::rules::deal::Deal> {
        let variant: crate::rules::config::Variant = self
            .variant
            .parse()
            .expect("a written record names its variant");
        self.rounds
            .iter()
            .map(|r| {
                let hands: Vec<Vec<i64>> = r
                    .hands
                    .iter()
                    .map(|h| h.iter().map(|&c| c as i64).collect())
                    .collect();
                crate::rules::deal::Deal::from_sorted_ids(
                    variant,
                    &hands,
                    r.trump_card.map(i64::from),
                )
                .expect("a written record holds valid deals")
            })
            .collect()
    }
}

// The field table and its Markdown exist for the tests, which keep docs/records.md
// up to date from them.
#[cfg(test)]
/// Every field of a record and what it holds: the single source of `docs/records.md`.
/// Paths name list entries `[k]` (rounds) and `[i]` (tricks). A test checks that the
/// keys are exactly those [`Match::record`](super::Match::record) writes.
const FIELDS: &[(&[&str], &str)] = &[
    (&["version"], "the schema version, 1"),
    (&["variant", "seed"], "as given to `Game`"),
    (&["scoring"], "as given; `null` in the seal variants"),
    (&["episode", "max_rounds"], "present only when not the defaults"),
    (
        &["players"],
        "optional (written by `play --save`): one entry per seat, a bot's name (as `play --bots` takes it) or `null` for the person playing; `play --load` resumes with them",
    ),
    (&["rounds"], "one entry per round played or in progress"),
    (&["rounds[k].hands"], "each seat's hand as dealt, before passing, ascending"),
    (&["rounds[k].trump_card"], "the face-up card (`null` in the seal variants)"),
    (&["rounds[k].passes"], "each seat's passing picks in the order made (R4.2)"),
    (&["rounds[k].leader"], "the round's first leader; `null` until known (after passing)"),
    (&["rounds[k].trump_suit"], "`null` in a seal round until its first lead"),
    (&["rounds[k].tricks"], "the tricks in the order played"),
    (
        &["rounds[k].tricks[i].leader", "rounds[k].tricks[i].cards", "rounds[k].tricks[i].winner"],
        "the trick's leader, its cards in play order from the leader, and its winner (`null` for a partial last trick)",
    ),
    (&["rounds[k].seals"], "seal variants: `[team, suit]` pairs in the order made this round (R9)"),
    (&["rounds[k].result"], "`null` while the round is played; else an object:"),
    (&["rounds[k].result.winners"], "the seats that won the round (`[]` for a `complete` seal round)"),
    (&["rounds[k].result.reason"], "why the round ended (below)"),
    (
        &["rounds[k].result.points"],
        "points gained by each seat this round (seal variants: the seals each seat's team made)",
    ),
    (&["scores", "winners", "over"], "as `Game.scores`, `Game.winners`, `Game.is_over`"),
];

#[cfg(test)]
/// What each `reason` means, in [`RoundEnd::ALL`]'s order.
const REASONS: [(RoundEnd, &str); 5] = [
    (RoundEnd::Bosses, "a side captured enough bosses (R7.1)"),
    (
        RoundEnd::Tricks,
        "a side took 7 tricks without enough bosses; the others win (R7.2)",
    ),
    (
        RoundEnd::LastTrick,
        "all hands are empty; the last trick's winner's side wins (R7.3)",
    ),
    (
        RoundEnd::Complete,
        "a seal round of 14 tricks without a game win (R9)",
    ),
    (
        RoundEnd::Sealed,
        "a team won the game by sealing in this round (R9)",
    ),
];

#[cfg(test)]
/// The record schema as Markdown: the content of `docs/records.md`, which a test of this
/// module keeps up to date (`YS_WRITE_DOCS=1` rewrites it).
pub(crate) fn record_schema_docs() -> String {
    let mut s = format!(
        "## The record schema (version {RECORD_VERSION})\n\n\
         Generated from `crates/yokai-septet/src/record/schema.rs` (`YS_WRITE_DOCS=1 cargo \
         test -p yokai-septet --lib record_schema_docs` rewrites it); do not edit by hand. `Game.record()` (Python) and \
         `Match::record` (Rust) write it; `Game.from_record` and `Match::from_record` \
         replay and validate it.\n\n| field | meaning |\n|---|---|\n"
    );
    for (keys, meaning) in FIELDS {
        let keys: Vec<String> = keys.iter().map(|k| format!("`{k}`")).collect();
        s += &format!("| {} | {meaning} |\n", keys.join(", "));
    }
    s += "\n`reason` is one of:\n\n";
    for (reason, meaning) in REASONS {
        s += &format!("- `\"{}\"`: {meaning}\n", reason.name());
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::Match;
    use crate::rules::config::{Episode, GameConfig, Variant};
    use std::collections::BTreeSet;

    /// The key paths of `v`, list entries written `[k]` at depth 1 and `[i]` below.
    fn key_paths(v: &Value, path: &str, depth: usize, out: &mut BTreeSet<String>) {
        match v {
            Value::Object(map) => {
                for (key, child) in map {
                    let p = if path.is_empty() {
                        key.clone()
                    } else {
                        format!("{path}.{key}")
                    };
                    out.insert(p.clone());
                    key_paths(child, &p, depth, out);
                }
            }
            Value::Array(items) => {
                let index = if depth == 0 { "[k]" } else { "[i]" };
                for item in items.iter().filter(|x| x.is_object()) {
                    key_paths(item, &format!("{path}{index}"), depth + 1, out);
                }
            }
            _ => {}
        }
    }

    /// `docs/records.md` is [`record_schema_docs`]; with `YS_WRITE_DOCS=1` the test
    /// rewrites the file instead of failing.
    #[test]
    fn record_schema_docs_are_up_to_date() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/records.md");
        let want = record_schema_docs();
        if std::env::var_os("YS_WRITE_DOCS").is_some() {
            std::fs::write(path, &want).expect("docs/records.md is writable");
        }
        let on_disk = std::fs::read_to_string(path).unwrap_or_default();
        assert_eq!(
            on_disk, want,
            "run `YS_WRITE_DOCS=1 cargo test -p yokai-septet --lib record_schema_docs`"
        );
    }

    #[test]
    fn schema_table_names_exactly_the_fields_records_have() {
        let mut written = BTreeSet::new();
        for variant in Variant::ALL {
            let config = GameConfig::new(variant, 3)
                .with_episode(Episode::Round)
                .with_max_rounds(Some(5));
            for config in [config, GameConfig::new(variant, 4)] {
                let mut m = Match::new(config);
                let mut players = vec![Some("random".to_string()); variant.num_players()];
                players[0] = None;
                m.set_players(Some(players));
                while let Some(card) = m.state().legal_actions().first() {
                    m.apply(card).unwrap();
                }
                key_paths(&m.record().to_value(), "", 0, &mut written);
            }
        }
        let documented: BTreeSet<String> = FIELDS
            .iter()
            .flat_map(|(keys, _)| keys.iter().map(|k| k.to_string()))
            .collect();
        assert_eq!(written, documented);
    }

    #[test]
    fn every_round_end_reason_is_documented_in_order() {
        let documented: Vec<RoundEnd> = REASONS.iter().map(|(r, _)| *r).collect();
        assert_eq!(documented, RoundEnd::ALL);
    }
}
