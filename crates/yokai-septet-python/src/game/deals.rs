//! A `Game`'s explicit deals (`from_deal`, `apply_deal`, the round change by hand) and
//! what a seat may believe: its determinizations and the belief model's probabilities.

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::PyDeprecationWarning;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

use super::{game_config, PyGame};
use crate::convert::{extract_flag, extract_integer, extract_seat, extract_seed, shown};
use crate::errors::{borrow_mut, guard, in_context, py_err, Class};
use yokai_septet::Deal;
use yokai_septet::DealError;
use yokai_septet::Match;
use yokai_septet::Variant;

/// A card id of the argument `what` (`hands`, `trump_card`) of a deal of `variant`, as the
/// contract reads integers: one too large for an `i64` is refused here, as it was passed
/// (clamped, [`Deal::from_ids`] would name the clamp); the others are its to check.
fn deal_card_id(obj: &Bound<'_, PyAny>, what: &str, variant: Variant) -> PyResult<i64> {
    extract_integer(obj, what)?
        .and_then(|v| i64::try_from(v).ok())
        .ok_or_else(|| {
            Class::InvalidValue.err(format!(
                "invalid deal: {what}: card id {} is out of range: this variant's cards are \
                 0..{}",
                shown(obj),
                variant.deck_size() - 1
            ))
        })
}

/// The argument `belief` of `sample_determinization`.
fn belief_arg(obj: &Bound<'_, PyAny>) -> PyResult<bool> {
    extract_flag(obj, "belief")
}

/// A deal given from Python: one list of card ids per seat, and the face-up card (`None`
/// in the seal variants), validated by [`Deal::from_ids`].
fn parse_deal(
    variant: Variant,
    hands: &Bound<'_, PyAny>,
    trump_card: Option<&Bound<'_, PyAny>>,
) -> PyResult<Deal> {
    let lists: Vec<Vec<Bound<'_, PyAny>>> = hands.extract().map_err(|_| {
        Class::InvalidType.err(format!(
            "hands must be a list of lists of card ids, one list per seat, not {}",
            shown(hands)
        ))
    })?;
    let ids: Vec<Vec<i64>> = lists
        .iter()
        .map(|h| {
            h.iter()
                .map(|c| deal_card_id(c, "hands", variant))
                .collect()
        })
        .collect::<PyResult<_>>()?;
    let trump = match trump_card {
        Some(t) if !t.is_none() => Some(deal_card_id(t, "trump_card", variant)?),
        _ => None,
    };
    Deal::from_ids(variant, &ids, trump).map_err(|e| {
        // An error about the face-up card names it, as it was passed.
        let about_trump = match &e {
            DealError::TrumpCardExpected | DealError::TrumpCardUnexpected => true,
            DealError::CardOutOfRange { id, .. } => trump.map(i128::from) == Some(*id),
            DealError::Duplicate { card } => trump == Some(i64::from(card.id())),
            _ => false,
        };
        let given = trump_card.map_or_else(|| "None".to_string(), shown);
        if about_trump {
            in_context(&format!("invalid deal: trump_card {given}"), e)
        } else {
            in_context("invalid deal", e)
        }
    })
}

