//! Validated replays: [`Match::from_record`] rebuilds a game from a record, replaying
//! every recorded pick and play through the engine, then compares every derived field.

use serde_json::{Map, Value};

use super::{Match, RECORD_VERSION};
use crate::cards::Card;
use crate::error::RecordError;
use crate::rules::config::{Episode, GameConfig, Scoring, Variant};
use crate::rules::deal::Deal;
use crate::rules::state::Phase;

impl Match {
    /// Rebuilds a game from a JSON record string (see [`Match::from_record`]).
    pub fn from_json(json: &str) -> Result<Match, RecordError> {
        let v: Value = serde_json::from_str(json)
            .map_err(|e| RecordError::new("", format!("not valid JSON: {e}")))?;
        Match::from_record(&v)
    }

    /// Rebuilds a game by replaying `rec`, validating every action and every derived field.
    pub fn from_record(rec: &Value) -> Result<Match, RecordError> {
        let top = as_object(rec, "")?;
        let config = read_config(top)?;
        let rounds = get_array(top, "rounds", "")?;
        if rounds.is_empty() {
            return Err(RecordError::new(
                "rounds",
                "a record has at least one round",
            ));
        }
        let deals = read_deals(config.variant, rounds)?;
        // `read_deals` checked every deal, naming its round.
        let mut m = Match::with_deals(config, deals)
            .map_err(|e| RecordError::new("rounds", e.to_string()))?;
        m.players = read_players(top, config.variant.num_players())?;
        for (r, round) in rounds.iter().enumerate() {
            m.replay_round(r, round)?;
        }
        compare(rec, &m.record().to_value(), "")?;
        Ok(m)
    }

    /// Replays round `r` of the record, `round`: its passing picks, then its tricks.
    fn replay_round(&mut self, r: usize, round: &Value) -> Result<(), RecordError> {
        let path = format!("rounds[{r}]");
        // A round is dealt when the record goes on after the last one ended, so a record
        // that stops at a round's end replays to its last position (`Phase::RoundOver`).
        self.deal_next_round();
        if self.state.round() as usize != r || self.state.is_over() {
            return Err(RecordError::new(
                path,
                "this round follows a round that did not end, or the end of the game",
            ));
        }
        let n = self.state.num_players();
        let obj = as_object(round, &path)?;
        let passes = get_array(obj, "passes", &path)?;
        if passes.len() != n {
            return Err(RecordError::new(
                format!("{path}.passes"),
                format!("expected {n} lists of picks, got {}", passes.len()),
            ));
        }
        for (seat, picks) in passes.iter().enumerate() {
            let ppath = format!("{path}.passes[{seat}]");
            for (k, card) in int_list(picks, &ppath)?.into_iter().enumerate() {
                let cpath = format!("{ppath}[{k}]");
                self.expect_turn(Phase::Pass, seat, r, card, &cpath)?;
                self.apply_action_in_round(card as i128)
                    .map_err(|e| RecordError::new(cpath, e.to_string()))?;
            }
        }
        let tricks = get_array(obj, "tricks", &path)?;
        for (t, trick) in tricks.iter().enumerate() {
            let tpath = format!("{path}.tricks[{t}]");
            let tobj = as_object(trick, &tpath)?;
            let cards = int_list(get(tobj, "cards", &tpath)?, &format!("{tpath}.cards"))?;
            if cards.is_empty() || cards.len() > n {
                return Err(RecordError::new(
                    format!("{tpath}.cards"),
                    format!("a trick has 1 to {n} cards, got {}", cards.len()),
                ));
            }
            for (i, &card) in cards.iter().enumerate() {
                let cpath = format!("{tpath}.cards[{i}]");
                if self.state.round() as usize != r
                    || self.state.is_over()
                    || self.state.tricks_played() != t
                    || self.state.trick_cards().len() != i
                {
                    return Err(self.ended_before(card, cpath));
                }
                let seat = self.state.current_player().unwrap_or(0);
                self.expect_turn(Phase::Play, seat, r, card, &cpath)?;
                self.apply_action_in_round(card as i128)
                    .map_err(|e| RecordError::new(cpath, e.to_string()))?;
            }
        }
        Ok(())
    }

    fn expect_turn(
        &self,
        phase: Phase,
        seat: usize,
        round: usize,
        card: i64,
        path: &str,
    ) -> Result<(), RecordError> {
        let s = &self.state;
        if s.round() as usize != round || s.is_over() || s.phase() == Phase::RoundOver {
            return Err(self.ended_before(card, path));
        }
        if s.phase() != phase || s.current_player() != Some(seat) {
            return Err(RecordError::new(
                path,
                format!(
                    "out of turn: the engine expects a {} decision by seat {}",
                    s.phase().name(),
                    s.current_player().unwrap_or(0)
                ),
            ));
        }
        Ok(())
    }

