//! The search bots' passing picks (`src/bots/passing.rs`): the pass suffix of every
//! search family (`/P` searched, `/nn` learned), its round trip and refusals, the
//! learned picks against the model itself, reproducibility, and whole games.
// Learned picks and the `-inf` bots play the shipped models: the feature `models`, on
// with `cli` as in CI.
#![cfg(feature = "models")]

use yokai_septet_testkit as common;

use yokai_septet::{Card, GameConfig, Phase, State, Variant};
use yokai_septet_bots::arena::{run_arena, ArenaConfig};
use yokai_septet_bots::{
    bot_by_name, Bot, BotError, BotRegistry, BotSpecError, Mlp, Scratch, BOT_FAMILIES,
};

/// The families whose budgets take a pass suffix: every search bot.
const SEARCH_HEADS: [&str; 9] = [
    "pimc",
    "pimc-dd",
    "epimc",
    "ismcts",
    "ismcts-nn",
    "pimc-inf",
    "pimc-dd-inf",
    "epimc-inf",
    "ismcts-inf",
];

/// Positions of `v` where a seat picks a card to pass (random games, random steps).
fn pass_positions(v: Variant, count: usize) -> Vec<State> {
    common::positions(v, count, 47)
        .into_iter()
        .filter(|s| s.phase() == Phase::Pass && s.current_player().is_some())
        .collect()
}

/// Positions of `v` where a seat has a decision (passing or playing).
fn decisions(v: Variant, count: usize) -> Vec<State> {
    common::positions(v, count, 48)
        .into_iter()
        .filter(|s| s.current_player().is_some())
        .collect()
}

fn act(bot: &mut Box<dyn Bot>, s: &State) -> Card {
    bot.act(&s.view(s.current_player().unwrap())).unwrap()
}

/// Every search family takes each pass source after a count or a time budget, and the
/// name the bot reports is the spec it was built from (and builds the same name again).
#[test]
fn every_search_family_takes_every_pass_source_and_its_name_round_trips() {
    let v = Variant::FourPlayer;
    for head in SEARCH_HEADS {
        // A family's head, or one with the `-inf` modifier.
        let family = head.strip_suffix("-inf").unwrap_or(head);
        assert!(BOT_FAMILIES.iter().any(|f| f.head == family), "{head}");
        for budget in ["3", "5ms"] {
            for pass in ["/40", "/nn"] {
                let spec = format!("{head}:{budget}{pass}");
                let bot = bot_by_name(&spec, 0, v).unwrap_or_else(|e| panic!("{spec}: {e}"));
                assert_eq!(bot.name(), spec);
                assert_eq!(bot_by_name(&spec, 1, v).unwrap().name(), spec);
            }
        }
        // The default names keep the heuristic's picks: no suffix.
        let plain = bot_by_name(&format!("{head}:3"), 0, v).unwrap().name();
        assert_eq!(plain, format!("{head}:3"));
    }
}

