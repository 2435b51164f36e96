//! The settings of the single envs, declared once as the `VectorEnv`'s are
//! ([`crate::vector::settings`]): Gymnasium's `YokaiSeptet-v0` (`_gym.py`) and the
//! PettingZoo AEC env (`_pettingzoo.py`). Their signatures' defaults are read from these
//! rows, their arguments are parsed by walking them (`_core._check_settings`, every error
//! naming the setting), and a test checks the signatures, `make_vec`'s and the
//! `VectorEnv`'s against them. A setting several envs take is one row, shared.

use crate::rl::reward::RewardMode;
use crate::rules::config::{Episode, Scoring, Variant};
use crate::settings::{DefaultValue, Kind, Setting};
use crate::vector::settings;

/// The render modes of the single envs.
pub(crate) const RENDER_MODES: [&str; 3] = ["ansi", "human", "rgb_array"];

const VARIANT: Setting = Setting::new(
    "variant",
    Kind::Choice(&Variant::NAMES),
    false,
    DefaultValue::Str("4p"),
    true,
    "str",
    "the game's variant",
);
const SCORING: Setting = Setting::new(
    "scoring",
    Kind::Choice(&Scoring::NAMES),
    true,
    DefaultValue::Str("advanced"),
    true,
    "Optional[str]",
    "the scoring (the seal variants ignore it; None only there)",
);
const EPISODE: Setting = Setting::new(
    "episode",
    Kind::Choice(&Episode::NAMES),
    false,
    DefaultValue::Str("game"),
    true,
    "str",
    "what one episode is: a whole game or one round",
);
const MAX_ROUNDS: Setting = Setting::new(
    "max_rounds",
    Kind::Int {
        lo: 1,
        hi: u32::MAX as u64,
    },
    true,
    DefaultValue::None,
    true,
    "Optional[int]",
    "the round cap of a game (None: none)",
);
const REWARD_MODE: Setting = Setting::new(
    "reward_mode",
    Kind::Choice(&RewardMode::NAMES),
    false,
    DefaultValue::Str("win"),
    true,
    "str",
    "rewards: the game's win (+1/-1/0) or its points",
);
// Every env's, the vector env's included (one row: `crate::vector::settings`).
const ILLEGAL_ACTION: Setting = settings::ILLEGAL_ACTION.by_position();
const ILLEGAL_REWARD: Setting = settings::ILLEGAL_REWARD.by_position();
const RENDER_MODE: Setting = Setting::new(
    "render_mode",
    Kind::Choice(&RENDER_MODES),
    true,
    DefaultValue::None,
    true,
    "Optional[str]",
    "what render() gives (None: nothing)",
);

/// Every setting of `gymnasium.make("YokaiSeptet-v0", ...)` (`YokaiSeptetEnv`), in
/// signature order.
#[rustfmt::skip]
pub(crate) const GYM: [Setting; 11] = [
    VARIANT, SCORING, EPISODE, MAX_ROUNDS,
    Setting::new("learner_seat", Kind::Int { lo: 0, hi: 3 }, true, DefaultValue::Int(0), true,
        "Optional[int]", "the seat the learner plays (None: drawn per episode)"),
    Setting::new("opponents", Kind::Names, false, DefaultValue::Str("random"), true,
        "Union[str, Sequence[str]]", "the bots' names: one for every seat, or one per seat"),
    REWARD_MODE, ILLEGAL_ACTION, ILLEGAL_REWARD, RENDER_MODE,
    Setting::new("render_seat", Kind::Seat(&["learner"]), true, DefaultValue::None, true,
        "Union[None, int, str]", "whose view render() shows: None (every hand), 'learner' or a seat"),
];

/// Every setting of `yokai_septet.env(...)` and `raw_env(...)`, in signature order.
#[rustfmt::skip]
pub(crate) const AEC: [Setting; 11] = [
    VARIANT, SCORING, EPISODE, MAX_ROUNDS, REWARD_MODE, RENDER_MODE,
    Setting::new("seed", Kind::Int { lo: 0, hi: u64::MAX }, true, DefaultValue::None, true,
        "Optional[int]", "the master seed of the games reset() deals without one (None: drawn)"),
    Setting::new("render_seat", Kind::Seat(&[]), true, DefaultValue::None, true,
        "Optional[int]", "whose view render() shows: None (every hand) or a seat"),
    ILLEGAL_ACTION, ILLEGAL_REWARD,
    Setting::new("observation_key", Kind::Choice(&["observation", "observations"]), false,
        DefaultValue::Str("observation"), true, "str",
        "the key of the observation vector in each observation dict"),
];
