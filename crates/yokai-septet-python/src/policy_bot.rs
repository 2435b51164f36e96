//! Python policies seated in `yokai-septet play` (`--bots module:attribute` through the
//! console script): a [`Bot`] that asks a Python policy, holding the GIL only while it
//! decides.
//!
//! Like every bot it sees only a [`SeatView`]. A batched policy gets that seat's
//! observation and legal mask as a batch of one; an object with `act(game)` gets a
//! determinization (the seat's own cards and everything public as they are, the hidden
//! cards drawn by the sampler), so it cannot read another seat's hand.

use numpy::{PyArray2, PyArrayMethods};
use std::sync::Arc;

use pyo3::prelude::*;
use rand_chacha::ChaCha8Rng;

use super::convert::extract_integer;
use super::game::PyGame;
use yokai_septet::observation::{encode, observation_size, write_mask};
use yokai_septet::rng::determinization_rng;
use yokai_septet::Card;
use yokai_septet::Match;
use yokai_septet::SeatView;
use yokai_septet_bots::{Bot, BotError, BotMaker};

struct PolicyBot {
    name: String,
    policy: Py<PyAny>,
    /// `policy(observations, masks)`, else `policy.act(game)`.
    batched: bool,
    /// Draws the determinizations shown to `act(game)` policies.
    rng: ChaCha8Rng,
}

impl PolicyBot {
    fn decide(&mut self, py: Python<'_>, view: &SeatView) -> PyResult<Card> {
        let legal = view.legal_actions();
        let action = if self.batched {
            let d = observation_size(view.variant());
            let n = view.config().num_actions();
            let obs = PyArray2::<f32>::zeros(py, [1, d], false);
            encode(view, obs.readwrite().as_slice_mut()?);
            let mask = PyArray2::<bool>::zeros(py, [1, n], false);
            write_mask(legal, mask.readwrite().as_slice_mut()?);
            self.policy.bind(py).call1((obs, mask))?.get_item(0)?
        } else {
            let det = yokai_septet::sampler::sample(view, &mut self.rng);
            let game = Py::new(
                py,
                PyGame {
                    m: Match::determinization(det),
                },
            )?;
            self.policy.bind(py).call_method1("act", (game,))?
        };
        let card = extract_integer(&action, "action")?
            .and_then(|a| u8::try_from(a).ok())
            .and_then(Card::new)
            .filter(|c| legal.contains(*c));
        card.ok_or_else(|| {
            super::errors::Class::IllegalAction.err(format!(
                "the policy chose {}, which is not a legal action now (legal: {:?})",
                action.repr().map(|r| r.to_string()).unwrap_or_default(),
                legal.iter().map(Card::id).collect::<Vec<_>>()
            ))
        })
    }
}

impl Bot for PolicyBot {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn act(&mut self, view: &SeatView) -> Result<Card, BotError> {
        Python::with_gil(|py| {
            self.decide(py, view).map_err(|e| BotError::External {
                name: self.name.clone(),
                message: e.to_string(),
            })
        })
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = determinization_rng(seed);
    }
}

/// The [`BotMaker`] of the console script: `module:attribute` names a Python policy, which
/// `load_policy(name)` (the console script passes `yokai_septet._evaluate.load_policy`)
/// loads as `(policy, batched)`.
pub(crate) fn policy_maker(load_policy: Py<PyAny>) -> BotMaker {
    Arc::new(move |name: &str, seed: u64| {
        yokai_septet_bots::policy_module(name)?;
        Some(Python::with_gil(|py| {
            let load = || -> PyResult<Box<dyn Bot>> {
                let (policy, batched): (Py<PyAny>, bool) =
                    load_policy.bind(py).call1((name,))?.extract()?;
                Ok(Box::new(PolicyBot {
                    name: name.to_string(),
                    policy,
                    batched,
                    rng: determinization_rng(seed),
                }))
            };
            load().map_err(|e| {
                // `ismtcs:50` reads as `module:function`: a module missing under a name a
                // typo away from a bot's was most likely that bot.
                let near = e
                    .is_instance_of::<pyo3::exceptions::PyModuleNotFoundError>(py)
                    .then(|| yokai_septet_bots::near_bot_name(name))
                    .flatten()
                    .map(|n| format!("; did you mean {n}?"))
                    .unwrap_or_default();
                BotError::External {
                    name: name.to_string(),
                    message: format!("cannot seat the Python policy {name}: {e}{near}"),
                }
            })
        }))
    })
}
