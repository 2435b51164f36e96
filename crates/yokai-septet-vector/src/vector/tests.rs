//! The vector core's tests: determinism at any thread count, the autoreset modes, the
//! learner modes, resets and seeds, and illegal batches that change nothing.

use super::*;
use yokai_septet::Card;
use yokai_septet::State;
use yokai_septet::Variant;

fn run(threads: usize, learner: Learner, offset: u64) -> (Vec<f32>, Vec<u64>) {
    run_mode(threads, learner, offset, Autoreset::SameStep)
}

fn run_mode(
    threads: usize,
    learner: Learner,
    offset: u64,
    autoreset: Autoreset,
) -> (Vec<f32>, Vec<u64>) {
    let mut shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 5);
    shared.learner = learner;
    shared.env_offset = offset;
    shared.autoreset = autoreset;
    let mut core = VecCore::new(shared, 40, &["random"; 4], threads).unwrap();
    let mut b = Outputs::<_, f32>::owned(&core.layout(Extras::default()));
    core.reset(None, b.as_slices());
    let mut obs = Vec::new();
    for _ in 0..300 {
        let acts = core.bot_actions();
        core.step(&acts, b.as_slices()).unwrap();
        obs.extend_from_slice(&b.obs[..64]);
        obs.extend_from_slice(&b.reward);
    }
    (obs, core.episodes())
}

const MODES: [Learner; 5] = [
    Learner::SelfPlay,
    Learner::Seat(None),
    Learner::Seat(Some(2)),
    Learner::Team(Some(1)),
    Learner::Team(None),
];

#[test]
fn deterministic_at_any_thread_count() {
    for learner in MODES {
        let a = run(1, learner, 0);
        assert_eq!(a, run(3, learner, 0));
        assert!(a.1.iter().all(|&e| e > 0), "every env finished a game");
    }
}

#[test]
fn next_step_is_deterministic_at_any_thread_count() {
    for learner in [Learner::SelfPlay, Learner::Seat(None)] {
        let a = run_mode(1, learner, 0, Autoreset::NextStep);
        assert_eq!(a, run_mode(3, learner, 0, Autoreset::NextStep));
        assert!(a.1.iter().all(|&e| e > 0), "every env finished a game");
    }
}

/// A one-env core of `autoreset` mode (`final_obs` written), reset.
fn one_env(learner: Learner, offset: u64, autoreset: Autoreset) -> (VecCore, Outputs<Owned, u8>) {
    let mut shared = Shared::self_play(GameConfig::new(Variant::ThreePlayer, 0), 11);
    shared.learner = learner;
    shared.env_offset = offset;
    shared.autoreset = autoreset;
    let mut core = VecCore::new(shared, 1, &["random"; 3], 1).unwrap();
    let extras = Extras {
        final_obs: true,
        ..Extras::default()
    };
    let mut out = Outputs::<_, u8>::owned(&core.layout(extras));
    core.reset(None, out.as_slices());
    (core, out)
}

#[test]
fn next_step_returns_the_final_observation_then_the_next_game() {
    // The same env under SAME_STEP (with final_obs) and NEXT_STEP, same actions: the
    // NEXT_STEP env's ending step shows SAME_STEP's final_obs, and its next step
    // (action ignored) SAME_STEP's new game, with reward 0 and no flags.
    for (learner, offset) in [(Learner::SelfPlay, 0), (Learner::Seat(None), 3)] {
        let (mut same, mut a) = one_env(learner, offset, Autoreset::SameStep);
        let (mut next, mut b) = one_env(learner, offset, Autoreset::NextStep);
        assert_eq!(a.obs, b.obs);
        let mut ended = 0;
        for _ in 0..300 {
            let acts = same.bot_actions();
            same.step(&acts, a.as_slices()).unwrap();
            next.step(&acts, b.as_slices()).unwrap();
            assert_eq!(
                (&a.reward, &a.terminated, &a.truncated),
                (&b.reward, &b.terminated, &b.truncated)
            );
            if a.terminated[0] || a.truncated[0] {
                ended += 1;
                assert_eq!(b.obs, a.final_obs, "the ending step shows the final state");
                // One legal action, the one the next step ignores: a masked softmax over
                // the row stays finite.
                let legal: Vec<usize> = (0..b.mask.len()).filter(|&i| b.mask[i]).collect();
                assert_eq!(legal, [IGNORED_ACTION]);
                assert_eq!(b.to_play, [-1]);
                assert!(next.slot(0).unwrap().is_over());
                assert_eq!(next.bot_actions(), [-1]);
                next.step(&[12345], b.as_slices()).unwrap();
                assert!(!next.slot(0).unwrap().is_over());
                assert_eq!(b.reward.iter().sum::<f32>(), 0.0);
                assert!(!b.terminated[0] && !b.truncated[0]);
                assert_eq!(next.episodes(), same.episodes());
            }
            assert_eq!((&a.obs, &a.mask, &a.to_play), (&b.obs, &b.mask, &b.to_play));
        }
        assert!(ended > 1, "{learner:?}");
    }
}

