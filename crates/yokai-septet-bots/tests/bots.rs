//! Bots play only legal cards, are reproducible, and the heuristic beats random play.
//! (Strength measurements with many games belong to `examples/arena.rs`, not here.)

use yokai_septet::rng::test_rng;
use yokai_septet_bots::arena::run_arena;
use yokai_septet_bots::arena::ArenaConfig;
use yokai_septet_bots::{bot_by_name, BotRegistry};
#[cfg(feature = "models")]
use yokai_septet_testkit as common;

use yokai_septet::{Card, GameConfig, Scoring, State, Variant};

/// Random positions of `variant`: every decision point of random games.
fn positions(variant: Variant, games: u64, scoring: Scoring) -> Vec<State> {
    let mut rng = test_rng(variant as u64);
    let mut out = Vec::new();
    for seed in 0..games {
        let cfg = GameConfig::new(variant, seed)
            .with_scoring(scoring)
            .with_max_rounds(Some(3));
        let mut s = State::new(cfg);
        while !s.is_over() {
            out.push(s);
            s.apply(s.legal_actions().uniform(&mut rng).unwrap())
                .unwrap();
        }
    }
    out
}

/// Whether this build has the bot `name`: the names that play a shipped model (`nn`,
/// `ismcts-nn` with no model file) need the feature `models` (on with `cli`, as in CI); a
/// bare `cargo test` checks the other bots.
fn built_here(name: &str) -> bool {
    cfg!(feature = "models")
        || !(name == "nn" || name.starts_with("ismcts-nn") || name.contains("-inf"))
}

fn assert_legal(name: &str, states: &[State], every: usize) {
    if !built_here(name) {
        return;
    }
    let mut bot = bot_by_name(name, 5, states[0].config().variant).unwrap();
    for s in states.iter().step_by(every) {
        let p = s.current_player().unwrap();
        let card: Card = bot.act(&s.view(p)).unwrap();
        assert!(
            s.legal_actions().contains(card),
            "{name} played {card} at {:?} phase, legal {:?}",
            s.phase(),
            s.legal_actions()
        );
    }
}

#[test]
fn bots_play_legal_cards_in_every_variant() {
    for v in Variant::ALL {
        for scoring in Scoring::ALL {
            let states = positions(v, 12, scoring);
            assert!(states.len() > 1000, "{v}: {}", states.len());
            assert_legal("random", &states, 1);
            assert_legal("heuristic", &states, 1);
            assert_legal("pimc:6", &states, 15);
            assert_legal("pimc:6/12", &states, 15);
            assert_legal("pimc-random", &states, 120);
            assert_legal("pimc-dd:2", &states, 60);
            assert_legal("epimc:2", &states, 60);
            assert_legal("ismcts:40", &states, 60);
            assert_legal("ismcts-nn:40", &states, 60);
        }
    }
}

#[test]
fn bots_are_reproducible_from_their_seed() {
    let states = positions(Variant::Seal, 3, Scoring::Advanced);
    // pimc-dd keeps its solver's table between decisions: the table only speeds later
    // solves up, so a reseeded bot with a warm table still plays the same cards.
    for name in [
        "random",
        "pimc:12",
        "pimc-dd:3",
        "epimc:3",
        "ismcts:30",
        "ismcts-nn:30",
    ]
    .into_iter()
    .filter(|name| built_here(name))
    {
        let play = |seed| {
            let mut bot = bot_by_name(name, seed, Variant::Seal).unwrap();
            states
                .iter()
                .step_by(7)
                .map(|s| bot.act(&s.view(s.current_player().unwrap())).unwrap())
                .collect::<Vec<_>>()
        };
        assert_eq!(play(1), play(1), "{name}");
        let mut bot = bot_by_name(name, 1, Variant::Seal).unwrap();
        let first: Vec<Card> = states
            .iter()
            .step_by(7)
            .map(|s| bot.act(&s.view(s.current_player().unwrap())).unwrap())
            .collect();
        bot.reseed(1);
        let again: Vec<Card> = states
            .iter()
            .step_by(7)
            .map(|s| bot.act(&s.view(s.current_player().unwrap())).unwrap())
            .collect();
        assert_eq!(first, again, "{name} after reseed");
    }
}

