//! Golden deals and games (R10): the same seed gives the same game on every machine and
//! every version. If one of these fails, deals have changed: that breaks every user's
//! reproduced games and needs a record version bump, not a new golden file.
//!
//! To regenerate the golden game files after an intended change:
//! `UPDATE_GOLDEN=1 cargo test --test golden`.

use common::*;
use yokai_septet_testkit as common;

use yokai_septet::{Deal, GameConfig, Match, Variant};

fn deal_codes(v: Variant, seed: u64, round: u64) -> Vec<String> {
    let d = Deal::from_seed(v, seed, round);
    let mut out: Vec<String> = (0..v.num_players())
        .map(|p| d.hands[p].to_string())
        .collect();
    if let Some(t) = d.trump_card {
        out.push(format!("trump {t}"));
    }
    out
}

#[test]
fn r10_golden_deals() {
    let pinned: &[(Variant, u64, u64, &[&str])] = &[
        (Variant::FourPlayer, 0, 0, &[PIN_4P_0_0]),
        (Variant::ThreePlayer, 1, 0, &[PIN_3P_1_0]),
        (Variant::Seal, 2, 0, &[PIN_SEAL_2_0]),
        (Variant::SealShort, 3, 5, &[PIN_SHORT_3_5]),
        (Variant::FourPlayer, u64::MAX, 1, &[PIN_4P_MAX_1]),
    ];
    for &(v, seed, round, expected) in pinned {
        let got = deal_codes(v, seed, round).join(" | ");
        assert_eq!(got, expected[0], "{v} seed {seed} round {round}");
    }
}

const PIN_4P_0_0: &str = "W2 W7 E7 C5 C6 C7 C8 C9 L5 D5 D11 S7 | WA W4 W5 E2 E4 L8 L10 D6 D7 D8 F7 S12 | E3 E5 E8 L4 D10 F6 F8 F10 F11 S9 S10 S13 | W3 E6 C3 C4 L6 L7 L9 D9 F9 F12 S8 S11 | trump W6";
const PIN_3P_1_0: &str = "W3 W4 E2 E3 E4 E6 C7 C8 D6 D7 D10 D11 F6 S7 S10 S11 | WA W2 W6 W7 E7 C3 C4 C9 L4 L6 L7 L10 F7 F8 S8 S9 | W5 E5 E8 C5 C6 L5 L9 D5 D8 D9 F9 F10 F11 F12 S12 S13 | trump L8";
const PIN_SEAL_2_0: &str = "W2 W7 E7 C4 C6 C7 L6 D5 D7 D9 D10 D11 S9 S13 | E4 E6 E8 C3 C5 C8 L7 D6 F6 F9 F10 S7 S11 S12 | W3 W5 E2 E3 L4 L5 L10 D8 F7 F11 S10 L7b D7b S7b | WA W4 W6 E5 C9 L8 L9 F8 F12 S8 W7b E7b C7b F7b";
const PIN_SHORT_3_5: &str = "WA W3 E6 C6 C7 L7 D5 D10 F7 F11 S8 S12 W7b D7b | W2 W5 E2 E3 E5 L6 L9 D6 D11 F6 S7 E7b C7b L7b | W4 W6 E4 E7 C3 C4 C8 L4 D8 F9 F10 S10 S13 F7b | W7 E8 C5 C9 L5 L8 L10 D7 D9 F8 F12 S9 S11 S7b";
const PIN_4P_MAX_1: &str = "W5 C8 L7 L9 L10 D11 F7 F8 F10 S7 S8 S13 | WA W7 E3 E5 C5 C6 C7 D5 D8 D10 F6 S11 | W6 E4 E6 E7 E8 C9 L5 D6 F11 F12 S9 S12 | W2 W3 W4 E2 C3 C4 L4 L6 L8 D7 D9 F9 | trump S10";

#[test]
fn r10_golden_random_games() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    for v in Variant::ALL {
        for seed in [0u64, 1, 2] {
            let mut m = Match::new(GameConfig::new(v, seed).with_max_rounds(Some(40)));
            play_out(&mut m, &mut rng(seed));
            let json = serde_json::to_string_pretty(&m.record()).unwrap();
            let path = format!(
                "{}/tests/golden/{}_seed{seed}.json",
                env!("CARGO_MANIFEST_DIR"),
                v.name()
            );
            if update {
                std::fs::write(&path, &json).unwrap();
                continue;
            }
            let want = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert!(
                want == json,
                "{v} seed {seed}: the random-play record differs from {path}"
            );
            // And the golden record replays to itself.
            let back = Match::from_json(&want).unwrap();
            assert_eq!(serde_json::to_string_pretty(&back.record()).unwrap(), want);
        }
    }
}