/// `ismcts-nn`'s model path may hold `/`: the pass suffix ends the budget, before the path;
/// a first part that is not `DIGITS[ms]/…` is a path, slashes and all.
#[test]
fn a_pass_suffix_comes_before_an_ismcts_nn_model_path() {
    let v = Variant::FourPlayer;
    let dir = std::env::temp_dir().join(format!("ys-passing-{}/12/nn", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("a:b.safetensors");
    std::fs::write(&path, Mlp::shipped(v).to_bytes()).unwrap();
    let file = path.display().to_string();
    assert!(file.contains('/') && file.contains("/nn/"));
    let registry = BotRegistry::new();
    for spec in [
        format!("ismcts-nn:30/nn:{file}"),
        format!("ismcts-nn:30/40:{file}"),
        format!("ismcts-nn:9ms/nn:{file}"),
    ] {
        let bot = registry
            .build(&spec, 0, v)
            .unwrap_or_else(|e| panic!("{spec}: {e}"));
        assert_eq!(bot.name(), spec);
    }
    // A path alone: no suffix, the default budget, the heuristic's picks.
    let name = registry
        .build(&format!("ismcts-nn:{file}"), 0, v)
        .unwrap()
        .name();
    assert!(
        name.ends_with(&format!(":{file}")) && !name.contains("/nn:"),
        "{name}"
    );
    // `12/x` reads as a budget with a bad suffix; `./12/x` is a path (here a missing one).
    let e = registry
        .build("ismcts-nn:12/x.safetensors", 0, v)
        .err()
        .unwrap();
    let suffix = "x.safetensors".into();
    let bad_suffix = BotSpecError::BadPassSuffix { suffix };
    assert!(
        matches!(&e, BotError::Spec { error, .. } if *error == bad_suffix),
        "{e:?}"
    );
    let e = registry
        .build("ismcts-nn:./12/x.safetensors", 0, v)
        .err()
        .unwrap();
    assert!(matches!(e, BotError::Weights { .. }), "{e:?}");
    std::fs::remove_dir_all(dir.parent().unwrap().parent().unwrap()).ok();
}

/// A bad pass suffix, or one on a bot that does not search, is refused naming the bot,
/// the part that is wrong (`None`: a name no family's, an unknown bot) and what a suffix
/// may be.
#[test]
fn a_bad_pass_suffix_is_refused_with_what_is_expected() {
    let suffix = |s: &str| {
        Some(BotSpecError::BadPassSuffix {
            suffix: s.to_string(),
        })
    };
    for (bad, want) in [
        ("pimc:8/x", suffix("x")),
        ("pimc:8/", suffix("")),
        ("pimc:8/0", Some(BotSpecError::ZeroPassPlayouts)),
        ("pimc:8/nn/2", suffix("nn/2")),
        (
            "pimc:/nn",
            Some(BotSpecError::BadBudget {
                budget: "/nn".into(),
            }),
        ),
        ("pimc-dd:2/nnx", suffix("nnx")),
        ("epimc:2/-1", suffix("-1")),
        ("ismcts:5/40/nn", suffix("40/nn")),
        ("ismcts/nn", None),
        ("ismcts-inf:5/NN", suffix("NN")),
        ("ismcts-nn:30/xyz:model.safetensors", suffix("xyz")),
        (
            "pimc-random:1/nn",
            Some(BotSpecError::NoPassSuffix {
                head: "pimc-random",
            }),
        ),
        ("heuristic/nn", None),
        (
            "random:1/40",
            Some(BotSpecError::TakesNoArgument {
                head: "random",
                arg: "1/40".into(),
            }),
        ),
    ] {
        let e = bot_by_name(bad, 0, Variant::FourPlayer).err().unwrap();
        match (&e, &want) {
            (BotError::Spec { error, .. }, Some(want)) => assert_eq!(error, want, "{bad}"),
            (BotError::Unknown(_), None) => {}
            _ => panic!("{bad}: {e:?}, expected {want:?}"),
        }
        let msg = e.to_string();
        assert!(msg.contains(&format!("'{bad}'")), "{msg}");
        assert!(msg.contains("/P") && msg.contains("/nn"), "{msg}");
    }
}

/// Learned picks are the shipped model's argmax among the legal picks (ties to the lowest
/// card), computed here from the model's own logits, in every variant; the card play is
/// the wrapped bot's.
#[test]
fn learned_picks_are_the_models_argmax_among_the_legal_picks() {
    for v in Variant::ALL {
        let mlp = Mlp::shipped(v);
        let mut input = vec![0.0; mlp.inputs().size(v)];
        let mut logits = vec![0.0; v.num_actions()];
        let mut scratch = Scratch::default();
        let positions = pass_positions(v, 300);
        assert!(positions.len() >= 10, "{v}: {}", positions.len());
        for name in ["ismcts:10/nn", "pimc-dd-inf:2/nn", "pimc:5/nn"] {
            let mut bot = bot_by_name(name, 3, v).unwrap();
            for s in &positions {
                let view = s.view(s.current_player().unwrap());
                mlp.inputs().encode(&view, &mut input);
                mlp.logits(&input, &mut scratch, &mut logits);
                let legal = s.legal_actions();
                let top = legal
                    .iter()
                    .map(|c| logits[c.id() as usize])
                    .fold(f32::MIN, f32::max);
                let best = legal
                    .iter()
                    .find(|c| logits[c.id() as usize] == top)
                    .unwrap();
                assert_eq!(bot.act(&view).unwrap(), best, "{v} {name}");
                assert!(
                    bot.search_values(&view).is_none(),
                    "{v} {name}: no pass search"
                );
            }
        }
    }
}

/// With a count budget the same seed plays the same cards and picks, searched passes
/// included; a reseeded bot starts over; a restored snapshot continues as the original.
#[test]
fn bots_with_searched_or_learned_passes_are_reproducible() {
    let v = Variant::FourPlayer;
    let states = decisions(v, 120);
    assert!(states.iter().any(|s| s.phase() == Phase::Pass));
    for name in [
        "ismcts:20/30",
        "pimc-dd:2/30",
        "epimc-inf:2/nn",
        "ismcts-inf:20/30",
        "pimc:8/nn",
    ] {
        let play = |bot: &mut Box<dyn Bot>| {
            states
                .iter()
                .step_by(3)
                .map(|s| act(bot, s))
                .collect::<Vec<_>>()
        };
        let mut bot = bot_by_name(name, 1, v).unwrap();
        let first = play(&mut bot);
        assert_eq!(first, play(&mut bot_by_name(name, 1, v).unwrap()), "{name}");
        bot.reseed(1);
        assert_eq!(first, play(&mut bot), "{name} after reseed");

        let mut bot = bot_by_name(name, 9, v).unwrap();
        for s in states.iter().take(10) {
            act(&mut bot, s);
        }
        let words = bot.snapshot().expect("a search bot can be saved");
        let mut copy = bot_by_name(name, 9, v).unwrap();
        copy.restore(&words).unwrap();
        for s in states.iter().skip(10).step_by(5) {
            assert_eq!(act(&mut bot, s), act(&mut copy, s), "{name}");
        }
        assert!(copy.restore(&words[..1]).is_err(), "{name}");
    }
    // An arena's games do not depend on its thread count.
    let run = |threads| {
        let mut c = ArenaConfig::new(v, &["ismcts:20/30", "pimc:10/nn"], 4, 4741);
        c.threads = threads;
        c.max_rounds = Some(1);
        let r = run_arena(&c, &BotRegistry::new(), &|| {}).unwrap();
        let entries = r.summary.entries.iter();
        entries
            .map(|e| (e.win_rate.to_bits(), e.points_per_game.to_bits()))
            .collect::<Vec<_>>()
    };
    assert_eq!(run(1), run(2));
}

/// An `-inf` bot with searched passes plays whole games in every variant, its pass picks
/// searched (the search values a pass) and every action legal.
#[test]
fn a_searched_passing_inference_bot_plays_a_whole_game_in_every_variant() {
    for v in Variant::ALL {
        let n = v.num_players();
        let mut bots: Vec<Box<dyn Bot>> = (0..n)
            .map(|p| bot_by_name("pimc-inf:4/20", p as u64, v).unwrap())
            .collect();
        let mut s = State::new(GameConfig::new(v, 4741));
        let (mut passes, mut rounds) = (0, 0);
        while let Some(p) = s.current_player() {
            let view = s.view(p);
            if s.phase() == Phase::Pass {
                let mut probe = bot_by_name("pimc-inf:4/20", 0, v).unwrap();
                if view.legal_actions().len() > 1 {
                    assert!(probe.search_values(&view).is_some(), "{v}: a searched pass");
                }
                passes += 1;
            }
            let card = bots[p].act(&view).unwrap();
            assert!(s.legal_actions().contains(card), "{v}: {card}");
            rounds += usize::from(s.apply(card).unwrap().round.is_some());
        }
        assert!(
            s.is_over() && rounds >= 1 && passes >= n,
            "{v}: {rounds} rounds, {passes} passes"
        );
    }
}
