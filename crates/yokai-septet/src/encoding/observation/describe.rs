//! The observation's information in words, for debugging.

use std::fmt::Write as _;

use crate::cards::{relative_to, Suit};
use crate::infoset::view::SeatView;

/// A human-readable account of what `view`'s seat knows, for debugging. Seats are shown
/// both absolute and relative (`me`, `left`, `across`, `right`).
pub fn describe(view: &SeatView) -> String {
    let v = view.variant();
    let n = v.num_players();
    let names: &[&str] = if n == 3 {
        &["me", "left", "right"]
    } else {
        &["me", "left", "across", "right"]
    };
    let who = |seat: usize| format!("seat {seat} ({})", names[relative_to(seat, view.seat(), n)]);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} round {}, phase {}, seat {}'s view; to act: {}",
        v.name(),
        view.round(),
        view.phase().name(),
        view.seat(),
        view.current_player().map_or("nobody".into(), who)
    );
    let _ = writeln!(
        s,
        "trump: {}{}",
        view.trump_suit()
            .map_or("unknown".to_string(), |t| t.name().to_string()),
        view.trump_card()
            .map_or(String::new(), |c| format!(" (face-up {c})"))
    );
    let _ = writeln!(s, "hand: {}", view.hand());
    let exchanges = [
        ("passed", '→', view.my_passes().collect::<Vec<_>>()),
        ("received", '←', view.received().collect()),
    ];
    for (label, arrow, cards) in exchanges {
        if !cards.is_empty() {
            let items: Vec<String> = cards
                .iter()
                .map(|&(c, p)| format!("{c}{arrow}{}", who(p)))
                .collect();
            let _ = writeln!(s, "{label}: {}", items.join(", "));
        }
    }
    if let Some(l) = view.trick_leader() {
        let cards: Vec<String> = view.trick_cards().iter().map(|c| c.to_string()).collect();
        let _ = writeln!(s, "trick led by {}: [{}]", who(l), cards.join(" "));
    }
    for r in 0..n {
        let p = view.relative(r);
        let voids: String = Suit::ALL
            .iter()
            .filter(|&&su| view.voids(p) >> su as u8 & 1 == 1)
            .map(|su| su.letter())
            .collect();
        let _ = writeln!(
            s,
            "{}: {} cards, picks {}, tricks {}, bosses {}, voids [{}], played {}",
            who(p),
            view.hand_len(p),
            view.num_picks(p),
            view.tricks_won(p),
            view.won_cards(p).bosses(),
            voids,
            view.played_by(p)
        );
    }
    let scores: Vec<String> = (0..v.num_sides())
        .map(|side| view.score(view.relative(side)).to_string())
        .collect();
    let _ = write!(s, "scores (relative sides): {}", scores.join(" "));
    if v.is_seal() {
        let _ = write!(
            s,
            "; seals mine {:07b} theirs {:07b}",
            view.seals(view.seat() & 1),
            view.seals((view.seat() + 1) & 1)
        );
    }
    if let Some(res) = view.last_round_result() {
        let _ = write!(s, "; last round: {}", res.reason.name());
    }
    s.push('\n');
    s
}
