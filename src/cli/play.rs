//! `yokai-septet play`: an interactive game in the terminal, you against the bots.
//!
//! Generic over its input and output so that tests drive it with scripted input. What it
//! shows comes from the human seat's [`SeatView`] (its own hand, what it passed and
//! received) and from public events (cards played, tricks, round results): never another
//! player's hand or passes. It fits an 80×24 terminal, colours cards only when asked to
//! ([`Style`]), and treats every wrong input as a message and a new prompt.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use crate::bots::{Bot, BotRegistry};
use crate::cards::left_of;
use crate::cards::{Card, CardSet, Suit};
use crate::infoset::view::SeatView;
use crate::record::Match;
use crate::rules::config::{GameConfig, Scoring, Variant};
use crate::rules::{pass_target, Outcome, Phase, RoundResult, TrickResult};

use super::replay::{reason_text, seats_text};
use super::{Failure, Style};
use crate::names::count;
use crate::rng::play_bot_seed;

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
            .then(|| crate::cards::partner_of(self.me))
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
            let bot = registry
                .build(&name, seed, v)
                .map_err(|e| Failure::usage(format!("--bots: {e}")))?;
            bots.push(Some(bot));
            seat_names.push(name);
        }
    }
    let mut m = Match::new(config);
    m.set_players(Some(players));
    let mut t = Table {
        variant: v,
        me,
        names: seat_names,
        style: opts.style,
    };
    intro(&t, &config, out)?;
    if let Some(saved) = &resume {
        replay_saved(&mut t, &mut m, &mut bots, saved)?;
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

/// Where a game left before its end is kept, and how to go on with it.
fn where_saved(opts: &PlayOptions) -> String {
    match opts.save_path() {
        Some(path) => format!(
            "It is saved in {p}; `yokai-septet play --load {p}` goes on from here.",
            p = path.display()
        ),
        None => "It was not saved (give --save FILE to keep a game).".to_string(),
    }
}

/// Who sits where: one entry per seat, a bot's name or `None` for the person. From the
/// options (`--bots` default `heuristic`, `--seat` default 0), or from the saved game's
/// `players` when it has them: options given beside them must agree, else they are
/// refused (the resumed game would not be the saved one).
fn seating(
    opts: &PlayOptions,
    v: Variant,
    saved: Option<&[Option<String>]>,
) -> Result<Vec<Option<String>>, Failure> {
    let n = v.num_players();
    if let Some(saved) = saved {
        let path = opts
            .load
            .as_deref()
            .expect("saved players come from --load");
        let load = format!("--load {}", path.display());
        let mut people = saved.iter().enumerate().filter(|(_, p)| p.is_none());
        let me = match (people.next(), people.next()) {
            (Some((me, _)), None) => me,
            _ => {
                return Err(Failure::usage(format!(
                    "{load}: `players` must have exactly one person's seat (null) for `play`"
                )))
            }
        };
        if let Some(seat) = opts.seat.filter(|&s| s != me) {
            return Err(Failure::usage(format!(
                "--seat {seat}: the saved game was played from seat {me} ({load}); leave \
                 --seat out to resume it"
            )));
        }
        if let Some(bots) = &opts.bots {
            let given = seating_from(v, me, bots)?;
            if given != saved {
                let names: Vec<&str> = saved.iter().flatten().map(String::as_str).collect();
                return Err(Failure::usage(format!(
                    "--bots {}: the saved game was played against {} ({load}); leave --bots \
                     out to resume it",
                    bots.join(","),
                    names.join(",")
                )));
            }
        }
        return Ok(saved.to_vec());
    }
    let me = opts.seat.unwrap_or(0);
    if me >= n {
        return Err(Failure::usage(format!(
            "--seat {me} is out of range: {v} has seats 0 to {}",
            n - 1
        )));
    }
    let default = ["heuristic".to_string()];
    seating_from(v, me, opts.bots.as_deref().unwrap_or(&default))
}

/// The seats from `--bots` (one name for all, or one per other seat) around seat `me`.
fn seating_from(v: Variant, me: usize, bots: &[String]) -> Result<Vec<Option<String>>, Failure> {
    let n = v.num_players();
    let names: Vec<String> = match bots.len() {
        1 => vec![bots[0].clone(); n - 1],
        k if k == n - 1 => bots.to_vec(),
        k => {
            return Err(Failure::usage(format!(
                "--bots: give one bot name, or {} (one per other seat); got {k}",
                n - 1
            )))
        }
    };
    let mut others = names.into_iter();
    Ok((0..n)
        .map(|p| if p == me { None } else { others.next() })
        .collect())
}

/// A saved game to resume: a valid record of a game that is not over.
fn load(path: &std::path::Path) -> Result<Match, Failure> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Failure::usage(format!("--load: cannot read {}: {e}", path.display())))?;
    let saved = Match::from_json(&text)
        .map_err(|e| Failure::usage(format!("--load {}: {e}", path.display())))?;
    if saved.state().is_over() {
        return Err(Failure::usage(format!(
            "--load {}: this game is over (`yokai-septet replay {}` shows it)",
            path.display(),
            path.display()
        )));
    }
    Ok(saved)
}