#[test]
fn disabled_refuses_a_finished_env_until_a_masked_reset() {
    let mut shared = Shared::self_play(GameConfig::new(Variant::ThreePlayer, 0), 4);
    shared.autoreset = Autoreset::Disabled;
    let mut core = VecCore::new(shared, 5, &["random"; 3], 2).unwrap();
    let mut b = Outputs::<_, f32>::owned(&core.layout(Extras::default()));
    core.reset(None, b.as_slices());
    while !core.slots().iter().any(Slot::is_over) {
        let acts = core.bot_actions();
        core.step(&acts, b.as_slices()).unwrap();
    }
    let over: Vec<bool> = core.slots().iter().map(Slot::is_over).collect();
    let first = over.iter().position(|&o| o).unwrap();
    let (obs, deals) = (
        b.obs.clone(),
        core.slots().iter().map(Slot::deal).collect::<Vec<_>>(),
    );
    let acts = core.bot_actions();
    let e = core.step(&acts, b.as_slices()).unwrap_err();
    assert_eq!(e, StepError::Over { env: first });
    assert!(e.to_string().contains("reset_mask"), "{e}");
    assert_eq!(b.obs, obs, "a refused step changes nothing");
    core.reset_some(&over, b.as_slices());
    let width = b.obs.len() / 5;
    for (i, s) in core.slots().iter().enumerate() {
        assert!(!s.is_over());
        assert_eq!(s.deal(), deals[i] + u64::from(over[i]), "env {i}");
        let row = |o: &[f32]| o[i * width..(i + 1) * width].to_vec();
        assert_eq!(row(&b.obs) == row(&obs), !over[i], "env {i}");
    }
    assert!(b.terminated.iter().chain(&b.truncated).all(|&f| !f));
    let acts = core.bot_actions();
    core.step(&acts, b.as_slices()).unwrap();
}

#[test]
fn offset_changes_the_deals() {
    assert_ne!(
        run(1, Learner::SelfPlay, 0),
        run(1, Learner::SelfPlay, 1000)
    );
}

#[test]
fn team_mode_plays_only_the_teams_seats() {
    for side in [0u8, 1] {
        let mut shared = Shared::self_play(GameConfig::new(Variant::Seal, 0), 3);
        shared.learner = Learner::Team(Some(side));
        let mut core = VecCore::new(shared, 6, &["random"; 4], 2).unwrap();
        let mut b = Outputs::<_, u8>::owned(&core.layout(Extras::default()));
        core.reset(None, b.as_slices());
        for _ in 0..200 {
            assert!(
                b.to_play.iter().all(|&p| p as u8 % 2 == side),
                "{:?}",
                b.to_play
            );
            assert_eq!(b.reward.len(), 6);
            let acts = core.bot_actions();
            core.step(&acts, b.as_slices()).unwrap();
        }
    }
}

#[test]
fn resets_continue_the_stream_and_a_seed_replays_it() {
    let shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 9);
    let mut core = VecCore::new(shared, 3, &["random"; 4], 1).unwrap();
    let mut b = Outputs::<_, u8>::owned(&core.layout(Extras::default()));
    let mut seeds = |core: &mut VecCore, seed| {
        core.reset(seed, b.as_slices());
        let s: Vec<u64> = core
            .slots()
            .iter()
            .map(|s| s.state().config().seed)
            .collect();
        s
    };
    let first = seeds(&mut core, None); // a new core's first reset: deal 0
    let next = seeds(&mut core, None);
    assert_ne!(first, next, "a reset without a seed deals new games");
    assert_ne!(next, seeds(&mut core, None));
    assert_eq!(seeds(&mut core, Some(9)), first, "the seed replays deal 0");
    assert_eq!(seeds(&mut core, None), next);
    assert_ne!(seeds(&mut core, Some(10)), first);
    assert!(core.slots().iter().all(|s| s.deal() == 0));
}

