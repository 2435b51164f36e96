//! The table as SVG: card faces in the rules' suit colours (R1), every seat's hand (or
//! its card backs), the trick, captured bosses, trick counts, trump, scores and seals.
//!
//! Card faces are drawn once, in `<defs>`, and placed with `<use>`, so a page holding many
//! pictures (the replay viewer) carries each face once. Every placed card carries
//! `data-card` (its R1 code) so tools and tests can read a picture without OCR.

use std::fmt::Write;

use yokai_septet::Phase;
use yokai_septet::Variant;
use yokai_septet::{seat::relative_to, Card, CardSet, Suit};

use super::faces::{defs, suit_colors, Look, PAPER};
use super::Table;

/// Picture size in pixels (both multiples of 16, which video encoders like).
pub(crate) const WIDTH: u32 = 960;
pub(crate) const HEIGHT: u32 = 640;

const CARD_W: f32 = 36.0;
const CARD_H: f32 = 52.0;
const PANEL_W: f32 = 360.0;
const PANEL_H: f32 = 132.0;
const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";
const INK: &str = "#23283a";
const ACCENT: &str = "#e07b00";

/// Where a seat's panel sits, counted clockwise from the bottom (the viewer's place).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Bottom,
    Left,
    Top,
    Right,
}

impl Place {
    fn of(t: &Table, seat: usize) -> Place {
        let n = t.num_players();
        let k = relative_to(seat, t.viewer.unwrap_or(0), n);
        match (n, k) {
            (_, 0) => Place::Bottom,
            (_, 1) => Place::Left,
            (3, _) => Place::Right,
            (_, 2) => Place::Top,
            _ => Place::Right,
        }
    }

    /// Top-left corner of the seat's panel.
    fn panel(self) -> (f32, f32) {
        let cx = (WIDTH as f32 - PANEL_W) / 2.0;
        match self {
            Place::Bottom => (cx, HEIGHT as f32 - PANEL_H - 8.0),
            Place::Top => (cx, 46.0),
            Place::Left => (12.0, 250.0),
            Place::Right => (WIDTH as f32 - PANEL_W - 12.0, 250.0),
        }
    }

    /// Centre of the seat's card in the trick.
    fn trick_slot(self) -> (f32, f32) {
        let (cx, cy) = (WIDTH as f32 / 2.0, 322.0);
        match self {
            Place::Bottom => (cx, cy + 50.0),
            Place::Top => (cx, cy - 50.0),
            Place::Left => (cx - 64.0, cy),
            Place::Right => (cx + 64.0, cy),
        }
    }
}

/// What a picture is written for.
#[derive(Clone, Copy)]
pub(crate) struct Options {
    /// Whether to write the card faces' `<defs>` (else the page holds them).
    pub defs: bool,
    /// Whether to draw every hand twice, faces (`ys-face ys-seat-P`) and backs
    /// (`ys-back ys-seat-P`), so that a page's style sheet can hide the faces of the
    /// seats a reader should not see (the replay viewer's seat selector).
    pub hideable: bool,
}

/// A standalone SVG document.
pub(crate) fn document(t: &Table) -> String {
    picture(
        t,
        Options {
            defs: true,
            hideable: false,
        },
    )
}

/// An `<svg>` element picturing `t`.
pub(crate) fn picture(t: &Table, opts: Options) -> String {
    let mut body = Canvas {
        out: String::with_capacity(16 * 1024),
        used: [CardSet::EMPTY; 4],
        back: false,
    };
    body.table(t, opts);
    let mut out = String::with_capacity(body.out.len() + 8 * 1024);
    let title = match t.viewer {
        Some(me) => format!("{} (seat {me}'s view)", t.title()),
        None => t.title(),
    };
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}" role="img" aria-label="{}">"#,
        esc(&title)
    );
    let _ = write!(out, "<title>{}</title>", esc(&title));
    if opts.defs {
        out += &defs(&body.used, body.back);
    }
    out += &body.out;
    out += "</svg>";
    out
}