/// Deterministic (fixed seeds), and the margins are far from the measured rates
/// (4p 97%, 3p 84% for one heuristic against two random players, seal 99%, seal-short 95%).
#[test]
fn heuristic_beats_random_in_every_variant() {
    for (v, games, min_rate) in [
        (Variant::FourPlayer, 40, 0.75),
        (Variant::ThreePlayer, 45, 0.5),
        (Variant::Seal, 20, 0.75),
        (Variant::SealShort, 40, 0.75),
    ] {
        let mut c = ArenaConfig::new(v, &["heuristic", "random"], games, 2024);
        c.threads = 2;
        let r = run_arena(&c, &BotRegistry::new(), &|| {}).unwrap();
        let rate = r.summary.entries[0].win_rate;
        assert!(rate >= min_rate, "{v}: heuristic won {rate}\n{r}");
    }
}

/// `evaluate` reports the values the bots decide by: with one seed, `pimc-dd`'s card (in
/// the solver's last tricks) has the best mean exact value, and `ismcts`'s card was tried.
#[test]
fn search_bots_evaluate_what_they_play() {
    use yokai_septet_bots::Bot;
    use yokai_septet_bots::{IsmctsBot, IsmctsConfig, PimcDdBot, PimcDdConfig};
    let states = positions(Variant::FourPlayer, 4, Scoring::Advanced);
    let late: Vec<&State> = states
        .iter()
        .filter(|s| s.phase() == yokai_septet::Phase::Play && s.legal_actions().len() > 1)
        .filter(|s| 12 - s.tricks_played() <= 5)
        .step_by(5)
        .collect();
    assert!(late.len() >= 5, "{}", late.len());
    for s in late {
        let view = s.view(s.current_player().unwrap());
        let config = PimcDdConfig {
            worlds: 4,
            ..PimcDdConfig::default()
        };
        // `epimc` scores only the cards that could still beat the best so far: its card
        // is a best one of all of them.
        for config in [config, config.delayed()] {
            let card = PimcDdBot::new(config, 3).act(&view).unwrap();
            let eval = PimcDdBot::new(config, 3).search_values(&view).unwrap();
            assert!(eval.exact && eval.worlds == 4);
            assert_eq!(eval.values.len() as u32, s.legal_actions().len());
            let best = eval.values.iter().map(|v| v.1).fold(f64::MIN, f64::max);
            let mine = eval.values.iter().find(|v| v.0 == card).unwrap().1;
            assert_eq!(mine, best, "{card} is not a best card: {:?}", eval.values);
        }

        let config = IsmctsConfig {
            iterations: 64,
            ..IsmctsConfig::default()
        };
        let card = IsmctsBot::new(config, 3).act(&view).unwrap();
        let eval = IsmctsBot::new(config, 3).search_values(&view).unwrap();
        assert_eq!(eval.worlds, 64);
        let mine = eval.values.iter().find(|v| v.0 == card).unwrap().1;
        assert!(mine.is_finite(), "{card}: {:?}", eval.values);
        // A tree search plays its most visited card, which its visits report; through the
        // `Bot` trait too (the imitation data's teacher labels and visit targets).
        let visits = eval
            .visits
            .as_ref()
            .expect("a tree search reports its visits");
        assert_eq!(visits.len(), eval.values.len());
        assert_eq!(visits.iter().sum::<u32>(), 64);
        for (&(c, v), &n) in eval.values.iter().zip(visits) {
            assert_eq!(n == 0, v.is_nan(), "{c}: {n} visits, value {v}");
        }
        assert_eq!(eval.best_card(), Some(card));
        let shares = eval.visit_shares().unwrap();
        assert!((shares.iter().map(|s| s.1).sum::<f64>() - 1.0).abs() < 1e-9);
        let mut as_bot: Box<dyn Bot> = Box::new(IsmctsBot::new(config, 3));
        assert_eq!(as_bot.search_values(&view), Some(eval));
    }
}