    /// A record's card that comes after its round (or the game) ended, named by code and id
    /// like every other replay error (or by its number alone when it is no card at all).
    fn ended_before(&self, card: i64, path: impl Into<String>) -> RecordError {
        let named = match usize::try_from(card) {
            Ok(id) if id < self.state.config().num_actions() => {
                let c = Card::from_id_unchecked(id as u8);
                format!("card {c} (id {id})")
            }
            _ => format!("card id {card}"),
        };
        RecordError::new(
            path,
            format!("{named} comes after its round (or the game) already ended"),
        )
    }
}

/// The game's configuration from the record's header (`version` .. `max_rounds`).
/// The optional `players`: one entry per seat, a bot's name or `null` (a person).
fn read_players(
    top: &Map<String, Value>,
    n: usize,
) -> Result<Option<Vec<Option<String>>>, RecordError> {
    let Some(v) = top.get("players") else {
        return Ok(None);
    };
    let Value::Array(items) = v else {
        return Err(RecordError::new(
            "players",
            format!("expected a list of {n} entries (a bot's name or null per seat), got {v}"),
        ));
    };
    if items.len() != n {
        return Err(RecordError::new(
            "players",
            format!("expected {n} entries, one per seat, got {}", items.len()),
        ));
    }
    items
        .iter()
        .enumerate()
        .map(|(p, item)| match item {
            Value::Null => Ok(None),
            Value::String(s) if !s.trim().is_empty() => Ok(Some(s.clone())),
            other => Err(RecordError::new(
                format!("players[{p}]"),
                format!("expected a bot's name or null (a person), got {other}"),
            )),
        })
        .collect::<Result<Vec<_>, _>>()
        .map(Some)
}

fn read_config(top: &Map<String, Value>) -> Result<GameConfig, RecordError> {
    let version = get_uint(top, "version", "")?;
    if version != RECORD_VERSION {
        return Err(RecordError::new(
            "version",
            format!("unsupported version {version}: this engine reads version {RECORD_VERSION}"),
        ));
    }
    let variant: Variant = get_str(top, "variant", "")?
        .parse()
        .map_err(|e: crate::ConfigError| RecordError::new("variant", e.to_string()))?;
    let scoring = match get(top, "scoring", "")? {
        Value::Null if variant.is_seal() => Scoring::Advanced,
        Value::String(s) if !variant.is_seal() => s
            .parse()
            .map_err(|e: crate::ConfigError| RecordError::new("scoring", e.to_string()))?,
        other => {
            return Err(RecordError::new(
                "scoring",
                format!(
                    "expected {} for variant {variant}, got {other}",
                    if variant.is_seal() {
                        "null"
                    } else {
                        "\"advanced\" or \"basic\""
                    }
                ),
            ))
        }
    };
    let seed = get_uint(top, "seed", "")?;
    let episode = match top.get("episode") {
        None => Episode::Game,
        Some(Value::String(s)) => s
            .parse()
            .map_err(|e: crate::ConfigError| RecordError::new("episode", e.to_string()))?,
        Some(other) => {
            return Err(RecordError::new(
                "episode",
                format!("expected a string, got {other}"),
            ))
        }
    };
    let max_rounds = match top.get("max_rounds") {
        None => None,
        Some(_) => {
            let m = get_uint(top, "max_rounds", "")?;
            if m == 0 || m > u32::MAX as u64 {
                return Err(RecordError::new("max_rounds", "must be in 1..2**32-1"));
            }
            Some(m as u32)
        }
    };
    Ok(GameConfig {
        variant,
        scoring,
        episode,
        max_rounds,
        seed,
    })
}

/// Every recorded round's deal (`rounds[r].hands` and `trump_card`), validated.
fn read_deals(variant: Variant, rounds: &[Value]) -> Result<Vec<Deal>, RecordError> {
    let mut deals = Vec::with_capacity(rounds.len());
    for (r, round) in rounds.iter().enumerate() {
        let path = format!("rounds[{r}]");
        let obj = as_object(round, &path)?;
        let hands = get_array(obj, "hands", &path)?;
        let hands: Vec<Vec<i64>> = hands
            .iter()
            .enumerate()
            .map(|(p, h)| int_list(h, &format!("{path}.hands[{p}]")))
            .collect::<Result<_, _>>()?;
        let trump = match get(obj, "trump_card", &path)? {
            Value::Null => None,
            v => Some(as_int(v, &format!("{path}.trump_card"))?),
        };
        let deal = Deal::from_sorted_ids(variant, &hands, trump)
            .map_err(|e| RecordError::new(format!("{path}.hands"), e.to_string()))?;
        deals.push(deal);
    }
    Ok(deals)
}

