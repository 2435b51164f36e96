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
//!
//! `ismcts-nn` is the same search guided by a policy network ([`NnBot`]): at the searching
//! seat's own nodes (whose legal cards are the same in every world, since the seat knows
//! its hand) the card is chosen by PUCT (Silver et al. 2017) instead of UCB1, the priors
//! the softmax of the network's logits over the legal cards, kept per node (one forward
//! pass when the node is first searched from). The other seats' nodes stay plain ISMCTS
//! by default ([`GuideConfig::others`]): their legal cards differ between worlds, so a
//! prior from one world's view fits the others poorly, and it costs a forward pass per
//! node of theirs.

use std::time::{Duration, Instant};

use crate::cards::{Card, CardSet};
use crate::infoset::view::SeatView;
use crate::rng::uniform_below;
use crate::rules::state::Phase;

use super::heuristic::HeuristicBot;
use super::nn::NnBot;
use super::pimc::round_value;
use super::worlds::{BeliefSource, Worlds};
use super::{budget_text, has_decision, parse_budget, Bot, BotError, BotStream, SearchValues};

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

/// The iterations of `ismcts-nn` at its default budget: about the time per decision of
/// `ismcts` at its default (the network's forward passes cost some iterations).
pub const GUIDED_ITERATIONS: u32 = 4600;

impl IsmctsConfig {
    /// The default budget of `ismcts-nn`.
    pub fn guided() -> IsmctsConfig {
        IsmctsConfig {
            iterations: GUIDED_ITERATIONS,
            ..IsmctsConfig::default()
        }
    }

    /// Parses the argument of an `ismcts-nn:ARG` name: `BUDGET`, `PATH` or `BUDGET:PATH`
    /// (the path is the rest, colons and all). A first part that looks like a budget
    /// (digits, perhaps then `ms`) must be one: `None` for `0`, `0ms` or an empty `ARG`.
    pub fn parse_guided(arg: &str) -> Option<(IsmctsConfig, Option<&str>)> {
        let (head, rest) = match arg.split_once(':') {
            Some((head, rest)) => (head, Some(rest)),
            None => (arg, None),
        };
        let digits = head.strip_suffix("ms").unwrap_or(head);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return (!arg.is_empty()).then_some((IsmctsConfig::guided(), Some(arg)));
        }
        let config = IsmctsConfig::parse_budget(head)?;
        match rest {
            Some("") => None,
            path => Some((config, path)),
        }
    }

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

/// Logits kept per guided node: one per card id of the largest variant.
const PRIOR_WIDTH: usize = 64;

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
struct Guide {
    net: NnBot,
    config: GuideConfig,
    /// The model file's path (`None`: the variant's shipped model).
    path: Option<String>,
}