#[test]
fn illegal_actions_change_nothing() {
    let shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 1);
    let mut core = VecCore::new(shared, 3, &["random"; 4], 1).unwrap();
    let mut b = Outputs::<_, u8>::owned(&core.layout(Extras::default()));
    core.reset(None, b.as_slices());
    let before = b.obs.clone();
    assert!(matches!(
        core.step(&[0, 0], b.as_slices()),
        Err(StepError::Length {
            expected: 3,
            got: 2
        })
    ));
    let mut acts = core.bot_actions();
    acts[1] = i64::MAX;
    let e = core.step(&acts, b.as_slices()).unwrap_err();
    assert!(
        e.to_string().starts_with("illegal action in env 1: "),
        "{e}"
    );
    assert_eq!(b.obs, before);
    assert!(core.episodes().iter().all(|&e| e == 0));
}

#[test]
fn parallel_check_names_the_first_illegal_env_and_changes_nothing() {
    let shared = Shared::self_play(GameConfig::new(Variant::Seal, 0), 2);
    let mut core = VecCore::new(shared, 100, &["random"; 4], 2).unwrap();
    let extras = Extras {
        state_tensor: true,
        env_ids: false,
        final_obs: false,
    };
    let mut b = Outputs::<_, u8>::owned(&core.layout(extras));
    core.reset(None, b.as_slices());
    let (obs, state) = (b.obs.clone(), b.state.clone());
    let mut acts = core.bot_actions();
    acts[70] = -1;
    acts[33] = 99;
    let e = core.step(&acts, b.as_slices()).unwrap_err();
    assert!(
        e.to_string().starts_with("illegal action in env 33: "),
        "{e}"
    );
    assert_eq!((b.obs == obs, b.state == state), (true, true));
    assert_eq!(core.check_actions(&acts).unwrap_err(), e);
    acts = core.bot_actions();
    core.step(&acts, b.as_slices()).unwrap();
    assert_ne!(
        b.state, state,
        "the state tensors are written with the step"
    );
}

#[test]
fn constructor_errors() {
    let cfg = GameConfig::new(Variant::FourPlayer, 0);
    assert!(matches!(
        VecCore::new(Shared::self_play(cfg, 0), 1, &["random"; 3], 1),
        Err(VecCoreError::Opponents { given: 3, seats: 4 })
    ));
    assert!(matches!(
        VecCore::new(Shared::self_play(cfg, 0), 1, &["nobot"; 4], 1),
        Err(VecCoreError::Bot(_))
    ));
    let mut sh = Shared::self_play(cfg, 0);
    sh.learner = Learner::Seat(Some(4));
    assert!(matches!(
        VecCore::new(sh, 1, &["random"; 4], 1),
        Err(VecCoreError::LearnerSeat { .. })
    ));
    sh.learner = Learner::Team(Some(2));
    assert!(matches!(
        VecCore::new(sh, 1, &["random"; 4], 1),
        Err(VecCoreError::LearnerTeam { .. })
    ));
    let mut sh3 = Shared::self_play(GameConfig::new(Variant::ThreePlayer, 0), 0);
    sh3.learner = Learner::Team(None);
    let e = VecCore::new(sh3, 1, &["random"; 3], 1).err().unwrap();
    assert!(e.to_string().contains("3p has no teams"), "{e}");
}

#[test]
fn every_mask_row_offers_an_action_but_a_disabled_ended_env() {
    // A masked softmax needs one legal action per row. NEXT_STEP's ended envs offer the one
    // their next step ignores; DISABLED's take none until a reset names them, so their row
    // stays empty (docs/vector.md).
    for autoreset in [
        Autoreset::SameStep,
        Autoreset::NextStep,
        Autoreset::Disabled,
    ] {
        for learner in [Learner::SelfPlay, Learner::Seat(None), Learner::Team(None)] {
            let mut shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 6);
            shared.learner = learner;
            shared.autoreset = autoreset;
            let mut core = VecCore::new(shared, 16, &["random"; 4], 2).unwrap();
            let mut b = Outputs::<_, u8>::owned(&core.layout(Extras::default()));
            core.reset(None, b.as_slices());
            let a = b.mask.len() / 16;
            let mut ended = 0;
            for _ in 0..300 {
                let over: Vec<bool> = core.slots().iter().map(Slot::is_over).collect();
                if over.iter().any(|&o| o) && autoreset == Autoreset::Disabled {
                    core.reset_some(&over, b.as_slices());
                }
                let acts = core.bot_actions();
                core.step(&acts, b.as_slices()).unwrap();
                for (i, s) in core.slots().iter().enumerate() {
                    let legal = b.mask[i * a..(i + 1) * a].iter().filter(|&&m| m).count();
                    ended += usize::from(s.is_over());
                    match (autoreset, s.is_over()) {
                        (Autoreset::Disabled, true) => assert_eq!(legal, 0, "env {i}"),
                        (Autoreset::NextStep, true) => {
                            assert!(b.mask[i * a + IGNORED_ACTION] && legal == 1, "env {i}")
                        }
                        _ => assert!(legal >= 1, "{autoreset:?} {learner:?} env {i}"),
                    }
                }
            }
            assert_eq!(ended > 0, autoreset != Autoreset::SameStep, "{autoreset:?}");
        }
    }
}

