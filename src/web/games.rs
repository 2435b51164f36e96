//! The games a server holds: one [`Game`] per page (a person at one seat, or bots only),
//! and [`Games`], the capped table of them by id.
//!
//! Everything a game tells the page comes from [`Game::state_json`]: the person's own
//! [`SeatView`] (their hand, what they passed and received) and public events (cards
//! played, tricks, captured bosses, scores, seals, round ends), never another seat's hand
//! (R10). The whole table is shown only in a game without a person, where nobody plays.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use serde::Deserialize;
use serde_json::{json, Value};

use crate::bots::resume::{resume, ResumeError, Seated};
use crate::bots::{Bot, BotRegistry};
use crate::cards::{left_of, partner_of, team_of, team_seats, Card, CardSet, Suit};
use crate::picture::{reason_text, seat_svg, table_svg};
use crate::record::{Match, Record};
use crate::rng::play_bot_seed;
use crate::rules::config::{Episode, GameConfig, Scoring, Variant};
use crate::rules::{Outcome, Phase};

use super::ApiError;

/// What `POST /api/games` reads. Unknown fields are refused (a misspelt option must not be
/// silently ignored).
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `4p`, `3p`, `seal`, `seal-short` (default `4p`).
    #[serde(default)]
    pub variant: Option<String>,
    /// `advanced` or `basic` (default `advanced`; the seal variants ignore it).
    #[serde(default)]
    pub scoring: Option<String>,
    /// The deals' and bots' seed (a number, or a decimal string: JavaScript's numbers
    /// lose a `u64`'s low digits); absent or null: a random one.
    #[serde(default, deserialize_with = "super::table::seed_number_or_text")]
    pub seed: Option<u64>,
    /// The person's seat; absent: 0; null with `watch`: none (bots only).
    #[serde(default)]
    pub seat: Option<usize>,
    /// Bots only: every seat is a bot, the page watches.
    #[serde(default)]
    pub watch: bool,
    /// One bot name for every bot seat, or one per bot seat in seat order.
    #[serde(default)]
    pub bots: Option<Vec<String>>,
    /// `game` (default) or `round` (one round).
    #[serde(default)]
    pub episode: Option<String>,
    /// A round cap (absent or null: none).
    #[serde(default)]
    pub max_rounds: Option<u32>,
}

/// One game at the table: the match, its bots, the person's seat and the public events.
pub struct Game {
    m: Match,
    bots: Vec<Option<Box<dyn Bot>>>,
    /// One per seat: a bot's name, or `None` for the person (the record's `players`).
    players: Vec<Option<String>>,
    /// The person's seat; `None` in a game of bots only.
    me: Option<usize>,
    /// What happened, as the person may know it, in order.
    events: Vec<Value>,
    /// The rounds that are over (their review can be asked for).
    finished_rounds: usize,
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(400, message)
}

/// A random seed for a game created without one: the standard library's per-process random
/// hash keys (no extra dependency; this seed only has to differ between games).
fn random_seed() -> u64 {
    RandomState::new().hash_one(Instant::now())
}

/// A hard-to-guess game id (another page on the machine cannot name a game it did not
/// create, even where it can reach the server).
fn new_id() -> String {
    format!(
        "{:016x}{:016x}",
        RandomState::new().hash_one(1u8),
        RandomState::new().hash_one(Instant::now())
    )
}

fn card_json(c: Card) -> Value {
    json!({"card": c.to_string(), "id": c.id()})
}

fn cards_json(cards: impl IntoIterator<Item = Card>) -> Vec<String> {
    cards.into_iter().map(|c| c.to_string()).collect()
}

fn suits_json(mask: u8) -> Vec<&'static str> {
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