/// A tree node: the card that leads to it, played by `seat`.
#[derive(Clone, Copy)]
struct Node {
    card: Card,
    seat: u8,
    /// Where its logits start in `IsmctsBot::priors`, over [`PRIOR_WIDTH`] (`NONE`: not
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

/// The ISMCTS bot (`ismcts`).
pub struct IsmctsBot {
    config: IsmctsConfig,
    rng: BotStream,
    /// Draws the determinizations: uniformly, or from a belief model (`-inf`).
    worlds: Worlds,
    /// The tree, reused between decisions (cleared, capacity kept).
    nodes: Vec<Node>,
    path: Vec<u32>,
    guide: Option<Guide>,
    /// The logits of the guided nodes, [`PRIOR_WIDTH`] per node.
    priors: Vec<f32>,
}

impl IsmctsBot {
    /// An IS-MCTS bot with `config`, its random stream from `seed`.
    pub fn new(config: IsmctsConfig, seed: u64) -> IsmctsBot {
        IsmctsBot {
            config,
            rng: BotStream::new(seed),
            worlds: Worlds::default(),
            nodes: Vec::new(),
            path: Vec::new(),
            guide: None,
            priors: Vec::new(),
        }
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

    /// Makes `node` guided: keeps the network's logits at `view` (the seat to play there,
    /// in the world of this iteration) for [`IsmctsBot::select_guided`].
    fn guide_node(&mut self, node: u32, view: &SeatView) {
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
    fn select_guided(&mut self, node: u32, legal: CardSet, seat: usize) -> (u32, bool) {
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
        // The decision checked the worlds first (`check_variant`): no error here.
        let Ok(mut s) = self.worlds.sample(view, &mut self.rng) else {
            return;
        };
        self.path.clear();
        self.path.push(0);
        let me = view.seat();
        let guided_depth = self.guide.as_ref().map_or(0, |g| g.config.depth);
        let guide_others = self.guide.as_ref().is_some_and(|g| g.config.others);
        let mut my_decisions = 0u32;
        let mut node = 0u32;
        let mut expanded = false;
        let mut ended = None;
        while let Some(p) = s.current_player() {
            let legal = s.legal_actions();
            let card = if expanded {
                HeuristicBot::choose(&s.view(p))
            } else {
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
                        return; // no legal card: not reached while a seat is to play
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
    /// The bot drawing its play-phase worlds from `belief`'s model (`-inf`), or uniformly
    /// (`None`); the registry's builders give it.
    pub(crate) fn inferring(mut self, belief: Option<BeliefSource>) -> IsmctsBot {
        self.worlds = Worlds::new(belief);
        self
    }

    /// [`BotError::Unsupported`] where the guiding model is for another variant than the
    /// game's (a bot built for any variant, as `yokai_septet.Bot` builds them).
    fn check_variant(&mut self, view: &SeatView) -> Result<(), BotError> {
        self.worlds
            .check_view(view)
            .map_err(|e| e.for_bot(self.name()))?;
        let Some(guide) = &self.guide else {
            return Ok(());
        };
        let variant = view.variant();
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

    /// Runs the budget's iterations from a fresh tree; returns how many ran.
    fn search(&mut self, view: &SeatView) -> u32 {
        let start = Instant::now();
        self.nodes.clear();
        self.nodes.push(Node {
            card: Card::ACE,
            seat: 0,
            priors: NONE,
            first_child: NONE,
            next_sibling: NONE,
            visits: 0,
            available: 0,
            total: 0.0,
        });
        self.priors.clear();
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
    /// over the search, and its root visits, for `view`'s seat (its turn, play phase;
    /// `None` otherwise). A card never tried gets `NaN` and 0 visits. `worlds` is the
    /// number of iterations. The card [`Bot::act`] plays is the most visited
    /// ([`SearchValues::best_card`]).
    pub fn search_values(&mut self, view: &SeatView) -> Option<SearchValues> {
        if view.phase() != Phase::Play || !view.is_my_turn() || self.check_variant(view).is_err() {
            return None;
        }
        let worlds = self.search(view);
        let mut values: Vec<(Card, f64)> =
            view.legal_actions().iter().map(|c| (c, f64::NAN)).collect();
        let mut visits = vec![0; values.len()];
        for n in self.root_children() {
            if let Some(i) = values.iter().position(|(c, _)| *c == n.card) {
                values[i].1 = n.total as f64 / n.visits.max(1) as f64;
                visits[i] = n.visits;
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

impl Bot for IsmctsBot {
    fn name(&self) -> String {
        let budget = budget_text(self.config.iterations, self.config.time_limit);
        let inf = self.worlds.suffix();
        match &self.guide {
            None => format!("ismcts{inf}:{budget}"),
            Some(Guide { path: None, .. }) => format!("ismcts-nn{inf}:{budget}"),
            Some(Guide {
                path: Some(path), ..
            }) => format!("ismcts-nn{inf}:{budget}:{path}"),
        }
    }

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
        self.rng.reseed(seed);
    }

    /// The tree is rebuilt at every decision: only the stream's position carries over.
    fn snapshot(&self) -> Option<Vec<u64>> {
        self.rng.snapshot()
    }

    fn restore(&mut self, words: &[u64]) -> Result<(), BotError> {
        self.rng.restore(self.name(), words)
    }
}