/// An action outside env 1's mask under `Illegal::Lose(-2)`, in every autoreset mode and
/// learner mode: that env's episode ends as lost (the acting seat rewarded -2, the other
/// seats 0, `terminated`, `illegal` set, the episode counted), its game unchanged; the
/// other envs step as usual.
#[test]
fn an_illegal_action_loses_the_episode_under_lose() {
    let modes = [
        Autoreset::NextStep,
        Autoreset::SameStep,
        Autoreset::Disabled,
    ];
    for (autoreset, learner) in modes.into_iter().flat_map(|a| {
        [
            Learner::SelfPlay,
            Learner::Seat(Some(1)),
            Learner::Team(Some(0)),
        ]
        .map(|l| (a, l))
    }) {
        let mut shared = Shared::self_play(GameConfig::new(Variant::FourPlayer, 0), 3);
        (shared.learner, shared.autoreset) = (learner, autoreset);
        shared.illegal = Illegal::Lose(-2.0);
        let mut core = VecCore::new(shared, 3, &["random"; 4], 1).unwrap();
        let extras = Extras {
            final_obs: true,
            ..Extras::default()
        };
        let layout = core.layout(extras);
        let (d, a) = (
            layout.widths[Output::obs as usize],
            layout.widths[Output::mask as usize],
        );
        let mut b = Outputs::<_, u8>::owned(&layout);
        core.reset(None, b.as_slices());
        let offender = b.to_play[1];
        let obs1 = b.obs[d..2 * d].to_vec();
        let illegal = (0..a as i64).find(|&c| !b.mask[a + c as usize]).unwrap();
        let mut acts = core.bot_actions();
        acts[1] = illegal;
        core.step(&acts, b.as_slices()).unwrap();
        let what = format!("{autoreset:?} {learner:?}");
        assert_eq!(b.illegal, [false, true, false], "{what}");
        assert_eq!((b.terminated[1], b.truncated[1]), (true, false), "{what}");
        assert_eq!(core.episodes(), [0, 1, 0], "{what}");
        let w = b.reward.len() / 3;
        let mut lost = vec![0.0; w];
        lost[if w == 1 { 0 } else { offender as usize }] = -2.0;
        assert_eq!(b.reward[w..2 * w], lost[..], "{what}");
        match autoreset {
            Autoreset::SameStep => {
                assert_eq!(
                    b.final_obs[d..2 * d],
                    obs1[..],
                    "{what}: the offender's last view"
                );
                assert_eq!(core.slots()[1].deal(), 1, "{what}: the next game is dealt");
                assert!(b.mask[a..2 * a].iter().any(|&m| m) && b.to_play[1] >= 0);
            }
            Autoreset::NextStep | Autoreset::Disabled => {
                assert_eq!(b.obs[d..2 * d], obs1[..], "{what}: the game is unchanged");
                assert_eq!(b.to_play[1], -1, "{what}");
                assert_eq!(core.bot_actions()[1], -1, "{what}: no seat decides");
                let offered: Vec<usize> = (0..a).filter(|&c| b.mask[a + c]).collect();
                let expect = if autoreset == Autoreset::NextStep {
                    vec![IGNORED_ACTION]
                } else {
                    vec![]
                };
                assert_eq!(offered, expect, "{what}");
            }
        }
        let mut acts = core.bot_actions();
        acts[1] = 0;
        if autoreset == Autoreset::Disabled {
            assert_eq!(
                core.step(&acts, b.as_slices()),
                Err(StepError::Over { env: 1 })
            );
            continue;
        }
        core.step(&acts, b.as_slices()).unwrap();
        if autoreset == Autoreset::NextStep {
            assert_eq!(
                core.slots()[1].deal(),
                1,
                "{what}: the ignored step deals the next game"
            );
            assert_eq!(b.reward[w..2 * w], vec![0.0; w][..]);
            assert!(!b.terminated[1] && !b.illegal[1] && b.to_play[1] >= 0);
        }
    }
}