impl Game {
    /// A new game as `req` asks, its bots built by `registry`.
    pub fn new(req: &NewGame, registry: &BotRegistry) -> Result<Game, ApiError> {
        let parse = |what: &str, r: Result<(), String>| r.map_err(|e| bad(format!("{what}: {e}")));
        let variant: Variant = match &req.variant {
            Some(v) => v.parse().map_err(|e| bad(format!("variant: {e}")))?,
            None => Variant::FourPlayer,
        };
        let scoring: Scoring = match &req.scoring {
            Some(s) => s.parse().map_err(|e| bad(format!("scoring: {e}")))?,
            None => Scoring::Advanced,
        };
        let episode: Episode = match &req.episode {
            Some(e) => e.parse().map_err(|e| bad(format!("episode: {e}")))?,
            None => Episode::Game,
        };
        let config = GameConfig::new(variant, req.seed.unwrap_or_else(random_seed))
            .with_scoring(scoring)
            .with_episode(episode)
            .with_max_rounds(req.max_rounds);
        parse("max_rounds", config.validate().map_err(|e| e.to_string()))?;
        let n = variant.num_players();
        let me = if req.watch {
            if req.seat.is_some() {
                return Err(bad(
                    "seat: a watched game has no person's seat (leave seat out)",
                ));
            }
            None
        } else {
            let seat = req.seat.unwrap_or(0);
            if seat >= n {
                return Err(bad(format!(
                    "seat: {seat} is out of range: {variant} has seats 0 to {}",
                    n - 1
                )));
            }
            Some(seat)
        };
        let default = vec!["heuristic".to_string()];
        let names = req.bots.as_ref().unwrap_or(&default);
        let bot_seats = n - usize::from(me.is_some());
        let names: Vec<String> = match names.len() {
            1 => vec![names[0].clone(); bot_seats],
            k if k == bot_seats => names.clone(),
            k => {
                return Err(bad(format!(
                    "bots: give one bot name, or {bot_seats} (one per bot seat); got {k}"
                )))
            }
        };
        let mut others = names.into_iter();
        let players: Vec<Option<String>> = (0..n)
            .map(|p| if Some(p) == me { None } else { others.next() })
            .collect();
        Game::seated(Match::new(config), players, me, registry)
    }

    /// A game of `m` (not yet played) with these players, its bots built now.
    fn seated(
        mut m: Match,
        players: Vec<Option<String>>,
        me: Option<usize>,
        registry: &BotRegistry,
    ) -> Result<Game, ApiError> {
        let config = *m.state().config();
        let mut bots = Vec::with_capacity(players.len());
        for (p, player) in players.iter().enumerate() {
            bots.push(match player {
                Some(name) => Some(
                    registry
                        .build(name, play_bot_seed(config.seed, p), config.variant)
                        .map_err(|e| bad(format!("bots: seat {p}: {e}")))?,
                ),
                None => None,
            });
        }
        m.set_players(Some(players.clone()));
        Ok(Game {
            m,
            bots,
            players,
            me,
            events: Vec::new(),
            finished_rounds: 0,
        })
    }

    /// Resumes a saved game (`play --load`'s rules): a valid record of a game that is not
    /// over, with exactly one person's seat in its `players`. Its decisions are played
    /// again from its seed, each bot asked for its own as it was then (so that its random
    /// stream is where it was), and the result must be the record itself.
    pub fn load(json: &str, registry: &BotRegistry) -> Result<Game, ApiError> {
        let saved = Match::from_json(json).map_err(|e| bad(format!("record: {e}")))?;
        if saved.state().is_over() {
            return Err(bad(
                "record: this game is over (open it in the replay viewer)",
            ));
        }
        let record = saved.record();
        let players = record.players.clone().ok_or_else(|| {
            bad("record: it has no `players` (who sat where), so its bots are unknown")
        })?;
        let people: Vec<usize> = (0..players.len())
            .filter(|&p| players[p].is_none())
            .collect();
        if people.len() > 1 {
            return Err(bad(
                "record: `players` has more than one person's seat (null)",
            ));
        }
        let me = people.first().copied();
        let config = *saved.state().config();
        let mut g = Game::seated(Match::new(config), players, me, registry)?;
        resume(&mut g, &record).map_err(|e| match e {
            ResumeError::Bot { seat, error } => {
                ApiError::new(500, format!("seat {seat}'s bot: {error}"))
            }
            ResumeError::Illegal(e) => {
                bad(format!("record: it does not replay from its seed: {e}"))
            }
            ResumeError::NotFromSeed => {
                bad("record: the game was not dealt from its seed (R10), so it cannot be resumed")
            }
        })?;
        Ok(g)
    }

    /// The record of the game so far (the schema of `docs/records.md`).
    pub fn record(&self) -> Record {
        self.m.record()
    }