/// `pimc` passes as the heuristic does unless its name gives passes a budget
/// (`pimc:N/P`); then it scores every card of the hand on P / hand-size worlds and passes
/// a best one.
#[test]
fn pimc_searches_passing_picks_only_with_a_pass_budget() {
    let passes: Vec<State> = Variant::ALL
        .into_iter()
        .flat_map(|v| positions(v, 2, Scoring::Advanced))
        .filter(|s| s.phase() == yokai_septet::Phase::Pass)
        .step_by(7)
        .collect();
    assert!(passes.len() >= 10, "{}", passes.len());
    for s in passes {
        let view = s.view(s.current_player().unwrap());
        let hand = s.legal_actions().len();
        let heuristic = bot_by_name("heuristic", 0, s.config().variant)
            .unwrap()
            .act(&view)
            .unwrap();
        let mut plain = bot_by_name("pimc:50", 3, s.config().variant).unwrap();
        assert!(plain.search_values(&view).is_none());
        assert_eq!(plain.act(&view).unwrap(), heuristic);

        let eval = bot_by_name("pimc:50/60", 3, s.config().variant)
            .unwrap()
            .search_values(&view)
            .expect("a pass budget searches passes");
        assert_eq!(eval.values.len() as u32, hand);
        assert_eq!(eval.worlds, (60 / hand).max(1));
        let card = bot_by_name("pimc:50/60", 3, s.config().variant)
            .unwrap()
            .act(&view)
            .unwrap();
        let best = eval.values.iter().map(|v| v.1).fold(f64::MIN, f64::max);
        let mine = eval.values.iter().find(|v| v.0 == card).unwrap().1;
        assert_eq!(mine, best, "{card} is not a best pick: {:?}", eval.values);
    }
}

/// `pimc-dd` hands over to the solver where a world fits its node budget: never at a
/// round's first trick (a whole round is far over it today), always in the last two
/// tricks; and a fixed hand-over (`exact_tricks`) still rules where it is set.
#[test]
fn pimc_dd_solves_where_a_world_fits_its_node_budget() {
    use yokai_septet_bots::{PimcDdBot, PimcDdConfig};
    let states = positions(Variant::FourPlayer, 3, Scoring::Advanced);
    let choices: Vec<&State> = states
        .iter()
        .filter(|s| s.phase() == yokai_septet::Phase::Play && s.legal_actions().len() > 1)
        .collect();
    let config = PimcDdConfig {
        worlds: 2,
        ..PimcDdConfig::default()
    };
    let (mut first, mut last) = (0, 0);
    for s in &choices {
        let view = s.view(s.current_player().unwrap());
        let eval = PimcDdBot::new(config, 5).search_values(&view).unwrap();
        let left = 12 - s.tricks_played();
        if s.tricks_played() == 0 {
            assert!(
                !eval.exact,
                "a whole round within {} nodes",
                config.world_nodes
            );
            first += 1;
        } else if left <= 2 {
            assert!(eval.exact, "{left} tricks left: not solved");
            last += 1;
        }
        if left >= 6 {
            let fixed = PimcDdConfig {
                exact_tricks: Some(1),
                ..config
            };
            assert!(!PimcDdBot::new(fixed, 5).search_values(&view).unwrap().exact);
        }
    }
    assert!(first >= 3 && last >= 3, "{first} {last}");
    // A decision's solves stop at 4 x worlds x the per-world budget of nodes, within a
    // world too, on the worlds solved so far; where not even one world fits, the
    // decision is `pimc`'s.
    let s = choices
        .iter()
        .find(|s| 12 - s.tricks_played() == 3)
        .expect("a position three tricks from the end");
    let view = s.view(s.current_player().unwrap());
    let capped = |world_nodes| PimcDdConfig {
        worlds: 8,
        exact_tricks: Some(3),
        world_nodes,
        ..config
    };
    let eval = |world_nodes| {
        PimcDdBot::new(capped(world_nodes), 5)
            .search_values(&view)
            .unwrap()
    };
    assert!(!eval(1).exact, "a world within 32 nodes");
    let some: Vec<u32> = [10, 30, 100, 300, 1000, 3000]
        .into_iter()
        .map(eval)
        .filter(|e| e.exact)
        .map(|e| e.worlds)
        .collect();
    assert!(some.iter().any(|&w| (1..8).contains(&w)), "{some:?}");
    assert_eq!(eval(1 << 30).worlds, 8);
}

