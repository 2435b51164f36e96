//! Card and text styling for the terminal: ANSI suit colours, or plain text.

use yokai_septet::{Card, Suit};

/// Whether to colour the output (ANSI escapes) or write plain text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    pub color: bool,
    /// Whether input comes from a person at a terminal (scripted input is echoed).
    pub interactive: bool,
}

impl Style {
    /// Plain text for scripted input (echoed).
    pub const PLAIN: Style = Style {
        color: false,
        interactive: false,
    };

    /// Colours only when stdin and stdout are terminals and `NO_COLOR` is unset or empty
    /// (<https://no-color.org>).
    pub fn detect() -> Style {
        use std::io::IsTerminal;
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let interactive = std::io::stdin().is_terminal();
        Style {
            color: !no_color && interactive && std::io::stdout().is_terminal(),
            interactive,
        }
    }

    /// The ANSI foreground colour of a suit (R1 colours in the 16-colour palette).
    fn suit_code(suit: Suit) -> &'static str {
        match suit {
            Suit::Wind => "32",      // green
            Suit::Earth => "35",     // purple
            Suit::Charm => "95",     // pink
            Suit::Lightning => "33", // yellow
            Suit::Darkness => "90",  // black/grey
            Suit::Fire => "31",      // red
            Suit::Snow => "94",      // blue
        }
    }

    fn paint(&self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// A card code in its suit's colour (bosses in bold), padded to `width` columns.
    pub fn card_w(&self, c: Card, width: usize) -> String {
        let text = format!("{:<width$}", c.to_string());
        let code = Self::suit_code(c.suit());
        if c.is_boss() {
            self.paint(&format!("1;{code}"), &text)
        } else {
            self.paint(code, &text)
        }
    }

    /// A card code in its suit's colour.
    pub fn card(&self, c: Card) -> String {
        self.card_w(c, 0)
    }

    /// Cards separated by spaces, or `-` for none.
    pub fn cards(&self, cards: impl IntoIterator<Item = Card>) -> String {
        let v: Vec<String> = cards.into_iter().map(|c| self.card(c)).collect();
        if v.is_empty() {
            "-".into()
        } else {
            v.join(" ")
        }
    }

    /// A suit's name in its colour.
    pub fn suit(&self, s: Suit) -> String {
        self.paint(Self::suit_code(s), s.name())
    }

    /// A suit's letter in its colour.
    pub fn suit_letter(&self, s: Suit) -> String {
        self.paint(Self::suit_code(s), &s.letter().to_string())
    }

    pub fn bold(&self, text: &str) -> String {
        self.paint("1", text)
    }

    pub fn dim(&self, text: &str) -> String {
        self.paint("2", text)
    }
}
