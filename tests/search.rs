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

/// Today's search (`ismcts-classic`, the plain search as it was before issue 58) plays
/// the golden games in every variant.
#[test]
fn classic_ismcts_plays_its_golden_games() {
    for variant in Variant::ALL {
        for seed in [58, 59] {
            check_golden("ismcts300", CLASSIC, variant, seed);
        }
    }
}

/// The search as it was before issue 58, by name.
const CLASSIC: &str = "ismcts:300";
