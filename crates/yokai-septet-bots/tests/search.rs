//! The search bots' own checks (issue 58): the golden games of today's `ismcts`, which
//! must stay reachable and play the same cards for the same seeds whatever the new
//! techniques do.
//!
//! To re-record after an intended change of the plain search (never for a new technique:
//! the old search must stay as it is): `UPDATE_GOLDEN=1 cargo test --test search`.

use yokai_septet::{GameConfig, State, Variant};
use yokai_septet_bots::bot_by_name;

/// The cards of a whole game (two rounds at most) of four copies of the bot called `name`,
/// each seeded from the game's seed and its seat, as one line of card names.
fn game_of(name: &str, variant: Variant, seed: u64) -> String {
    let mut s = State::new(GameConfig::new(variant, seed).with_max_rounds(Some(2)));
    let mut bots: Vec<_> = (0..variant.num_players())
        .map(|p| bot_by_name(name, seed * 10 + p as u64, variant).unwrap())
        .collect();
    let mut cards = Vec::new();
    while let Some(p) = s.current_player() {
        let card = bots[p].act(&s.view(p)).unwrap();
        cards.push(card.to_string());
        s.apply(card).unwrap();
    }
    cards.join(" ")
}

/// Checks the game of `name` in `variant` from `seed` against the golden file `label`'s
/// (or writes it, with `UPDATE_GOLDEN`).
fn check_golden(label: &str, name: &str, variant: Variant, seed: u64) {
    let got = game_of(name, variant, seed);
    let path = format!(
        "{}/tests/golden/search_{label}_{}_seed{seed}.txt",
        env!("CARGO_MANIFEST_DIR"),
        variant.name()
    );
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, format!("{got}\n")).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assert_eq!(got, want.trim_end(), "{name} in {variant}, seed {seed}");
}

/// Today's search (`ismcts:N:classic`, the plain search as it was before issue 58) plays
/// the golden games in every variant.
#[test]
fn classic_ismcts_plays_its_golden_games() {
    for variant in Variant::ALL {
        for seed in [58, 59] {
            check_golden("ismcts300", CLASSIC, variant, seed);
        }
    }
}

/// The search as it was before issue 58, by name (its golden games were recorded before
/// the name had the option).
const CLASSIC: &str = "ismcts:300:classic";

/// The default search's techniques that keep the games (the exact early stop) play the
/// classic golden games too (the default name, on one thread).
#[test]
fn exact_techniques_play_the_classic_golden_games() {
    for variant in Variant::ALL {
        for seed in [58, 59] {
            check_golden("ismcts300", "ismcts:300", variant, seed);
        }
    }
}

/// A threaded search with a count budget plays the same cards for the same seed and
/// thread count (its threads' streams come from the bot's, not from the scheduling).
#[test]
fn threaded_search_is_reproducible_for_its_seed_and_thread_count() {
    for variant in [Variant::FourPlayer, Variant::Seal] {
        let a = game_of("ismcts:120:t3", variant, 7);
        assert_eq!(a, game_of("ismcts:120:t3", variant, 7), "{variant}");
        // Reuse with threads: every helper keeps its own tree, reproducibly.
        let b = game_of("ismcts:120:reuse:t2", variant, 7);
        assert_eq!(b, game_of("ismcts:120:reuse:t2", variant, 7), "{variant}");
    }
}

/// The options of an `ismcts` name (`:classic`, `:reuse`, `:tT`) round-trip in the bot's
/// name, in their canonical order; a bad or repeated option is an unknown bot.
#[test]
fn ismcts_names_round_trip_their_options() {
    for (spec, canonical) in [
        ("ismcts:300:classic", "ismcts:300:classic"),
        ("ismcts:300:reuse", "ismcts:300:reuse"),
        ("ismcts:300:t4", "ismcts:300:t4"),
        ("ismcts:300:t1", "ismcts:300"),
        (
            "ismcts:20ms:t2:reuse:classic",
            "ismcts:20ms:classic:reuse:t2",
        ),
        ("ismcts", "ismcts:5000"),
    ] {
        let bot = bot_by_name(spec, 0, Variant::FourPlayer).unwrap();
        assert_eq!(bot.name(), canonical, "{spec}");
        let again = bot_by_name(canonical, 0, Variant::FourPlayer).unwrap();
        assert_eq!(again.name(), canonical);
    }
    for bad in [
        "ismcts:300:t0",
        "ismcts:300:t",
        "ismcts:300:t02",
        "ismcts:300:x",
        "ismcts:300:t2:t2",
        "ismcts:300:classic:classic",
        "ismcts:300:",
        "ismcts:classic",
    ] {
        assert!(bot_by_name(bad, 0, Variant::FourPlayer).is_err(), "{bad}");
    }
}

/// `play` and `hint` give the searches that can use threads the cores (`with_threads`):
/// only to `ismcts` names that set no threads.
#[test]
fn play_and_hint_thread_only_the_searches_that_set_no_threads() {
    use yokai_septet_bots::with_threads;
    assert_eq!(with_threads("ismcts", 4), "ismcts:5000:t4");
    assert_eq!(with_threads("ismcts:800", 2), "ismcts:800:t2");
    assert_eq!(with_threads("ismcts:800:t3", 2), "ismcts:800:t3");
    assert_eq!(with_threads("ismcts:800/nn", 2), "ismcts:800/nn:t2");
    assert_eq!(with_threads("ismcts-inf", 2), "ismcts-inf:5000:t2");
    assert_eq!(with_threads("ismcts", 1), "ismcts");
    for other in ["pimc", "pimc:40", "ismcts-nn", "heuristic"] {
        assert_eq!(with_threads(other, 4), other);
    }
    let bot = bot_by_name(&with_threads("ismcts:800", 2), 0, Variant::FourPlayer).unwrap();
    assert_eq!(bot.name(), "ismcts:800:t2");
}

