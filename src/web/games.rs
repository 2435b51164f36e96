//! The games a server holds: one [`Game`] per page (a person at one seat, or bots only),
//! and [`Games`], the capped table of them by id.
//!
//! Everything a game tells the page comes from [`Game::state`] (typed in `answers.rs`):
//! the person's own [`SeatView`](crate::SeatView) (their hand, what they passed and
//! received) and public events (cards played, tricks, captured bosses, scores, seals,
//! round ends), never another seat's hand, nor the seed that deals them, before the game
//! is over (R10). The whole table is shown only in a game without a person.
//!
//! A bot thinks without its game's lock ([`Game::take_turn`], then [`Game::finish_turn`]):
//! the game answers `GET` meanwhile, as of its last move. A game untouched for
//! `--idle-minutes` is dropped ([`Games`]).

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde::Deserialize;

use super::answers::{Event, GameState, HandCard, LastMove, Passed, Passing, Played};
use super::bots::Bots;
use super::settings::{default_name, default_seat};
use super::{shown, ApiError};
use crate::bots::resume::{resume, ResumeError, Seated};
use crate::bots::Bot;
use crate::cards::{left_of, partner_of, team_of, team_seats, Card, CardSet, Suit};
use crate::picture::{reason_text, seat_svg, table_svg};
use crate::record::{Match, Record};
use crate::rng::play_bot_seed;
use crate::rules::config::{Episode, GameConfig, Scoring, Variant};
use crate::rules::{Outcome, Phase, State};

/// What `POST /api/games` reads. Unknown fields are refused (a misspelt option must not be
/// silently ignored). Its fields are the rows of `web/settings.rs`'s table.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// `4p`, `3p`, `seal`, `seal-short` (default `4p`).
    #[serde(default)]
    pub variant: Option<String>,
    /// `advanced` or `basic` (default `advanced`; the seal variants ignore it).
    #[serde(default)]
    pub scoring: Option<String>,
    /// The deals' and bots' seed, a whole number or its decimal string (JavaScript's
    /// numbers lose the low digits of a large one); absent or null: a random one.
    #[serde(default, deserialize_with = "super::table::seed")]
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

/// A bot seat's bot: alive, or parked between its decisions as its snapshot (`None`:
/// as built from its seed), so that a waiting game holds no search's tables (a solver's
/// are megabytes): a search bot is built again for each decision, on a worker, and goes
/// on exactly as it would have ([`Bot::snapshot`]).
pub enum Seat {
    /// A bot that searches nothing (`random`, `heuristic`, `nn`), kept.
    Live(Box<dyn Bot>),
    /// A search bot between decisions.
    Parked(Option<Vec<u64>>),
}

impl Seat {
    /// `bot` (called `name`) as its seat keeps it until its next decision.
    pub fn park(bot: Box<dyn Bot>, name: &str) -> Seat {
        if super::bots::decides_at_once(name) {
            return Seat::Live(bot);
        }
        match bot.snapshot() {
            Some(words) => Seat::Parked(Some(words)),
            None => Seat::Live(bot),
        }
    }
}

/// One game at the table: the match, its bots, the person's seat and the public events.
pub struct Game {
    m: Match,
    bots: Vec<Option<Seat>>,
    /// One per seat: a bot's name, or `None` for the person (the record's `players`).
    players: Vec<Option<String>>,
    /// The person's seat; `None` in a game of bots only.
    me: Option<usize>,
    /// What happened, as the person may know it, in order.
    events: Vec<Event>,
    /// The rounds that are over (their review can be asked for).
    finished_rounds: usize,
    /// The seat whose bot is thinking (its bot is out of `bots` meanwhile).
    thinking: Option<usize>,
    /// A load's replay stops when this is set (its client left) or past this time.
    stop: Option<(Arc<AtomicBool>, Instant)>,
}

fn bad(message: impl AsRef<str>) -> ApiError {
    ApiError::bad(message)
}

