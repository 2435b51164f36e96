//! Value data: the positions of arena games, each labelled with what the rest of its round
//! turned out to be worth to every seat, for training a value model
//! ([`crate::ValueNet`], `training/train_value.py`).
//!
//! The games are the arena's ([`ArenaConfig`]: variant, line-up, deals and bot seeds), so a
//! dataset depends only on its configuration, never on the thread count. Every play-phase
//! decision is a position: its input is [`encode_value_input`] of the whole state (hidden
//! hands included), its target each seat's [`round_value`] of the round's end, listed from
//! the seat to play clockwise. The inputs are mostly zeros and are kept sparse, row by
//! row (compressed sparse rows, as `scipy.sparse.csr_matrix` reads them).

use super::game_loop::{observe_games, GameObserver};
use super::{ArenaConfig, ArenaError};
use crate::{encode_value_input, heuristic_round_values, round_value, BotRegistry, Inputs};
use yokai_septet::State;
use yokai_septet::{Outcome, Phase};

/// The positions of the games, in game order, then play order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ValueData {
    /// Values per input row ([`Inputs::ObservationAndHands`]'s size in the variant).
    pub input_size: usize,
    /// Targets per position: the game's players.
    pub players: usize,
    /// Where each row's entries start in `columns` and `values` (one more than rows).
    pub row_starts: Vec<u64>,
    /// The column of each nonzero input value.
    pub columns: Vec<u16>,
    /// The nonzero input values (0/1 or small counts).
    pub values: Vec<u8>,
    /// `players` targets per position: the round value of the seat to play, then of each
    /// seat after it clockwise.
    pub targets: Vec<f32>,
    /// `players` values per position, in the order of `targets`: what the heuristic
    /// playing the round out from the position gives (one playout of `ismcts`), the
    /// baseline a value model is measured against.
    pub playout: Vec<f32>,
    /// The hand size of the seat to play (the position's phase of the round).
    pub hand_len: Vec<u8>,
    /// The arena game index of each position.
    pub games: Vec<u64>,
}

impl ValueData {
    /// Number of positions.
    pub fn len(&self) -> usize {
        self.hand_len.len()
    }

    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.hand_len.is_empty()
    }

    /// Row `i`'s input, dense.
    pub fn input(&self, i: usize) -> Vec<u8> {
        let mut row = vec![0; self.input_size];
        let (a, b) = (self.row_starts[i] as usize, self.row_starts[i + 1] as usize);
        for (&c, &v) in self.columns[a..b].iter().zip(&self.values[a..b]) {
            row[c as usize] = v;
        }
        row
    }

    fn append(&mut self, other: ValueData) {
        let base = self.columns.len() as u64;
        self.row_starts
            .extend(other.row_starts[1..].iter().map(|s| s + base));
        self.columns.extend(other.columns);
        self.values.extend(other.values);
        self.targets.extend(other.targets);
        self.playout.extend(other.playout);
        self.hand_len.extend(other.hand_len);
        self.games.extend(other.games);
    }

    /// Keeps the first `rows` positions (a game cut by the round cap leaves its last round
    /// without a result).
    fn truncate(&mut self, rows: usize) {
        let end = self.row_starts[rows] as usize;
        self.row_starts.truncate(rows + 1);
        self.columns.truncate(end);
        self.values.truncate(end);
        self.hand_len.truncate(rows);
        self.playout.truncate(rows * self.players);
        self.games.truncate(rows);
    }

    fn empty(arena: &ArenaConfig) -> ValueData {
        ValueData {
            input_size: Inputs::ObservationAndHands.size(arena.variant),
            players: arena.variant.num_players(),
            row_starts: vec![0],
            ..ValueData::default()
        }
    }
}

/// Records the positions of one game as it is played.
struct Positions {
    index: u64,
    data: ValueData,
    /// Scratch for the dense input of a position, of which only the nonzero values are kept.
    input: Vec<u8>,
    /// The positions of the round in progress, and the seat to play at each.
    pending: Vec<usize>,
}

impl Positions {
    fn new(arena: &ArenaConfig, index: u64) -> Positions {
        let data = ValueData::empty(arena);
        Positions {
            index,
            input: vec![0; data.input_size],
            data,
            pending: Vec::new(),
        }
    }

