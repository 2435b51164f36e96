//! The yardstick of the VectorEnv's own cost: the work one VectorEnv step does per env, by
//! hand and without the batch machinery. One copy for both of its users: `_core.bench_step_parts`
//! (`benches/python_speed.py`) and the criterion bench `benches/engine.rs`. It uses only
//! the engine's public API.

use yokai_septet::observation::{encode, observation_size, write_mask_bool, ObsValue};
use yokai_septet::{GameConfig, State};

/// For each game: a random legal action (`pick`), `apply`, a new game (seed `*next_seed`,
/// then incremented) when it ends, the mover's observation into its row of `obs` and its
/// mask into its row of `mask`. Returns the decisions made (one per game).
pub fn yardstick_pass<T: ObsValue>(
    games: &mut [State],
    obs: &mut [T],
    mask: &mut [bool],
    mut pick: impl FnMut() -> u32,
    next_seed: &mut u64,
) -> u64 {
    let Some(first) = games.first() else { return 0 };
    let v = first.variant();
    let (d, a) = (observation_size(v), first.config().num_actions());
    let rows = obs.chunks_exact_mut(d).zip(mask.chunks_exact_mut(a));
    for (s, (o, m)) in games.iter_mut().zip(rows) {
        s.apply(s.legal_actions().pick(pick()).expect("a legal action"))
            .expect("legal");
        if s.is_over() {
            *s = State::new(GameConfig {
                seed: *next_seed,
                ..*s.config()
            });
            *next_seed += 1;
        }
        let view = s.view(s.current_player().expect("a new game has a mover"));
        encode(&view, o);
        write_mask_bool(view.legal_actions(), m);
    }
    games.len() as u64
}
