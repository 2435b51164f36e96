//! `yokai-septet play`: an interactive game in the terminal, you against the bots.
//!
//! Generic over its input and output so that tests drive it with scripted input. What it
//! shows comes from the human seat's [`SeatView`] (its own hand, what it passed and
//! received) and from public events (cards played, tricks, round results): never another
//! player's hand or passes. It fits an 80×24 terminal, colours cards only when asked to
//! ([`Style`]), and treats every wrong input as a message and a new prompt.
//!
//! Here: the options, the game loop and reading the person's decisions; `seats.rs` who
//! sits where, `saved.rs` saving and resuming, `narrate.rs` what is written.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use yokai_septet::IllegalAction;
use yokai_septet::Match;
use yokai_septet::Phase;
use yokai_septet::SeatView;
use yokai_septet::{Card, CardSet, Suit};
use yokai_septet::{GameConfig, Scoring, Variant};
use yokai_septet_bots::{Bot, BotRegistry};

use super::{Failure, Style};
use yokai_septet::names::count;
use yokai_septet::rng::play_bot_seed;

mod narrate;
mod saved;
mod seats;

use narrate::{apply_and_narrate, game_over, intro, round_header, status, Step};
use saved::{load, replay_saved, save, where_saved};
use seats::seating;

/// The options of one game.
#[derive(Clone, Debug)]
pub struct PlayOptions {
    pub variant: Variant,
    pub scoring: Scoring,
    /// One bot name for every other seat, or one per other seat in seat order; `None`:
    /// the saved game's (with `load`), else `heuristic`.
    pub bots: Option<Vec<String>>,
    /// The human's seat; `None`: the saved game's (with `load`), else 0.
    pub seat: Option<usize>,
    pub seed: u64,
    pub max_rounds: Option<u32>,
    /// Where to write the JSON record (at every prompt and at the end); `None` with
    /// `load`: back to the loaded file ([`PlayOptions::save_path`]).
    pub save: Option<PathBuf>,
    /// A saved game to resume: its variant, scoring, seed and round cap replace the ones
    /// above; its bots and seat (the record's `players`, when it has them) are used, and
    /// `bots` or `seat` that differ from them are refused.
    pub load: Option<PathBuf>,
    pub style: Style,
}

impl PlayOptions {
    /// Where the game is saved: `save`, else the file it was loaded from (a resumed game
    /// that stopped saving would lose every move made after resuming).
    pub fn save_path(&self) -> Option<&std::path::Path> {
        self.save.as_deref().or(self.load.as_deref())
    }

    /// A 4p game against heuristic bots, seat 0, plain text.
    pub fn new(variant: Variant, seed: u64) -> PlayOptions {
        PlayOptions {
            variant,
            scoring: Scoring::Advanced,
            bots: None,
            seat: None,
            seed,
            max_rounds: None,
            save: None,
            load: None,
            style: Style::PLAIN,
        }
    }
}

/// How a game session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayEnd {
    /// The game reached its end (or the round cap).
    GameOver,
    /// The player typed `quit`.
    Quit,
    /// The input closed (end of file) before the game ended.
    InputClosed,
}

/// What the player typed at a prompt.
enum Decision {
    Cards(Vec<Card>),
    Quit,
    Closed,
}

const HELP: &str = "\
Type a card code (S13, WA, F7b; any case) or the number shown next to the card.
While passing you may give several cards at once, e.g. `1 5 9` or `S13 WA F7`.
The numbered cards are the ones you may choose now. Empty line: show the table again.
`?` or `help`: this help.  `q` or `quit`: leave the game (saved with --save, or back to the --load file).
A card is its suit letter and value. Suits, weakest first (values s+1..s+7):
  W Wind (green, 1-7)     E Earth (purple, 2-8)     C Charm (pink, 3-9)
  L Lightning (yellow, 4-10)   D Darkness (black, 5-11)   F Fire (red, 6-12)
  S Snow (blue, 7-13)
Each suit's 7 is its boss (W7, E7, ... S7; the seal variants add W7b ... S7b).
WA is the Wind 1, the A: it wins any trick it is played to (R6).
The full rules: `yokai-septet rules` (docs/rules.md in the repository).";

