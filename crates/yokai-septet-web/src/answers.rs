//! The shapes of the API's answers, each a `#[derive(Serialize)]` struct: a field leaves
//! the server only where it is declared here (R10: none names a card of another seat's
//! hand while the game is on). `docs/play.md` describes them. Each leaves as JSON through
//! [`json_response`].

use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;

use yokai_septet::Card;
use yokai_septet_bots::analysis::{Analysis, AnalysisJson, PlayJson};

/// A JSON answer.
pub fn json_response(status: StatusCode, body: &impl Serialize) -> Response {
    match serde_json::to_string(body) {
        Ok(text) => (status, [(header::CONTENT_TYPE, "application/json")], text).into_response(),
        Err(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            [(header::CONTENT_TYPE, "application/json")],
            format!(
                "{{\"error\": \"internal error (please report it): {}\"}}",
                e.to_string().replace('"', "'")
            ),
        )
            .into_response(),
    }
}

/// A JSON answer of status 200.
pub fn ok(body: &impl Serialize) -> Response {
    json_response(StatusCode::OK, body)
}

/// `GET /api/options`: what the page offers.
#[derive(Serialize)]
pub struct Options {
    /// The variants (`4p`, `3p`, `seal`, `seal-short`).
    pub variants: Vec<&'static str>,
    /// The scorings.
    pub scorings: Vec<&'static str>,
    /// The episodes (`game`, `round`).
    pub episodes: Vec<&'static str>,
    /// The built-in bots at their default budgets, then the models of `--models`.
    pub bots: Vec<String>,
    /// The bot a hint asks when given none.
    pub hint_bot: &'static str,
    /// Each variant's number of players.
    pub players: Vec<usize>,
    /// The server's cap on a bot's time a decision (`--max-think-ms`).
    pub max_think_ms: u64,
    /// The largest count budget of each search family (`pimc` → playouts).
    pub budget_caps: Vec<BudgetCap>,
}

/// The largest `N` of one family's `HEAD:N`.
#[derive(Serialize)]
pub struct BudgetCap {
    /// The family's head.
    pub bot: &'static str,
    /// The largest N.
    pub max: u64,
    /// What N counts.
    pub unit: &'static str,
}

/// A card in the person's hand.
#[derive(Serialize)]
pub struct HandCard {
    /// Its code (`S13`).
    pub card: String,
    /// Its id.
    pub id: u8,
    /// Whether it may be played now.
    pub legal: bool,
    /// Why not, when it may not (the rule text).
    pub reason: Option<String>,
    /// Why not, in the terminal's words (`You cannot play L4: you must follow Wind.
    /// Playable: WA.`), on the person's turn.
    pub words: Option<String>,
}

/// A card one seat played.
#[derive(Serialize, Clone)]
pub struct Played {
    /// The seat.
    pub seat: usize,
    /// The card's code.
    pub card: String,
}

/// A card passed to or received from a seat.
#[derive(Serialize, Clone)]
pub struct Passed {
    /// The card's code.
    pub card: String,
    /// The seat it went to (`passed`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<usize>,
    /// The seat it came from (`received`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<usize>,
}

/// The passing phase: how many cards each seat passes, and the person's picks so far.
#[derive(Serialize)]
pub struct Passing {
    /// Cards passed per seat.
    pub count: usize,
    /// The person's picks (absent in a game of bots only).
    pub picked: Option<Vec<String>>,
    /// The seat each of the person's picks goes to, in pick order (R4.2).
    pub to: Option<Vec<usize>>,
}

/// What happened, as the person may know it.
#[derive(Serialize, Clone)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// The passing is over.
    Exchange {
        /// The round.
        round: u32,
        /// Who leads the first trick.
        leader: Option<usize>,
        /// The person's passes (absent in a game of bots only).
        #[serde(skip_serializing_if = "Option::is_none")]
        passed: Option<Vec<Passed>>,
        /// What the person received.
        #[serde(skip_serializing_if = "Option::is_none")]
        received: Option<Vec<Passed>>,
    },
    /// A trick was taken.
    Trick {
        /// The round.
        round: u32,
        /// The trick's number in its round.
        trick: usize,
        /// Who led it.
        leader: u8,
        /// Its cards in the order played.
        cards: Vec<Played>,
        /// Who took it.
        winner: u8,
        /// The bosses in it.
        bosses: Vec<String>,
        /// The suits it sealed (seal variants).
        seals: Vec<&'static str>,
        /// The team that sealed them.
        sealing_team: Option<usize>,
    },
    /// A round ended.
    RoundEnd {
        /// The round.
        round: u32,
        /// Its winners' seats.
        winners: Vec<usize>,
        /// Why it ended.
        reason: &'static str,
        /// Each side's points.
        points: Vec<u16>,
        /// Each side's score after it.
        scores: Vec<u16>,
        /// The bosses each side took.
        bosses: Vec<Vec<String>>,
    },
    /// The game ended.
    GameOver {
        /// Its winners' seats.
        winners: Vec<usize>,
        /// Whether the round cap ended it.
        truncated: bool,
    },
}

