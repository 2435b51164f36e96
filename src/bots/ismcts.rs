//! Information-Set Monte Carlo Tree Search (single-observer ISMCTS, Cowling, Powley and
//! Whitehouse 2012).
//!
//! One tree over the bot's information set: each iteration draws a fresh determinization
//! (exactly uniform, [`Sampler`]), descends the tree choosing among the children whose
//! card is legal in that world by UCB1 with availability counts, adds one new node, plays
//! the round out with the heuristic, and backs the result up: a node's statistics are
//! for the seat that played its card (each seat maximises its own `pimc` round value, so
//! the search is not limited to two sides). Unlike PIMC, the tree shares statistics
//! across worlds, so a card is judged by what the others can do without seeing the deal.
//! The card played is the root's most visited child. Passing picks are the heuristic's.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;

use crate::cards::{Card, CardSet};
use crate::infoset::sampler::Sampler;
use crate::infoset::view::SeatView;
use crate::rng::uniform_below;
use crate::rules::state::Phase;

use super::heuristic::HeuristicBot;
use super::pimc::round_value;
use super::{
    bot_rng, budget_text, has_decision, parse_budget, restore_stream, stream_words, Bot, BotError,
    SearchValues,
};

/// Iterations per decision and an optional time limit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct IsmctsConfig {
    /// Iterations (determinization + descent + playout) per decision.
    pub iterations: u32,
    /// Optional wall-clock limit per decision, checked every 16 iterations. It makes play
    /// depend on machine speed: not reproducible.
    pub time_limit: Option<Duration>,
    /// UCB1 exploration constant (values are about ±1).
    pub exploration: f32,
}

impl Default for IsmctsConfig {
    fn default() -> IsmctsConfig {
        IsmctsConfig {
            iterations: 5000,
            time_limit: None,
            exploration: 1.0,
        }
    }
}

impl IsmctsConfig {
    /// Parses the budget of an `ismcts:BUDGET` name: `N` iterations, or `Nms`.
    pub fn parse_budget(arg: &str) -> Option<IsmctsConfig> {
        let (iterations, time_limit) = parse_budget(arg)?;
        Some(IsmctsConfig {
            iterations,
            time_limit,
            ..IsmctsConfig::default()
        })
    }
}

const NONE: u32 = u32::MAX;

/// A tree node: the card that leads to it, played by `seat`.
#[derive(Clone, Copy)]
struct Node {
    card: Card,
    seat: u8,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Times it was available (its card legal) when its parent was visited.
    available: u32,
    /// Sum of `seat`'s values over the visits.
    total: f32,
}

/// The ISMCTS bot (`ismcts`).
pub struct IsmctsBot {
    config: IsmctsConfig,
    rng: ChaCha8Rng,
    sampler: Box<Sampler>,
    /// The tree, reused between decisions (cleared, capacity kept).
    nodes: Vec<Node>,
    path: Vec<u32>,
}

impl IsmctsBot {
    /// An IS-MCTS bot with `config`, its random stream from `seed`.
    pub fn new(config: IsmctsConfig, seed: u64) -> IsmctsBot {
        IsmctsBot {
            config,
            rng: bot_rng(seed),
            sampler: Box::default(),
            nodes: Vec::new(),
            path: Vec::new(),
        }
    }

    fn new_node(&mut self, parent: u32, card: Card, seat: usize) -> u32 {
        let id = self.nodes.len() as u32;
        let p = &mut self.nodes[parent as usize];
        let sibling = p.first_child;
        p.first_child = id;
        self.nodes.push(Node {
            card,
            seat: seat as u8,
            first_child: NONE,
            next_sibling: sibling,
            visits: 0,
            available: 0,
            total: 0.0,
        });
        id
    }

    /// Selects among `node`'s children legal in `legal` (all tried) by UCB1 with
    /// availability counts; counts them available.
    fn select(&mut self, node: u32, legal: CardSet) -> u32 {
        let c = self.config.exploration;
        let mut best = NONE;
        let mut best_score = f32::NEG_INFINITY;
        let mut child = self.nodes[node as usize].first_child;
        while child != NONE {
            let n = &mut self.nodes[child as usize];
            if legal.contains(n.card) {
                n.available += 1;
                let visits = n.visits.max(1) as f32;
                let score = n.total / visits + c * ((n.available as f32).ln() / visits).sqrt();
                if score > best_score {
                    best_score = score;
                    best = child;
                }
            }
            child = n.next_sibling;
        }
        best
    }