#[pymethods]
impl PyGame {
    /// A new game whose first round is dealt ``hands`` (one list of card ids per seat)
    /// with the face-up card ``trump_card`` (``None`` in the seal variants); later rounds
    /// come from the seed, or from :meth:`apply_deal`. Other arguments as for ``Game``. A
    /// deal that is not exactly the variant's deck in hands of the right sizes is a
    /// ``ValueError`` saying what is wrong.
    #[staticmethod]
    #[pyo3(
        signature = (hands, trump_card = None, *args, **kwargs),
        text_signature = "(hands, trump_card=None, variant='4p', scoring='advanced', seed=0, *, episode='game', max_rounds=None)"
    )]
    fn from_deal(
        hands: &Bound<'_, PyAny>,
        trump_card: Option<&Bound<'_, PyAny>>,
        args: &Bound<'_, PyTuple>,
        kwargs: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyGame> {
        let config = game_config("from_deal", args, kwargs)?;
        let deal = parse_deal(config.variant, hands, trump_card)?;
        let mut m = Match::new(config);
        m.apply_deal(deal)
            .map_err(|e| in_context("cannot deal", e))?;
        Ok(PyGame { m })
    }

    /// Deals ``hands`` and ``trump_card`` (as for :meth:`from_deal`): the next round when
    /// a round is over (``phase == "round_over"``, after :meth:`step_in_round`), or a new
    /// deal for the round in progress before its first passing pick, e.g. when the deal
    /// of each round comes from outside. At any other time, or for an invalid deal, a
    /// ``ValueError``, and the game is unchanged.
    #[pyo3(signature = (hands, trump_card = None))]
    fn apply_deal(
        slf: &Bound<'_, Self>,
        hands: &Bound<'_, PyAny>,
        trump_card: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let mut this = borrow_mut(slf)?;
        let deal = parse_deal(this.state().variant(), hands, trump_card)?;
        this.m
            .apply_deal(deal)
            .map_err(|e| in_context("cannot deal", e))
    }

    /// Deprecated: the former name of :meth:`apply_deal`, which it calls after a
    /// ``DeprecationWarning``.
    #[pyo3(signature = (hands, trump_card = None))]
    fn redeal(
        slf: &Bound<'_, Self>,
        hands: &Bound<'_, PyAny>,
        trump_card: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let py = slf.py();
        PyErr::warn(
            py,
            &py.get_type::<PyDeprecationWarning>(),
            c"Game.redeal is deprecated and will be removed: use Game.apply_deal",
            1,
        )?;
        Self::apply_deal(slf, hands, trump_card)
    }

    /// As :meth:`step`, but an action that ends a round (and not the game) stops at the
    /// finished round's last position: ``phase`` is ``"round_over"`` (captures, scores and
    /// the last trick still visible) until :meth:`apply_deal` deals the next round.
    fn step_in_round(slf: &Bound<'_, Self>, a: &Bound<'_, PyAny>) -> PyResult<()> {
        let mut this = borrow_mut(slf)?;
        let action = this.action_of(a)?;
        let card = this.m.state().card_for_action(action).map_err(py_err)?;
        this.m.apply_in_round(card).map(|_| ()).map_err(py_err)
    }

    /// A copy of this game in which every card ``seat`` cannot see is re-dealt at random,
    /// consistently with all that ``seat`` knows (hand sizes, shown voids, cards it passed),
    /// each consistent deal equally likely; ``seed`` fixes the draw. During passing the
    /// other seats' hidden picks are drawn too. Later rounds are dealt from a seed drawn
    /// from ``seed`` (the true one would reveal them). For search bots (IS-MCTS,
    /// determinized playouts). The copy plays on like any game but has no
    /// :meth:`record`. With ``belief=True`` the deals of the play phase are drawn in
    /// proportion to the shipped belief model's probabilities (:meth:`belief`; the `-inf`
    /// bots' worlds, ``docs/inference.md``), under the same constraints; ``ValueError``
    /// for a variant with no belief model.
    #[pyo3(signature = (seat, seed = None, belief = false))]
    fn sample_determinization(
        slf: &Bound<'_, Self>,
        py: Python<'_>,
        seat: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = belief_arg)] belief: bool,
    ) -> PyResult<PyGame> {
        // A copy is worked on: other threads may use the game meanwhile.
        let state = Self::read(slf, |s| *s)?;
        let seat = extract_seat(seat, state.num_players(), "seat")?;
        let seed = match seed {
            Some(s) => extract_seed(s)?,
            None => 0,
        };
        let mut worlds = yokai_septet_bots::Worlds::default();
        if belief {
            worlds.infer(yokai_septet_bots::BeliefSource::Shipped);
            worlds
                .check(state.config().variant)
                .map_err(|e| Class::InvalidValue.err(e))?;
        }
        let det = py.allow_threads(|| {
            guard("Game.sample_determinization", || {
                let mut rng = yokai_septet::rng::determinization_rng(seed);
                let view = state.view(seat);
                let mut det = worlds
                    .sample(&view, &mut rng)
                    .map_err(|e| Class::InvalidValue.err(e.why))?;
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

    /// What ``seat`` believes about the cards it cannot see, by the shipped belief model of
    /// the variant (``docs/inference.md``): a ``float32`` array ``[num_actions,
    /// num_players]``, the exact probability that each seat holds each card in the deals
    /// that ``sample_determinization(seat, belief=True)`` draws. For every card ``seat``
    /// cannot see the row sums to 1 over the seats that may hold it (hand sizes, voids,
    /// cards passed); a card whose holder is known has 1 there; other rows (its own cards,
    /// cards played) are 0. ``ValueError`` for a variant with no belief model.
    fn belief<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
        seat: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, numpy::PyArray2<f32>>> {
        let s = Self::read(slf, |s| *s)?;
        let seat = extract_seat(seat, s.num_players(), "seat")?;
        let variant = s.variant();
        let mut worlds = yokai_septet_bots::Worlds::default();
        worlds.infer(yokai_septet_bots::BeliefSource::Shipped);
        worlds
            .check(variant)
            .map_err(|e| Class::InvalidValue.err(e))?;
        let view = s.view(seat);
        let belief = py.allow_threads(|| {
            guard("Game.belief", || {
                worlds
                    .marginals(&view)
                    .map_err(|e| Class::InvalidValue.err(e.why))
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
}