/// Two registries in one process, each with its own maker for the same name: each builds
/// its own bot, and neither sees the other's (there is no global registry).
#[test]
fn registries_are_values_with_makers_of_their_own() {
    use std::sync::Arc;
    use yokai_septet_bots::{Bot, BotError, HeuristicBot, RandomBot};
    let maker = |as_random: bool| -> yokai_septet_bots::BotMaker {
        Arc::new(move |name: &str, seed: u64| {
            (name == "mine").then(|| -> Result<Box<dyn Bot>, BotError> {
                Ok(if as_random {
                    Box::new(RandomBot::new(seed))
                } else {
                    Box::new(HeuristicBot::new(seed))
                })
            })
        })
    };
    let (mut a, mut b) = (BotRegistry::new(), BotRegistry::new());
    a.register(maker(true));
    b.register(maker(false));
    let v = Variant::FourPlayer;
    assert_eq!(a.build("mine", 0, v).unwrap().name(), "random");
    assert_eq!(b.build("mine", 0, v).unwrap().name(), "heuristic");
    assert!(matches!(
        BotRegistry::new().build("mine", 0, v).err(),
        Some(BotError::Unknown(_))
    ));
    // A built-in name stays the built-in bot whatever the makers know.
    assert_eq!(a.build("pimc:4", 0, v).unwrap().name(), "pimc:4");
}

/// A bot restored from a snapshot (same name and seed) decides exactly as the original
/// from there on, and a snapshot of the wrong shape is refused.
#[test]
fn a_restored_bot_continues_as_the_original() {
    let states = positions(Variant::FourPlayer, 2, Scoring::Advanced);
    for name in [
        "random",
        "heuristic",
        "nn",
        "pimc:8",
        "pimc:8/16",
        "pimc-dd:2",
        "epimc:2",
        "ismcts:20",
        "ismcts-nn:20",
        "pimc-inf:8",
        "pimc-dd-inf:2",
        "ismcts-inf:20",
    ]
    .into_iter()
    .filter(|name| built_here(name))
    {
        let v = Variant::FourPlayer;
        let mut bot = bot_by_name(name, 9, v).unwrap();
        let act = |bot: &mut Box<dyn yokai_septet_bots::Bot>, s: &State| {
            bot.act(&s.view(s.current_player().unwrap())).unwrap()
        };
        for s in states.iter().step_by(11).take(5) {
            act(&mut bot, s);
        }
        let words = bot.snapshot().expect("a built-in bot can be saved");
        let mut copy = bot_by_name(name, 9, v).unwrap();
        copy.restore(&words).unwrap();
        for s in states.iter().skip(3).step_by(7).take(12) {
            assert_eq!(act(&mut bot, s), act(&mut copy, s), "{name}");
        }
        let mut wrong = words.clone();
        wrong.push(0);
        assert!(copy.restore(&wrong).is_err(), "{name}");
    }
}

