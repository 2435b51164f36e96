//! Tree reuse within a round ([`super::Techniques::reuse`]): a decision starts from the
//! subtree of the cards actually played since the seat's last search, with its
//! statistics, instead of a fresh tree.
//!
//! The view keeps which cards were played but not their order, which the walk down the
//! tree needs; between two decisions of one seat exactly one trick is completed, so the
//! order is read from the tricks: the cards of the completed trick after the seat's own,
//! in seat order from it, then the trick in progress as it lies on the table. Anything
//! else (another round, a decision skipped because its card was forced, a card the tree
//! never tried) starts afresh. The kept subtree is copied to the front of the node array
//! so the tree's memory is only what is reachable, and dropped above
//! [`super::REUSE_NODE_CAP`] nodes. The statistics kept come from worlds drawn for the
//! earlier information set, as in the usual ISMCTS reuse.

use yokai_septet::CardSet;
use yokai_septet::Phase;
use yokai_septet::SeatView;

use super::{IsmctsBot, Node, NONE, REUSE_NODE_CAP};

/// Where the kept tree's root stands.
pub(super) struct Kept {
    round: u32,
    tricks: usize,
    /// The cards played in the round at the root.
    played: CardSet,
}

impl IsmctsBot {
    /// After a search at `view`: remembers where the tree's root stands.
    pub(super) fn keep(&mut self, view: &SeatView) {
        self.kept = Some(Kept {
            round: view.round(),
            tricks: view.tricks_played(),
            played: view.played(),
        });
    }

    /// Before a search at `view`: makes the node of the cards played since the kept
    /// root the root, with its subtree; `false` (the caller starts afresh) where there is
    /// none (see the module's text).
    pub(super) fn reroot(&mut self, view: &SeatView) -> bool {
        let Some(kept) = self.kept.take() else {
            return false;
        };
        let played = view.played();
        if view.phase() != Phase::Play
            || kept.round != view.round()
            || played.intersect(kept.played) != kept.played
            || self.nodes.is_empty()
        {
            return false;
        }
        let since = played.minus(kept.played);
        if since.is_empty() && kept.tricks == view.tricks_played() {
            return true; // the same position (a hint, then the move)
        }
        if kept.tricks + 1 != view.tricks_played() {
            return false;
        }
        // The cards played since, in order: the completed trick's after the seat's own,
        // then the trick in progress.
        let table: CardSet = view.trick_cards().iter().copied().collect();
        let finished = since.minus(table);
        let n = view.num_players();
        let me = view.seat();
        let mut node = 0u32;
        let order = (0..n)
            .map(|j| (me + j) % n)
            .filter_map(|seat| finished.intersect(view.played_by(seat)).iter().next());
        let mut walked = 0;
        for card in order.chain(view.trick_cards().iter().copied()) {
            let mut child = self.nodes[node as usize].first_child;
            while child != NONE && self.nodes[child as usize].card != card {
                child = self.nodes[child as usize].next_sibling;
            }
            if child == NONE {
                return false;
            }
            node = child;
            walked += 1;
        }
        walked == since.len() && self.compact(node)
    }

    /// Makes `root`'s subtree the whole tree, copied to the front of the array; `false`
    /// (the tree then unusable, the caller starts afresh) above the cap.
    fn compact(&mut self, root: u32) -> bool {
        let mut out = Vec::with_capacity(self.nodes.capacity());
        out.push(Node {
            first_child: NONE,
            ..Node::ROOT
        });
        // Breadth first: each copied node's children are appended in their order.
        let mut from = vec![root];
        let mut at = 0;
        while at < from.len() {
            let old = from[at];
            let mut child = self.nodes[old as usize].first_child;
            let mut last = NONE;
            while child != NONE {
                let c = self.nodes[child as usize];
                let id = out.len() as u32;
                out.push(Node {
                    first_child: NONE,
                    next_sibling: NONE,
                    ..c
                });
                match last {
                    NONE => out[at].first_child = id,
                    prev => out[prev as usize].next_sibling = id,
                }
                last = id;
                from.push(child);
                child = c.next_sibling;
            }
            at += 1;
            if out.len() > REUSE_NODE_CAP {
                return false;
            }
        }
        self.nodes = out;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::HeuristicBot;
    use crate::{Bot, IsmctsConfig, Techniques};
    use yokai_septet::State;
    use yokai_septet::{GameConfig, Variant};

    /// At least a fifth of a seat's searched decisions after its first in a round start
    /// from the kept subtree, in every variant (the walk finds the cards played since),
    /// and the reused roots carry visits from the searches before. At 800 iterations it is
    /// a fifth to a half: the node of the others' cards since was often never grown.
    #[test]
    fn a_round_s_later_decisions_start_from_the_kept_subtree() {
        for variant in Variant::ALL {
            let config = IsmctsConfig {
                iterations: 800,
                techniques: Techniques {
                    reuse: true,
                    ..Techniques::DEFAULT
                },
                ..IsmctsConfig::default()
            };
            let mut bot = IsmctsBot::new(config, 3);
            let mut s = State::new(GameConfig::new(variant, 3).with_max_rounds(Some(2)));
            let (mut searched, mut firsts, mut round, mut carried) = (0, 0, u32::MAX, 0);
            while let Some(p) = s.current_player() {
                let view = s.view(p);
                let card = if p == 0 && s.phase() == Phase::Play && view.legal_actions().len() > 1 {
                    searched += 1;
                    if s.round() != round {
                        (firsts, round) = (firsts + 1, s.round());
                    }
                    let before = bot.reused;
                    let card = bot.act(&view).expect("a decision");
                    if bot.reused > before {
                        let root: u32 = bot.root_children().map(|n| n.visits).sum();
                        carried += root - 800;
                    }
                    card
                } else {
                    HeuristicBot::choose(&view)
                };
                s.apply(card).expect("a legal card");
            }
            let reused = bot.reused;
            assert!(carried > 0, "{variant}: no visits carried over");
            assert!(
                5 * reused >= searched - firsts,
                "{variant}: {reused} of {searched} decisions reused ({firsts} firsts)"
            );
        }
    }

    /// A kept tree above the cap is dropped: [`IsmctsBot::compact`] refuses it.
    #[test]
    fn a_subtree_above_the_cap_is_not_kept() {
        let mut bot = IsmctsBot::new(IsmctsConfig::default(), 0);
        bot.nodes = vec![Node::ROOT];
        let card = yokai_septet::Card::ACE;
        for _ in 0..REUSE_NODE_CAP + 1 {
            bot.new_node(0, card, 1);
        }
        assert!(!bot.compact(0));
        assert!(bot.compact(1), "a leaf is one node");
        assert_eq!(bot.nodes.len(), 1);
    }
}
