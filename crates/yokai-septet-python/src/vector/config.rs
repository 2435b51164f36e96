//! `VectorEnv(...)`'s arguments, bound and parsed by the settings table
//! ([`yokai_septet_vector::settings::SETTINGS`]: every range, type and default is checked
//! there, once) and turned into what the core is built from. Only the rules between
//! settings are here; what depends on the variant (a seat or team it lacks, the number
//! of opponents, the bot names) is [`VecCore::new`]'s to check.

use std::time::Duration;

use crate::errors::Class;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use yokai_septet::GameConfig;

use crate::seeds::fresh_seed;
use crate::settings::{bind, Value, Values};
use yokai_septet_vector::reward::RewardMode;
use yokai_septet_vector::settings::{illegal, AUTORESETS, AUTORESET_NAMES, SETTINGS};
use yokai_septet_vector::{Autoreset, Learner, Shared, Spin};

/// What a `VectorEnv` is built from.
pub(super) struct Config {
    pub(super) shared: Shared,
    pub(super) num_envs: usize,
    pub(super) opponents: Vec<String>,
    pub(super) num_threads: usize,
    pub(super) batch_size: usize,
    pub(super) spin: Option<Spin>,
    pub(super) obs_u8: bool,
    pub(super) copy: bool,
    pub(super) state_tensor: bool,
}

/// The constructor's arguments as a [`Config`].
pub(super) fn parse(
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Config> {
    let s = bind(&SETTINGS, "VectorEnv", args, kwargs)?;
    // Each deal derives its own seed (from the master seed, env and game): the
    // configuration's is unused, and 0 as it always was.
    let config = GameConfig {
        seed: 0,
        ..s.game_config()?
    };
    let num_envs = s
        .int("num_envs")
        .unwrap_or_else(|| unreachable!("required")) as usize;
    let n = config.num_players();
    let opponents = match s.get("opponents") {
        Value::Names(names) if names.len() == 1 => vec![names[0].clone(); n],
        Value::Names(names) => names.clone(),
        _ => vec!["random".to_string(); n],
    };
    let batch_size = s.int("batch_size").map_or(num_envs, |b| b as usize);
    if !num_envs.is_multiple_of(batch_size) {
        return Err(Class::InvalidValue.err(format!(
            "batch_size {batch_size} must divide num_envs {num_envs}"
        )));
    }
    // Every core the process may use: its affinity and CPU quota (one under a quota of
    // one core, where a second thread could only take turns with the first).
    let all = yokai_septet::usable_cores();
    let autoreset = s.name("autoreset_mode").map_or(Autoreset::NextStep, |m| {
        AUTORESETS[AUTORESET_NAMES.iter().position(|n| *n == m).unwrap_or(0)]
    });
    let reward = s
        .name("reward_mode")
        .and_then(RewardMode::from_name)
        .unwrap_or(RewardMode::Win);
    Ok(Config {
        shared: Shared {
            config,
            seed: match s.int("seed") {
                Some(seed) => seed,
                None => fresh_seed()?,
            },
            learner: learner(&s)?,
            reward,
            env_offset: s.int("env_offset").unwrap_or(0),
            autoreset,
            illegal: illegal(
                s.name("illegal_action")
                    .unwrap_or_else(|| unreachable!("not nullable")),
                s.float("illegal_reward")
                    .unwrap_or_else(|| unreachable!("not nullable")),
            ),
        },
        num_envs,
        opponents,
        num_threads: s.int("num_threads").map_or(all, |t| t as usize),
        batch_size,
        spin: s
            .int("spin_us")
            .map(|us| Spin::Fixed(Duration::from_micros(us))),
        obs_u8: s.name("obs_dtype") == Some("uint8"),
        copy: s.flag("copy"),
        state_tensor: s.flag("state_tensor"),
    })
}

/// Who the caller plays: `self_play`, `learner_team` (when given, even as `None`: drawn)
/// or `learner_seat`, one at a time. The seat or team is the table's range here;
/// whether the variant has it is [`VecCore::new`]'s check.
fn learner(s: &Values) -> PyResult<Learner> {
    let seat = s.int("learner_seat").map(|v| v as u8);
    let team = s.int("learner_team").map(|v| v as u8);
    if s.flag("self_play") {
        if (s.given("learner_seat") && *s.get("learner_seat") != Value::None)
            || s.given("learner_team")
        {
            return Err(Class::InvalidValue.err(
                "learner_seat and learner_team make no sense with self_play=True \
                 (the caller plays every seat)",
            ));
        }
        return Ok(Learner::SelfPlay);
    }
    if s.given("learner_team") {
        if s.given("learner_seat") {
            return Err(Class::InvalidValue.err("give learner_seat or learner_team, not both"));
        }
        return Ok(Learner::Team(team));
    }
    Ok(Learner::Seat(seat))
}