/// Plays the saved game's decisions again from its seed, asking each bot for its own
/// decisions as it did then (so that its random stream is where it was, and the game goes
/// on as it would have without the break), and rebuilding the table's tallies silently.
fn replay_saved(
    t: &mut Table,
    m: &mut Match,
    bots: &mut [Option<Box<dyn Bot>>],
    saved: &Match,
) -> Result<(), Failure> {
    let record = saved.record();
    for card in record.actions() {
        let s = *m.state();
        let p = s
            .current_player()
            .expect("a recorded decision has a player");
        if let Some(bot) = &mut bots[p] {
            bot.act(&s.view(p))
                .map_err(|e| Failure::runtime(format!("{}: {e}", t.names[p])))?;
        }
        apply_and_narrate(t, m, p, card, &mut std::io::sink()).map_err(|e| match e {
            Step::Illegal(e) => {
                Failure::usage(format!("the saved game does not replay from its seed: {e}"))
            }
            Step::Failed(f) => f,
        })?;
    }
    let mut replayed = m.record();
    // Who sits where is not part of the game (an older record has no `players`).
    replayed.players = record.players.clone();
    if replayed != record {
        return Err(Failure::usage(
            "the saved game was not dealt from its seed (R10), so it cannot be resumed",
        ));
    }
    Ok(())
}

fn save(opts: &PlayOptions, m: &Match) -> Result<(), Failure> {
    if let Some(path) = opts.save_path() {
        let json = serde_json::to_string_pretty(&m.record()).expect("a record serialises");
        std::fs::write(path, json + "\n")
            .map_err(|e| Failure::runtime(format!("cannot write {}: {e}", path.display())))?;
    }
    Ok(())
}

fn intro<W: Write + ?Sized>(t: &Table, config: &GameConfig, out: &mut W) -> Result<(), Failure> {
    let v = t.variant;
    write!(out, "{}", t.style.bold(&format!("Yokai Septet {v}")))?;
    if !v.is_seal() {
        write!(out, " ({} scoring)", config.scoring)?;
    }
    writeln!(out, " · seed {}", config.seed)?;
    let seats: Vec<String> = (0..t.n()).map(|p| format!("{p} {}", t.names[p])).collect();
    writeln!(out, "Seats: {}", seats.join(" · "))?;
    match t.partner() {
        Some(q) => writeln!(
            out,
            "You are seat {}; your partner is seat {q} (\"us\"); seats {} and {} are \"them\".",
            t.me,
            crate::cards::left_of(t.me, 1, 4),
            crate::cards::left_of(t.me, 3, 4)
        )?,
        None => writeln!(out, "You are seat {}; everyone plays for themselves.", t.me)?,
    }
    writeln!(
        out,
        "Type a card code or its number; ? for help, q to quit."
    )?;
    Ok(())
}

fn round_header<W: Write + ?Sized>(t: &Table, view: &SeatView, out: &mut W) -> Result<(), Failure> {
    let rule = "─".repeat(8);
    writeln!(
        out,
        "\n{rule} {} · {} {rule}",
        t.style.bold(&format!("Round {}", view.round())),
        t.trump_line(view)
    )?;
    writeln!(out, "Scores: {}", t.scores_line(view))?;
    Ok(())
}

/// Where pick `k` of the human goes, in words.
fn pass_goal(t: &Table, k: usize) -> String {
    let to = pass_target(t.variant, t.me, k);
    if Some(to) == t.partner() {
        format!("your partner (seat {to})")
    } else if to == (t.me + 1) % t.n() {
        format!("seat {to}, on your left")
    } else {
        format!("seat {to}, on your right")
    }
}