    /// The positions whose round finished.
    fn finish(mut self) -> ValueData {
        // A game cut by the round cap leaves its last round without a result.
        self.data
            .truncate(self.data.targets.len() / self.data.players);
        self.data
    }
}

impl GameObserver for Positions {
    fn before_decision(&mut self, state: &State, p: usize) {
        if state.phase() != Phase::Play {
            return;
        }
        let n = self.data.players;
        let data = &mut self.data;
        encode_value_input(state, &mut self.input);
        for (c, &v) in self.input.iter().enumerate().filter(|(_, &v)| v != 0) {
            data.columns.push(c as u16);
            data.values.push(v);
        }
        data.row_starts.push(data.columns.len() as u64);
        data.hand_len.push(state.hand(p).len() as u8);
        data.games.push(self.index);
        let playout = heuristic_round_values(*state);
        data.playout.extend((0..n).map(|k| playout[(p + k) % n]));
        self.pending.push(p);
    }

    fn after_action(&mut self, state: &State, outcome: &Outcome) {
        let Some(r) = outcome.round else { return };
        let n = self.data.players;
        let values: Vec<f32> = (0..n).map(|seat| round_value(state, &r, seat)).collect();
        for mover in self.pending.drain(..) {
            self.data
                .targets
                .extend((0..n).map(|k| values[(mover + k) % n]));
        }
    }
}

/// Plays every game of `arena` on `arena.threads` threads (0 = one per core) and returns
/// their positions; the result does not depend on the thread count. `progress` is called
/// once per finished game (from the worker threads).
pub fn generate(
    arena: &ArenaConfig,
    registry: &BotRegistry,
    progress: &(dyn Fn() + Sync),
) -> Result<ValueData, ArenaError> {
    super::check(arena, registry)?;
    let games = observe_games(arena, registry, progress, |i, _| {
        Ok(Positions::new(arena, i))
    })?;
    let mut data = ValueData::empty(arena);
    for game in games {
        data.append(game.finish());
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use yokai_septet::Variant;

    fn arena(variant: Variant, threads: usize) -> ArenaConfig {
        let mut arena = ArenaConfig::new(variant, &["heuristic", "random"], 2, 11);
        arena.max_rounds = Some(3);
        arena.threads = threads;
        arena
    }

    /// Every position has its targets; the targets of one round's positions are that
    /// round's values seen from each position's seat (so they sum alike), and the data do
    /// not depend on the thread count.
    #[test]
    fn every_position_has_its_rounds_values_and_threads_change_nothing() {
        for v in Variant::ALL {
            let registry = BotRegistry::new();
            let data = generate(&arena(v, 1), &registry, &|| {}).unwrap();
            let n = v.num_players();
            assert!(!data.is_empty(), "{v}");
            assert_eq!(data.targets.len(), data.len() * n, "{v}");
            assert_eq!(data.playout.len(), data.len() * n, "{v}");
            assert_eq!(data.row_starts.len(), data.len() + 1, "{v}");
            for i in 0..data.len() {
                let row = data.input(i);
                assert_eq!(row.len(), data.input_size);
                // The seat to play's own hand is in its observation, the others' after it:
                // every card in some hand is in exactly one hand block or the own hand.
                assert!(row.iter().any(|&x| x != 0), "{v}");
                let t = &data.targets[i * n..(i + 1) * n];
                assert!(t.iter().all(|x| x.is_finite()), "{v}");
            }
            assert_eq!(
                generate(&arena(v, 2), &registry, &|| {}).unwrap(),
                data,
                "{v}"
            );
        }
    }

    /// In the team variants partners share a round's value: the targets of the seat to
    /// play and of its partner (two seats on) are equal.
    #[test]
    fn partners_have_the_same_target() {
        for v in [Variant::FourPlayer, Variant::Seal, Variant::SealShort] {
            let data = generate(&arena(v, 1), &BotRegistry::new(), &|| {}).unwrap();
            for t in data.targets.chunks_exact(4) {
                assert_eq!(t[0], t[2], "{v}");
                assert_eq!(t[1], t[3], "{v}");
            }
        }
    }
}