/// An `-inf` search on threads draws every thread's worlds from the belief model: its
/// name keeps the option, and its games replay for the same seed.
#[test]
#[cfg(feature = "models")]
fn inferring_search_on_threads_replays_its_games() {
    let name = "ismcts-inf:80:t2";
    let bot = bot_by_name(name, 0, Variant::FourPlayer).unwrap();
    assert_eq!(bot.name(), name);
    let a = game_of(name, Variant::FourPlayer, 3);
    assert_eq!(a, game_of(name, Variant::FourPlayer, 3));
    assert_ne!(a, game_of("ismcts:80:t2", Variant::FourPlayer, 3));
}

/// The value-leaf options `:vW` (a weight in percent, 0..=100) and `:fade` round-trip in
/// the bot's name, before the threads, with its model file after an `@`; a bad weight, a repeated
/// option or a file without the option is an unknown bot, and a missing file a clear error.
#[test]
fn value_leaf_options_round_trip_and_bad_ones_are_refused() {
    let path = value_model_file(0.25);
    let with_file = format!("ismcts:300:v30@{path}");
    let mut names = vec![(with_file.as_str(), with_file.clone())];
    // Without a file the options take the shipped value model (feature `models`).
    if cfg!(feature = "models") {
        names.extend([
            ("ismcts:300:v100", "ismcts:300:v100".to_string()),
            ("ismcts:300:t2:v50", "ismcts:300:v50:t2".to_string()),
            ("ismcts:300:fade:v100", "ismcts:300:v100:fade".to_string()),
            (
                "ismcts:300:v50:classic",
                "ismcts:300:classic:v50".to_string(),
            ),
        ]);
    }
    for (spec, canonical) in names {
        let bot = bot_by_name(spec, 0, Variant::FourPlayer).unwrap();
        assert_eq!(bot.name(), canonical, "{spec}");
        let again = bot_by_name(&canonical, 0, Variant::FourPlayer).unwrap();
        assert_eq!(again.name(), canonical);
    }
    for bad in [
        "ismcts:300:v101",
        "ismcts:300:v050",
        "ismcts:300:v",
        "ismcts:300:v50:v50",
        "ismcts:300:v50:fade:fade",
        "ismcts:300@/no/such/file",
        "ismcts:300:v50@",
    ] {
        assert!(bot_by_name(bad, 0, Variant::FourPlayer).is_err(), "{bad}");
    }
    let e = bot_by_name("ismcts:300:v50@/no/such/file", 0, Variant::FourPlayer)
        .err()
        .unwrap();
    assert!(e.to_string().contains("/no/such/file"), "{e}");
    // A 4p model in a 3p game is refused when the bot is built for it.
    let e = bot_by_name(&format!("ismcts:300:v50@{path}"), 0, Variant::ThreePlayer)
        .err()
        .unwrap();
    assert!(e.to_string().contains("value model is for 4p"), "{e}");
    // `play` and `hint` add their threads before the file.
    assert_eq!(
        yokai_septet_bots::with_threads(&format!("ismcts:300:v50@{path}"), 2),
        format!("ismcts:300:v50:t2@{path}")
    );
}

/// A 4p value model file that values every position at `value` for every seat (no
/// weights, only a bias), written once per value into the test's temporary folder.
fn value_model_file(value: f32) -> String {
    use yokai_septet_bots::{Inputs, ValueNet};
    let v = Variant::FourPlayer;
    let width = Inputs::ObservationAndHands.size(v);
    let net = ValueNet::new(v, vec![(vec![0.0; 4 * width], vec![value; 4])]).unwrap();
    let dir = std::env::temp_dir().join(format!("ys-search-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("value-{value}.safetensors"));
    std::fs::write(&path, net.to_bytes()).unwrap();
    path.display().to_string()
}

/// Value leaves of weight 100 value every leaf by the model alone: with a model that
/// says 0.25 everywhere, and no leaf of an early decision ending the round, every card
/// the search tried is worth exactly 0.25. At weight 0 the model changes nothing: the
/// bot plays the classic golden game.
#[test]
fn value_leaves_take_the_models_value_and_weight_zero_plays_the_golden_game() {
    let path = value_model_file(0.25);
    let mut s = State::new(GameConfig::new(Variant::FourPlayer, 58));
    while s.phase() != yokai_septet::Phase::Play {
        let p = s.current_player().unwrap();
        let c = yokai_septet_bots::HeuristicBot::choose(&s.view(p));
        s.apply(c).unwrap();
    }
    let p = s.current_player().unwrap();
    let mut bot = bot_by_name(
        &format!("ismcts:200:classic:v100@{path}"),
        1,
        Variant::FourPlayer,
    )
    .unwrap();
    let values = bot.search_values(&s.view(p)).unwrap();
    assert!(values.values.len() > 1);
    for (card, v) in values.values {
        assert_eq!(v, 0.25, "{card}");
    }
    check_golden(
        "ismcts300",
        &format!("ismcts:300:classic:v0@{path}"),
        Variant::FourPlayer,
        58,
    );
}