/// The table as the human sees it before a decision.
fn status<W: Write + ?Sized>(t: &Table, view: &SeatView, out: &mut W) -> Result<(), Failure> {
    let st = t.style;
    let hand = view.hand();
    let legal = view.legal_actions();
    writeln!(out)?;
    if view.phase() == Phase::Pass {
        let done = view.num_picks(t.me);
        let total = t.variant.pass_count();
        write!(
            out,
            "Passing: choose card {} of {total}, for {}",
            done + 1,
            pass_goal(t, done)
        )?;
        let picked: Vec<Card> = view.my_passes().map(|(c, _)| c).collect();
        if !picked.is_empty() {
            write!(out, " (picked: {})", st.cards(picked))?;
        }
        writeln!(out)?;
    } else {
        writeln!(
            out,
            "Round {} · trick {} of {} · {}",
            view.round(),
            view.tricks_played() + 1,
            t.variant.tricks_per_round(),
            t.trump_line(view)
        )?;
        writeln!(out, "Scores: {}", t.scores_line(view))?;
        writeln!(out, "  {:<24}tricks  bosses", "")?;
        for p in 0..t.n() {
            let bosses = t.bosses_text(view.won_cards(p).bosses().iter());
            writeln!(
                out,
                "  {:<24}{:>5}   {bosses}",
                t.who(p),
                view.tricks_won(p)
            )?;
        }
        let leader = view.trick_leader().unwrap_or(t.me);
        let played: Vec<String> = view
            .trick_cards()
            .iter()
            .enumerate()
            .map(|(i, &c)| t.played((leader + i) % t.n(), c))
            .collect();
        if played.is_empty() {
            writeln!(out, "Trick: you lead")?;
        } else {
            writeln!(out, "Trick: {}  you:?", played.join("  "))?;
        }
    }
    writeln!(
        out,
        "Your hand (the numbered cards are the ones you may choose):"
    )?;
    let mut k = 0;
    for (i, c) in hand.iter().enumerate() {
        if legal.contains(c) {
            k += 1;
            write!(out, "{k:>3} {}", st.card_w(c, 3))?;
        } else {
            write!(out, "    {}", st.dim(&format!("{:<3}", c.to_string())))?;
        }
        if i % 10 == 9 || i + 1 == hand.len() as usize {
            writeln!(out)?;
        }
    }
    Ok(())
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
    let c: Card = token.parse().map_err(|e| format!("{e}."))?;
    if !hand.contains(c) {
        return Err(format!("You do not hold {c}."));
    }
    Ok(c)
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
        let led = view.led_suit().map(|s| s.name()).unwrap_or("the led suit");
        return Err(format!(
            "You cannot play {c}: you must follow {led}. Playable: {}.",
            legal
        ));
    }
    Ok(vec![c])
}

/// Why [`apply_and_narrate`] stopped: the move was refused, or the narration failed.
enum Step {
    Illegal(crate::IllegalAction),
    Failed(Failure),
}

/// Applies `p`'s decision `card` and narrates it. A round's end is narrated from the
/// finished round's last position (its captures and scores), before the next deal.
fn apply_and_narrate<W: Write + ?Sized>(
    t: &Table,
    m: &mut Match,
    p: usize,
    card: Card,
    out: &mut W,
) -> Result<(), Step> {
    let before = *m.state();
    let outcome = m.apply_in_round(card).map_err(Step::Illegal)?;
    narrate(t, &before, p, card, &outcome, &m.state().view(t.me), out).map_err(Step::Failed)?;
    m.deal_next_round();
    Ok(())
}

/// Reports what one decision did, from the human's point of view.
fn narrate<W: Write + ?Sized>(
    t: &Table,
    before: &crate::State,
    p: usize,
    card: Card,
    outcome: &Outcome,
    after: &SeatView,
    out: &mut W,
) -> Result<(), Failure> {
    if before.phase() == Phase::Pass {
        return narrate_pick(t, before, p, card, after, out);
    }
    let Some(trick) = outcome.trick else {
        return Ok(());
    };
    narrate_trick(t, before, &trick, outcome.new_seals, out)?;
    if let Some(r) = outcome.round {
        narrate_round_end(t, before, &r, after, out)?;
    }
    Ok(())
}

