//! The settings of Python's `VectorEnv`, declared once: the binding parses its
//! constructor's arguments by walking this table (errors included), the Python class's
//! signature, the stub's defaults (checked against it) and docs/api.md's constructor
//! table come from it. Adding a setting is a row here and its use where the binding
//! builds the [`super::Shared`] and the [`super::VecCore`].

use super::{Autoreset, Illegal};
use crate::rl::reward::RewardMode;
use crate::rules::config::{Episode, Scoring, Variant};
use crate::settings::{DefaultValue, Kind, Setting};

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
pub const ILLEGAL_ACTION: Setting = Setting::new(
    "illegal_action",
    Kind::Choice(&ILLEGAL_ACTIONS),
    false,
    DefaultValue::Str("lose"),
    false,
    "str",
    "an action outside the mask: 'lose' ends the episode as lost, 'raise' raises IllegalActionError",
);

/// Every env's `illegal_reward`.
pub const ILLEGAL_REWARD: Setting = Setting::new(
    "illegal_reward",
    Kind::Float,
    false,
    DefaultValue::Float(-1.0),
    false,
    "float",
    "the acting seat's reward for it under illegal_action='lose'",
);

/// [`Illegal`] from the `illegal_action` and `illegal_reward` settings' values.
pub fn illegal(action: &str, reward: f64) -> Illegal {
    match action {
        "raise" => Illegal::Raise,
        _ => Illegal::Lose(reward as f32),
    }
}

/// Every setting of `VectorEnv(...)`, in signature order (the positional ones first).
#[rustfmt::skip]
pub const SETTINGS: [Setting; 21] = [
    Setting::new("num_envs", Kind::Int { lo: 1, hi: MAX_ENVS }, false, DefaultValue::Required, true,
        "int", "games stepped together"),
    Setting::new("variant", Kind::Choice(&Variant::NAMES), false, DefaultValue::Str("4p"), true,
        "str", "the game's variant"),
    Setting::new("scoring", Kind::Choice(&Scoring::NAMES), true, DefaultValue::Str("advanced"), true,
        "Optional[str]", "the scoring (the seal variants ignore it; None only there)"),
    Setting::new("seed", Kind::Int { lo: 0, hi: u64::MAX }, true, DefaultValue::Int(0), true,
        "Optional[int]", "the master seed every env's games derive from (None: 0)"),
    Setting::new("episode", Kind::Choice(&Episode::NAMES), false, DefaultValue::Str("game"), false,
        "str", "what one episode is: a whole game or one round"),
    Setting::new("max_rounds", Kind::Int { lo: 1, hi: u32::MAX as u64 }, true, DefaultValue::None, false,
        "Optional[int]", "the round cap of a game (None: none)"),
    Setting::new("self_play", Kind::Bool, false, DefaultValue::Bool(false), false,
        "bool", "the caller decides for whichever seat is to move"),
    Setting::new("learner_seat", Kind::Int { lo: 0, hi: 3 }, true, DefaultValue::Int(0), false,
        "Optional[int]", "the seat the caller plays (None: drawn per game)"),
    Setting::new("learner_team", Kind::Int { lo: 0, hi: 1 }, true, DefaultValue::None, false,
        "Optional[int]", "given: the team the caller plays (None: drawn per game)"),
    Setting::new("opponents", Kind::Names, true, DefaultValue::Str("random"), false,
        "Union[str, Sequence[str], None]", "the bots' names: one for every seat, or one per seat"),
    Setting::new("reward_mode", Kind::Choice(&RewardMode::NAMES), false, DefaultValue::Str("win"), false,
        "str", "rewards: the game's win (+1/-1/0) or its points"),
    ILLEGAL_ACTION, ILLEGAL_REWARD,
    Setting::new("num_threads", Kind::Int { lo: 1, hi: MAX_THREADS }, true, DefaultValue::None, false,
        "Optional[int]", "threads that step the envs, the caller's included (None: every core)"),
    Setting::new("obs_dtype", Kind::Choice(&OBS_DTYPES), false, DefaultValue::Str("float32"), false,
        "str", "the observations' numpy dtype"),
    Setting::new("env_offset", Kind::Int { lo: 0, hi: u64::MAX }, false, DefaultValue::Int(0), false,
        "int", "this object's env 0 is env env_offset of the seed derivation"),
    Setting::new("copy", Kind::Bool, false, DefaultValue::Bool(true), false,
        "bool", "every call's arrays are the caller's (False: one set, overwritten)"),
    Setting::new("state_tensor", Kind::Bool, false, DefaultValue::Bool(false), false,
        "bool", "also hand out the privileged state tensors (infos[\"state\"])"),
    Setting::new("batch_size", Kind::Int { lo: 1, hi: MAX_ENVS }, true, DefaultValue::None, false,
        "Optional[int]", "envs per batch of the asynchronous API, dividing num_envs (None: num_envs)"),
    Setting::new("spin_us", Kind::Int { lo: 0, hi: 10_000_000 }, true, DefaultValue::None, false,
        "Optional[int]", "microseconds idle stepping threads poll (None: adaptive)"),
    Setting::new("autoreset_mode", Kind::Mode(&AUTORESET_NAMES), true, DefaultValue::Str("next_step"), false,
        "Union[str, AutoresetMode, None]", "what a step does to an env whose episode it ended"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_well_formed() {
        crate::settings::check_table(&SETTINGS);
        for (name, mode) in AUTORESET_NAMES.iter().zip(AUTORESETS) {
            assert_eq!(
                name.replace('_', ""),
                mode.gymnasium_name().to_ascii_lowercase()
            );
        }
    }
}