/// A game as its person sees it (R10), or the whole table in a game of bots only.
#[derive(Serialize)]
pub struct GameState<'a> {
    /// The game's id.
    pub id: &'a str,
    /// The variant.
    pub variant: &'static str,
    /// The scoring (none for the seal variants).
    pub scoring: Option<&'static str>,
    /// The seed, in decimal (a JavaScript number would lose its low digits): shown once
    /// the game is over, or in a game of bots only; the seed deals every hand (R10).
    pub seed: Option<String>,
    /// The episode.
    pub episode: &'static str,
    /// The round cap.
    pub max_rounds: Option<u32>,
    /// Who sits where: a bot's name, or `null` for the person.
    pub players: &'a [Option<String>],
    /// The person's seat.
    pub seat: Option<usize>,
    /// The person's partner (team variants).
    pub partner: Option<usize>,
    /// The round.
    pub round: u32,
    /// `pass`, `play`, `round_over` or `over`.
    pub phase: &'static str,
    /// The seat to act.
    pub to_act: Option<usize>,
    /// The seat whose bot is thinking now (a `step` in progress).
    pub thinking: Option<usize>,
    /// Whether the person is to act.
    pub your_turn: bool,
    /// Whether the game is over.
    pub over: bool,
    /// Whether the round cap ended it.
    pub truncated: bool,
    /// The winners' seats.
    pub winners: Vec<usize>,
    /// Each side's score.
    pub scores: Vec<u16>,
    /// The score that wins (none for the seal variants).
    pub target: Option<u16>,
    /// Each team's sealed suits (seal variants).
    pub seals: Vec<Vec<&'static str>>,
    /// The trump suit.
    pub trump_suit: Option<&'static str>,
    /// The trump card turned up.
    pub trump_card: Option<String>,
    /// Tricks played this round.
    pub tricks_played: usize,
    /// Tricks in a round.
    pub tricks_per_round: usize,
    /// Each seat's tricks this round.
    pub tricks_won: Vec<usize>,
    /// The bosses each seat took this round.
    pub bosses: Vec<Vec<String>>,
    /// Each hand's size.
    pub hand_len: Vec<usize>,
    /// Every seat's cards left once the game is over (null before).
    pub hands_left: Option<Vec<Vec<String>>>,
    /// The person's hand.
    pub hand: Vec<HandCard>,
    /// The trick on the table.
    pub trick: Vec<Played>,
    /// The passing phase.
    pub passing: Option<Passing>,
    /// What happened so far.
    pub events: &'a [Event],
    /// The rounds that may be reviewed.
    pub reviewable: Vec<usize>,
    /// Whether the replay viewer opens.
    pub replay: bool,
    /// The table as SVG.
    pub svg: String,
}

/// A bot's move (`step`).
#[derive(Serialize)]
pub struct LastMove {
    /// Its seat.
    pub seat: Option<usize>,
    /// Its name.
    pub bot: String,
    /// Its thinking time, in milliseconds.
    pub think_ms: f64,
}

/// `step`'s answer: the new state and the move.
#[derive(Serialize)]
pub struct Stepped<'a> {
    /// The new state.
    #[serde(flatten)]
    pub state: GameState<'a>,
    /// The move.
    pub last_move: LastMove,
}

/// A card and its value (a hint's).
#[derive(Serialize)]
pub struct CardValue {
    /// The card's code.
    pub card: String,
    /// Its value (`null`: not searched).
    pub value: Option<f64>,
}

/// A hint.
#[derive(Serialize)]
pub struct HintAnswer {
    /// The bot asked.
    pub bot: String,
    /// Its card.
    pub card: String,
    /// The search's value of every legal card.
    pub values: Vec<CardValue>,
    /// Worlds searched.
    pub worlds: u32,
    /// What the values mean.
    pub units: &'static str,
    /// The double-dummy value of every legal card (empty where no whole-round solve fits).
    pub double_dummy: Vec<CardValue>,
    /// Worlds behind them.
    pub double_dummy_worlds: u32,
    /// What they mean.
    pub double_dummy_units: String,
}