/// A model file for another variant is refused when the bot is built, naming both.
#[test]
fn a_bot_is_refused_at_build_for_a_variant_it_cannot_play() {
    use yokai_septet_bots::{BotError, Mlp};
    let path = std::env::temp_dir().join(format!("ys-bots-3p-{}.safetensors", std::process::id()));
    let widths = [
        yokai_septet::observation::observation_size(Variant::ThreePlayer),
        Variant::ThreePlayer.num_actions(),
    ];
    let layers = vec![(vec![0.0; widths[0] * widths[1]], vec![0.0; widths[1]])];
    std::fs::write(
        &path,
        Mlp::new(Variant::ThreePlayer, layers).unwrap().to_bytes(),
    )
    .unwrap();
    let registry = BotRegistry::new();
    let file = path.display();
    for name in [
        format!("nn:{file}"),
        format!("ismcts-nn:{file}"),
        format!("ismcts-nn:30:{file}"),
    ] {
        assert!(registry.build(&name, 0, Variant::ThreePlayer).is_ok());
        let e = registry.build(&name, 0, Variant::FourPlayer).err().unwrap();
        assert!(matches!(e, BotError::Unsupported { .. }), "{e:?}");
        assert_eq!(
            e.to_string(),
            format!("bot '{name}' cannot play 4p: its weights are for 3p")
        );
        // Built for any variant, the bot refuses in `act`, with the same typed error.
        let mut any = registry.build_any_variant(&name, 0).unwrap();
        let s = State::new(GameConfig::new(Variant::FourPlayer, 1));
        for _ in 0..2 {
            // Passing, then playing: refused in either phase, and never a panic.
            let view = s.view(s.current_player().unwrap());
            let e = any.act(&view).unwrap_err();
            assert!(matches!(e, BotError::Unsupported { .. }), "{name}: {e:?}");
            assert!(any.search_values(&view).is_none(), "{name}");
        }
    }
    std::fs::remove_file(path).ok();
}

