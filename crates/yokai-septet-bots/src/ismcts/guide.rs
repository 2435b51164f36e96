//! The network guide of `ismcts-nn` (see the parent module's text): the priors of PUCT
//! at the searching seat's nodes.

use yokai_septet::CardSet;
use yokai_septet::SeatView;

use super::super::nn::NnBot;
use super::{IsmctsBot, NONE};

/// Logits kept per guided node: one per card id of the largest variant.
pub(super) const PRIOR_WIDTH: usize = 64;

/// How the network guides `ismcts-nn` (see the module's text).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GuideConfig {
    /// PUCT exploration constant of the guided nodes.
    pub c_puct: f32,
    /// How many of the searching seat's own decisions on a path get priors (1: the root
    /// only; `u32::MAX`: all of them).
    pub depth: u32,
    /// Softmax temperature of the priors (above 1 flattens the network's preferences).
    pub temperature: f32,
    /// Whether the other seats' nodes are guided too, each by the network's logits from
    /// its own view in the first world that reached the node.
    pub others: bool,
}

impl Default for GuideConfig {
    fn default() -> GuideConfig {
        GuideConfig {
            c_puct: 1.5,
            depth: u32::MAX,
            temperature: 1.0,
            others: false,
        }
    }
}

/// The network of `ismcts-nn` and its settings.
pub(super) struct Guide {
    pub(super) net: NnBot,
    pub(super) config: GuideConfig,
    /// The model file's path (`None`: the variant's shipped model).
    pub(super) path: Option<String>,
}

impl IsmctsBot {
    /// Makes `node` guided: keeps the network's logits at `view` (the seat to play there,
    /// in the world of this iteration) for [`IsmctsBot::select_guided`].
    pub(super) fn guide_node(&mut self, node: u32, view: &SeatView) {
        let Some(guide) = self.guide.as_mut() else {
            return;
        };
        let at = self.priors.len() / PRIOR_WIDTH;
        self.priors.extend_from_slice(guide.net.logits(view));
        self.priors
            .resize((at + 1) * PRIOR_WIDTH, f32::NEG_INFINITY);
        self.nodes[node as usize].priors = at as u32;
    }

    /// Chooses the card at a guided `node` among `legal` by PUCT, the priors the softmax
    /// of its logits over `legal`; a card never played here is valued at the mean of the
    /// visited ones. Returns the child, and whether it is new (made now: no visits).
    pub(super) fn select_guided(&mut self, node: u32, legal: CardSet, seat: usize) -> (u32, bool) {
        let (c, t) = self
            .guide
            .as_ref()
            .map_or((1.0, 1.0), |g| (g.config.c_puct, g.config.temperature));
        let at = self.nodes[node as usize].priors as usize * PRIOR_WIDTH;
        let logits = &self.priors[at..at + PRIOR_WIDTH];
        let mut child_of = [NONE; PRIOR_WIDTH];
        let (mut visits, mut total) = (0u32, 0f32);
        let mut child = self.nodes[node as usize].first_child;
        while child != NONE {
            let n = &mut self.nodes[child as usize];
            if legal.contains(n.card) {
                n.available += 1;
                child_of[n.card.id() as usize] = child;
                visits += n.visits;
                total += n.total;
            }
            child = n.next_sibling;
        }
        let top = legal
            .iter()
            .map(|card| logits[card.id() as usize])
            .fold(f32::NEG_INFINITY, f32::max);
        let sum: f32 = legal
            .iter()
            .map(|card| ((logits[card.id() as usize] - top) / t).exp())
            .sum();
        let unvisited = if visits > 0 {
            total / visits as f32
        } else {
            0.0
        };
        let scale = c * (visits.max(1) as f32).sqrt() / sum;
        // Seeded with a legal card: a score that is not a number (a model whose logits
        // overflow) never leaves the choice illegal.
        let Some(first) = legal.nth(0) else {
            return (NONE, false);
        };
        let mut best = (first, f32::NEG_INFINITY);
        for card in legal {
            let id = card.id() as usize;
            let (q, n) = match self.nodes.get(child_of[id] as usize) {
                Some(n) if n.visits > 0 => (n.total / n.visits as f32, n.visits),
                _ => (unvisited, 0),
            };
            let prior = ((logits[id] - top) / t).exp();
            let score = q + scale * prior / (1 + n) as f32;
            if score > best.1 {
                best = (card, score);
            }
        }
        let card = best.0;
        match child_of[card.id() as usize] {
            NONE => (self.new_node(node, card, seat), true),
            child => (child, self.nodes[child as usize].visits == 0),
        }
    }
}