/// The table: who sits where, the per-round public tallies, and the output style.
struct Table {
    variant: Variant,
    me: usize,
    names: Vec<String>,
    style: Style,
}

impl Table {
    fn n(&self) -> usize {
        self.variant.num_players()
    }

    fn partner(&self) -> Option<usize> {
        self.variant
            .has_teams()
            .then(|| yokai_septet::seat::partner_of(self.me))
    }

    /// `you`, `partner (heuristic)` or `seat 3 (random)`.
    fn who(&self, p: usize) -> String {
        if p == self.me {
            "you".into()
        } else if Some(p) == self.partner() {
            format!("partner {p} ({})", self.names[p])
        } else {
            format!("seat {p} ({})", self.names[p])
        }
    }

    /// A short label: `you` or `seat 3`.
    fn short(&self, p: usize) -> String {
        if p == self.me {
            "you".into()
        } else {
            format!("seat {p}")
        }
    }

    /// Bosses, compactly: a suit's two copies (seal variants) as `W7×2`.
    fn bosses_text(&self, bosses: impl IntoIterator<Item = Card>) -> String {
        let mut count = [0u8; 7];
        for c in bosses {
            count[c.suit() as usize] += 1;
        }
        let parts: Vec<String> = Suit::ALL
            .iter()
            .filter(|&&su| count[su as usize] > 0)
            .map(|&su| match count[su as usize] {
                1 => self.style.card(su.boss()),
                k => format!("{}×{k}", self.style.card(su.boss())),
            })
            .collect();
        if parts.is_empty() {
            "-".into()
        } else {
            parts.join(" ")
        }
    }

    /// A label for a trick's winner: `you`, `your partner` or `seat 3`.
    fn winner(&self, p: usize) -> String {
        if Some(p) == self.partner() {
            "your partner".into()
        } else {
            self.short(p)
        }
    }

    /// A played card with its player, compact: `3:L4`, `you:L4`.
    fn played(&self, p: usize, c: Card) -> String {
        if p == self.me {
            format!("you:{}", self.style.card(c))
        } else {
            format!("{p}:{}", self.style.card(c))
        }
    }

    fn side_label(&self, side: usize) -> String {
        if self.variant.has_teams() {
            let mine = side == self.variant.side_of(self.me);
            (if mine { "us" } else { "them" }).to_string()
        } else {
            self.short(side)
        }
    }

    fn scores_line(&self, view: &SeatView) -> String {
        let parts: Vec<String> = (0..self.variant.num_sides())
            .map(|side| {
                let s = view.score(side);
                if self.variant.is_seal() {
                    let suits: Vec<String> = Suit::ALL
                        .iter()
                        .filter(|&&su| view.seals(side) >> su as u8 & 1 == 1)
                        .map(|&su| self.style.suit_letter(su))
                        .collect();
                    let label = self.side_label(side);
                    match suits.len() {
                        0 => format!("{label} no seals"),
                        1 => format!("{label} 1 seal ({})", suits[0]),
                        k => format!("{label} {k} seals ({})", suits.join(" ")),
                    }
                } else {
                    format!("{} {s}", self.side_label(side))
                }
            })
            .collect();
        let target = match self.variant {
            Variant::Seal => "7 seals win".to_string(),
            Variant::SealShort => "4 seals win".to_string(),
            _ => format!("game to {}", view.config().scoring.target()),
        };
        format!("{} · {target}", parts.join(" · "))
    }

    fn trump_line(&self, view: &SeatView) -> String {
        match (view.trump_suit(), view.trump_card()) {
            (Some(t), Some(c)) => format!(
                "trump {} (face-up {})",
                self.style.suit(t),
                self.style.card(c)
            ),
            (Some(t), None) => format!("trump {} (first lead)", self.style.suit(t)),
            (None, _) => "trump: the suit of the first card led".into(),
        }
    }
}