// ---------------------------------------------------------------- strict JSON access

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn as_object<'a>(v: &'a Value, path: &str) -> Result<&'a Map<String, Value>, RecordError> {
    v.as_object()
        .ok_or_else(|| RecordError::new(path, format!("expected an object, got {}", kind(v))))
}

fn get<'a>(obj: &'a Map<String, Value>, key: &str, path: &str) -> Result<&'a Value, RecordError> {
    obj.get(key)
        .ok_or_else(|| RecordError::new(join(path, key), "missing key"))
}

fn get_str<'a>(obj: &'a Map<String, Value>, key: &str, path: &str) -> Result<&'a str, RecordError> {
    let v = get(obj, key, path)?;
    v.as_str().ok_or_else(|| {
        RecordError::new(
            join(path, key),
            format!("expected a string, got {}", kind(v)),
        )
    })
}

fn get_array<'a>(
    obj: &'a Map<String, Value>,
    key: &str,
    path: &str,
) -> Result<&'a Vec<Value>, RecordError> {
    let v = get(obj, key, path)?;
    v.as_array().ok_or_else(|| {
        RecordError::new(join(path, key), format!("expected a list, got {}", kind(v)))
    })
}

fn get_uint(obj: &Map<String, Value>, key: &str, path: &str) -> Result<u64, RecordError> {
    let v = get(obj, key, path)?;
    v.as_u64().ok_or_else(|| {
        RecordError::new(
            join(path, key),
            format!("expected a non-negative integer, got {}", kind(v)),
        )
    })
}

/// An integer: a JSON number without fraction or exponent (`1.0` and `true` are not).
fn as_int(v: &Value, path: &str) -> Result<i64, RecordError> {
    v.as_i64()
        .ok_or_else(|| RecordError::new(path, format!("expected an integer, got {}", kind(v))))
}

fn int_list(v: &Value, path: &str) -> Result<Vec<i64>, RecordError> {
    let a = v
        .as_array()
        .ok_or_else(|| RecordError::new(path, format!("expected a list, got {}", kind(v))))?;
    a.iter()
        .enumerate()
        .map(|(i, x)| as_int(x, &format!("{path}[{i}]")))
        .collect()
}

fn kind(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("{b} (a boolean)"),
        Value::Number(n) if n.is_f64() => format!("{n} (a float)"),
        Value::Number(n) => format!("{n}"),
        Value::String(s) => format!("{s:?} (a string)"),
        Value::Array(_) => "a list".into(),
        Value::Object(_) => "an object".into(),
    }
}

/// Compares a given record with the replay's, reporting the first difference by path.
fn compare(given: &Value, computed: &Value, path: &str) -> Result<(), RecordError> {
    match (given, computed) {
        (Value::Object(g), Value::Object(c)) => {
            for key in g.keys() {
                if !c.contains_key(key) {
                    return Err(RecordError::new(
                        join(path, key),
                        format!("unknown key {key:?}"),
                    ));
                }
            }
            for (key, cv) in c {
                let gv = g
                    .get(key)
                    .ok_or_else(|| RecordError::new(join(path, key), "missing key"))?;
                compare(gv, cv, &join(path, key))?;
            }
            Ok(())
        }
        (Value::Array(g), Value::Array(c)) => {
            if g.len() != c.len() {
                return Err(RecordError::new(
                    path,
                    format!(
                        "the record has {} entries, the replay gives {}",
                        g.len(),
                        c.len()
                    ),
                ));
            }
            for (i, (gv, cv)) in g.iter().zip(c).enumerate() {
                compare(gv, cv, &format!("{path}[{i}]"))?;
            }
            Ok(())
        }
        (g, c) if same_value(g, c) => Ok(()),
        (g, c) => Err(RecordError::new(
            path,
            format!("the record says {}, the replay gives {c}", kind(g)),
        )),
    }
}

/// Equal JSON values, with integers compared as integers (so `1.0` never equals `1`).
fn same_value(g: &Value, c: &Value) -> bool {
    match (g, c) {
        (Value::Number(a), Value::Number(b)) => {
            !a.is_f64() && !b.is_f64() && a.as_i64() == b.as_i64() && a.as_u64() == b.as_u64()
        }
        _ => g == c,
    }
}
