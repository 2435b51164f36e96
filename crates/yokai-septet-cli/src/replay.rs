//! `yokai-septet replay FILE`: a game record, validated, then printed trick by trick.

use std::io::Write;

use yokai_septet::RoundEnd;
use yokai_septet::Variant;
use yokai_septet::{Card, Suit};
use yokai_septet::{Match, Record, RoundRecord};

use super::{Failure, Style};

pub use yokai_septet_picture::{reason_text, seats_text};

fn card(id: u8) -> Card {
    Card::new(id).expect("a validated record holds valid card ids")
}

fn suit(i: u8) -> Suit {
    Suit::from_index(i as usize).expect("a validated record holds valid suits")
}

/// Validates `json` with [`Match::from_json`] and prints it (all rounds, or round
/// `only_round`, counted from 0 like `Game.round` and the record's `rounds` list). A bad record is a usage failure (exit code 2) naming the field.
pub fn replay(
    json: &str,
    only_round: Option<usize>,
    style: Style,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    let m = Match::from_json(json).map_err(|e| Failure::usage(e.to_string()))?;
    let rec = m.record();
    let variant: Variant = rec.variant.parse().expect("a validated variant");
    let n = variant.num_players();
    if let Some(k) = only_round {
        if k >= rec.rounds.len() {
            return Err(Failure::usage(match rec.rounds.len() {
                0 => format!("--round {k}: the record has no rounds"),
                n => format!(
                    "--round {k}: the record has rounds 0 to {} (counted from 0)",
                    n - 1
                ),
            }));
        }
    }
    write!(out, "Yokai Septet {variant}")?;
    if let Some(s) = rec.scoring {
        write!(out, " ({s} scoring)")?;
    }
    writeln!(
        out,
        " · seed {} · {}",
        rec.seed,
        yokai_septet::names::count(rec.rounds.len(), "round")
    )?;
    for (r, round) in rec.rounds.iter().enumerate() {
        if only_round.is_some_and(|k| k != r) {
            continue;
        }
        print_round(r, round, variant, n, style, out)?;
    }
    print_end(&rec, variant, out)
}

fn print_round(
    r: usize,
    round: &RoundRecord,
    variant: Variant,
    n: usize,
    style: Style,
    out: &mut dyn Write,
) -> Result<(), Failure> {
    write!(out, "\n{}", style.bold(&format!("Round {r}")))?;
    match (round.trump_suit, round.trump_card) {
        (Some(t), Some(c)) => write!(
            out,
            " · trump {} (face-up {})",
            style.suit(suit(t)),
            style.card(card(c))
        )?,
        (Some(t), None) => write!(out, " · trump {} (first lead)", style.suit(suit(t)))?,
        (None, _) => write!(out, " · trump not set yet")?,
    }
    match round.leader {
        Some(l) => writeln!(out, " · seat {l} leads")?,
        None => writeln!(out)?,
    }
    for p in 0..n {
        let hand = round.hands[p].iter().map(|&c| card(c));
        writeln!(out, "  seat {p} dealt: {}", style.cards(hand))?;
    }
    for (p, picks) in round.passes.iter().enumerate() {
        if !picks.is_empty() {
            writeln!(
                out,
                "  seat {p} passes: {}",
                style.cards(picks.iter().map(|&c| card(c)))
            )?;
        }
    }
    for (t, trick) in round.tricks.iter().enumerate() {
        write!(out, "  trick {:>2}:", t + 1)?;
        for (i, &c) in trick.cards.iter().enumerate() {
            let seat = (trick.leader as usize + i) % n;
            write!(out, " {seat}:{}", style.card_w(card(c), 3))?;
        }
        match trick.winner {
            Some(w) => {
                write!(out, "  → seat {w}")?;
                let bosses: Vec<Card> = trick
                    .cards
                    .iter()
                    .map(|&c| card(c))
                    .filter(|c| c.is_boss())
                    .collect();
                if !bosses.is_empty() {
                    write!(out, " takes {}", style.cards(bosses))?;
                }
            }
            None => write!(out, "  (unfinished)")?,
        }
        writeln!(out)?;
    }
    for &[team, s] in &round.seals {
        writeln!(out, "  team {team} sealed {}", style.suit(suit(s)))?;
    }
    match &round.result {
        Some(res) => {
            let reason = RoundEnd::from_name(res.reason).expect("a validated reason");
            let winners: Vec<usize> = res.winners.iter().map(|&w| w as usize).collect();
            write!(
                out,
                "  Round over: {} — {}",
                seats_text(&winners),
                reason_text(reason, variant)
            )?;
            let pts: Vec<String> = res.points.iter().map(|p| format!("+{p}")).collect();
            writeln!(out, " · points {}", pts.join(" "))?;
        }
        None => writeln!(out, "  Round in progress")?,
    }
    Ok(())
}

fn print_end(rec: &Record, variant: Variant, out: &mut dyn Write) -> Result<(), Failure> {
    let scores: Vec<String> = rec.scores.iter().map(|s| s.to_string()).collect();
    let what = if variant.is_seal() { "Seals" } else { "Scores" };
    writeln!(out, "\n{what} by seat: {}", scores.join(" "))?;
    if rec.over {
        let winners: Vec<usize> = rec.winners.iter().map(|&w| w as usize).collect();
        if winners.is_empty() {
            writeln!(out, "Game over: truncated by the round cap")?;
        } else {
            writeln!(out, "Game over: {} won", seats_text(&winners))?;
        }
    } else {
        writeln!(out, "Game not finished")?;
    }
    Ok(())
}