/// Plays one game against bots built by `registry`: the human at `opts.seat` types
/// decisions on `input`; everything is written to `out`. Returns how it ended; writes the
/// record to `opts.save` if given.
pub fn play<R, W>(
    opts: &PlayOptions,
    registry: &BotRegistry,
    input: &mut R,
    out: &mut W,
) -> Result<PlayEnd, Failure>
where
    R: BufRead + ?Sized,
    W: Write + ?Sized,
{
    let resume = match &opts.load {
        Some(path) => Some(load(path)?),
        None => None,
    };
    let config = match &resume {
        Some(saved) => *saved.state().config(),
        None => GameConfig::new(opts.variant, opts.seed)
            .with_scoring(opts.scoring)
            .with_max_rounds(opts.max_rounds),
    };
    let v = config.variant;
    let n = v.num_players();
    let players = seating(opts, v, resume.as_ref().and_then(Match::players))?;
    let me = players
        .iter()
        .position(Option::is_none)
        .expect("seating gives one person's seat");
    let mut bots: Vec<Option<Box<dyn Bot>>> = Vec::with_capacity(n);
    let mut seat_names = Vec::with_capacity(n);
    for (p, player) in players.iter().enumerate() {
        if p == me {
            bots.push(None);
            seat_names.push("you".to_string());
        } else {
            let name = player.clone().expect("a bot's seat");
            let seed = play_bot_seed(config.seed, p);
            // One decision at a time: a search may use the cores (`:tT`).
            let threaded =
                yokai_septet_bots::with_threads(&name, yokai_septet_bots::decision_threads());
            let bot = registry
                .build(&threaded, seed, v)
                .map_err(|e| Failure::usage(format!("--bots: {e}")))?;
            bots.push(Some(bot));
            seat_names.push(name);
        }
    }
    let mut m = Match::new(config);
    m.set_players(Some(players));
    let t = Table {
        variant: v,
        me,
        names: seat_names,
        style: opts.style,
    };
    intro(&t, &config, out)?;
    if let Some(saved) = &resume {
        replay_saved(&t.names, &mut m, &mut bots, saved)?;
        let path = opts.load.as_deref().expect("a resumed game was loaded");
        writeln!(
            out,
            "Resumed {} at round {}, after {} of its decisions, with its bots and seat; \
             saving to {} as you play.",
            path.display(),
            m.state().round(),
            saved.record().actions().len(),
            opts.save_path().unwrap_or(path).display()
        )?;
    }

    let mut round_shown = None;
    let end = loop {
        let s = *m.state();
        let view = s.view(me);
        if s.is_over() {
            game_over(&t, &view, out)?;
            break PlayEnd::GameOver;
        }
        if round_shown != Some(view.round()) {
            round_shown = Some(view.round());
            round_header(&t, &view, out)?;
        }
        let p = s.current_player().expect("the game is not over");
        let cards = match &mut bots[p] {
            Some(bot) => vec![bot
                .act(&s.view(p))
                .map_err(|e| Failure::runtime(format!("{}: {e}", t.names[p])))?],
            None => {
                save(opts, &m)?;
                status(&t, &view, out)?;
                match decide(&t, &view, input, out)? {
                    Decision::Cards(c) => c,
                    Decision::Quit => {
                        writeln!(out, "You left the game. {}", where_saved(opts))?;
                        break PlayEnd::Quit;
                    }
                    Decision::Closed => {
                        writeln!(
                            out,
                            "\nInput closed: leaving the game. {}",
                            where_saved(opts)
                        )?;
                        break PlayEnd::InputClosed;
                    }
                }
            }
        };
        for card in cards {
            apply_and_narrate(&t, &mut m, p, card, out).map_err(|e| match e {
                Step::Illegal(e) => {
                    Failure::runtime(format!("internal error: {e} (please report this bug)"))
                }
                Step::Failed(f) => f,
            })?;
        }
    };
    save(opts, &m)?;
    if end == PlayEnd::GameOver {
        if let Some(path) = opts.save_path() {
            writeln!(out, "Record saved to {}", path.display())?;
        }
    }
    out.flush()?;
    Ok(end)
}