/// Locks a game; a panic while it was held leaves it as it was after its last whole move.
pub fn lock(game: &Mutex<Game>) -> MutexGuard<'_, Game> {
    game.lock().unwrap_or_else(|e| e.into_inner())
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
    /// A new game as `req` asks, its bots built from the names the server runs.
    pub fn new(req: &NewGame, registry: &Bots) -> Result<Game, ApiError> {
        let parse = |what: &str, r: Result<(), String>| r.map_err(|e| bad(format!("{what}: {e}")));
        // Absent settings take the table's defaults (`web/settings.rs`), read the same way.
        let given = |v: &Option<String>, name: &str| -> String {
            v.clone().unwrap_or_else(|| default_name(name).into())
        };
        let variant: Variant = given(&req.variant, "variant")
            .parse()
            .map_err(|e| bad(format!("variant: {e}")))?;
        let scoring: Scoring = given(&req.scoring, "scoring")
            .parse()
            .map_err(|e| bad(format!("scoring: {e}")))?;
        let episode: Episode = given(&req.episode, "episode")
            .parse()
            .map_err(|e| bad(format!("episode: {e}")))?;
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
            let seat = req.seat.unwrap_or_else(default_seat);
            if seat >= n {
                return Err(bad(format!(
                    "seat: {seat} is out of range: {variant} has seats 0 to {}",
                    n - 1
                )));
            }
            Some(seat)
        };
        let default = vec![default_name("bots").to_string()];
        let names = req.bots.as_ref().unwrap_or(&default);
        let bot_seats = n - usize::from(me.is_some());
        let names: Vec<String> = match names.len() {
            1 => {
                // One name for every seat: a refusal of it names no seat.
                registry.resolve(&names[0])?;
                vec![names[0].clone(); bot_seats]
            }
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

    /// A game of `m` (not yet played) with these players, its bots built now (each name
    /// checked), the search bots then parked.
    fn seated(
        mut m: Match,
        players: Vec<Option<String>>,
        me: Option<usize>,
        registry: &Bots,
    ) -> Result<Game, ApiError> {
        let config = *m.state().config();
        let mut bots = Vec::with_capacity(players.len());
        for (p, player) in players.iter().enumerate() {
            bots.push(match player {
                Some(name) => {
                    let bot = registry
                        .build(name, play_bot_seed(config.seed, p), config.variant)
                        .map_err(|e| ApiError {
                            message: format!("bots: seat {p}: {}", e.message),
                            ..e
                        })?;
                    // Built from its seed again when it decides.
                    Some(match Seat::park(bot, name) {
                        Seat::Parked(_) => Seat::Parked(None),
                        live => live,
                    })
                }
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
            thinking: None,
            stop: None,
        })
    }

    /// Resumes a saved game (`play --load`'s rules): a valid record of a game that is not
    /// over, with exactly one person's seat in its `players`. Its decisions are played
    /// again from its seed, each bot asked for its own as it was then (so that its random
    /// stream is where it was), and the result must be the record itself. A record of
    /// bots only is refused: its hands would all be shown (R10), and a person's record
    /// with their seat turned into a bot would show theirs and everyone's. The replay
    /// stops when `stop` is set (the client left) or `deadline` passes.
    pub fn load(
        json: &str,
        registry: &Bots,
        stop: Arc<AtomicBool>,
        deadline: Instant,
    ) -> Result<Game, ApiError> {
        let saved = Match::from_json(json).map_err(|e| bad(format!("record: {e}")))?;
        if saved.state().is_over() {
            return Err(bad(
                "record: this game is over: it opens in the replay viewer (POST /api/replay)",
            ));
        }
        let record = saved.record();
        let players = record.players.clone().ok_or_else(|| {
            bad("record: it has no `players` (who sat where), so its bots are unknown")
        })?;
        let people: Vec<usize> = (0..players.len())
            .filter(|&p| players[p].is_none())
            .collect();
        if people.len() != 1 {
            return Err(bad(format!(
                "record: a game in progress resumes with exactly one person's seat (null in \
                 `players`); this one has {} (a game of bots only cannot be resumed here: \
                 its hands would be shown)",
                people.len()
            )));
        }
        let me = people.first().copied();
        let config = *saved.state().config();
        let mut g = Game::seated(Match::new(config), players, me, registry)?;
        // The replay asks each bot for its decisions: alive meanwhile, parked after.
        for p in 0..g.bots.len() {
            if let Some(Seat::Parked(_)) = g.bots[p] {
                let name = g.players[p].clone().unwrap_or_default();
                let bot = registry.build(&name, play_bot_seed(config.seed, p), config.variant)?;
                g.bots[p] = Some(Seat::Live(bot));
            }
        }
        g.stop = Some((stop, deadline));
        let done = resume(&mut g, &record);
        g.stop = None;
        for p in 0..g.bots.len() {
            if let Some(Seat::Live(bot)) = g.bots[p].take() {
                let name = g.players[p].clone().unwrap_or_default();
                g.bots[p] = Some(Seat::park(bot, &name));
            }
        }
        done.map_err(|e| match e {
            ResumeError::Bot { seat, error } => ApiError::new(
                axum::http::StatusCode::INTERNAL_SERVER_ERROR,
                format!("seat {seat}'s bot: {error}"),
            ),
            ResumeError::Stopped => ApiError::busy(
                "record: its replay took too long (each bot decision is replayed) or its \
                 client left",
                1,
            ),
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
    pub fn play(&mut self, card: &serde_json::Value) -> Result<(), ApiError> {
        let s = *self.m.state();
        let Some(me) = self.me else {
            return Err(ApiError::conflict(
                "this game has no person's seat: bots play it",
            ));
        };
        if s.is_over() {
            return Err(ApiError::conflict("the game is over"));
        }
        let to_act = s.current_player().expect("the game is not over");
        if to_act != me {
            return Err(ApiError::conflict(format!(
                "it is seat {to_act}'s turn, not yours (seat {me}): let the bots move"
            )));
        }
        let card = match card {
            serde_json::Value::String(code) => code
                .parse::<Card>()
                .map_err(|e| bad(format!("card: {e}")))?,
            serde_json::Value::Number(id) => {
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

    /// Takes the bot whose turn it is out of the game, with the position it decides
    /// from, its name and its seed: it thinks without the game's lock
    /// ([`Game::finish_turn`] puts it back).
    pub fn take_turn(&mut self) -> Result<(usize, Seat, State, String, u64), ApiError> {
        let (p, _) = self.bot_to_move()?;
        let seat = self.bots[p].take().expect("a bot's seat");
        self.thinking = Some(p);
        let s = *self.m.state();
        let name = self.players[p].clone().unwrap_or_default();
        Ok((p, seat, s, name, play_bot_seed(s.config().seed, p)))
    }

    /// The seat of the bot to move and whether it decides at once (it does not search),
    /// or why no bot may move now.
    pub fn bot_to_move(&self) -> Result<(usize, bool), ApiError> {
        let Some(p) = self.m.state().current_player() else {
            return Err(ApiError::conflict("the game is over"));
        };
        if self.thinking.is_some() {
            return Err(ApiError::conflict(format!(
                "seat {p}'s bot is thinking already: its move comes with the step in progress"
            )));
        }
        if self.bots[p].is_none() {
            return Err(ApiError::conflict("it is your turn: play a card"));
        }
        let name = self.players[p].as_deref().unwrap_or("");
        Ok((p, super::bots::decides_at_once(name)))
    }

    /// Puts `p`'s bot back (parked: [`Seat::park`]) and applies its decision `card`
    /// (thought for `think_ms`), or the error of its revival.
    pub fn finish_turn(
        &mut self,
        p: usize,
        seat: Seat,
        card: Result<Card, crate::bots::BotError>,
        think_ms: f64,
    ) -> Result<LastMove, ApiError> {
        self.bots[p] = Some(seat);
        self.thinking = None;
        let internal = axum::http::StatusCode::INTERNAL_SERVER_ERROR;
        let card = card.map_err(|e| ApiError::new(internal, format!("seat {p}'s bot: {e}")))?;
        self.apply(card)
            .map_err(|e| ApiError::new(internal, format!("seat {p}'s bot chose badly: {e}")))?;
        Ok(LastMove {
            seat: Some(p),
            bot: bot_name(&self.players, p),
            think_ms,
        })
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

    fn log(&mut self, before: &State, outcome: &Outcome) {
        let after = *self.m.state();
        let v = after.variant();
        let round = before.round();
        if before.phase() == Phase::Pass {
            if after.phase() == Phase::Pass {
                return;
            }
            let mine = self.me.map(|me| after.view(me));
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

    /// The position of the person's decision, for a hint (which runs without the lock).
    pub fn hint_position(&self) -> Result<(State, usize), ApiError> {
        let s = *self.m.state();
        let me = self
            .me
            .ok_or_else(|| ApiError::conflict("this game has no person's seat"))?;
        if s.current_player() != Some(me) {
            return Err(ApiError::conflict(
                "a hint is for your turn: it is not your turn",
            ));
        }
        Ok((s, me))
    }

    /// The game as the person sees it (R10), or the whole table in a game of bots only.
    pub fn state<'a>(&'a self, id: &'a str) -> GameState<'a> {
        let s = self.m.state();
        let c = s.config();
        let v = c.variant;
        let n = v.num_players();
        let viewer = self.me.unwrap_or(0);
        let view = s.view(viewer);
        let mut hand = Vec::new();
        // The trick just finished stays in the picture until the next card is played.
        let kept = super::table::finished_trick_svg(s, self.me, &self.events);
        let my_turn = self.me.is_some() && s.current_player() == self.me;
        if self.me.is_some() {
            let legal = if my_turn {
                view.legal_actions()
            } else {
                CardSet::EMPTY
            };
            for card in view.hand().iter() {
                // One probe gives both: the rule's text and the person's words.
                let refused = (my_turn && !legal.contains(card))
                    .then(|| {
                        let mut probe = *s;
                        probe.apply_in_round(card).err()
                    })
                    .flatten();
                hand.push(HandCard {
                    card: card.to_string(),
                    id: card.id(),
                    legal: legal.contains(card),
                    reason: refused.map(|e| e.to_string()),
                    words: refused.map(|e| e.in_words(legal)),
                });
            }
        }
        let svg = match kept {
            Some(kept) => kept,
            None if self.me.is_some() => seat_svg(&view),
            None => table_svg(s),
        };
        let trick: Vec<Played> = match view.trick_leader() {
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
        };
        let passing = (s.phase() == Phase::Pass).then(|| Passing {
            count: v.pass_count(),
            picked: self.me.map(|_| cards_json(view.my_passes().map(|x| x.0))),
            to: self.me.map(|me| super::table::pass_targets(v, me)),
        });
        GameState {
            id,
            variant: v.name(),
            scoring: (!v.is_seal()).then(|| c.scoring.name()),
            seed: self.may_show_all().then(|| c.seed.to_string()),
            episode: c.episode.name(),
            max_rounds: c.max_rounds,
            players: &self.players,
            seat: self.me,
            partner: self.me.filter(|_| v.has_teams()).map(partner_of),
            round: s.round(),
            phase: match s.phase() {
                Phase::Pass => "pass",
                Phase::Play => "play",
                Phase::RoundOver => "round_over",
                Phase::Over => "over",
            },
            to_act: s.current_player(),
            thinking: self.thinking,
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
            hands_left: super::table::hands_left(s),
            hand,
            trick,
            passing,
            events: &self.events,
            reviewable: (0..self.finished_rounds).collect(),
            replay: self.may_show_all(),
            svg,
        }
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
        match &mut self.bots[seat] {
            Some(Seat::Live(bot)) => Some(bot.as_mut()),
            // `load` revives every bot before its replay.
            _ => None,
        }
    }

    fn apply(&mut self, card: Card) -> Result<(), crate::IllegalAction> {
        Game::apply(self, card)
    }

    fn go_on(&self) -> bool {
        self.stop.as_ref().is_none_or(|(left, deadline)| {
            !left.load(Ordering::Relaxed) && Instant::now() < *deadline
        })
    }
}

/// One game of the table, and when a request last named it.
struct Entry {
    game: Arc<Mutex<Game>>,
    touched: Instant,
}

/// The games of one server, by id: at most `cap` of them, each dropped once untouched for
/// `idle` (so that the cap frees itself; `DELETE` ends one at once).
pub struct Games {
    games: Mutex<HashMap<String, Entry>>,
    cap: usize,
    idle: Duration,
}

impl Games {
    /// An empty table holding at most `cap` games, each for `idle` after its last request.
    pub fn new(cap: usize, idle: Duration) -> Games {
        Games {
            games: Mutex::new(HashMap::new()),
            cap,
            idle,
        }
    }

    fn table(&self) -> MutexGuard<'_, HashMap<String, Entry>> {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        let idle = self.idle;
        games.retain(|_, e| e.touched.elapsed() < idle);
        games
    }

    /// Adds `game`; refused when the table is full.
    pub fn insert(&self, game: Game) -> Result<(String, Arc<Mutex<Game>>), ApiError> {
        let mut games = self.table();
        if games.len() >= self.cap {
            return Err(ApiError::busy(
                format!(
                    "too many games: this server holds at most {} (end one with DELETE \
                     /api/games/ID; a game untouched for {} minutes is dropped)",
                    self.cap,
                    self.idle.as_secs() / 60
                ),
                60,
            ));
        }
        let id = new_id();
        let game = Arc::new(Mutex::new(game));
        games.insert(
            id.clone(),
            Entry {
                game: game.clone(),
                touched: Instant::now(),
            },
        );
        Ok((id, game))
    }

    fn missing(id: &str) -> ApiError {
        ApiError::new(
            axum::http::StatusCode::NOT_FOUND,
            format!(
                "no game {} on this server (ended, or dropped after it was left idle)",
                shown(id)
            ),
        )
    }

    /// The game called `id` (which counts as touching it).
    pub fn get(&self, id: &str) -> Result<Arc<Mutex<Game>>, ApiError> {
        let mut games = self.table();
        let entry = games.get_mut(id).ok_or_else(|| Games::missing(id))?;
        entry.touched = Instant::now();
        Ok(entry.game.clone())
    }

    /// Ends the game called `id`.
    pub fn remove(&self, id: &str) -> Result<(), ApiError> {
        let mut games = self.table();
        games.remove(id).map(drop).ok_or_else(|| Games::missing(id))
    }
}