    /// Whether the whole game may be shown (the replay viewer shows every hand): when it
    /// is over, or when no person plays in it.
    pub fn may_show_all(&self) -> bool {
        self.me.is_none() || self.m.state().is_over()
    }

    /// The match, for the replay viewer and the review.
    pub fn as_match(&self) -> &Match {
        &self.m
    }

    /// The match, for taking back a passing pick (`undo.rs`).
    pub(super) fn match_mut(&mut self) -> &mut Match {
        &mut self.m
    }

    /// The rounds that are over.
    pub fn finished_rounds(&self) -> usize {
        self.finished_rounds
    }

    /// The person's decision `card` (a card code such as `S13`, or its id).
    pub fn play(&mut self, card: &Value) -> Result<(), ApiError> {
        let s = *self.m.state();
        let Some(me) = self.me else {
            return Err(ApiError::new(
                409,
                "this game has no person's seat: bots play it",
            ));
        };
        if s.is_over() {
            return Err(ApiError::new(409, "the game is over"));
        }
        let to_act = s.current_player().expect("the game is not over");
        if to_act != me {
            return Err(ApiError::new(
                409,
                format!("it is seat {to_act}'s turn, not yours (seat {me}): let the bots move"),
            ));
        }
        let card = match card {
            Value::String(code) => code
                .parse::<Card>()
                .map_err(|e| bad(format!("card: {e}")))?,
            Value::Number(id) => {
                let id = id
                    .as_i64()
                    .ok_or_else(|| bad("card: an id is a whole number"))?;
                s.card_for_action(i128::from(id))
                    .map_err(|e| ApiError::illegal(e.to_string(), None))?
            }
            _ => {
                return Err(bad(
                    "card: give a card code (\"S13\") or a card id (a number)",
                ))
            }
        };
        // The same rule texts as Python's IllegalActionError.
        let card = s
            .card_for_action(i128::from(card.id()))
            .map_err(|e| ApiError::illegal(e.to_string(), Some(card)))?;
        self.apply(card)
            .map_err(|e| ApiError::illegal(e.to_string(), Some(card)))
    }

    /// Lets the bot whose turn it is decide; returns its name and its thinking time.
    pub fn step(&mut self) -> Result<(String, f64), ApiError> {
        let s = *self.m.state();
        let Some(p) = s.current_player() else {
            return Err(ApiError::new(409, "the game is over"));
        };
        let Some(bot) = &mut self.bots[p] else {
            return Err(ApiError::new(409, "it is your turn: play a card"));
        };
        let start = Instant::now();
        let card = bot
            .act(&s.view(p))
            .map_err(|e| ApiError::new(500, format!("seat {p}'s bot: {e}")))?;
        let think = start.elapsed().as_secs_f64() * 1e3;
        self.apply(card)
            .map_err(|e| ApiError::new(500, format!("seat {p}'s bot chose badly: {e}")))?;
        Ok((bot_name(&self.players, p), think))
    }

    /// Applies `p`'s decision and logs what the person may know of it; a round's end is
    /// logged from the finished round's last position, before the next deal.
    fn apply(&mut self, card: Card) -> Result<(), crate::IllegalAction> {
        let before = *self.m.state();
        let outcome = self.m.apply_in_round(card)?;
        self.log(&before, &outcome);
        self.m.deal_next_round();
        Ok(())
    }

