//! The replay viewer: one self-contained HTML page (inline CSS, JS and SVG; no network,
//! no external files) that steps through a game record round by round and trick by trick.
//!
//! Every step is pictured in Rust (the same SVG as `Game.to_svg`, see [`super::svg`]) and
//! described in words; the page's script only shows one step at a time. Each hand is
//! drawn face up and face down, and the seat selector hides the faces (and the passes) of
//! every other seat with a style rule.

use std::fmt::Write;

use serde::Serialize;

use yokai_septet::names::count;
use yokai_septet::State;
use yokai_septet::{seat::left_of, Card};
use yokai_septet::{Match, Record, RoundRecord};
use yokai_septet_bots::analysis::{units, Analysis, PlayAnalysis};

use super::faces;
use super::svg::{self, esc, Options};
use super::{seats_text, Table};

/// One step of the replay.
#[derive(Serialize)]
struct Step {
    /// Round index (0-based).
    round: usize,
    label: String,
    svg: String,
    /// HTML describing the step.
    text: String,
}

/// The replay viewer page for a (validated) game.
pub fn replay_html(m: &Match) -> String {
    let rec = m.record();
    let steps = steps(m, &rec, &[]);
    page(&rec, &steps, m.state().num_players(), "")
}

/// The replay viewer page with the costly plays of `analysis` (of the same game) marked:
/// each trick's text names every play that gave value away, its cost and the best cards
/// (`yokai-septet analyze --html`).
pub fn replay_html_analysed(m: &Match, analysis: &Analysis) -> String {
    let rec = m.record();
    let costly: Vec<&PlayAnalysis> = analysis.costly().collect();
    let steps = steps(m, &rec, &costly);
    let note = format!(
        " · double-dummy analysis: {} marked (units: {})",
        count(costly.len(), "costly play"),
        units(analysis.variant)
    );
    page(&rec, &steps, m.state().num_players(), &note)
}

/// The marks of the costly plays of trick `k` of round `r`.
fn marks_text(r: usize, k: usize, costly: &[&PlayAnalysis]) -> String {
    let mut s = String::new();
    for p in costly.iter().filter(|p| p.round == r && p.trick == k) {
        let best: Vec<String> = p.best_cards().iter().map(|c| c.to_string()).collect();
        let cost = p.cost().unwrap_or(0);
        let _ = write!(
            s,
            r#"<p class="ys-costly" data-seat="{}" data-card="{}" data-cost="{cost}">Seat {} played {}: cost {cost} (best: {})</p>"#,
            p.seat,
            p.card.id(),
            p.seat,
            p.card,
            best.join(" ")
        );
    }
    s
}

fn picture(t: &Table) -> String {
    svg::picture(
        t,
        Options {
            defs: false,
            hideable: true,
        },
    )
}

fn card(id: u8) -> Card {
    Card::new(id).expect("a validated record holds valid card ids")
}

fn codes(ids: &[u8]) -> String {
    let v: Vec<String> = ids.iter().map(|&c| card(c).to_string()).collect();
    v.join(" ")
}

/// Replays the record, picturing the deal, the exchange and every trick of each round.
fn steps(m: &Match, rec: &Record, costly: &[&PlayAnalysis]) -> Vec<Step> {
    let config = *m.state().config();
    let variant = config.variant;
    let n = variant.num_players();
    let mut g = Match::with_deals(config, rec.deals()).expect("a match's own deals are valid");
    let mut out = Vec::new();
    for (r, round) in rec.rounds.iter().enumerate() {
        let dealt = Table::from_state(g.state());
        out.push(Step {
            round: r,
            label: format!("Round {r} · dealt"),
            svg: picture(&dealt),
            text: deal_text(r, round, &dealt),
        });
        // Seat by seat, as the engine takes them (R4.2).
        for &c in round.passes.iter().flatten() {
            apply(&mut g, c);
        }
        if round.passes.iter().any(|p| !p.is_empty()) {
            let t = Table::from_state(g.state());
            out.push(Step {
                round: r,
                label: format!("Round {r} · passing"),
                svg: picture(&t),
                text: pass_text(r, round, &t, n),
            });
        }
        for (k, trick) in round.tricks.iter().enumerate() {
            let (last, first) = trick.cards.split_last().expect("a trick has cards");
            for &c in first {
                apply(&mut g, c);
            }
            let before: State = *g.state();
            let outcome = apply(&mut g, *last);
            let t = match outcome.trick {
                Some(tr) => Table::after_trick(&before, g.state(), &tr),
                None => Table::from_state(g.state()),
            };
            let final_trick = k + 1 == round.tricks.len();
            out.push(Step {
                round: r,
                label: format!("Round {r} · trick {}", k + 1),
                svg: picture(&t),
                text: trick_text(r, k, trick, round, final_trick, &t) + &marks_text(r, k, costly),
            });
        }
    }
    out
}

