//! Game records (schema version 1, in docs/api.md) and validated replays.
//!
//! A [`Match`] is a [`State`] plus its history. It writes the record as it goes, so
//! [`Match::record`] costs no replay. [`Match::from_record`] rebuilds a game from a record:
//! it takes every round's deal from the record, replays the recorded passes and plays
//! (each must be legal, in the engine's order), then recomputes every derived field and
//! compares the whole record with what it computed. Any disagreement, missing or unknown
//! key, or value of the wrong JSON type is a [`RecordError`] naming the field's path,
//! e.g. `rounds[1].tricks[4].winner`. An accepted record rebuilds to exactly itself.

use serde::Serialize;
use serde_json::{Map, Value};

use crate::cards::Card;
use crate::error::{IllegalAction, RecordError};
use crate::rules::config::{Episode, GameConfig, Scoring, Variant};
use crate::rules::deal::Deal;
use crate::rules::state::{Outcome, Phase, RoundResult, State};

/// The record schema version written and accepted.
pub const RECORD_VERSION: u64 = 1;

/// One trick as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TrickRecord {
    pub leader: u8,
    pub cards: Vec<u8>,
    pub winner: Option<u8>,
}

/// A round's result as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultRecord {
    pub winners: Vec<u8>,
    pub reason: &'static str,
    pub points: Vec<u16>,
}

impl ResultRecord {
    fn new(r: &RoundResult, n: usize) -> ResultRecord {
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
    pub hands: Vec<Vec<u8>>,
    pub trump_card: Option<u8>,
    pub passes: Vec<Vec<u8>>,
    pub leader: Option<u8>,
    pub trump_suit: Option<u8>,
    pub tricks: Vec<TrickRecord>,
    pub seals: Vec<[u8; 2]>,
    pub result: Option<ResultRecord>,
}

impl RoundRecord {
    fn start(s: &State) -> RoundRecord {
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

/// A whole game record (schema in docs/api.md).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Record {
    pub version: u64,
    pub variant: &'static str,
    pub scoring: Option<&'static str>,
    pub seed: u64,
    /// Written only when not the default (`"game"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub episode: Option<&'static str>,
    /// Written only when a round cap is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_rounds: Option<u32>,
    pub rounds: Vec<RoundRecord>,
    pub scores: Vec<u16>,
    pub winners: Vec<u8>,
    pub over: bool,
}

impl Record {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record always serialises")
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("a record always serialises")
    }
}

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
                    let team = tr.winner & 1;
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

    /// Rebuilds a game from a JSON record string (see [`Match::from_record`]).
    pub fn from_json(json: &str) -> Result<Match, RecordError> {
        let v: Value = serde_json::from_str(json)
            .map_err(|e| RecordError::new("", format!("not valid JSON: {e}")))?;
        Match::from_record(&v)
    }

    /// Rebuilds a game by replaying `rec`, validating every action and every derived field.
    pub fn from_record(rec: &Value) -> Result<Match, RecordError> {
        let top = as_object(rec, "")?;
        let version = get_uint(top, "version", "")?;
        if version != RECORD_VERSION {
            return Err(RecordError::new(
                "version",
                format!(
                    "unsupported version {version}: this engine reads version {RECORD_VERSION}"
                ),
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
        let config = GameConfig {
            variant,
            scoring,
            episode,
            max_rounds,
            seed,
        };
        let rounds = get_array(top, "rounds", "")?;
        if rounds.is_empty() {
            return Err(RecordError::new(
                "rounds",
                "a record has at least one round",
            ));
        }

        let n = variant.num_players();
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

        let mut m = Match::with_deals(config, deals);
        for (r, round) in rounds.iter().enumerate() {
            let path = format!("rounds[{r}]");
            if m.state.round() as usize != r || m.state.is_over() {
                return Err(RecordError::new(
                    path,
                    "this round follows a round that did not end, or the end of the game",
                ));
            }
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
                    m.expect_turn(Phase::Pass, seat, r, card, &cpath)?;
                    m.apply_action(card as i128)
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
                    if m.state.round() as usize != r
                        || m.state.is_over()
                        || m.state.tricks_played() != t
                        || m.state.trick_cards().len() != i
                    {
                        return Err(m.ended_before(card, cpath));
                    }
                    let seat = m.state.current_player().unwrap_or(0);
                    m.expect_turn(Phase::Play, seat, r, card, &cpath)?;
                    m.apply_action(card as i128)
                        .map_err(|e| RecordError::new(cpath, e.to_string()))?;
                }
            }
        }
        compare(rec, &m.record().to_value(), "")?;
        Ok(m)
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
        if s.round() as usize != round || s.is_over() {
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
}

impl Match {
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
