//! A human-readable table of a [`State`], for debugging and the terminal UI. Shows every
//! hand: it is the referee's view, not a player's.

use std::fmt;

use crate::state::{Phase, State};

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = self.variant();
        let n = self.num_players();
        write!(f, "Yokai Septet {v}")?;
        if !v.is_seal() {
            write!(f, " ({})", self.config().scoring)?;
        }
        write!(f, " · round {} · {}", self.round() + 1, self.phase().name())?;
        match self.current_player() {
            Some(p) => writeln!(f, " · seat {p} to act")?,
            None => writeln!(f)?,
        }
        match (self.trump_suit(), self.trump_card()) {
            (Some(t), Some(c)) => write!(f, "Trump: {t} (face-up {c})")?,
            (Some(t), None) => write!(f, "Trump: {t}")?,
            (None, _) => write!(f, "Trump: set by the first lead")?,
        }
        write!(f, " · Scores:")?;
        for side in 0..v.num_sides() {
            let seat = side;
            if v.has_teams() {
                write!(
                    f,
                    " team {side} (seats {},{}) {}",
                    side,
                    side + 2,
                    self.score(seat)
                )?;
            } else {
                write!(f, " seat {side} {}", self.score(seat))?;
            }
        }
        writeln!(f)?;
        if v.is_seal() {
            for team in 0..2 {
                let suits: Vec<&str> = crate::card::Suit::ALL
                    .iter()
                    .filter(|s| self.seals(team) >> (**s as u8) & 1 == 1)
                    .map(|s| s.name())
                    .collect();
                writeln!(
                    f,
                    "Seals team {team}: {}",
                    if suits.is_empty() {
                        "-".to_string()
                    } else {
                        suits.join(" ")
                    }
                )?;
            }
        }
        for p in 0..n {
            let marker = if self.current_player() == Some(p) {
                '*'
            } else {
                ' '
            };
            write!(
                f,
                "{marker} seat {p}: {:<48} tricks {:>2}",
                self.hand(p).to_string(),
                self.tricks_won(p)
            )?;
            let bosses = self.won_cards(p).bosses();
            if !bosses.is_empty() {
                write!(f, " · bosses {bosses}")?;
            }
            if self.phase() == Phase::Pass && !self.picks(p).is_empty() {
                write!(f, " · picked")?;
                for c in self.picks(p) {
                    write!(f, " {c}")?;
                }
            }
            writeln!(f)?;
        }
        if let Some(leader) = self
            .trick_leader()
            .filter(|_| !self.trick_cards().is_empty())
        {
            write!(f, "Trick (led by seat {leader}):")?;
            for c in self.trick_cards() {
                write!(f, " {c}")?;
            }
            writeln!(f)?;
        }
        if self.is_over() {
            let w: Vec<String> = self.winners().map(|p| p.to_string()).collect();
            if self.is_truncated() {
                writeln!(f, "Game truncated by the round cap")?;
            } else {
                writeln!(f, "Game over · winners: seats {}", w.join(", "))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::{GameConfig, State, Variant};

    #[test]
    fn display_shows_hands_trump_and_scores() {
        for v in Variant::ALL {
            let s = State::new(GameConfig::new(v, 0));
            let text = s.to_string();
            assert!(text.contains(&format!("Yokai Septet {v}")), "{text}");
            assert!(text.contains(&s.hand(0).to_string()));
            assert!(text.contains("Scores:"));
            assert_eq!(text.contains("face-up"), !v.is_seal());
        }
    }
}
