//! The settings of the single envs, declared once as the `VectorEnv`'s are
//! ([`yokai_septet_vector::settings`]): Gymnasium's `YokaiSeptet-v0` (`_gym.py`) and the
//! PettingZoo AEC env (`_pettingzoo.py`). Their signatures' defaults are read from these
//! rows, their arguments are parsed by walking them (`_core._check_settings`, every error
//! naming the setting), and a test checks the signatures, `make_vec`'s and the
//! `VectorEnv`'s against them. A setting several envs take is one row, shared.

use yokai_septet::settings::{game, splice, Part, Setting};
use yokai_septet_vector::settings;

/// The render modes of the single envs.
pub(crate) const RENDER_MODES: [&str; 3] = ["ansi", "human", "rgb_array"];

// Every env's, the vector env's included (one row each: `yokai_septet_vector::settings`).
const ILLEGAL_ACTION: Setting = settings::ILLEGAL_ACTION.positional();
const ILLEGAL_REWARD: Setting = settings::ILLEGAL_REWARD.positional();
const REWARD_MODE: Setting = settings::REWARD_MODE.positional();
const RENDER_MODE: Setting = Setting::choice("render_mode", &RENDER_MODES)
    .default_none()
    .positional()
    .doc("what render() gives (None: nothing)");

/// Every setting of `Game(...)` and the game settings of `Game.from_deal(hands,
/// trump_card, ...)`, in signature order.
pub(crate) const GAME: [Setting; 5] = splice(&[Part::Game(
    game::SECTION
        .positional_through("seed")
        .seed_doc("the seed of the deals (and of nothing else: a Game has no bots)"),
)]);

/// Every setting of `gymnasium.make("YokaiSeptet-v0", ...)` (`YokaiSeptetEnv`), in
/// signature order.
pub(crate) const GYM: [Setting; 11] = splice(&[
    // A Gymnasium env's seed is `reset`'s.
    Part::Game(game::SECTION.without("seed").positional()),
    Part::Rows(&[
        Setting::int("learner_seat", 0, 3)
            .or_none()
            .default_int(0)
            .positional()
            .doc("the seat the learner plays (None: drawn per episode)"),
        Setting::bot_names("opponents")
            .default_str("random")
            .positional()
            .doc("the bots' names: one for every seat, or one per seat"),
        REWARD_MODE,
        ILLEGAL_ACTION,
        ILLEGAL_REWARD,
        RENDER_MODE,
        Setting::seat("render_seat", &["learner"])
            .default_none()
            .positional()
            .py("Union[None, int, str]")
            .doc("whose view render() shows: None (every hand), 'learner' or a seat"),
    ]),
]);

/// Every setting of `yokai_septet.env(...)` and `raw_env(...)`, in signature order.
pub(crate) const AEC: [Setting; 11] = splice(&[
    Part::Game(game::SECTION.without("seed").positional()),
    Part::Rows(&[REWARD_MODE, RENDER_MODE]),
    // The seed's place in this signature is after the render mode.
    Part::Game(
        game::SECTION
            .only("seed")
            .positional()
            .seed_none("the master seed of the games reset() deals without one (None: drawn)"),
    ),
    Part::Rows(&[
        Setting::seat("render_seat", &[])
            .default_none()
            .positional()
            .doc("whose view render() shows: None (every hand) or a seat"),
        ILLEGAL_ACTION,
        ILLEGAL_REWARD,
        Setting::choice("observation_key", &["observation", "observations"])
            .default_str("observation")
            .positional()
            .doc("the key of the observation vector in each observation dict"),
    ]),
]);