/// Under `Illegal::Raise` (the Rust default) there is no `illegal` output, and an illegal
/// action is refused (`illegal_actions_change_nothing`).
#[test]
fn raise_has_no_illegal_output() {
    let shared = Shared::self_play(GameConfig::new(Variant::ThreePlayer, 0), 1);
    assert_eq!(shared.illegal, Illegal::Raise);
    let core = VecCore::new(shared, 2, &["random"; 3], 1).unwrap();
    assert_eq!(
        core.layout(Extras::default()).widths[Output::illegal as usize],
        0
    );
}

/// Each side's margin of a round computed here from its seats' points, independently of
/// `reward::round_margins`: the side's points minus the average of the other sides'.
fn margins_of(v: Variant, res: &yokai_septet::RoundResult) -> Vec<f32> {
    let side_points = |s: usize| {
        let seat = (0..v.num_players()).find(|&p| v.side_of(p) == s).unwrap();
        f32::from(res.points[seat])
    };
    let n = v.num_sides();
    (0..n)
        .map(|s| {
            let others: f32 = (0..n).filter(|&o| o != s).map(side_points).sum();
            side_points(s) - others / (n - 1) as f32
        })
        .collect()
}

#[test]
fn r8_round_end_flags_the_steps_that_end_a_round_with_each_sides_margin() {
    // Self-play: each step is one move, so a copy of each env's game stepped with the
    // same card says exactly which steps end a round, and with what points.
    for v in Variant::ALL {
        let mut shared = Shared::self_play(GameConfig::new(v, 0).with_max_rounds(Some(4)), 21);
        shared.autoreset = Autoreset::SameStep;
        let mut core = VecCore::new(shared, 12, &["random"; 4][..v.num_players()], 2).unwrap();
        let mut b = Outputs::<_, f32>::owned(&core.layout(Extras::default()));
        core.reset(None, b.as_slices());
        let (mut ends, sides) = (0, v.num_sides());
        for _ in 0..400 {
            let acts = core.bot_actions();
            let mut copies: Vec<State> = (0..12).map(|i| *core.slot(i).unwrap().state()).collect();
            let outcomes: Vec<_> = copies
                .iter_mut()
                .zip(&acts)
                .map(|(s, &a)| s.apply(Card::new(a as u8).unwrap()).unwrap())
                .collect();
            core.step(&acts, b.as_slices()).unwrap();
            for (i, o) in outcomes.iter().enumerate() {
                let row = &b.round_margin[i * sides..(i + 1) * sides];
                assert_eq!(b.round_end[i], o.round.is_some(), "{v} env {i}");
                match &o.round {
                    Some(res) => {
                        ends += 1;
                        assert_eq!(row, margins_of(v, res).as_slice(), "{v} env {i}");
                        assert!(row.iter().sum::<f32>().abs() < 1e-4, "zero-sum: {row:?}");
                    }
                    None => assert!(row.iter().all(|&m| m == 0.0), "{v} env {i}: {row:?}"),
                }
            }
        }
        assert!(ends >= 24, "{v}: only {ends} rounds ended");
    }
}

#[test]
fn r8_round_margin_is_the_points_reward_of_the_learners_side_in_learner_modes() {
    // With bots moving between the learner's decisions, a round can end on their moves:
    // the step still flags it, and the learner's points reward is its side's margin.
    for v in Variant::ALL {
        for learner in [Learner::Seat(Some(1)), Learner::Team(Some(0))] {
            if matches!(learner, Learner::Team(_)) && !v.has_teams() {
                continue;
            }
            let mut shared = Shared::self_play(GameConfig::new(v, 0), 5);
            shared.learner = learner;
            shared.reward = crate::reward::RewardMode::Points;
            let n = v.num_players();
            let mut core = VecCore::new(shared, 8, &["random"; 4][..n], 1).unwrap();
            let mut b = Outputs::<_, f32>::owned(&core.layout(Extras::default()));
            core.reset(None, b.as_slices());
            let side = v.side_of(1 - usize::from(matches!(learner, Learner::Team(_))));
            let mut ends = 0;
            for _ in 0..300 {
                let acts = core.bot_actions();
                core.step(&acts, b.as_slices()).unwrap();
                for i in 0..8 {
                    let row = &b.round_margin[i * v.num_sides()..(i + 1) * v.num_sides()];
                    if b.round_end[i] {
                        ends += 1;
                        assert_eq!(b.reward[i], row[side], "{v} {learner:?} env {i}");
                    } else {
                        assert_eq!(b.reward[i], 0.0, "{v} {learner:?} env {i}");
                        assert!(row.iter().all(|&m| m == 0.0));
                    }
                }
            }
            assert!(ends >= 16, "{v} {learner:?}: only {ends} rounds ended");
        }
    }
}
