//! A human-readable table as text, for debugging and the terminal: [`table_text`] for a
//! [`State`] (the referee's view, every hand shown) and [`seat_text`] for a [`SeatView`]
//! (one seat's view: the other hands are only counted). Both draw a [`Table`].

use std::fmt;

use crate::Table;
use yokai_septet::SeatView;
use yokai_septet::{Phase, State};

/// The whole table as text (every hand shown), as `Game.__str__` prints it.
pub fn table_text(state: &State) -> String {
    Table::from_state(state).to_string()
}

/// One seat's view of the table as text: that seat's hand, the other hands counted.
pub fn seat_text(view: &SeatView<'_>) -> String {
    Table::from_view(view).to_string()
}

impl fmt::Display for Table {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.variant();
        write!(f, "{}", self.title())?;
        match self.viewer {
            Some(me) => writeln!(f, " · seat {me}'s view")?,
            None => writeln!(f)?,
        }
        match (self.trump_suit, self.trump_card) {
            (Some(t), Some(c)) => write!(f, "Trump: {t} (face-up {c})")?,
            (Some(t), None) => write!(f, "Trump: {t}")?,
            (None, _) => write!(f, "Trump: set by the first lead")?,
        }
        write!(f, " · Scores:")?;
        for side in 0..v.num_sides() {
            write!(f, " {} {}", self.side_label(side), self.scores[side])?;
        }
        writeln!(f)?;
        if v.is_seal() {
            for team in 0..2 {
                writeln!(f, "Seals team {team}: {}", self.sealed_text(team))?;
            }
        }
        for (p, seat) in self.seats.iter().enumerate() {
            let marker = if self.to_act == Some(p) { '*' } else { ' ' };
            let hand = match seat.hand {
                Some(h) => h.to_string(),
                None => format!(
                    "({}, hidden)",
                    yokai_septet::names::count(seat.hand_len, "card")
                ),
            };
            write!(
                f,
                "{marker} seat {p}: {hand:<48} tricks {:>2}",
                seat.tricks_won
            )?;
            if !seat.bosses.is_empty() {
                write!(f, " · bosses {}", seat.bosses)?;
            }
            if self.phase == Phase::Pass && seat.num_picks > 0 {
                write!(f, " · picked")?;
                match &seat.picks {
                    Some(picks) => {
                        for (c, _) in picks {
                            write!(f, " {c}")?;
                        }
                    }
                    None => write!(f, " {} (hidden)", seat.num_picks)?,
                }
            }
            writeln!(f)?;
        }
        if let Some(leader) = self.trick_leader.filter(|_| !self.trick.is_empty()) {
            write!(f, "Trick (led by seat {leader}):")?;
            for c in &self.trick {
                write!(f, " {c}")?;
            }
            if let Some(w) = self.trick_winner {
                write!(f, " → seat {w}")?;
            }
            writeln!(f)?;
        }
        if let Some(text) = self.game_over_text() {
            writeln!(f, "{text}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::{seat_text, table_text};
    use yokai_septet::{GameConfig, State, Variant};

    #[test]
    fn the_table_text_shows_hands_trump_and_scores() {
        for v in Variant::ALL {
            let s = State::new(GameConfig::new(v, 0));
            let text = table_text(&s);
            assert!(text.contains(&format!("Yokai Septet {v}")), "{text}");
            assert!(text.contains(&s.hand(0).to_string()));
            assert!(text.contains("Scores:"));
            assert_eq!(text.contains("face-up"), !v.is_seal());
        }
    }

    #[test]
    fn seat_view_text_hides_the_other_hands_r10() {
        for v in Variant::ALL {
            let s = State::new(GameConfig::new(v, 3));
            for me in 0..v.num_players() {
                let text = seat_text(&s.view(me));
                assert!(text.contains(&format!("seat {me}'s view")), "{text}");
                assert!(text.contains(&s.hand(me).to_string()));
                for p in (0..v.num_players()).filter(|&p| p != me) {
                    assert!(!text.contains(&s.hand(p).to_string()), "{text}");
                    assert!(text.contains(&format!("seat {p}: ({} cards, hidden)", v.hand_size())));
                }
            }
        }
    }
}
