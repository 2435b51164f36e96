//! The settings of Python's `VectorEnv`, declared once: the binding parses its
//! constructor's arguments by walking this table (errors included), the Python class's
//! signature, the stub's defaults (checked against it) and docs/api.md's constructor
//! table come from it. Adding a setting is a row here and its use where the binding
//! builds the [`super::Shared`] and the [`super::VecCore`].

use super::{Autoreset, Illegal};
use crate::reward::RewardMode;
use yokai_septet::settings::{game, splice, Part, Setting};

/// The most envs one `VectorEnv` steps.
pub const MAX_ENVS: u64 = 1 << 24;

/// The most stepping threads.
pub const MAX_THREADS: u64 = 1024;

/// [`Autoreset`]'s names, as Python's `autoreset_mode` takes them (in the order of
/// [`AUTORESETS`]).
pub const AUTORESET_NAMES: [&str; 3] = ["next_step", "same_step", "disabled"];

/// The modes named by [`AUTORESET_NAMES`].
pub const AUTORESETS: [Autoreset; 3] = [
    Autoreset::NextStep,
    Autoreset::SameStep,
    Autoreset::Disabled,
];

/// The observation dtypes, by numpy name: `float32`, `uint8`.
pub const OBS_DTYPES: [&str; 2] = ["float32", "uint8"];

/// What an env does with an action outside the mask, by name: `lose` ([`Illegal::Lose`]:
/// the episode ends as lost, the acting seat rewarded `illegal_reward`) or `raise`
/// ([`Illegal::Raise`]: `IllegalActionError`, nothing changes).
pub const ILLEGAL_ACTIONS: [&str; 2] = ["lose", "raise"];

/// Every env's `illegal_action` (the single envs' too: one row, one default). `lose` is
/// the default because Gymnasium's contract is that `step` accepts every element of the
/// action space (its checkers step unmasked random actions), and PettingZoo's convention
/// is its `TerminateIllegalWrapper`.
pub const ILLEGAL_ACTION: Setting = Setting::choice("illegal_action", &ILLEGAL_ACTIONS)
    .default_str("lose")
    .doc("an action outside the mask: 'lose' ends the episode as lost, 'raise' raises IllegalActionError");

/// Every env's `illegal_reward`.
pub const ILLEGAL_REWARD: Setting = Setting::float("illegal_reward")
    .default_float(-1.0)
    .doc("the acting seat's reward for it under illegal_action='lose'");

/// Every env's `reward_mode`.
pub const REWARD_MODE: Setting = Setting::choice("reward_mode", &RewardMode::NAMES)
    .default_str("win")
    .doc("rewards: the game's win (+1/-1/0) or its points");

/// [`Illegal`] from the `illegal_action` and `illegal_reward` settings' values.
pub fn illegal(action: &str, reward: f64) -> Illegal {
    match action {
        "raise" => Illegal::Raise,
        _ => Illegal::Lose(reward as f32),
    }
}

/// Every setting of `VectorEnv(...)`, in signature order (the positional ones first).
pub const SETTINGS: [Setting; 21] = splice(&[
    Part::Rows(&[Setting::int("num_envs", 1, MAX_ENVS)
        .positional()
        .doc("games stepped together")]),
    Part::Game(game::SECTION.positional_through("seed").seed_none(
        "the master seed every env's games derive from (None: drawn from the OS, then readable as seed)",
    )),
    Part::Rows(&[
    Setting::flag("self_play", false).doc("the caller decides for whichever seat is to move"),
    Setting::int("learner_seat", 0, 3)
        .or_none()
        .default_int(0)
        .doc("the seat the caller plays (None: drawn per game)"),
    Setting::int("learner_team", 0, 1)
        .default_none()
        .doc("given: the team the caller plays (None: drawn per game)"),
    Setting::bot_names("opponents")
        .or_none()
        .default_str("random")
        .doc("the bots' names: one for every seat, or one per seat"),
    REWARD_MODE,
    ILLEGAL_ACTION,
    ILLEGAL_REWARD,
    Setting::int("num_threads", 1, MAX_THREADS)
        .default_none()
        .doc("threads that step the envs, the caller's included (None: every core)"),
    Setting::choice("obs_dtype", &OBS_DTYPES)
        .default_str("float32")
        .doc("the observations' numpy dtype"),
    Setting::int("env_offset", 0, u64::MAX)
        .default_int(0)
        .doc("this object's env 0 is env env_offset of the seed derivation"),
    Setting::flag("copy", true)
        .doc("every call's arrays are the caller's (False: one set, overwritten)"),
    Setting::flag("state_tensor", false)
        .doc("also hand out the privileged state tensors (infos[\"state\"])"),
    Setting::int("batch_size", 1, MAX_ENVS)
        .default_none()
        .doc("envs per batch of the asynchronous API, dividing num_envs (None: num_envs)"),
    Setting::int("spin_us", 0, 10_000_000)
        .default_none()
        .doc("microseconds idle stepping threads poll (None: adaptive)"),
    Setting::mode("autoreset_mode", &AUTORESET_NAMES)
        .or_none()
        .default_str("next_step")
        .py("Union[str, AutoresetMode, None]")
        .doc("what a step does to an env whose episode it ended"),
    ]),
]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_well_formed() {
        yokai_septet::settings::check_table(&SETTINGS);
        for (name, mode) in AUTORESET_NAMES.iter().zip(AUTORESETS) {
            assert_eq!(
                name.replace('_', ""),
                mode.gymnasium_name().to_ascii_lowercase()
            );
        }
    }
}
