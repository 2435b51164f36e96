//! Helpers shared by the integration tests of several crates of the workspace (the engine's,
//! the bots', the pictures'): seeded random games, positions, made-up deals, and the check
//! that a drawn world keeps what its seat knows. Not published.
//!
//! Its own tests check the workspace's layout: the crates' arrows against
//! `docs/architecture.md` (`tests/arrows.rs`), and inside each crate no import circles and
//! folders that stack (`tests/imports.rs`, reading the source with [`rust_source`]).

pub mod rust_source;

use rand_chacha::ChaCha8Rng;
use rand_core::RngCore;
use yokai_septet::rng::{chacha, Stream};
use yokai_septet::{Card, CardSet, Deal, GameConfig, Match, State, Variant};

/// The tests' random games and policies: the engine's [`Stream::Tests`] stream of `seed`.
pub fn rng(seed: u64) -> ChaCha8Rng {
    chacha(Stream::Tests, seed, 0)
}

/// A uniformly random legal action.
pub fn random_action(s: &State, rng: &mut ChaCha8Rng) -> Card {
    s.legal_actions().uniform(rng).unwrap()
}

/// `count` positions of `v`: random games played a random number of steps, so that
/// passing, play, later rounds and finished games all occur.
pub fn positions(v: Variant, count: usize, seed: u64) -> Vec<State> {
    let mut r = rng(seed);
    (0..count)
        .map(|i| {
            let cfg = GameConfig::new(v, seed * 1000 + i as u64).with_max_rounds(Some(3));
            let mut s = State::new(cfg);
            let steps = r.next_u32() % 160;
            for _ in 0..steps {
                if s.is_over() {
                    break;
                }
                let a = random_action(&s, &mut r);
                s.apply(a).unwrap();
            }
            s
        })
        .collect()
}

/// Plays `m` to its end with random actions.
pub fn play_out(m: &mut Match, rng: &mut ChaCha8Rng) {
    while !m.state().is_over() {
        let c = random_action(m.state(), rng);
        m.apply(c).unwrap();
    }
}

pub fn cards(s: &str) -> CardSet {
    s.parse().unwrap()
}

/// A complete deal of `variant` in which seat `p` holds at least `fixed[p]`; the other
/// cards fill the hands in ascending order, and the face-up card is `trump` (or the last
/// card left over).
pub fn deal(variant: Variant, fixed: &[&str], trump: Option<&str>) -> Deal {
    let n = variant.num_players();
    let mut hands = [CardSet::EMPTY; 4];
    let mut used = CardSet::EMPTY;
    for (p, f) in fixed.iter().enumerate() {
        hands[p] = cards(f);
        assert!(used.intersect(hands[p]).is_empty());
        used = used.union(hands[p]);
    }
    let trump = trump.map(|t| t.parse::<Card>().unwrap());
    if let Some(t) = trump {
        used.insert(t);
    }
    let deck = variant.deck();
    let mut rest = deck.minus(used).iter();
    for hand in hands.iter_mut().take(n) {
        while (hand.len() as usize) < variant.hand_size() {
            hand.insert(rest.next().unwrap());
        }
    }
    let trump = if variant.has_trump_card() {
        trump.or_else(|| rest.next())
    } else {
        None
    };
    assert!(rest.next().is_none(), "fixed cards overfill the hands");
    let ids: Vec<Vec<i64>> = (0..n)
        .map(|p| hands[p].iter().map(|c| c.id() as i64).collect())
        .collect();
    Deal::from_ids(variant, &ids, trump.map(|c| c.id() as i64)).unwrap()
}

/// Applies every seat's passing picks (seat 0's first), given as card codes.
pub fn pass(s: &mut State, picks: &[&str]) {
    for p in picks {
        for c in cards(p).iter() {
            s.apply(c).unwrap();
        }
    }
}

/// Checks that `world`, a world drawn for `seat` at `s`, keeps all that seat knows: its
/// hand, the other hand sizes, the voids, the cards known to be in a hand, the cards
/// each seat may hold, the cards played and how they were played (the play log).
pub fn assert_world_keeps_what_the_seat_knows(s: &State, seat: usize, world: &State) {
    let (v, view) = (s.variant(), s.view(seat));
    let possible = yokai_septet::belief::possible_holders(&view);
    assert_eq!(world.hand(seat), s.hand(seat));
    for p in (0..v.num_players()).filter(|&p| p != seat) {
        let hand = world.hand(p);
        assert_eq!(hand.len(), s.hand(p).len(), "{v}: seat {p}'s hand size");
        assert!(hand.minus(possible[p]).is_empty(), "{v}: seat {p} {hand}");
        assert!(view.known_in_hand(p).minus(hand).is_empty());
        for suit in yokai_septet::Suit::ALL {
            if view.voids(p) >> suit as u8 & 1 != 0 {
                assert!(hand.of_suit(suit).is_empty(), "{v}: seat {p} void {suit:?}");
            }
        }
    }
    assert_eq!(world.view(seat).played(), view.played());
    assert_eq!(world.view(seat).play_log(), view.play_log());
}

/// The workspace's crates, for the tests that read their files.
pub mod workspace {
    use std::path::{Path, PathBuf};

    /// The workspace's `crates/` folder.
    pub fn crates_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("crates/")
            .to_path_buf()
    }

    /// The folders of the workspace's crates (`crates/*` with a `Cargo.toml`), by name.
    pub fn crate_folders() -> Vec<String> {
        let mut out: Vec<String> = std::fs::read_dir(crates_dir())
            .expect("crates/ is readable")
            .map(|e| e.expect("a directory entry").path())
            .filter(|p| p.join("Cargo.toml").is_file())
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        out.sort();
        out
    }
}
