//! What `play` writes: the game's introduction, each round's header, the table before
//! the person's decision, and every decision narrated from the person's seat (never
//! another player's hand or passes).

use std::io::Write;

use yokai_septet::GameConfig;
use yokai_septet::Match;
use yokai_septet::SeatView;
use yokai_septet::{rules::pass_target, Outcome, Phase, RoundResult, TrickResult};
use yokai_septet::{seat::left_of, Card, Suit};

use super::super::replay::{reason_text, seats_text};
use super::super::Failure;
use super::Table;

pub(super) fn intro<W: Write + ?Sized>(
    t: &Table,
    config: &GameConfig,
    out: &mut W,
) -> Result<(), Failure> {
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
            yokai_septet::seat::left_of(t.me, 1, 4),
            yokai_septet::seat::left_of(t.me, 3, 4)
        )?,
        None => writeln!(out, "You are seat {}; everyone plays for themselves.", t.me)?,
    }
    writeln!(
        out,
        "Type a card code or its number; ? for help, q to quit."
    )?;
    Ok(())
}

pub(super) fn round_header<W: Write + ?Sized>(
    t: &Table,
    view: &SeatView,
    out: &mut W,
) -> Result<(), Failure> {
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
pub(super) fn status<W: Write + ?Sized>(
    t: &Table,
    view: &SeatView,
    out: &mut W,
) -> Result<(), Failure> {
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

/// Why [`apply_and_narrate`] stopped: the move was refused, or the narration failed.
pub(super) enum Step {
    Illegal(yokai_septet::IllegalAction),
    Failed(Failure),
}

/// Applies `p`'s decision `card` and narrates it. A round's end is narrated from the
/// finished round's last position (its captures and scores), before the next deal.
pub(super) fn apply_and_narrate<W: Write + ?Sized>(
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
    before: &yokai_septet::State,
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
    before: &yokai_septet::State,
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
    before: &yokai_septet::State,
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
            let team = if yokai_septet::seat::team_of(w) == yokai_septet::seat::team_of(t.me) {
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
    before: &yokai_septet::State,
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
            yokai_septet::seat::team_seats(side).to_vec()
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

pub(super) fn game_over<W: Write + ?Sized>(
    t: &Table,
    view: &SeatView,
    out: &mut W,
) -> Result<(), Failure> {
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