    fn log(&mut self, before: &crate::State, outcome: &Outcome) {
        let after = *self.m.state();
        let v = after.variant();
        let round = before.round();
        if before.phase() == Phase::Pass {
            if after.phase() == Phase::Pass {
                return;
            }
            let mut e = json!({"kind": "exchange", "round": round,
                               "leader": after.round_leader()});
            if let Some(me) = self.me {
                let view = after.view(me);
                let passed: Vec<Value> = view
                    .my_passes()
                    .map(|(c, to)| json!({"card": c.to_string(), "to": to}))
                    .collect();
                let received: Vec<Value> = view
                    .received()
                    .map(|(c, from)| json!({"card": c.to_string(), "from": from}))
                    .collect();
                e["passed"] = Value::from(passed);
                e["received"] = Value::from(received);
            }
            self.events.push(e);
            return;
        }
        let Some(t) = outcome.trick else {
            return;
        };
        let n = v.num_players();
        let cards: Vec<Value> = t
            .cards()
            .iter()
            .enumerate()
            .map(|(i, &c)| json!({"seat": left_of(t.leader as usize, i, n), "card": c.to_string()}))
            .collect();
        let bosses = cards_json(t.cards().iter().copied().filter(|c| c.is_boss()));
        self.events.push(json!({
            "kind": "trick", "round": round, "trick": before.tricks_played(),
            "leader": t.leader, "cards": cards, "winner": t.winner, "bosses": bosses,
            "seals": suits_json(outcome.new_seals),
            "sealing_team": (outcome.new_seals != 0).then(|| team_of(t.winner as usize)),
        }));
        if let Some(r) = outcome.round {
            // `after` is the finished round's last position: its captures are still there.
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
            self.events.push(json!({
                "kind": "round_end", "round": round,
                "winners": r.winner_seats().collect::<Vec<_>>(),
                "reason": reason_text(r.reason, v),
                "points": r.points[..v.num_sides()].to_vec(),
                "scores": (0..v.num_sides()).map(|s| view.score(s)).collect::<Vec<_>>(),
                "bosses": bosses,
            }));
            self.finished_rounds = round as usize + 1;
        }
        if after.is_over() {
            self.events.push(json!({
                "kind": "game_over",
                "winners": after.winners().collect::<Vec<_>>(),
                "truncated": after.is_truncated(),
            }));
        }
    }

    /// The hint of the bot `name` for the person's decision.
    pub fn hint(&self, name: &str, registry: &BotRegistry) -> Result<Value, ApiError> {
        let s = self.m.state();
        let me = self
            .me
            .ok_or_else(|| ApiError::new(409, "this game has no person's seat"))?;
        if s.current_player() != Some(me) {
            return Err(ApiError::new(
                409,
                "a hint is for your turn: it is not your turn",
            ));
        }
        let h = crate::bots::hint::hint(&s.view(me), name, registry)
            .map_err(|e| bad(format!("bot: {e}")))?;
        let values: Vec<Value> = h
            .values
            .iter()
            .map(|&(c, v)| json!({"card": c.to_string(), "value": if v.is_nan() { None } else { Some(v) }}))
            .collect();
        let double_dummy: Vec<Value> = h
            .double_dummy
            .iter()
            .map(|&(c, v)| json!({"card": c.to_string(), "value": v}))
            .collect();
        Ok(
            json!({"bot": h.bot, "card": h.card.to_string(), "values": values,
                  "worlds": h.worlds,
                  "units": "(our score - theirs) / target, +0.1 round won, +/-1 game won/lost",
                  "double_dummy": double_dummy,
                  "double_dummy_worlds": if h.double_dummy.is_empty() { 0 } else { crate::bots::hint::HINT_DD_WORLDS },
                  "double_dummy_units": crate::analysis::units(s.variant())}),
        )
    }