/// XML text escaping.
pub(crate) fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The picture's body being written, and the card faces it uses.
struct Canvas {
    out: String,
    /// Faces used, one set per [`Look`] (by `Look::index`).
    used: [CardSet; 4],
    back: bool,
}

impl Canvas {
    fn text(&mut self, x: f32, y: f32, size: u32, attrs: &str, text: &str) {
        let _ = write!(
            self.out,
            r#"<text x="{x}" y="{y}" font-size="{size}" {attrs}>{}</text>"#,
            esc(text)
        );
    }

    fn box_(&mut self, x: f32, y: f32, w: f32, h: f32, stroke: &str, width: f32) {
        let _ = write!(
            self.out,
            r#"<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="8" fill="{PAPER}" stroke="{stroke}" stroke-width="{width}"/>"#
        );
    }

    /// A whole, lit card face at `(x, y)` (top-left), scaled by `scale`.
    fn card(&mut self, c: Card, x: f32, y: f32, scale: f32, extra: &str) {
        self.card_as(
            c,
            Look {
                fanned: false,
                dim: false,
            },
            x,
            y,
            scale,
            extra,
        );
    }

    /// A card face in `look` at `(x, y)` (top-left), scaled by `scale`.
    fn card_as(&mut self, c: Card, look: Look, x: f32, y: f32, scale: f32, extra: &str) {
        self.used[look.index()].insert(c);
        let place = if scale == 1.0 {
            format!(r#"x="{x}" y="{y}""#)
        } else {
            format!(r#"transform="translate({x} {y}) scale({scale})""#)
        };
        let _ = write!(
            self.out,
            r##"<use href="#{}" {place} class="card" data-card="{c}"{extra}/>"##,
            look.id(c)
        );
    }

    fn back(&mut self, x: f32, y: f32) {
        self.back = true;
        let _ = write!(
            self.out,
            r##"<use href="#ys-back" x="{x}" y="{y}" class="card-back"/>"##
        );
    }

    fn table(&mut self, t: &Table, opts: Options) {
        let _ = write!(
            self.out,
            r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="#2f6b4f"/><rect width="{WIDTH}" height="36" fill="{INK}"/>"##
        );
        self.text(
            12.0,
            24.0,
            15,
            r##"font-weight="bold" fill="#fff""##,
            &t.title(),
        );
        let who = match t.viewer {
            Some(me) => format!("seat {me}'s view"),
            // A page that hides hands by seat says which itself.
            None if opts.hideable => String::new(),
            None => "whole table".to_string(),
        };
        self.text(
            WIDTH as f32 - 12.0,
            24.0,
            13,
            r##"text-anchor="end" fill="#cfd6ea""##,
            &who,
        );
        self.scores(t);
        self.trump(t);
        self.notes(t);
        self.legend(t.variant());
        for p in 0..t.num_players() {
            self.seat(t, p, opts);
        }
        self.trick(t);
    }

    fn scores(&mut self, t: &Table) {
        let (x, y) = (12.0, 46.0);
        self.box_(x, y, 270.0, 150.0, "#c9c2ad", 1.0);
        let v = t.variant();
        let title = if v.is_seal() { "Seals" } else { "Scores" };
        self.text(x + 12.0, y + 22.0, 14, r#"font-weight="bold""#, title);
        if !v.is_seal() {
            // A one-round episode has no target to reach (R10): saying "game to 7" there
            // would promise rounds that never come.
            let note = match t.config.episode {
                yokai_septet::Episode::Round => "one round".to_string(),
                yokai_septet::Episode::Game => format!("game to {}", t.config.scoring.target()),
            };
            self.text(
                x + 258.0,
                y + 22.0,
                11,
                r##"text-anchor="end" fill="#555""##,
                &note,
            );
        }
        // Seal variants leave room under each team for its row of sealed suits.
        let spacing = if v.is_seal() { 46.0 } else { 26.0 };
        for side in 0..v.num_sides() {
            let ly = y + 46.0 + spacing * side as f32;
            self.text(x + 12.0, ly, 13, "", &t.side_label(side));
            self.text(
                x + 258.0,
                ly,
                15,
                r#"font-weight="bold" text-anchor="end""#,
                &t.scores[side].to_string(),
            );
            if v.is_seal() {
                for (k, s) in t.sealed_suits(side).into_iter().enumerate() {
                    self.suit_chip(s, x + 12.0 + 22.0 * k as f32, ly + 7.0);
                }
            }
        }
        if v.is_seal() {
            let goal = if v == Variant::Seal {
                "seal all 7 suits to win"
            } else {
                "seal 4 suits to win"
            };
            self.text(x + 12.0, y + 140.0, 11, r##"fill="#555""##, goal);
        }
    }

    /// A small rounded square in a suit's colour with its letter.
    fn suit_chip(&mut self, s: Suit, x: f32, y: f32) {
        let (bg, fg) = suit_colors(s);
        let _ = write!(
            self.out,
            r##"<rect x="{x}" y="{y}" width="18" height="18" rx="3" fill="{bg}" stroke="#111" stroke-width=".6" class="suit" data-suit="{}"/>"##,
            s.letter()
        );
        self.text(
            x + 9.0,
            y + 13.5,
            11,
            &format!(r#"font-weight="bold" text-anchor="middle" fill="{fg}""#),
            &s.letter().to_string(),
        );
    }

    fn trump(&mut self, t: &Table) {
        let (x, y) = (WIDTH as f32 - 282.0, 46.0);
        self.box_(x, y, 270.0, 150.0, "#c9c2ad", 1.0);
        self.text(x + 12.0, y + 22.0, 14, r#"font-weight="bold""#, "Trump");
        match t.trump_suit {
            Some(s) => {
                self.suit_chip(s, x + 12.0, y + 32.0);
                self.text(x + 38.0, y + 46.0, 13, "", s.name());
            }
            None => self.text(x + 12.0, y + 46.0, 12, "", "set by the first lead"),
        }
        if let Some(c) = t.trump_card {
            self.text(x + 12.0, y + 72.0, 11, r##"fill="#555""##, "face-up card");
            self.card(c, x + 24.0, y + 80.0, 1.0, "");
        }
        let per_round = t.variant().tricks_per_round();
        let lines = [
            format!("Round {}", t.round),
            format!("Tricks played {} of {per_round}", t.tricks_played),
            match t.trick.first() {
                Some(c) => format!("Led suit: {}", c.suit()),
                None => String::new(),
            },
        ];
        for (k, line) in lines.iter().enumerate() {
            self.text(x + 110.0, y + 80.0 + 18.0 * k as f32, 12, "", line);
        }
    }

    /// Last round's result and the game's end, wrapped into the lower-left box.
    fn notes(&mut self, t: &Table) {
        let (x, y) = (12.0, 400.0);
        self.box_(x, y, 280.0, 232.0, "#c9c2ad", 1.0);
        self.text(x + 12.0, y + 22.0, 14, r#"font-weight="bold""#, "Results");
        let mut lines = Vec::new();
        if let Some(text) = t.game_over_text() {
            lines.push((text, true));
        }
        if let Some(text) = t.last_result_text() {
            lines.push((text, false));
        }
        if lines.is_empty() {
            lines.push(("No round finished yet.".to_string(), false));
        }
        let mut ly = y + 44.0;
        for (text, strong) in lines {
            for part in wrap(&text, 40) {
                let attrs = if strong {
                    r#"font-weight="bold" class="note""#
                } else {
                    r#"class="note""#
                };
                self.text(x + 12.0, ly, 12, attrs, &part);
                ly += 17.0;
            }
            ly += 6.0;
        }
    }

    fn legend(&mut self, v: Variant) {
        let (x, y) = (WIDTH as f32 - 292.0, 400.0);
        self.box_(x, y, 280.0, 232.0, "#c9c2ad", 1.0);
        self.text(x + 12.0, y + 22.0, 14, r#"font-weight="bold""#, "Cards");
        for (k, s) in Suit::ALL.into_iter().enumerate() {
            let (cx, cy) = (
                x + 12.0 + 130.0 * (k % 2) as f32,
                y + 34.0 + 24.0 * (k / 2) as f32,
            );
            self.suit_chip(s, cx, cy);
            let lo = s as u8 + 1;
            self.text(
                cx + 24.0,
                cy + 13.5,
                12,
                "",
                &format!("{} {}–{}", s.name(), lo, lo + 6),
            );
        }
        let mut notes = vec![
            "★ boss: the 7 of each suit",
            "A: the Wind 1, wins any trick",
        ];
        if v.is_seal() {
            notes.push("7b: a boss's second copy");
        }
        for (k, n) in notes.iter().enumerate() {
            self.text(x + 12.0, y + 146.0 + 18.0 * k as f32, 12, "", n);
        }
    }

    fn seat(&mut self, t: &Table, p: usize, opts: Options) {
        let seat = &t.seats[p];
        let (x, y) = Place::of(t, p).panel();
        let acting = t.to_act == Some(p);
        let won = t.trick_winner == Some(p);
        let _ = write!(self.out, r#"<g class="seat" data-seat="{p}">"#);
        if acting || won {
            self.box_(x, y, PANEL_W, PANEL_H, ACCENT, 3.0);
        } else {
            self.box_(x, y, PANEL_W, PANEL_H, "#c9c2ad", 1.0);
        }
        let mut label = format!("Seat {p}");
        if t.variant().has_teams() {
            label += &format!(" · team {}", yokai_septet::seat::team_of(p));
        }
        if t.viewer == Some(p) {
            label += " · you";
        }
        self.text(x + 10.0, y + 18.0, 13, r#"font-weight="bold""#, &label);
        let status = if acting {
            Some("to act")
        } else if won {
            Some("takes the trick")
        } else {
            None
        };
        if let Some(status) = status {
            self.text(
                x + 170.0,
                y + 18.0,
                12,
                &format!(r#"font-weight="bold" fill="{ACCENT}""#),
                status,
            );
        }
        self.text(
            x + PANEL_W - 10.0,
            y + 18.0,
            12,
            r#"text-anchor="end" class="tricks""#,
            &format!("tricks {}", seat.tricks_won),
        );
        let hy = y + 30.0;
        match seat.hand {
            Some(hand) if opts.hideable => {
                let _ = write!(self.out, r#"<g class="ys-face ys-seat-{p}">"#);
                self.hand_faces(t, p, hand, x, hy);
                self.out += "</g>";
                let _ = write!(self.out, r#"<g class="ys-back ys-seat-{p}">"#);
                self.hand_backs(seat.hand_len, seat.num_picks, t.phase, x, hy);
                self.out += "</g>";
            }
            Some(hand) => self.hand_faces(t, p, hand, x, hy),
            None => self.hand_backs(seat.hand_len, seat.num_picks, t.phase, x, hy),
        }
        // Captured bosses, small.
        let by = y + 93.0;
        self.text(x + 10.0, by + 22.0, 11, r##"fill="#555""##, "bosses");
        if seat.bosses.is_empty() {
            self.text(x + 58.0, by + 22.0, 11, r##"fill="#555""##, "-");
        }
        let _ = write!(self.out, r#"<g class="bosses">"#);
        for (k, c) in seat.bosses.iter().enumerate() {
            self.card(c, x + 56.0 + 28.0 * k as f32, by, 0.7, "");
        }
        self.out += "</g></g>";
    }

    fn hand_faces(&mut self, t: &Table, p: usize, hand: CardSet, x: f32, y: f32) {
        let seat = &t.seats[p];
        let picks: Vec<(Card, usize)> = match (&seat.picks, t.phase) {
            (Some(picks), Phase::Pass) => picks.clone(),
            _ => Vec::new(),
        };
        let n = hand.len() as usize;
        let step = if n > 1 {
            ((PANEL_W - 20.0 - CARD_W) / (n - 1) as f32).min(CARD_W + 2.0)
        } else {
            0.0
        };
        let dim_illegal = t.to_act == Some(p) && !t.legal.is_empty();
        let _ = write!(self.out, r#"<g class="hand" data-seat="{p}">"#);
        for (k, c) in hand.iter().enumerate() {
            let cx = x + 10.0 + step * k as f32;
            if picks.iter().any(|&(pc, _)| pc == c) {
                let _ = write!(
                    self.out,
                    r#"<rect x="{cx}" y="{}" width="{}" height="4" rx="2" fill="{ACCENT}" class="picked"/>"#,
                    y + CARD_H + 3.0,
                    step.clamp(8.0, CARD_W)
                );
            }
            let look = Look {
                // Every card but the last is covered but for its strip.
                fanned: k + 1 < n && step < CARD_W,
                dim: dim_illegal && !t.legal.contains(c),
            };
            self.card_as(c, look, cx, y, 1.0, "");
        }
        self.out += "</g>";
        if !picks.is_empty() {
            let text: Vec<String> = picks.iter().map(|(c, to)| format!("{c}→{to}")).collect();
            self.text(
                x + PANEL_W - 10.0,
                y + 84.0,
                11,
                &format!(r#"text-anchor="end" fill="{ACCENT}" class="picks""#),
                &format!("passing {}", text.join(" ")),
            );
        }
    }

    fn hand_backs(&mut self, len: usize, num_picks: usize, phase: Phase, x: f32, y: f32) {
        for k in 0..len {
            self.back(x + 10.0 + 12.0 * k as f32, y);
        }
        let mut text = yokai_septet::names::count(len, "card");
        if phase == Phase::Pass && num_picks > 0 {
            text += &format!(" · {num_picks} picked");
        }
        self.text(
            x + 10.0 + 12.0 * len.saturating_sub(1) as f32 + CARD_W + 10.0,
            y + 30.0,
            12,
            r##"fill="#555" class="hidden-hand""##,
            &text,
        );
    }

    fn trick(&mut self, t: &Table) {
        let _ = write!(self.out, r#"<g class="trick">"#);
        for (i, &c) in t.trick.iter().enumerate() {
            let seat = t.trick_seat(i);
            let (cx, cy) = Place::of(t, seat).trick_slot();
            let (x, y) = (cx - CARD_W / 2.0, cy - CARD_H / 2.0);
            if t.trick_winner == Some(seat) {
                let _ = write!(
                    self.out,
                    r##"<rect x="{}" y="{}" width="{}" height="{}" rx="6" fill="#ffd23f" stroke="{ACCENT}" stroke-width="2"/>"##,
                    x - 4.0,
                    y - 4.0,
                    CARD_W + 8.0,
                    CARD_H + 8.0
                );
            }
            self.card(c, x, y, 1.0, &format!(r#" data-seat="{seat}""#));
            let label = if i == 0 {
                format!("{seat} led")
            } else {
                seat.to_string()
            };
            self.text(
                cx,
                y + CARD_H + 14.0,
                11,
                &format!(
                    r##"text-anchor="middle" fill="#fff" class="trick-seat" data-seat="{seat}""##
                ),
                &label,
            );
        }
        self.out += "</g>";
        if let Some(w) = t.trick_winner {
            self.text(
                WIDTH as f32 / 2.0,
                236.0 + if t.num_players() == 3 { 0.0 } else { -36.0 },
                13,
                &format!(
                    r##"text-anchor="middle" font-weight="bold" fill="#ffd23f" class="trick-winner" data-seat="{w}""##
                ),
                &format!("seat {w} takes the trick"),
            );
        }
    }
}

/// Words of `text` in lines of at most `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line += word;
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}