impl CardValue {
    /// `card`'s value `value` (NaN: not searched).
    fn of(&(card, value): &(yokai_septet::Card, f64)) -> CardValue {
        CardValue {
            card: card.to_string(),
            value: (!value.is_nan()).then_some(value),
        }
    }
}

impl HintAnswer {
    /// The answer for `hint`, asked of the bot named `asked` (parsed as `spec`) in a game
    /// of `variant`.
    pub fn new(
        hint: yokai_septet_bots::hint::Hint,
        asked: String,
        spec: &yokai_septet_bots::BotSpec,
        variant: yokai_septet::Variant,
    ) -> HintAnswer {
        HintAnswer {
            // The name asked (a model's, not its file's), or the heuristic's.
            bot: if hint.bot == spec.to_string() {
                asked
            } else {
                hint.bot
            },
            card: hint.card.to_string(),
            values: hint.values.iter().map(CardValue::of).collect(),
            worlds: hint.worlds,
            units: "(our score - theirs) / target, +0.1 round won, +/-1 game won/lost",
            double_dummy_worlds: if hint.double_dummy.is_empty() {
                0
            } else {
                yokai_septet_bots::hint::HINT_DD_WORLDS
            },
            double_dummy: hint.double_dummy.iter().map(CardValue::of).collect(),
            double_dummy_units: yokai_septet_bots::analysis::units(variant),
        }
    }
}

/// `review`'s answer: `analyze --json`'s analysis of one round (solved within the
/// server's node budget per position; the plays past it are estimated, as `analyze` marks
/// them), with each play's best cards as codes, the round's deal, and the costly plays.
#[derive(Serialize)]
pub struct Review {
    /// The analysis (its keys at the top level, as `analyze --json`'s).
    #[serde(flatten)]
    pub analysis: AnalysisJson<ReviewedPlay>,
    /// The round's hands as dealt, the passes and the trump card (the round is over).
    pub deal: Option<RoundDeal>,
    /// The round reviewed.
    pub round: usize,
    /// Its plays that gave value away.
    pub costly: Vec<Costly>,
}

/// A play of a review: `analyze --json`'s, which names cards by id, with the best cards'
/// codes too (the page shows codes).
#[derive(Serialize)]
pub struct ReviewedPlay {
    /// The play as `analyze --json` has it.
    #[serde(flatten)]
    pub play: PlayJson,
    /// The codes of its `best_cards`.
    pub best_codes: Vec<String>,
}

/// A finished round's deal: each seat's hand as dealt and the cards it passed, as card
/// codes, and the trump card.
#[derive(Serialize)]
pub struct RoundDeal {
    /// Each seat's hand as dealt.
    pub hands: Vec<Vec<String>>,
    /// The cards each seat passed.
    pub passes: Vec<Vec<String>>,
    /// The trump card turned up.
    pub trump_card: Option<String>,
}

/// A costly play of a review.
#[derive(Serialize)]
pub struct Costly {
    /// The trick.
    pub trick: usize,
    /// The seat.
    pub seat: usize,
    /// The card played.
    pub card: String,
    /// What it cost.
    pub cost: Option<i32>,
    /// The best cards.
    pub best: Vec<String>,
}

/// The cards' codes.
fn codes(cards: &[Card]) -> Vec<String> {
    cards.iter().map(Card::to_string).collect()
}

impl Review {
    /// The review of round `round` from its analysis `a`, with its deal (`table::round_deal`).
    pub fn new(a: &Analysis, round: usize, deal: Option<RoundDeal>) -> Review {
        let costly = a.costly().map(|p| Costly {
            trick: p.trick,
            seat: p.seat,
            card: p.card.to_string(),
            cost: p.cost(),
            best: codes(&p.best_cards()),
        });
        Review {
            analysis: a.json().map_plays(ReviewedPlay::of),
            deal,
            round,
            costly: costly.collect(),
        }
    }
}

impl ReviewedPlay {
    /// `play` with its best cards' codes (its ids are of cards: none is dropped).
    fn of(play: PlayJson) -> ReviewedPlay {
        let best: Vec<Card> = play
            .best_cards
            .iter()
            .filter_map(|&id| Card::new(id))
            .collect();
        ReviewedPlay {
            best_codes: codes(&best),
            play,
        }
    }
}

/// `DELETE`'s answer.
#[derive(Serialize)]
pub struct Ended<'a> {
    /// The game ended.
    pub ended: &'a str,
}