/// Reads until the player gives a valid decision, quits, or the input closes.
fn decide<R, W>(t: &Table, view: &SeatView, input: &mut R, out: &mut W) -> Result<Decision, Failure>
where
    R: BufRead + ?Sized,
    W: Write + ?Sized,
{
    let passing = view.phase() == Phase::Pass;
    loop {
        write!(out, "{}", if passing { "Pass> " } else { "Play> " })?;
        out.flush()?;
        let mut line = String::new();
        if input.read_line(&mut line)? == 0 {
            return Ok(Decision::Closed);
        }
        let text = line.trim();
        if !t.style.interactive {
            writeln!(out, "{text}")?; // echo scripted input, so the transcript reads well
        }
        match text.to_ascii_lowercase().as_str() {
            "" => {
                status(t, view, out)?;
                continue;
            }
            "?" | "h" | "help" => {
                writeln!(out, "{HELP}\n{}", super::hint::HINT_HELP)?;
                continue;
            }
            "hint" => {
                super::hint::hint(view, super::hint::HINT_BOT, out)?;
                continue;
            }
            lower if lower.starts_with("hint ") => {
                // The bot's name as typed: a model path keeps its case.
                super::hint::hint(view, text[5..].trim(), out)?;
                continue;
            }
            "q" | "quit" | "exit" => return Ok(Decision::Quit),
            _ => {}
        }
        match parse_decision(t, view, text) {
            Ok(cards) => return Ok(Decision::Cards(cards)),
            Err(msg) => writeln!(out, "{msg}")?,
        }
    }
}

/// One token: a card code, or the 1-based number shown next to a card: the numbers run
/// over the cards the player may choose (`legal`), in the order shown.
fn parse_token(hand: CardSet, legal: CardSet, token: &str) -> Result<Card, String> {
    if token.bytes().all(|b| b.is_ascii_digit()) {
        let k: usize = token.parse().unwrap_or(usize::MAX);
        return match k.checked_sub(1).and_then(|i| legal.nth(i.min(64) as u32)) {
            Some(c) => Ok(c),
            None => Err(format!(
                "There is no card number {token}: choose 1 to {}.",
                legal.len()
            )),
        };
    }
    if token.chars().any(char::is_control) {
        // An arrow or function key's escape sequence: echoed back as is, the terminal would
        // act on it and show an empty code.
        return Err(format!(
            "'{}' is a key, not a card code: type a card code such as E7, or a card's number.",
            caret_notation(token)
        ));
    }
    let c: Card = token.parse().map_err(|e| format!("{e}."))?;
    if !hand.contains(c) {
        return Err(format!("You do not hold {c}."));
    }
    Ok(c)
}

/// `text` with each control character as the terminal echoes it: `^[` for Escape.
fn caret_notation(text: &str) -> String {
    text.chars()
        .map(|ch| match ch {
            '\u{7f}' => "^?".to_string(),
            ch if ch.is_ascii_control() => format!("^{}", char::from(ch as u8 ^ 0x40)),
            ch if ch.is_control() => ch.escape_unicode().to_string(),
            ch => ch.to_string(),
        })
        .collect()
}

/// The cards named by `text` if they are a legal decision now; otherwise why not.
fn parse_decision(t: &Table, view: &SeatView, text: &str) -> Result<Vec<Card>, String> {
    let hand = view.hand();
    let tokens: Vec<&str> = text
        .split(|ch: char| ch.is_whitespace() || ch == ',')
        .filter(|s| !s.is_empty())
        .collect();
    if view.phase() == Phase::Pass {
        let left = t.variant.pass_count() - view.num_picks(t.me);
        if tokens.len() > left {
            return Err(format!(
                "You have {} left to pass; you named {}.",
                count(left, "card"),
                tokens.len()
            ));
        }
        let mut chosen: Vec<Card> = Vec::new();
        let picked: CardSet = view.my_passes().map(|(c, _)| c).collect();
        for tok in tokens {
            let c = parse_token(hand, view.legal_actions(), tok)?;
            if picked.contains(c) {
                return Err(format!("You already chose {c} to pass."));
            }
            if chosen.contains(&c) {
                return Err(format!(
                    "You named {c} twice: each card is passed once. Nothing was chosen; \
                     try again."
                ));
            }
            chosen.push(c);
        }
        return Ok(chosen);
    }
    if tokens.len() != 1 {
        return Err("Play one card at a time.".into());
    }
    let legal = view.legal_actions();
    let c = parse_token(hand, legal, tokens[0])?;
    if !legal.contains(c) {
        // A held card is refused in play only for not following the led suit (R5).
        return Err(match view.led_suit() {
            Some(led) => IllegalAction::MustFollowSuit { card: c, led }.in_words(legal),
            None => {
                format!("You cannot play {c}: you must follow the led suit. Playable: {legal}.")
            }
        });
    }
    Ok(vec![c])
}