fn apply(g: &mut Match, id: u8) -> yokai_septet::Outcome {
    g.apply(card(id))
        .expect("a validated record replays without illegal actions")
}

fn deal_text(r: usize, round: &RoundRecord, t: &Table) -> String {
    let mut s = format!(r#"<p class="ys-head" data-round="{r}">Round {r} dealt."#);
    match (t.trump_suit, t.trump_card) {
        (Some(su), Some(c)) => {
            let _ = write!(s, " Trump: {su} (face-up {c}).");
        }
        (Some(su), None) => {
            let _ = write!(s, " Trump: {su}.");
        }
        (None, _) => s += " Trump: set by the first lead (R9).",
    }
    if let Some(l) = round.leader.filter(|_| r > 0) {
        let _ = write!(s, " Seat {l} leads (won the last trick).");
    }
    s += "</p>";
    for (p, hand) in round.hands.iter().enumerate() {
        let _ = write!(
            s,
            r#"<div class="ys-face ys-seat-{p}">Seat {p} holds {}</div><div class="ys-back ys-seat-{p}">Seat {p} holds {}</div>"#,
            codes(hand),
            count(hand.len(), "card")
        );
    }
    s + &scores_text(t)
}

fn pass_text(r: usize, round: &RoundRecord, t: &Table, n: usize) -> String {
    let mut s =
        format!(r#"<p class="ys-head" data-round="{r}">Round {r}: the passed cards change hands."#);
    if let Some(l) = round.leader {
        let _ = write!(s, " Seat {l} leads.");
    }
    s += "</p>";
    // Each passed card is visible to its giver and its receiver only: the whole list for
    // the giver (and the whole table), and for any other seat the cards it received
    // beside the count.
    for p in 0..n {
        let picks = t.seats[p].picks.as_deref().unwrap_or_default();
        let _ = write!(
            s,
            r#"<div class="ys-passes" data-seat="{p}">Seat {p} passes <span class="ys-face ys-seat-{p}">{}</span><span class="ys-back ys-seat-{p}">"#,
            pass_list(picks)
        );
        for to in (0..n).filter(|&to| to != p) {
            let mine: Vec<(Card, usize)> = picks.iter().copied().filter(|x| x.1 == to).collect();
            if !mine.is_empty() {
                let _ = write!(
                    s,
                    r#"<span class="ys-face ys-seat-{to}">{} </span>"#,
                    pass_list(&mine)
                );
            }
        }
        let _ = write!(
            s,
            "({} in all)</span></div>",
            count(round.passes[p].len(), "card")
        );
    }
    s + &scores_text(t)
}

/// Passed cards with their receivers: `D5 to seat 3, S8 to seat 0`.
fn pass_list(picks: &[(Card, usize)]) -> String {
    let parts: Vec<String> = picks
        .iter()
        .map(|(c, to)| format!("{c} to seat {to}"))
        .collect();
    parts.join(", ")
}

fn trick_text(
    r: usize,
    k: usize,
    trick: &yokai_septet::TrickRecord,
    round: &RoundRecord,
    final_trick: bool,
    t: &Table,
) -> String {
    let n = t.num_players();
    let plays: Vec<String> = trick
        .cards
        .iter()
        .enumerate()
        .map(|(i, &c)| format!("{}: {}", left_of(trick.leader as usize, i, n), card(c)))
        .collect();
    let winner = trick.winner.map_or(String::new(), |w| w.to_string());
    let mut s = format!(
        r#"<p class="ys-trick" data-round="{r}" data-trick="{k}" data-cards="{}" data-leader="{}" data-winner="{winner}">Round {r}, trick {}: seat {} led · {}"#,
        codes(&trick.cards),
        trick.leader,
        k + 1,
        trick.leader,
        plays.join(" · ")
    );
    match trick.winner {
        Some(w) => {
            let bosses: Vec<String> = trick
                .cards
                .iter()
                .map(|&c| card(c))
                .filter(|c| c.is_boss())
                .map(|c| c.to_string())
                .collect();
            let _ = write!(s, " → seat {w} takes the trick");
            if !bosses.is_empty() {
                let _ = write!(s, " and {}", bosses.join(" "));
            }
        }
        None => s += " (unfinished)",
    }
    s += "</p>";
    if final_trick {
        match (&round.result, t.last_result_text()) {
            (Some(res), Some(text)) => {
                let _ = write!(
                    s,
                    r#"<p class="ys-result" data-reason="{}">{}</p>"#,
                    res.reason,
                    esc(&text)
                );
            }
            _ => s += r#"<p class="ys-result">Round in progress.</p>"#,
        }
    }
    s += &scores_text(t);
    if let Some(text) = t.game_over_text() {
        let _ = write!(s, r#"<p class="ys-over">{}</p>"#, esc(&text));
    }
    s
}

fn scores_text(t: &Table) -> String {
    let v = t.variant();
    let sides: Vec<String> = (0..v.num_sides())
        .map(|side| format!("{} {}", t.side_label(side), t.scores[side]))
        .collect();
    let what = if v.is_seal() { "Seals" } else { "Scores" };
    let mut s = format!(r#"<p class="ys-scores">{what}: {}"#, sides.join(" · "));
    if v.is_seal() {
        for team in 0..2 {
            let _ = write!(s, " · team {team} sealed {}", t.sealed_text(team));
        }
    }
    s + "</p>"
}

const STYLE: &str = r#"
body{font-family:"DejaVu Sans",Verdana,Arial,sans-serif;margin:0;background:#e9e6dc;color:#23283a}
header{padding:10px 16px;background:#23283a;color:#fff}
header h1{font-size:18px;margin:0 0 4px 0}
header p{margin:0;font-size:13px;color:#cfd6ea}
nav{display:flex;flex-wrap:wrap;gap:8px;align-items:center;padding:10px 16px}
nav button{font-size:14px;padding:4px 10px}
nav input[type=range]{flex:1;min-width:160px}
#label{font-weight:bold;min-width:190px}
main{display:flex;flex-wrap:wrap;gap:12px;padding:0 16px 16px 16px}
#board svg{max-width:100%;height:auto;border-radius:8px}
#info{flex:1;min-width:260px;max-width:420px;font-size:14px;background:#f7f4ea;border-radius:8px;padding:8px 14px}
#info div{margin:2px 0}
.ys-result,.ys-over{font-weight:bold}
.ys-costly{color:#a3201b;font-weight:bold}
.ys-back{display:none}
kbd{background:#fff;border:1px solid #999;border-radius:3px;padding:0 4px}
"#;

const SCRIPT: &str = r#"
(function(){
  var steps = JSON.parse(document.getElementById('ys-steps').textContent);
  var board = document.getElementById('board'), info = document.getElementById('info');
  var label = document.getElementById('label'), slider = document.getElementById('slider');
  var seat = document.getElementById('seat');
  var i = 0;
  slider.max = steps.length - 1;
  function show(k){
    i = Math.max(0, Math.min(steps.length - 1, k));
    board.innerHTML = steps[i].svg;
    info.innerHTML = steps[i].text;
    label.textContent = steps[i].label + ' (step ' + (i + 1) + ' of ' + steps.length + ')';
    slider.value = i;
    document.body.dataset.step = i;
  }
  function roundStart(r){
    for (var k = 0; k < steps.length; k++) if (steps[k].round === r) return k;
    return i;
  }
  function nextRound(){
    var r = steps[i].round;
    for (var k = i + 1; k < steps.length; k++) if (steps[k].round > r) return show(k);
    show(steps.length - 1);
  }
  function prevRound(){
    var start = roundStart(steps[i].round);
    show(i > start ? start : roundStart(Math.max(0, steps[i].round - 1)));
  }
  function setSeat(v){ seat.value = v; document.body.dataset.seat = v; }
  document.getElementById('first').onclick = function(){ show(0); };
  document.getElementById('prevRound').onclick = prevRound;
  document.getElementById('prev').onclick = function(){ show(i - 1); };
  document.getElementById('next').onclick = function(){ show(i + 1); };
  document.getElementById('nextRound').onclick = nextRound;
  document.getElementById('last').onclick = function(){ show(steps.length - 1); };
  slider.oninput = function(){ show(parseInt(slider.value, 10)); };
  seat.onchange = function(){ setSeat(seat.value); };
  document.addEventListener('keydown', function(e){
    if (e.target === seat || e.target === slider) return;
    var keys = {ArrowRight: function(){ show(i + 1); }, ArrowLeft: function(){ show(i - 1); },
      ArrowDown: nextRound, PageDown: nextRound, ArrowUp: prevRound, PageUp: prevRound,
      Home: function(){ show(0); }, End: function(){ show(steps.length - 1); }};
    if (keys[e.key]) { keys[e.key](); e.preventDefault(); }
  });
  setSeat('all');
  show(0);
})();
"#;

fn page(rec: &Record, steps: &[Step], n: usize, note: &str) -> String {
    let mut title = format!("Yokai Septet {}", rec.variant);
    if let Some(s) = rec.scoring {
        let _ = write!(title, " ({s} scoring)");
    }
    let winners: Vec<usize> = rec.winners.iter().map(|&w| w as usize).collect();
    let end = match (rec.over, winners.is_empty()) {
        (true, false) => format!("{} won", seats_text(&winners)),
        (true, true) => "truncated by the round cap".to_string(),
        (false, _) => "not finished".to_string(),
    };
    let summary = format!(
        "seed {} · {} · {}{note}",
        rec.seed,
        count(rec.rounds.len(), "round"),
        end
    );
    let mut seat_css = String::new();
    let mut seat_options = String::from(r#"<option value="all">all hands</option>"#);
    for p in 0..n {
        let _ = write!(
            seat_css,
            "body[data-seat=\"{p}\"] .ys-face:not(.ys-seat-{p}){{display:none}}\n\
             body[data-seat=\"{p}\"] .ys-back:not(.ys-seat-{p}){{display:revert}}\n"
        );
        let _ = write!(
            seat_options,
            r#"<option value="{p}">seat {p} only</option>"#
        );
    }
    let json = serde_json::to_string(steps)
        .expect("steps serialise")
        .replace("</", "<\\/")
        .replace("<!--", "<\\!--");
    format!(
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · replay</title>
<style>{STYLE}{seat_css}</style></head>
<body>
<header><h1>{title} · replay</h1><p>{summary}</p></header>
<nav>
<button id="first" title="first step (Home)">|◀ first</button>
<button id="prevRound" title="previous round (↑ / Page Up)">◀◀ round</button>
<button id="prev" title="previous step (←)">◀ prev</button>
<button id="next" title="next step (→)">next ▶</button>
<button id="nextRound" title="next round (↓ / Page Down)">round ▶▶</button>
<button id="last" title="last step (End)">last ▶|</button>
<span id="label"></span>
<input id="slider" type="range" min="0" value="0" aria-label="step">
<label>Show <select id="seat">{seat_options}</select></label>
</nav>
<main><div id="board"></div><div id="info"></div></main>
<p style="padding:0 16px;font-size:12px">Keys: <kbd>←</kbd> <kbd>→</kbd> step, <kbd>↑</kbd> <kbd>↓</kbd> round, <kbd>Home</kbd> <kbd>End</kbd>.</p>
<svg width="0" height="0" style="position:absolute" aria-hidden="true">{defs}</svg>
<script type="application/json" id="ys-steps">{json}</script>
<script>{SCRIPT}</script>
</body></html>
"#,
        title = esc(&title),
        summary = esc(&summary),
        defs = faces::all_defs(),
    )
}
