//! Information-Set Monte Carlo Tree Search (single-observer ISMCTS, Cowling, Powley and
//! Whitehouse 2012).
//!
//! One tree over the bot's information set: each iteration draws a fresh determinization
//! (exactly uniform, [`Sampler`](yokai_septet::sampler::Sampler)), descends the tree choosing
//! among the children whose card is legal in that world by UCB1 with availability counts,
//! adds one new node, values the position after it for every seat (`evaluator.rs`: the
//! round played out by the heuristic, `bots/playout.rs`), and backs the values up: a
//! node's statistics are for the seat that played its card (each seat maximises its own
//! round value, [`crate::round_value`], so the search is not limited to two sides). Unlike PIMC, the tree shares statistics across worlds, so a
//! card is judged by what the others can do without seeing the deal. The card played is
//! the root's most visited child. Passing picks are the heuristic's.
//!
//! Issue 58's techniques are switchable ([`Techniques`], `config.rs`). Three are the
//! leaf's, its evaluator built from them once: the exact early stop of playouts
//! (`sure.rs`), forced playout cards played without the heuristic, and value leaves (a
//! leaf valued by a [`ValueNet`], mixed with its playout). The others are tree reuse
//! within a round (`reuse.rs`) and threads (root-parallel trees merged at the root,
//! `parallel.rs`). [`Techniques::CLASSIC`] on one thread is the search as it was before
//! them, checked by golden games (`tests/search.rs`).
//!
//! `ismcts-nn` is the same search guided by a policy network ([`NnBot`]): at the searching
//! seat's own nodes (whose legal cards are the same in every world, since the seat knows
//! its hand) the card is chosen by PUCT (Silver et al. 2017) instead of UCB1, the priors
//! the softmax of the network's logits over the legal cards, kept per node (one forward
//! pass when the node is first searched from). The other seats' nodes stay plain ISMCTS
//! by default ([`GuideConfig::others`]): their legal cards differ between worlds, so a
//! prior from one world's view fits the others poorly, and it costs a forward pass per
//! node of theirs. It searches on one thread without reuse.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::time::Instant;

use yokai_septet::rng::uniform_below;
use yokai_septet::SeatView;
use yokai_septet::{Card, CardSet};
use yokai_septet::{Phase, State};

use super::heuristic::HeuristicBot;
use super::nn::{NnBot, ValueNet};
use super::playout::{self, Ending};
use super::worlds::{BeliefSource, Worlds};
use super::{has_decision, Bot, BotError, BotSpec, BotStream, Family, SearchValues};

mod config;
mod evaluator;
mod guide;
mod parallel;
mod reuse;
mod sure;

pub(crate) use config::usable_cores;
pub use config::{
    max_search_threads, IsmctsConfig, Techniques, DEFAULT_ITERATIONS, MAX_DECISION_THREADS,
    REUSE_NODE_CAP,
};
use evaluator::{Evaluator, LeafModel};
use guide::Guide;
pub use guide::GuideConfig;

const NONE: u32 = u32::MAX;

/// A tree node: the card that leads to it, played by `seat`.
#[derive(Clone, Copy)]
struct Node {
    card: Card,
    seat: u8,
    /// Where its logits start in `IsmctsBot::priors`, over `guide::PRIOR_WIDTH` (`NONE`: not
    /// guided, its children are chosen by UCB1).
    priors: u32,
    first_child: u32,
    next_sibling: u32,
    visits: u32,
    /// Times it was available (its card legal) when its parent was visited.
    available: u32,
    /// Sum of `seat`'s values over the visits.
    total: f32,
}

impl Node {
    /// The root of a fresh tree.
    const ROOT: Node = Node {
        card: Card::ACE,
        seat: 0,
        priors: NONE,
        first_child: NONE,
        next_sibling: NONE,
        visits: 0,
        available: 0,
        total: 0.0,
    };
}

