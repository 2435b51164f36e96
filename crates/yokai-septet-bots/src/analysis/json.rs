//! The analysis's machine-readable form (`analyze --json`, `yokai_septet.analyze`; the
//! schema is in `docs/search.md`), as typed structs: [`Analysis::json`] builds it, and
//! [`Analysis::to_value`] is its JSON value.
//!
//! Every play carries every key, `null` where its status has no value for it, so that a
//! reader of the JSON need not know which keys each status has.

use serde::Serialize;
use serde_json::Value;

use super::{units, Analysis, PlayAnalysis, SeatTotals, Verdict, ANALYSIS_VERSION, POINT_OF_VIEW};
use yokai_septet::Card;

/// The analysis of a game in its JSON form; `P` is the form of a play (the web page's
/// review adds to [`PlayJson`]: [`AnalysisJson::map_plays`]).
#[derive(Clone, Debug, Serialize)]
pub struct AnalysisJson<P = PlayJson> {
    /// [`ANALYSIS_VERSION`].
    pub version: u64,
    /// The game's variant.
    pub variant: &'static str,
    /// The game's scoring (`None` in the seal variants).
    pub scoring: Option<&'static str>,
    /// What a unit of value is worth ([`units`]).
    pub units: String,
    /// Whose values they are ([`POINT_OF_VIEW`]).
    pub point_of_view: &'static str,
    /// The node budget per position.
    pub budget: u64,
    /// Every card play, in the record's order.
    pub plays: Vec<P>,
    /// Per seat.
    pub seats: Vec<SeatJson>,
    /// The fraction of the card plays of each status.
    pub shares: Shares,
}

/// A play's status: which [`Verdict`] it got.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// [`Verdict::Solved`].
    Solved,
    /// [`Verdict::Forced`].
    Forced,
    /// [`Verdict::Estimated`].
    Estimated,
}

/// A value in the solver's units: exact when solved, a sampled float when estimated.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Score {
    /// A solved play's.
    Exact(i32),
    /// An estimated play's.
    Estimated(f64),
}

/// One card play in the JSON form.
#[derive(Clone, Debug, Serialize)]
pub struct PlayJson {
    /// The round, from 0.
    pub round: usize,
    /// The trick in the round, from 0.
    pub trick: usize,
    /// The position in the trick, from 0.
    pub index: usize,
    /// The seat that played.
    pub seat: usize,
    /// The card's id.
    pub card: u8,
    /// The card's code.
    pub code: String,
    /// What the analysis found.
    pub status: Status,
    /// `(card id, value)` for every legal card, by id (`None` when forced).
    pub values: Option<Vec<(u8, Score)>>,
    /// The ids of the cards of best value (empty when forced).
    pub best_cards: Vec<u8>,
    /// The best value (`None` when forced).
    pub best: Option<Score>,
    /// The chosen card's value (`None` when forced).
    pub chosen: Option<Score>,
    /// The best value minus the chosen card's (0 when forced).
    pub cost: Score,
    /// The solver's nodes (solved plays only).
    pub nodes: Option<u64>,
    /// The nodes the exact solve was forecast to need (estimated plays only).
    pub forecast: Option<u64>,
    /// The worlds behind the estimate (estimated plays only).
    pub worlds: Option<u32>,
}

/// One seat's totals in the JSON form.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct SeatJson {
    /// The seat.
    pub seat: usize,
    /// Its totals.
    #[serde(flatten)]
    pub totals: SeatTotals,
}

/// The fraction of the card plays of each status, as people quote an analysis; they sum
/// to 1 (all 0 for a record without plays).
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Shares {
    /// Solved.
    pub solved: f64,
    /// Forced (one legal card).
    pub forced: f64,
    /// Estimated (over the budget).
    pub estimated: f64,
}

/// A scored play's values, best and chosen values in the JSON form.
type Scored = (Option<Vec<(u8, Score)>>, Option<Score>, Option<Score>);

fn scored<T: Copy>(values: &[(Card, T)], best: T, chosen: T, score: fn(T) -> Score) -> Scored {
    let values = values.iter().map(|&(c, v)| (c.id(), score(v))).collect();
    (Some(values), Some(score(best)), Some(score(chosen)))
}

impl PlayJson {
    /// `p`'s JSON form.
    pub fn of(p: &PlayAnalysis) -> PlayJson {
        let cost = match (p.estimated_cost(), p.cost()) {
            (Some(c), _) => Score::Estimated(c),
            (None, c) => Score::Exact(c.expect("a play not estimated has an exact cost")),
        };
        let (status, (values, best, chosen), nodes, forecast, worlds) = match &p.verdict {
            Verdict::Forced => (Status::Forced, (None, None, None), None, None, None),
            Verdict::Solved {
                values,
                best,
                chosen,
                nodes,
            } => (
                Status::Solved,
                scored(values, *best, *chosen, Score::Exact),
                Some(*nodes),
                None,
                None,
            ),
            Verdict::Estimated {
                values,
                best,
                chosen,
                worlds,
                forecast,
            } => (
                Status::Estimated,
                scored(values, *best, *chosen, Score::Estimated),
                None,
                Some(*forecast),
                Some(*worlds),
            ),
        };
        PlayJson {
            round: p.round,
            trick: p.trick,
            index: p.index,
            seat: p.seat,
            card: p.card.id(),
            code: p.card.to_string(),
            status,
            values,
            best_cards: p.best_cards().iter().map(|c| c.id()).collect(),
            best,
            chosen,
            cost,
            nodes,
            forecast,
            worlds,
        }
    }
}

impl<P> AnalysisJson<P> {
    /// The same analysis with each play `p` in the form `f(p)`.
    pub fn map_plays<Q>(self, f: impl FnMut(P) -> Q) -> AnalysisJson<Q> {
        AnalysisJson {
            version: self.version,
            variant: self.variant,
            scoring: self.scoring,
            units: self.units,
            point_of_view: self.point_of_view,
            budget: self.budget,
            plays: self.plays.into_iter().map(f).collect(),
            seats: self.seats,
            shares: self.shares,
        }
    }
}

impl Analysis {
    /// The machine-readable form, typed.
    pub fn json(&self) -> AnalysisJson {
        AnalysisJson {
            version: ANALYSIS_VERSION,
            variant: self.variant.name(),
            scoring: self.scoring,
            units: units(self.variant),
            point_of_view: POINT_OF_VIEW,
            budget: self.budget,
            plays: self.plays.iter().map(PlayJson::of).collect(),
            seats: self
                .seats
                .iter()
                .enumerate()
                .map(|(seat, &totals)| SeatJson { seat, totals })
                .collect(),
            shares: self.shares(),
        }
    }

    /// The machine-readable form ([`Analysis::json`]) as a JSON value (its object keys
    /// sorted: `analyze --json` prints it so).
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self.json()).expect("an analysis always serialises")
    }

    /// The fraction of the card plays of each status.
    pub fn shares(&self) -> Shares {
        let total = self.plays.len().max(1) as f64;
        let share = |pick: fn(&Verdict) -> bool| {
            self.plays.iter().filter(|p| pick(&p.verdict)).count() as f64 / total
        };
        Shares {
            solved: share(|v| matches!(v, Verdict::Solved { .. })),
            forced: share(|v| matches!(v, Verdict::Forced)),
            estimated: share(|v| matches!(v, Verdict::Estimated { .. })),
        }
    }
}
