//! The games a server holds: one [`Game`] per page (a person at one seat, or bots only),
//! and [`Games`], the capped table of them by id.
//!
//! A game is its match, its seats ([`Seats`]: who sits where, and each bot alive or
//! parked), its person's seat and its event log ([`EventLog`]); what it shows its page
//! is projected from them in `projection.rs`. A bot thinks without its game's lock
//! ([`Game::take_turn`], then [`Game::finish_turn`]): the game answers `GET` meanwhile,
//! as of its last move. A game untouched for `--idle-minutes` is dropped ([`Games`]).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::http::StatusCode;

use super::answers::LastMove;
use super::bots::Bots;
use super::events::EventLog;
use super::new_game::NewGame;
use super::random::new_id;
use super::seats::{Decided, Seats, Turn};
use super::{shown, ApiError};
use yokai_septet::Card;
use yokai_septet::State;
use yokai_septet::{Match, Record};
use yokai_septet_bots::resume::{resume, ResumeError, Seated};
use yokai_septet_bots::Bot;

/// One game at the table: the match, its seats, the person's seat and the public events.
pub struct Game {
    m: Match,
    seats: Seats,
    /// The person's seat; `None` in a game of bots only.
    me: Option<usize>,
    /// What happened, as the person may know it.
    log: EventLog,
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

impl Game {
    /// A new game as `req` asks, its bots built from the names the server runs.
    pub fn new(req: &NewGame, registry: &Bots) -> Result<Game, ApiError> {
        let seating = req.seating(registry)?;
        Game::seated(
            Match::new(seating.config),
            seating.players,
            seating.me,
            registry,
        )
    }

    /// A game of `m` (not yet played) with these players, its bots built now (each name
    /// checked), the search bots then parked.
    fn seated(
        mut m: Match,
        players: Vec<Option<String>>,
        me: Option<usize>,
        registry: &Bots,
    ) -> Result<Game, ApiError> {
        let seats = Seats::build(players.clone(), m.state().config(), registry)?;
        m.set_players(Some(players));
        Ok(Game {
            m,
            seats,
            me,
            log: EventLog::default(),
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
        g.seats.revive_all(registry, &config)?;
        g.stop = Some((stop, deadline));
        let done = resume(&mut g, &record);
        g.stop = None;
        g.seats.park_all();
        done.map_err(|e| match e {
            ResumeError::Bot { seat, error } => ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
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

    /// The match, for the replay viewer, the review and the page's projection.
    pub fn as_match(&self) -> &Match {
        &self.m
    }

    /// The match, for taking back a passing pick (`undo.rs`).
    pub(super) fn match_mut(&mut self) -> &mut Match {
        &mut self.m
    }

    /// The person's seat; `None` in a game of bots only.
    pub fn me(&self) -> Option<usize> {
        self.me
    }

    /// Who sits where, and the bot thinking now.
    pub fn seats(&self) -> &Seats {
        &self.seats
    }

    /// What happened so far, as the person may know it.
    pub fn log(&self) -> &EventLog {
        &self.log
    }

    /// The rounds that are over.
    pub fn finished_rounds(&self) -> usize {
        self.log.finished_rounds()
    }

    /// The person's decision `card` (a card code such as `S13`, or its id).
    pub fn play(&mut self, card: &serde_json::Value) -> Result<(), ApiError> {
        let s = *self.m.state();
        let Some(me) = self.me else {
            return Err(ApiError::conflict(
                "this game has no person's seat: bots play it",
            ));
        };
        let Some(to_act) = s.current_player() else {
            return Err(ApiError::conflict("the game is over"));
        };
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

    /// Takes the bot whose turn it is out of its seat, with the position it decides from:
    /// it thinks without the game's lock ([`Turn::decide`]; [`Game::finish_turn`] hands
    /// its seat back).
    pub fn take_turn(&mut self) -> Result<Turn, ApiError> {
        let s = *self.m.state();
        let Some(p) = s.current_player() else {
            return Err(ApiError::conflict("the game is over"));
        };
        self.seats.take_turn(p, s)
    }

    /// Whether the bot to move decides at once (it does not search), or why no bot may
    /// move now.
    pub fn bot_to_move(&self) -> Result<bool, ApiError> {
        let Some(p) = self.m.state().current_player() else {
            return Err(ApiError::conflict("the game is over"));
        };
        self.seats.may_move(p)
    }

    /// Hands a decided turn's seat back and applies its card, or returns why there is none.
    pub fn finish_turn(&mut self, decided: Decided) -> Result<LastMove, ApiError> {
        let (p, think_ms) = (decided.seat, decided.think_ms);
        let card = self.seats.hand_back(decided)?;
        self.apply(card).map_err(|e| {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                format!("seat {p}'s bot chose badly: {e}"),
            )
        })?;
        Ok(LastMove {
            seat: Some(p),
            bot: bot_name(self.seats.players(), p),
            think_ms,
        })
    }

    /// Applies a decision and logs what the person may know of it; a round's end is
    /// logged from the finished round's last position, before the next deal.
    fn apply(&mut self, card: Card) -> Result<(), yokai_septet::IllegalAction> {
        let before = *self.m.state();
        let outcome = self.m.apply_in_round(card)?;
        self.log.log(&before, &outcome, self.m.state(), self.me);
        self.m.deal_next_round();
        Ok(())
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
}

fn bot_name(players: &[Option<String>], p: usize) -> String {
    players[p].clone().unwrap_or_else(|| "you".into())
}

impl Seated for Game {
    fn game(&self) -> &Match {
        &self.m
    }

    fn bot(&mut self, seat: usize) -> Option<&mut (dyn Bot + 'static)> {
        // `load` revives every bot before its replay.
        self.seats.live(seat)
    }

    fn apply(&mut self, card: Card) -> Result<(), yokai_septet::IllegalAction> {
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
        let id = new_id()?;
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
            StatusCode::NOT_FOUND,
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