/// The ISMCTS bot (`ismcts`).
pub struct IsmctsBot {
    config: IsmctsConfig,
    rng: BotStream,
    /// Draws the determinizations: uniformly, or from a belief model (`-inf`).
    worlds: Worlds,
    /// The belief model of an `-inf` bot (its helpers' worlds draw from it too).
    belief: Option<BeliefSource>,
    /// The tree (cleared between decisions, capacity kept; or rerooted, `reuse.rs`).
    nodes: Vec<Node>,
    path: Vec<u32>,
    guide: Option<Guide>,
    /// The logits of the guided nodes, `guide::PRIOR_WIDTH` per node.
    priors: Vec<f32>,
    /// Where the tree's root stands, for [`Techniques::reuse`].
    kept: Option<reuse::Kept>,
    /// The other threads' searches (`parallel.rs`), built at the first threaded decision.
    helpers: Vec<IsmctsBot>,
    /// Decisions that started from a kept subtree (`reuse.rs`'s tests read it).
    reused: u32,
    /// Values the leaves (the playout, the value model: `evaluator.rs`).
    evaluator: Evaluator,
}

impl IsmctsBot {
    /// An IS-MCTS bot with `config`, its random stream from `seed`.
    pub fn new(config: IsmctsConfig, seed: u64) -> IsmctsBot {
        IsmctsBot {
            config: IsmctsConfig {
                threads: config.threads.max(1),
                ..config
            },
            rng: BotStream::new(seed),
            worlds: Worlds::default(),
            belief: None,
            nodes: Vec::new(),
            path: Vec::new(),
            guide: None,
            priors: Vec::new(),
            kept: None,
            helpers: Vec::new(),
            reused: 0,
            evaluator: Evaluator::new(&config.techniques, LeafModel::Shipped),
        }
    }

    /// The bot evaluating its leaves with the value model in the file `path`
    /// ([`Techniques::value_weight`]; without it, the model shipped for the variant).
    pub fn with_value_model(mut self, path: &str, net: Arc<ValueNet>) -> IsmctsBot {
        let model = LeafModel::File(path.to_string(), net);
        self.evaluator = Evaluator::new(&self.config.techniques, model);
        self.helpers.clear();
        self
    }

