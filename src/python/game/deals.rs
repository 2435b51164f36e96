//! A `Game`'s explicit deals (`from_deal`, `apply_deal`, `redeal`, the round change by
//! hand) and its determinizations.
//!
//! Each `pub(super) fn` is the body of the `Game` method of the same name (its doc is
//! there, on the method in `mod.rs`).

use crate::python::errors::{InvalidTypeError, InvalidValueError};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;

use super::PyGame;
use crate::python::convert::{extract_integer, extract_seat, extract_seed};
use crate::python::errors::{borrow, borrow_mut, guard, in_context};
use crate::record::Match;
use crate::rules::config::Variant;
use crate::rules::deal::Deal;

/// A card id given from Python (contract integers); ids too large for `i64` stay out of
/// range, so that [`Deal::from_ids`] names them.
fn deal_card_id(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    Ok(extract_integer(obj, "card")?.map_or(i64::MAX, |v| {
        i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX })
    }))
}

/// A deal given from Python: one list of card ids per seat, and the face-up card (`None`
/// in the seal variants), validated by [`Deal::from_ids`].
pub(super) fn parse_deal(
    variant: Variant,
    hands: &Bound<'_, PyAny>,
    trump_card: Option<&Bound<'_, PyAny>>,
) -> PyResult<Deal> {
    let lists: Vec<Vec<Bound<'_, PyAny>>> = hands.extract().map_err(|_| {
        InvalidTypeError::new_err("hands must be a list of lists of card ids, one list per seat")
    })?;
    let ids: Vec<Vec<i64>> = lists
        .iter()
        .map(|h| h.iter().map(deal_card_id).collect())
        .collect::<PyResult<_>>()?;
    let trump = match trump_card {
        Some(t) if !t.is_none() => Some(deal_card_id(t)?),
        _ => None,
    };
    Deal::from_ids(variant, &ids, trump).map_err(|e| in_context("invalid deal", e))
}

pub(super) fn apply_deal(
    slf: &Bound<'_, PyGame>,
    hands: &Bound<'_, PyAny>,
    trump_card: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    let mut this = borrow_mut(slf)?;
    let deal = parse_deal(this.state().variant(), hands, trump_card)?;
    this.m
        .apply_deal(deal)
        .map_err(|e| in_context("cannot deal", e))
}

pub(super) fn redeal(
    slf: &Bound<'_, PyGame>,
    hands: &Bound<'_, PyAny>,
    trump_card: Option<&Bound<'_, PyAny>>,
) -> PyResult<()> {
    PyGame::apply_deal(slf, hands, trump_card)
}

pub(super) fn step_in_round(slf: &Bound<'_, PyGame>, a: &Bound<'_, PyAny>) -> PyResult<()> {
    let mut this = borrow_mut(slf)?;
    let action = this.action_of(a)?;
    let card = this
        .m
        .state()
        .card_for_action(action)
        .map_err(PyErr::from)?;
    this.m.apply_in_round(card).map(|_| ()).map_err(PyErr::from)
}

pub(super) fn sample_determinization(
    slf: &Bound<'_, PyGame>,
    py: Python<'_>,
    seat: &Bound<'_, PyAny>,
    seed: Option<&Bound<'_, PyAny>>,
    belief: bool,
) -> PyResult<PyGame> {
    let this = borrow(slf)?;
    let seat = extract_seat(seat, this.state().num_players())?;
    let seed = match seed {
        Some(s) => extract_seed(s)?,
        None => 0,
    };
    let state = *this.state();
    drop(this); // the copy is worked on: other threads may use the game meanwhile
    let mut worlds = crate::bots::worlds::Worlds::default();
    if belief {
        worlds.infer(crate::bots::BeliefSource::Shipped);
        worlds
            .check(state.config().variant)
            .map_err(InvalidValueError::new_err)?;
    }
    let det = py.allow_threads(|| {
        guard("Game.sample_determinization", || {
            let mut rng = crate::rng::determinization_rng(seed);
            let view = state.view(seat);
            let mut det = worlds
                .sample(&view, &mut rng)
                .map_err(|e| InvalidValueError::new_err(e.why))?;
            // A determinization played on past its round needs a seed, and the real
            // one would reveal every deal.
            det.replace_seed(rand_core::RngCore::next_u64(&mut rng));
            Ok(det)
        })
    })?;
    Ok(PyGame {
        m: Match::determinization(det),
    })
}

/// `Game.belief`: the shipped belief model's card × seat probabilities for `seat`.
pub(super) fn belief<'py>(
    slf: &Bound<'py, PyGame>,
    py: Python<'py>,
    seat: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, numpy::PyArray2<f32>>> {
    let this = borrow(slf)?;
    let s = *this.state();
    drop(this);
    let seat = extract_seat(seat, s.num_players())?;
    let variant = s.variant();
    let mut worlds = crate::bots::worlds::Worlds::default();
    worlds.infer(crate::bots::BeliefSource::Shipped);
    worlds.check(variant).map_err(InvalidValueError::new_err)?;
    let view = s.view(seat);
    let belief = py.allow_threads(|| {
        guard("Game.belief", || {
            worlds
                .marginals(&view)
                .map_err(|e| InvalidValueError::new_err(e.why))
        })
    })?;
    let n = variant.num_players();
    let cards = variant.num_actions();
    let mut out = vec![0f32; cards * n];
    let unseen = view.unknown_cards();
    for c in variant.deck() {
        if unseen.contains(c) {
            for p in 0..n {
                out[c.id() as usize * n + p] = belief.weight(c, p);
            }
        }
    }
    PyArray1::from_vec(py, out).reshape([cards, n])
}