/// A passing pick: the human's own, and the exchange once every seat has picked.
fn narrate_pick<W: Write + ?Sized>(
    t: &Table,
    before: &crate::State,
    p: usize,
    card: Card,
    after: &SeatView,
    out: &mut W,
) -> Result<(), Failure> {
    let st = t.style;
    if p == t.me {
        let k = before.picks(p).len();
        writeln!(
            out,
            "You will pass {} to {}.",
            st.card(card),
            pass_goal(t, k)
        )?;
    }
    if after.phase() == Phase::Play || after.round() != before.round() {
        let by_seat = |cards: Vec<(Card, usize)>, word: &str| -> String {
            let parts: Vec<String> = (0..t.n())
                .filter_map(|q| {
                    let mine: Vec<Card> = cards.iter().filter(|x| x.1 == q).map(|x| x.0).collect();
                    (!mine.is_empty()).then(|| format!("{} {word} {}", st.cards(mine), t.short(q)))
                })
                .collect();
            parts.join(", ")
        };
        writeln!(
            out,
            "Cards exchanged. You passed {}.",
            by_seat(after.my_passes().collect(), "to")
        )?;
        writeln!(
            out,
            "You received {}.",
            by_seat(after.received().collect(), "from")
        )?;
        if let Some(l) = after.round_leader() {
            writeln!(
                out,
                "{} lead{} the first trick.",
                capital(&t.who(l)),
                if l == t.me { "" } else { "s" }
            )?;
        }
    }
    Ok(())
}

/// A completed trick: its cards, its winner, the bosses and seals it took.
fn narrate_trick<W: Write + ?Sized>(
    t: &Table,
    before: &crate::State,
    trick: &TrickResult,
    new_seals: u8,
    out: &mut W,
) -> Result<(), Failure> {
    let st = t.style;
    let n = t.n();
    let cards: Vec<String> = trick
        .cards()
        .iter()
        .enumerate()
        .map(|(i, &c)| t.played(left_of(trick.leader as usize, i, n), c))
        .collect();
    let w = trick.winner as usize;
    write!(
        out,
        "Trick {:>2}: {}  → {} win{}",
        before.tricks_played() + 1,
        cards.join(" "),
        t.winner(w),
        if w == t.me { "" } else { "s" }
    )?;
    let bosses: Vec<Card> = trick
        .cards()
        .iter()
        .copied()
        .filter(|c| c.is_boss())
        .collect();
    if !bosses.is_empty() {
        write!(out, ", taking {}", st.cards(bosses.iter().copied()))?;
    }
    writeln!(out)?;
    for s in Suit::ALL {
        if new_seals >> s as u8 & 1 == 1 {
            let team = if crate::cards::team_of(w) == crate::cards::team_of(t.me) {
                "Your team"
            } else {
                "The other team"
            };
            writeln!(out, "{team} seals {}!", st.suit(s))?;
        }
    }
    Ok(())
}

/// The end of a round: why, the bosses each side took, the points and the scores.
fn narrate_round_end<W: Write + ?Sized>(
    t: &Table,
    before: &crate::State,
    r: &RoundResult,
    after: &SeatView,
    out: &mut W,
) -> Result<(), Failure> {
    let winners: Vec<usize> = r.winner_seats().collect();
    let you = if winners.contains(&t.me) {
        " (you win the round)"
    } else {
        ""
    };
    writeln!(
        out,
        "{} Round {} over: {}{you}\n  Why: {}.",
        "═".repeat(3),
        before.round(),
        if winners.is_empty() {
            "no winner".into()
        } else {
            seats_text(&winners)
        },
        reason_text(r.reason, t.variant)
    )?;
    for side in 0..t.variant.num_sides() {
        let seats = if t.variant.has_teams() {
            crate::cards::team_seats(side).to_vec()
        } else {
            vec![side]
        };
        // `after` is the finished round's last position: its captures are still there.
        let taken = seats
            .iter()
            .flat_map(|&q| after.won_cards(q).bosses().iter());
        writeln!(
            out,
            "  Bosses of {}: {}",
            t.side_label(side),
            t.bosses_text(taken)
        )?;
    }
    let pts: Vec<String> = (0..t.variant.num_sides())
        .map(|side| format!("{} +{}", t.side_label(side), r.points[side]))
        .collect();
    writeln!(out, "  Points: {}", pts.join(" · "))?;
    writeln!(out, "  Scores: {}", t.scores_line(after))?;
    Ok(())
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}

fn game_over<W: Write + ?Sized>(t: &Table, view: &SeatView, out: &mut W) -> Result<(), Failure> {
    writeln!(out)?;
    if view.is_truncated() {
        writeln!(out, "{}", t.style.bold("Game stopped by the round cap."))?;
    } else {
        let winners: Vec<usize> = (0..t.n())
            .filter(|&p| view.winners_mask() >> p & 1 == 1)
            .collect();
        let verdict = if winners.contains(&t.me) {
            "You win!"
        } else {
            "You lose."
        };
        writeln!(
            out,
            "{}",
            t.style.bold(&format!(
                "Game over: {} won. {verdict}",
                seats_text(&winners)
            ))
        )?;
    }
    writeln!(out, "Final scores: {}", t.scores_line(view))?;
    Ok(())
}