    /// An `ismcts-nn` bot: the search guided by `net` (see the module's text); `path` is
    /// its model file (`None`: the shipped model of each game's variant).
    pub(crate) fn guided(
        config: IsmctsConfig,
        guide: GuideConfig,
        net: NnBot,
        path: Option<String>,
        seed: u64,
    ) -> IsmctsBot {
        let config = IsmctsConfig {
            threads: 1,
            techniques: Techniques {
                reuse: false,
                ..config.techniques
            },
            ..config
        };
        IsmctsBot {
            guide: Some(Guide {
                net,
                config: guide,
                path,
            }),
            ..IsmctsBot::new(config, seed)
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
            priors: NONE,
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

    /// One iteration: a world drawn, the tree descended and grown by a node, the round
    /// played out from there, and every seat's value of it backed up along the path.
    fn iterate(&mut self, view: &SeatView) {
        // The decision checked the worlds first (`check_variant`): no error here.
        let Ok(s) = self.worlds.sample(view, &mut self.rng) else {
            return;
        };
        let values = match self.descend(s, view.seat()) {
            Some(Ending::Finished(finished)) => finished.values(),
            Some(Ending::Stopped(leaf)) => match self.evaluator.evaluate(leaf) {
                Some(values) => values,
                None => return,
            },
            None => return,
        };
        for &id in &self.path[1..] {
            let n = &mut self.nodes[id as usize];
            n.visits += 1;
            n.total += values[n.seat as usize];
        }
    }

    /// The tree's part of an iteration in the world `s`: from the root, a child chosen
    /// for the seat to play at each node (by UCB1, or PUCT at a guided node) until a card
    /// without a child is drawn, whose new node ends the path (`self.path`). Stops at the
    /// position after that card (the leaf, to be played out), or where the round ended
    /// first; `None` where there is nothing to back up (no legal card at a guided node:
    /// not reached while a seat is to play).
    fn descend(&mut self, s: State, me: usize) -> Option<Ending<State>> {
        self.path.clear();
        self.path.push(0);
        let guided_depth = self.guide.as_ref().map_or(0, |g| g.config.depth);
        let guide_others = self.guide.as_ref().is_some_and(|g| g.config.others);
        let mut my_decisions = 0u32;
        let mut node = 0u32;
        let mut expanded = false;
        let mut stuck = false;
        // In the round only: the next round's deal is never looked at.
        let ending = playout::play_out_until(s, |s, p| {
            if expanded {
                return ControlFlow::Break(*s);
            }
            let legal = s.legal_actions();
            if p == me {
                my_decisions += 1;
            }
            let n = &self.nodes[node as usize];
            let guide = if p == me {
                my_decisions <= guided_depth
            } else {
                guide_others
            };
            if guide && n.first_child == NONE && n.priors == NONE {
                self.guide_node(node, &s.view(p));
            }
            if self.nodes[node as usize].priors != NONE {
                (node, expanded) = self.select_guided(node, legal, p);
                if node == NONE {
                    stuck = true;
                    return ControlFlow::Break(*s);
                }
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
            }
            self.path.push(node);
            ControlFlow::Continue(self.nodes[node as usize].card)
        });
        if stuck {
            return None;
        }
        ending
    }

    /// The bot drawing its play-phase worlds from `belief`'s model (`-inf`), or uniformly
    /// (`None`); the registry's builders give it. The threaded search's helper bots are
    /// built from it again.
    pub(crate) fn inferring(mut self, belief: Option<BeliefSource>) -> IsmctsBot {
        self.worlds = Worlds::new(belief.clone());
        self.belief = belief;
        self.helpers.clear();
        self
    }

    /// [`BotError::Unsupported`] where the guiding model is for another variant than the
    /// game's (a bot built for any variant, as `yokai_septet.Bot` builds them).
    fn check_variant(&mut self, view: &SeatView) -> Result<(), BotError> {
        self.worlds
            .check_view(view)
            .map_err(|e| e.for_bot(self.name()))?;
        let variant = view.variant();
        if self.config.techniques.value_weight > 0 {
            match self.evaluator.model().net(variant) {
                None => {
                    return Err(BotError::Unsupported {
                        name: self.name(),
                        variant,
                        why: "no value model is shipped for it (value leaves, :vW)".into(),
                    })
                }
                Some(net) if net.variant() != variant => {
                    return Err(BotError::Unsupported {
                        name: self.name(),
                        variant,
                        why: format!("its value model is for {}", net.variant()),
                    })
                }
                Some(_) => {}
            }
        }
        let Some(guide) = &self.guide else {
            return Ok(());
        };
        let trained_for = guide.net.model_variant(variant);
        if trained_for == variant {
            return Ok(());
        }
        Err(BotError::Unsupported {
            name: self.name(),
            variant,
            why: format!("its weights are for {trained_for}"),
        })
    }

    /// Runs `iterations` iterations (fewer if the time limit comes first) on this
    /// thread's tree: from the kept subtree where reuse finds one, else a fresh tree.
    /// Returns how many ran.
    fn search_tree(&mut self, view: &SeatView, iterations: u32) -> u32 {
        let start = Instant::now();
        if self.config.techniques.reuse && self.reroot(view) {
            self.reused += 1;
        } else {
            self.nodes.clear();
            self.nodes.push(Node::ROOT);
            self.priors.clear();
        }
        let mut done = 0;
        while done < iterations.max(1) {
            self.iterate(view);
            done += 1;
            if done % 16 == 0 && self.config.time_limit.is_some_and(|t| start.elapsed() >= t) {
                break;
            }
        }
        if self.config.techniques.reuse {
            self.keep(view);
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

    /// The mean playout value (the round value for this seat) of each legal card
    /// over the search, and its root visits, for `view`'s seat (its turn, play phase;
    /// `None` otherwise). A card never tried gets `NaN` and 0 visits. `worlds` is the
    /// number of iterations. The card [`Bot::act`] plays is the most visited
    /// ([`SearchValues::best_card`]). `None` too where the system would not start a search
    /// thread (the bot is left as it was: its [`Bot::act`] then says why).
    pub fn search_values(&mut self, view: &SeatView) -> Option<SearchValues> {
        if view.phase() != Phase::Play || !view.is_my_turn() || self.check_variant(view).is_err() {
            return None;
        }
        let worlds = self.search(view).ok()?;
        let mut values: Vec<(Card, f64)> =
            view.legal_actions().iter().map(|c| (c, f64::NAN)).collect();
        let mut visits = vec![0; values.len()];
        for (card, n, total) in self.root_stats() {
            if let Some(i) = values.iter().position(|(c, _)| *c == card) {
                values[i].1 = total as f64 / n.max(1) as f64;
                visits[i] = n;
            }
        }
        Some(SearchValues {
            values,
            worlds,
            exact: false,
            visits: Some(visits),
        })
    }
}

impl IsmctsBot {
    /// What it plays, as a name's fields: `ismcts` with its options and any value model
    /// its leaves use, or `ismcts-nn` with its guide's model file (its grammar writes no
    /// options).
    fn own_spec(&self) -> BotSpec {
        let (budget, options) = self.config.budget_and_options();
        let spec = BotSpec {
            infers: self.worlds.infers(),
            budget: Some(budget),
            ..BotSpec::bare(Family::Ismcts)
        };
        match &self.guide {
            None => BotSpec {
                options,
                model: match self.evaluator.model() {
                    LeafModel::File(path, _) if options.value_weight.is_some() => {
                        Some(path.clone())
                    }
                    _ => None,
                },
                ..spec
            },
            Some(guide) => BotSpec {
                family: Family::IsmctsNn,
                model: guide.path.clone(),
                ..spec
            },
        }
    }
}

impl Bot for IsmctsBot {
    super::named_by_spec!();

    /// As [`IsmctsBot::search_values`], where [`Bot::act`] searches (not for a forced
    /// card): the imitation data's labels then carry the search's visits.
    fn search_values(&mut self, view: &SeatView) -> Option<SearchValues> {
        if view.legal_actions().len() == 1 {
            return None;
        }
        IsmctsBot::search_values(self, view)
    }

    fn act(&mut self, view: &SeatView) -> Result<Card, BotError> {
        self.check_variant(view)?;
        let legal = has_decision(self, view)?;
        if legal.len() == 1 || view.phase() == Phase::Pass {
            return Ok(HeuristicBot::choose(view));
        }
        self.search(view)?;
        // The most visited card (ties: the lowest id); the heuristic's if none was tried.
        let mut best: Option<(u32, Card)> = None;
        for (card, visits, _) in self.root_stats() {
            let better = match best {
                None => true,
                Some((v, c)) => visits > v || (visits == v && card < c),
            };
            if better && legal.contains(card) {
                best = Some((visits, card));
            }
        }
        Ok(best.map_or_else(|| HeuristicBot::choose(view), |(_, c)| c))
    }

    fn reseed(&mut self, seed: u64) {
        self.rng.reseed(seed);
        self.forget();
    }

    /// The stream's position: without reuse the tree is rebuilt at every decision (and
    /// the helpers' streams are drawn from the bot's), so only the stream carries over.
    /// A bot that reuses its tree cannot be saved (`None`).
    fn snapshot(&self) -> Option<Vec<u64>> {
        if self.config.techniques.reuse {
            return None;
        }
        self.rng.snapshot()
    }

    fn restore(&mut self, words: &[u64]) -> Result<(), BotError> {
        self.forget();
        self.rng.restore(self.name(), words)
    }
}