    /// Cards of `legal` without a child of `node`.
    fn untried(&self, node: u32, legal: CardSet) -> CardSet {
        let mut out = legal;
        let mut child = self.nodes[node as usize].first_child;
        while child != NONE {
            let n = &self.nodes[child as usize];
            out.remove(n.card);
            child = n.next_sibling;
        }
        out
    }

    fn iterate(&mut self, view: &SeatView) {
        let mut s = self.sampler.sample(view, &mut self.rng);
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        let mut expanded = false;
        let mut ended = None;
        while let Some(p) = s.current_player() {
            let legal = s.legal_actions();
            let card = if expanded {
                HeuristicBot::choose(&s.view(p))
            } else {
                let untried = self.untried(node, legal);
                if untried.is_empty() {
                    node = self.select(node, legal);
                } else {
                    let k = uniform_below(&mut self.rng, untried.len());
                    let c = untried.nth(k).expect("k < len");
                    node = self.new_node(node, c, p);
                    expanded = true;
                }
                self.path.push(node);
                self.nodes[node as usize].card
            };
            let out = s.apply(card).expect("a legal card");
            if let Some(r) = out.round {
                ended = Some((r, out.game_over));
                break;
            }
        }
        let Some((r, game_over)) = ended else { return };
        let mut values = [0f32; 4];
        for (p, v) in values.iter_mut().enumerate().take(s.num_players()) {
            *v = round_value(&s, &r, p, game_over);
        }
        for &id in &self.path[1..] {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.total += values[n.seat as usize];
        }
    }
}

impl IsmctsBot {
    /// Runs the budget's iterations from a fresh tree; returns how many ran.
    fn search(&mut self, view: &SeatView) -> u32 {
        let start = Instant::now();
        self.nodes.clear();
        self.nodes.push(Node {
            card: Card::ACE,
            seat: 0,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            total: 0.0,
        });
        let mut done = 0;
        while done < self.config.iterations.max(1) {
            self.iterate(view);
            done += 1;
            if done % 16 == 0 && self.config.time_limit.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
        }
        done
    }

    fn root_children(&self) -> impl Iterator<Item = &Node> + '_ {
        let mut child = self.nodes[0].first_child;
        std::iter::from_fn(move || {
            let n = self.nodes.get(child as usize)?;
            child = n.next_sibling;
            Some(n)
        })
    }

    /// The mean playout value (`pimc`'s round value for this seat) of each legal card
    /// over the search, for `view`'s seat (its turn, play phase; `None` otherwise). A card
    /// never tried gets `NaN`. `worlds` is the number of iterations.
    pub fn search_values(&mut self, view: &SeatView) -> Option<SearchValues> {
        if view.phase() != Phase::Play || !view.is_my_turn() {
            return None;
        }
        let worlds = self.search(view);
        let mut values: Vec<(Card, f64)> =
            view.legal_actions().iter().map(|c| (c, f64::NAN)).collect();
        for n in self.root_children() {
            if let Some(slot) = values.iter_mut().find(|(c, _)| *c == n.card) {
                slot.1 = n.total as f64 / n.visits.max(1) as f64;
            }
        }
        Some(SearchValues {
            values,
            worlds,
            exact: false,
        })
    }
}

impl Bot for IsmctsBot {
    fn name(&self) -> String {
        format!(
            "ismcts:{}",
            budget_text(self.config.iterations, self.config.time_limit)
        )
    }

    fn act(&mut self, view: &SeatView) -> Result<Card, BotError> {
        let legal = has_decision(self, view)?;
        if legal.len() == 1 || view.phase() == Phase::Pass {
            return Ok(HeuristicBot::choose(view));
        }
        self.search(view);
        // The most visited card (ties: the lowest id); the heuristic's if none was tried.
        let mut best: Option<(u32, Card)> = None;
        for n in self.root_children() {
            let better = match best {
                None => true,
                Some((v, c)) => n.visits > v || (n.visits == v && n.card < c),
            };
            if better && legal.contains(n.card) {
                best = Some((n.visits, n.card));
            }
        }
        Ok(best.map_or_else(|| HeuristicBot::choose(view), |(_, c)| c))
    }

    fn reseed(&mut self, seed: u64) {
        self.rng = bot_rng(seed);
    }

    /// The tree is rebuilt at every decision: only the stream's position carries over.
    fn snapshot(&self) -> Option<Vec<u64>> {
        Some(stream_words(&self.rng).to_vec())
    }

    fn restore(&mut self, words: &[u64]) -> Result<(), BotError> {
        restore_stream(self.name(), &mut self.rng, words)
    }
}