/// `ismcts-nn` names: a budget, a model file, or both (the path is the rest of the name,
/// colons and all); the name it reports builds the same bot; bad names are refused with
/// a clear error.
#[test]
// It plays the shipped models (`nn`, `ismcts-nn`): the feature `models`, on with `cli`.
#[cfg(feature = "models")]
fn guided_search_names_round_trip_and_bad_ones_are_refused() {
    use yokai_septet_bots::{BotError, BotSpecError};
    let v = Variant::FourPlayer;
    let dir = std::env::temp_dir().join(format!("ys-guided-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a:b.safetensors");
    std::fs::write(&path, yokai_septet_bots::Mlp::shipped(v).to_bytes()).unwrap();
    let file = path.display().to_string();
    let registry = BotRegistry::new();
    for (spec, name) in [
        ("ismcts-nn:30", "ismcts-nn:30".to_string()),
        ("ismcts-nn:9ms", "ismcts-nn:9ms".to_string()),
        (
            &format!("ismcts-nn:30:{file}"),
            format!("ismcts-nn:30:{file}"),
        ),
        (
            &format!("ismcts-nn:9ms:{file}"),
            format!("ismcts-nn:9ms:{file}"),
        ),
    ] {
        let bot = registry
            .build(spec, 0, v)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(bot.name(), name);
        assert_eq!(registry.build(&name, 0, v).unwrap().name(), name);
    }
    // The default budget and the shipped model; a path alone takes the default budget.
    let default = registry.build("ismcts-nn", 0, v).unwrap().name();
    let budget = default.strip_prefix("ismcts-nn:").unwrap();
    assert!(budget.parse::<u32>().is_ok(), "{default}");
    assert_eq!(
        registry
            .build(&format!("ismcts-nn:{file}"), 0, v)
            .unwrap()
            .name(),
        format!("ismcts-nn:{budget}:{file}")
    );
    let zero = |budget: &str| BotSpecError::ZeroBudget {
        budget: budget.into(),
    };
    for (bad, want) in [
        ("ismcts-nn:", BotSpecError::MissingBudget),
        ("ismcts-nn:0", zero("0")),
        ("ismcts-nn:0ms", zero("0ms")),
        (
            "ismcts-nn:5:",
            BotSpecError::MissingModel { head: "ismcts-nn" },
        ),
        ("ismcts-nn:0:x", zero("0")),
    ] {
        let e = registry.build(bad, 0, v).err().unwrap();
        assert!(
            matches!(&e, BotError::Spec { error, .. } if *error == want),
            "{bad}: {e:?}"
        );
        assert!(e.to_string().contains(&format!("'{bad}'")), "{e}");
    }
    for bad in [
        "ismcts-nn:/no/such.safetensors",
        "ismcts-nn:12:/no/such.safetensors",
    ] {
        let e = registry.build(bad, 0, v).err().unwrap();
        assert!(matches!(e, BotError::Weights { .. }), "{bad}: {e:?}");
        assert!(
            e.to_string()
                .starts_with(&format!("bot '{bad}': cannot read '/no/such.safetensors'")),
            "{e}"
        );
    }
    std::fs::remove_dir_all(dir).ok();
}

/// `ismcts-nn` with a count budget plays the same cards at any thread count of the arena
/// (each game's bots are seeded from the game, not from the thread).
#[test]
// It plays the shipped models (`nn`, `ismcts-nn`): the feature `models`, on with `cli`.
#[cfg(feature = "models")]
fn guided_search_games_do_not_depend_on_the_thread_count() {
    let run = |threads| {
        let mut c = ArenaConfig::new(Variant::FourPlayer, &["ismcts-nn:30", "ismcts:30"], 4, 7);
        c.threads = threads;
        c.max_rounds = Some(1);
        let r = run_arena(&c, &BotRegistry::new(), &|| {}).unwrap();
        r.summary
            .entries
            .iter()
            .map(|e| (e.win_rate.to_bits(), e.points_per_game.to_bits()))
            .collect::<Vec<_>>()
    };
    assert_eq!(run(1), run(2));
}

/// A strength sanity check, deterministic (fixed seeds): guided search beats random play
/// by a wide margin (it wins nearly every game; the bound is far below that).
#[test]
// It plays the shipped models (`nn`, `ismcts-nn`): the feature `models`, on with `cli`.
#[cfg(feature = "models")]
fn guided_search_beats_random() {
    let mut c = ArenaConfig::new(Variant::FourPlayer, &["ismcts-nn:100", "random"], 8, 2024);
    c.threads = 2;
    c.max_rounds = Some(2);
    let r = run_arena(&c, &BotRegistry::new(), &|| {}).unwrap();
    let rate = r.summary.entries[0].win_rate;
    assert!(rate >= 0.75, "ismcts-nn won {rate}\n{r}");
}

/// The `-inf` bots (worlds drawn from the belief model), in every variant: each name is
/// the spec it was built from; with a count budget the same seed plays the same cards;
/// they play legal cards. A belief model of another variant is refused in `act` (a typed
/// error, never a panic).
#[test]
#[cfg(feature = "models")]
fn inference_bots_round_trip_their_names_and_replay_their_games() {
    use std::sync::Arc;
    use yokai_septet_bots::{BeliefNet, BeliefSource, BotError, BotRegistry, BotSpecError};
    for v in Variant::ALL {
        let states = positions(v, 2, Scoring::Advanced);
        for name in [
            "pimc-inf:12",
            "pimc-dd-inf:3",
            "epimc-inf:3",
            "ismcts-inf:30",
            "ismcts-inf:9ms",
        ] {
            let bot = bot_by_name(name, 1, v).unwrap_or_else(|e| panic!("{v} {name}: {e}"));
            assert_eq!(bot.name(), name);
            if name.ends_with("ms") {
                continue;
            }
            assert_legal(name, &states, 23);
            let play = |seed| {
                let mut bot = bot_by_name(name, seed, v).unwrap();
                states
                    .iter()
                    .step_by(9)
                    .map(|s| bot.act(&s.view(s.current_player().unwrap())).unwrap())
                    .collect::<Vec<_>>()
            };
            assert_eq!(play(1), play(1), "{v} {name}");
        }
        for name in ["pimc-inf", "pimc-dd-inf", "epimc-inf", "ismcts-inf"] {
            let uniform = bot_by_name(&name.replace("-inf", ""), 0, v).unwrap().name();
            let bot = bot_by_name(name, 0, v).unwrap();
            assert_eq!(bot.name(), uniform.replacen(':', "-inf:", 1), "{name}");
        }
    }
    let spec_error = |e: &BotError| match e {
        BotError::Spec { error, .. } => Some(error.clone()),
        _ => None,
    };
    for (bad, want) in [
        (
            "heuristic-inf",
            Some(BotSpecError::NoInference { head: "heuristic" }),
        ),
        (
            "random-inf",
            Some(BotSpecError::NoInference { head: "random" }),
        ),
        ("nn-inf", Some(BotSpecError::NoInference { head: "nn" })),
        (
            "pimc-inf:0",
            Some(BotSpecError::ZeroBudget { budget: "0".into() }),
        ),
        ("pimc-inf:", Some(BotSpecError::MissingBudget)),
        // no family's head: an unknown bot
        ("-inf", None),
        ("pimc-inf-inf", None),
    ] {
        let e = bot_by_name(bad, 0, Variant::FourPlayer).err().unwrap();
        assert_eq!(spec_error(&e), want, "{bad}: {e:?}");
        assert!(
            want.is_some() || matches!(e, BotError::Unknown(_)),
            "{bad}: {e:?}"
        );
        assert!(e.to_string().contains(&format!("'{bad}'")), "{e}");
    }
    let net = BeliefNet::shipped(Variant::FourPlayer).unwrap().clone();
    let registry = BotRegistry::new().with_belief(BeliefSource::Model(Arc::new(net)));
    let mut bot = registry.build_any_variant("pimc-inf", 0).unwrap();
    let mut s = State::new(GameConfig::new(Variant::ThreePlayer, 1));
    while s.phase() == yokai_septet::Phase::Pass {
        let p = s.current_player().unwrap();
        let c = yokai_septet_bots::HeuristicBot::choose(&s.view(p));
        s.apply(c).unwrap();
    }
    let e = bot.act(&s.view(s.current_player().unwrap())).unwrap_err();
    assert!(matches!(e, BotError::Unsupported { .. }), "{e:?}");
    assert!(
        e.to_string().contains("its belief model is for 4p, not 3p"),
        "{e}"
    );
}

/// The worlds drawn from each variant's shipped belief model, which reads the play log,
/// keep everything the seat knows: its hand, the other hand sizes, the voids, the cards
/// known to be in a hand, the cards seen, and the play log itself (a world's log and its
/// encoding are the real game's); the belief of every unseen card sums to 1 over the
/// seats that may hold it. Random positions of random games.
#[test]
#[cfg(feature = "models")]
fn shipped_belief_worlds_respect_every_constraint_in_every_variant() {
    use yokai_septet::belief::BeliefSampler;
    use yokai_septet::play_log::{encode_play_log, play_log_size};
    use yokai_septet_bots::{BeliefNet, BeliefScratch};
    let mut rng = test_rng(47);
    let mut sampler = BeliefSampler::new();
    for v in Variant::ALL {
        let net = BeliefNet::shipped(v).unwrap_or_else(|| panic!("{v} has a belief model"));
        let mut scratch = BeliefScratch::default();
        let mut checked = 0;
        for s in positions(v, 6, Scoring::Advanced)
            .into_iter()
            .filter(|s| s.phase() == yokai_septet::Phase::Play)
            .step_by(5)
        {
            let seat = s.current_player().unwrap();
            let view = s.view(seat);
            let belief = net.belief(&view, &mut scratch);
            for c in view.unknown_cards() {
                let sum: f32 = (0..4).map(|p| belief.weight(c, p)).sum();
                assert!((sum - 1.0).abs() < 1e-5, "{v} {c}: {sum}");
            }
            let mut log = vec![0u8; play_log_size(v)];
            encode_play_log(&view, &mut log);
            sampler.prepare(&view, &belief);
            for _ in 0..5 {
                let world = sampler.sample(&view, &mut rng);
                common::assert_world_keeps_what_the_seat_knows(&s, seat, &world);
                let seen = world.view(seat);
                let mut again = vec![0u8; play_log_size(v)];
                encode_play_log(&seen, &mut again);
                assert_eq!(again, log, "{v}");
                checked += 1;
            }
        }
        assert!(checked > 200, "{v}: {checked}");
    }
}

/// `pimc` scoring uniform worlds weighted by the belief (`PimcBot::weigh_uniform_worlds`,
/// the second sampling scheme): it is named as the uniform bot whose worlds it draws (no
/// registry name says weighing: its maker names the measurement), plays legal cards, replays
/// with a count budget; its worlds are the uniform bot's (the same seed draws the same
/// ones), so with a belief model that says nothing (every logit 0) its values are the
/// uniform bot's, and with the shipped model they are reweighted.
#[test]
#[cfg(feature = "models")]
fn pimc_weighing_uniform_worlds_by_the_belief_reweights_the_uniform_bots_worlds() {
    use std::sync::Arc;
    use yokai_septet_bots::{BeliefNet, BeliefSource, Bot, Budget, Inputs, PimcBot, PimcConfig};
    let v = Variant::FourPlayer;
    let config = PimcConfig::default().with_budget(Budget::Count(40));
    let silent = {
        let (inputs, outputs) = (Inputs::ObservationAndPlayLog.size(v), v.num_actions() * 3);
        let layer = (vec![0.0; inputs * outputs], vec![0.0; outputs]);
        BeliefNet::new(v, vec![layer]).unwrap()
    };
    let weighing = |source: BeliefSource, seed| {
        let mut bot = PimcBot::new(config, seed);
        bot.weigh_uniform_worlds(source);
        bot
    };
    let states: Vec<State> = positions(v, 2, Scoring::Advanced)
        .into_iter()
        .filter(|s| s.phase() == yokai_septet::Phase::Play && s.legal_actions().len() > 1)
        .step_by(4)
        .collect();
    assert!(states.len() > 20, "{}", states.len());
    assert_eq!(weighing(BeliefSource::Shipped, 0).name(), "pimc:40");
    let (mut reweighted, mut plays) = (0, Vec::new());
    let mut player = weighing(BeliefSource::Shipped, 9);
    for s in &states {
        let view = s.view(s.current_player().unwrap());
        let uniform = PimcBot::new(config, 3).search_values(&view).unwrap();
        let flat = weighing(BeliefSource::Model(Arc::new(silent.clone())), 3)
            .search_values(&view)
            .unwrap();
        let shipped = weighing(BeliefSource::Shipped, 3)
            .search_values(&view)
            .unwrap();
        assert_eq!(flat.worlds, uniform.worlds);
        for ((a, x), (b, y)) in uniform.values.iter().zip(&flat.values) {
            assert_eq!(a, b);
            assert!((x - y).abs() < 1e-5, "{a}: {x} vs {y}");
        }
        if shipped
            .values
            .iter()
            .zip(&uniform.values)
            .any(|((_, x), (_, y))| (x - y).abs() > 1e-4)
        {
            reweighted += 1;
        }
        let card = player.act(&view).unwrap();
        assert!(s.legal_actions().contains(card));
        plays.push(card);
    }
    assert!(
        reweighted * 2 > states.len(),
        "{reweighted} of {}",
        states.len()
    );
    let mut replay = weighing(BeliefSource::Shipped, 9);
    let again: Vec<Card> = states
        .iter()
        .map(|s| replay.act(&s.view(s.current_player().unwrap())).unwrap())
        .collect();
    assert_eq!(plays, again);
}