    /// The game as the person sees it (R10), or the whole table in a game of bots only.
    pub fn state_json(&self, id: &str) -> Value {
        let s = self.m.state();
        let c = s.config();
        let v = c.variant;
        let n = v.num_players();
        let viewer = self.me.unwrap_or(0);
        let view = s.view(viewer);
        let mut hand = Vec::new();
        let mut svg = table_svg(s);
        if let Some(me) = self.me {
            svg = seat_svg(&view);
            let legal = if s.current_player() == Some(me) {
                view.legal_actions()
            } else {
                CardSet::EMPTY
            };
            for card in view.hand().iter() {
                let reason = (s.current_player() == Some(me) && !legal.contains(card))
                    .then(|| {
                        let mut probe = *s;
                        probe.apply_in_round(card).err().map(|e| e.to_string())
                    })
                    .flatten();
                let mut e = card_json(card);
                e["legal"] = Value::Bool(legal.contains(card));
                e["reason"] = reason.map_or(Value::Null, Value::from);
                e["words"] = (s.current_player() == Some(me))
                    .then(|| super::table::refusal_words(s, card))
                    .flatten()
                    .map_or(Value::Null, Value::from);
                hand.push(e);
            }
        }
        if let Some(kept) = super::table::finished_trick_svg(s, self.me, &self.events) {
            svg = kept;
        }
        let trick: Vec<Value> = match view.trick_leader() {
            Some(l) => view
                .trick_cards()
                .iter()
                .enumerate()
                .map(|(i, &c)| json!({"seat": left_of(l, i, n), "card": c.to_string()}))
                .collect(),
            None => Vec::new(),
        };
        let passing = (s.phase() == Phase::Pass).then(|| {
            json!({"count": v.pass_count(),
                   "picked": self.me.map(|_| cards_json(view.my_passes().map(|x| x.0))),
                   "to": self.me.map(|me| super::table::pass_targets(v, me))})
        });
        json!({
            "id": id,
            "variant": v.name(),
            "scoring": (!v.is_seal()).then(|| c.scoring.name()),
            "seed": super::table::seed_text(c.seed),
            "episode": c.episode.name(),
            "max_rounds": c.max_rounds,
            "players": self.players,
            "seat": self.me,
            "partner": self.me.filter(|_| v.has_teams()).map(partner_of),
            "round": s.round(),
            "phase": match s.phase() { Phase::Pass => "pass", Phase::Play => "play",
                                       Phase::RoundOver => "round_over", Phase::Over => "over" },
            "to_act": s.current_player(),
            "your_turn": self.me.is_some() && s.current_player() == self.me,
            "over": s.is_over(),
            "truncated": s.is_truncated(),
            "winners": s.winners().collect::<Vec<_>>(),
            "scores": (0..v.num_sides()).map(|side| view.score(side)).collect::<Vec<_>>(),
            "target": if v.is_seal() { None } else { Some(c.scoring.target()) },
            "seals": if v.is_seal() { (0..2).map(|t| suits_json(view.seals(t))).collect::<Vec<_>>() } else { Vec::new() },
            "trump_suit": view.trump_suit().map(|t| t.name()),
            "trump_card": view.trump_card().map(|t| t.to_string()),
            "tricks_played": view.tricks_played(),
            "tricks_per_round": v.tricks_per_round(),
            "tricks_won": (0..n).map(|p| view.tricks_won(p)).collect::<Vec<_>>(),
            "bosses": (0..n).map(|p| cards_json(view.won_cards(p).bosses().iter())).collect::<Vec<_>>(),
            "hand_len": (0..n).map(|p| view.hand_len(p)).collect::<Vec<_>>(),
            "hands_left": super::table::hands_left(s),
            "hand": hand,
            "trick": trick,
            "passing": passing,
            "events": self.events,
            "reviewable": (0..self.finished_rounds).collect::<Vec<_>>(),
            "replay": self.may_show_all(),
            "svg": svg,
        })
    }
}

fn bot_name(players: &[Option<String>], p: usize) -> String {
    players[p].clone().unwrap_or_else(|| "you".into())
}

impl Seated for Game {
    fn game(&self) -> &Match {
        &self.m
    }

    fn bot(&mut self, seat: usize) -> Option<&mut (dyn Bot + 'static)> {
        self.bots[seat].as_deref_mut()
    }

    fn apply(&mut self, card: Card) -> Result<(), crate::IllegalAction> {
        Game::apply(self, card)
    }
}

/// The games of one server, by id, at most `cap` of them.
pub struct Games {
    games: Mutex<HashMap<String, Arc<Mutex<Game>>>>,
    cap: usize,
}

impl Games {
    /// An empty table holding at most `cap` games.
    pub fn new(cap: usize) -> Games {
        Games {
            games: Mutex::new(HashMap::new()),
            cap,
        }
    }

    /// Adds `game`; refused when the table is full.
    pub fn insert(&self, game: Game) -> Result<(String, Arc<Mutex<Game>>), ApiError> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if games.len() >= self.cap {
            return Err(ApiError::new(
                503,
                format!(
                    "too many games: this server holds at most {} (end one with DELETE \
                     /api/games/ID, or restart the server)",
                    self.cap
                ),
            ));
        }
        let id = new_id();
        let game = Arc::new(Mutex::new(game));
        games.insert(id.clone(), game.clone());
        Ok((id, game))
    }

    /// The game called `id`.
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Game>>, ApiError> {
        let games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games
            .get(id)
            .cloned()
            .ok_or_else(|| ApiError::new(404, format!("no game {id:?} on this server")))
    }

    /// Ends the game called `id`.
    pub fn remove(&self, id: &str) -> Result<(), ApiError> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        games
            .remove(id)
            .map(drop)
            .ok_or_else(|| ApiError::new(404, format!("no game {id:?} on this server")))
    }
}
