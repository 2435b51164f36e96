//! The search bots' own checks (issue 58): the golden games of today's `ismcts`, which
//! must stay reachable and play the same cards for the same seeds whatever the new
//! techniques do.
//!
//! To re-record after an intended change of the plain search (never for a new technique:
//! the old search must stay as it is): `UPDATE_GOLDEN=1 cargo test --test search`.

use yokai_septet::bots::bot_by_name;
use yokai_septet::{GameConfig, State, Variant};

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
    use yokai_septet::bots::with_threads;
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
