//! Imitation data: the decisions of chosen seats in arena games, each labelled with a
//! teacher bot's choice, for training a policy by behaviour cloning or DAgger.
//!
//! The games are the arena's, played by its game loop with a labelling observer:
//! [`ArenaConfig`] fixes the variant, the line-up, the deals and the bots' seeds
//! ([`crate::arena::game_setup`]), so a dataset depends only on its configuration, never
//! on the thread count. At every decision of a seat whose line-up entry is labelled, the
//! teacher (a bot of its own, on a seed stream of its own) is asked for its card on the
//! seat's [`yokai_septet::SeatView`]; the seat then plays its own bot's card, or the teacher's
//! when the entry *is* the teacher (its own bot teaches: one search per decision).

use super::game_loop::{observe_games, GameObserver};
use super::{ArenaConfig, ArenaError, GameSetup};
use crate::{Bot, BotError, BotRegistry, HeuristicBot, SearchValues};
use yokai_septet::belief::{possible_holders, Belief, BeliefSampler};
use yokai_septet::observation::{encode, observation_size};
use yokai_septet::play_log::{encode_play_log, play_log_size};
use yokai_septet::rng::arena_seed;
use yokai_septet::Card;
use yokai_septet::Phase;
use yokai_septet::SeatView;
use yokai_septet::State;
use yokai_septet::Variant;

/// The arena seed stream of seat `s`'s teacher: after the deals (0) and the seats' bots
/// (1..=4), so a teacher's randomness is its own.
const fn teacher_stream(seat: usize) -> u64 {
    5 + seat as u64
}

/// What to generate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImitationConfig {
    /// The games (variant, scoring, line-up, games, seed, round cap, threads, duplicate).
    pub arena: ArenaConfig,
    /// The bot whose choices are the labels.
    pub teacher: String,
    /// The line-up entries (indices into `arena.bots`) whose decisions are labelled.
    pub labelled: Vec<usize>,
}

/// The labelled decisions, in game order, then decision order.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Values per observation (the variant's observation size).
    pub observation_size: usize,
    /// `observation_size` values per decision: the deciding seat's observation.
    pub observations: Vec<u8>,
    /// Values per play log ([`yokai_septet::play_log::play_log_size`]).
    pub play_log_size: usize,
    /// `play_log_size` values per decision: how each card of the round was played, seen
    /// from the deciding seat (with the observation, a belief model's input).
    pub play_log: Vec<u8>,
    /// The legal actions of each decision, as card-set bits (bit `i` = card id `i`).
    pub legal: Vec<u64>,
    /// The teacher's card id.
    pub labels: Vec<u8>,
    /// The teacher's value of every card id, `num_actions` per decision, where it
    /// searched ([`crate::Bot::search_values`]); `NaN` for the other cards and decisions.
    pub values: Vec<f32>,
    /// A tree search teacher's share of its root visits of every card id, `num_actions`
    /// per decision ([`crate::SearchValues::visit_shares`]: its own policy, which
    /// AlphaZero-style training imitates); `NaN` for the other cards and decisions, and
    /// for teachers that play the best value.
    pub visits: Vec<f32>,
    /// The card id the seat played (the teacher's, or its own bot's).
    pub played: Vec<u8>,
    /// The card id the `heuristic` bot would play: the extra input of an
    /// `observation+heuristic` model ([`crate::Inputs`]).
    pub heuristic: Vec<u8>,
    /// Where every card id is, seen from the deciding seat (the labels of a belief model,
    /// `crate::BeliefNet`), `num_actions` per decision: the relative seat (0 the
    /// decider, 1 the next clockwise, ...) whose hand holds it, or 255 (played, face up,
    /// or a decision of the passing phase, which has no belief labels).
    pub holders: Vec<u8>,
    /// Which relative seats the decider cannot rule out as the card's holder
    /// ([`yokai_septet::belief::possible_holders`]), a bit per relative seat, for the
    /// cards it cannot see in the play phase (0 elsewhere), `num_actions` per decision.
    pub possible: Vec<u8>,
    /// The uniform sampler's probability of each relative seat holding each card id
    /// ([`yokai_septet::belief::BeliefSampler::marginals`] of a uniform belief: the
    /// baseline of a belief model), `num_actions × num_players` per decision, 0 where
    /// `possible` is 0.
    pub uniform: Vec<f32>,
    /// The arena game index.
    pub games: Vec<u64>,
    /// The deciding seat.
    pub seats: Vec<u8>,
}

impl Dataset {
    /// Number of labelled decisions.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there is no labelled decision.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// No decision yet, in `variant`.
    fn empty(variant: Variant) -> Dataset {
        Dataset {
            observation_size: observation_size(variant),
            play_log_size: play_log_size(variant),
            ..Dataset::default()
        }
    }

    fn append(&mut self, mut other: Dataset) {
        self.observations.append(&mut other.observations);
        self.play_log.append(&mut other.play_log);
        self.legal.append(&mut other.legal);
        self.labels.append(&mut other.labels);
        self.values.append(&mut other.values);
        self.visits.append(&mut other.visits);
        self.played.append(&mut other.played);
        self.heuristic.append(&mut other.heuristic);
        self.holders.append(&mut other.holders);
        self.possible.append(&mut other.possible);
        self.uniform.append(&mut other.uniform);
        self.games.append(&mut other.games);
        self.seats.append(&mut other.seats);
    }
}

/// Checks `config` (line-up, bot names, teacher, labelled entries) without playing.
pub fn check(config: &ImitationConfig, registry: &BotRegistry) -> Result<(), ArenaError> {
    crate::arena::check(&config.arena, registry)?;
    registry.check(&config.teacher, config.arena.variant)?;
    if let Some(&e) = config
        .labelled
        .iter()
        .find(|&&e| e >= config.arena.bots.len())
    {
        return Err(ArenaError::Lineup(format!(
            "labelled entry {e} is out of range: the line-up has {} entries (0..{})",
            config.arena.bots.len(),
            config.arena.bots.len() - 1
        )));
    }
    Ok(())
}

/// Who labels a seat's decisions.
enum Labeller {
    /// Nobody: the seat's entry is not labelled.
    Nobody,
    /// The seat's own bot: its entry is the teacher, so its search is both the label and
    /// the card played.
    Itself,
    /// A teacher of the seat's own, seeded apart ([`teacher_stream`]).
    Teacher(Box<dyn Bot>),
}

/// Labels the decisions of one game as it is played.
struct Labelling {
    index: u64,
    labellers: Vec<Labeller>,
    data: Dataset,
    uniform: BeliefSampler,
}

impl Labelling {
    /// Before game `index`, seated by `setup`.
    fn new(
        config: &ImitationConfig,
        registry: &BotRegistry,
        index: u64,
        setup: &GameSetup,
    ) -> Result<Labelling, ArenaError> {
        let arena = &config.arena;
        let mut labellers = Vec::with_capacity(arena.variant.num_players());
        for s in 0..arena.variant.num_players() {
            let entry = setup.entry_of_seat[s];
            labellers.push(if !config.labelled.contains(&entry) {
                Labeller::Nobody
            } else if arena.bots[entry] == config.teacher {
                Labeller::Itself
            } else {
                let seed = arena_seed(arena.seed, index, teacher_stream(s));
                Labeller::Teacher(registry.build(&config.teacher, seed, arena.variant)?)
            });
        }
        Ok(Labelling {
            index,
            labellers,
            data: Dataset::empty(arena.variant),
            uniform: BeliefSampler::new(),
        })
    }

    /// Appends seat `p`'s decision in `state` (`view` its view): the teacher's `label` and
    /// `evaluation`, and the `card` played.
    fn record(
        &mut self,
        state: &State,
        view: &SeatView,
        p: usize,
        label: Card,
        evaluation: Option<SearchValues>,
        card: Card,
    ) {
        let data = &mut self.data;
        let actions = state.config().variant.num_actions();
        let start = data.observations.len();
        data.observations.resize(start + data.observation_size, 0);
        encode(view, &mut data.observations[start..]);
        let start = data.play_log.len();
        data.play_log.resize(start + data.play_log_size, 0);
        encode_play_log(view, &mut data.play_log[start..]);
        data.legal.push(view.legal_actions().bits());
        data.labels.push(label.id());
        let start = data.values.len();
        data.values.resize(start + actions, f32::NAN);
        data.visits.resize(start + actions, f32::NAN);
        for &(c, v) in evaluation.iter().flat_map(|e| &e.values) {
            data.values[start + c.id() as usize] = v as f32;
        }
        for (c, v) in evaluation.iter().flat_map(|e| e.visit_shares()).flatten() {
            data.visits[start + c.id() as usize] = v as f32;
        }
        data.played.push(card.id());
        data.heuristic.push(HeuristicBot::choose(view).id());
        belief_labels(state, p, &mut self.uniform, data);
        data.games.push(self.index);
        data.seats.push(p as u8);
    }
}

impl GameObserver for Labelling {
    fn decide(&mut self, state: &State, p: usize, bot: &mut dyn Bot) -> Result<Card, BotError> {
        let view = state.view(p);
        // A student seat's bot and its teacher draw on streams of their own: asking the
        // teacher first changes neither's card.
        let (evaluation, label) = {
            let teacher: &mut dyn Bot = match &mut self.labellers[p] {
                Labeller::Nobody => return bot.act(&view),
                Labeller::Itself => &mut *bot,
                Labeller::Teacher(t) => t.as_mut(),
            };
            let evaluation = teacher.search_values(&view);
            let label = match &evaluation {
                Some(ev) => ev.best_card(),
                None => Some(teacher.act(&view)?),
            };
            (evaluation, label)
        };
        let card = match (&self.labellers[p], label) {
            (Labeller::Itself, Some(label)) => label,
            (Labeller::Itself, None) => unreachable!("a teacher seat without a label"),
            _ => bot.act(&view)?,
        };
        if let Some(label) = label {
            self.record(state, &view, p, label, evaluation, card);
        }
        Ok(card)
    }
}

/// Appends the belief labels of seat `p`'s decision in `state` to `data` (see
/// [`Dataset::holders`], [`Dataset::possible`], [`Dataset::uniform`]).
fn belief_labels(state: &State, p: usize, uniform: &mut BeliefSampler, data: &mut Dataset) {
    let variant = state.config().variant;
    let (n, actions) = (variant.num_players(), variant.num_actions());
    let view = state.view(p);
    let start = data.holders.len();
    data.holders.resize(start + actions, 255);
    data.possible.resize(start + actions, 0);
    data.uniform.resize((start + actions) * n, 0.0);
    if view.phase() != Phase::Play {
        return;
    }
    let possible = possible_holders(&view);
    uniform.prepare(&view, &Belief::uniform());
    let marginals = uniform.marginals();
    let unseen = view.unknown_cards();
    for k in 1..n {
        let seat = view.relative(k);
        for c in state.hand(seat) {
            data.holders[start + c.id() as usize] = k as u8;
        }
        for c in possible[seat].intersect(unseen) {
            let i = start + c.id() as usize;
            data.possible[i] |= 1 << k;
            data.uniform[i * n + k] = marginals.weight(c, seat);
        }
    }
}

/// Plays every game of `config.arena` on `config.arena.threads` threads (0 = one per core)
/// and returns the labelled decisions; the result does not depend on the thread count.
/// `progress` is called once per finished game (from the worker threads).
pub fn generate(
    config: &ImitationConfig,
    registry: &BotRegistry,
    progress: &(dyn Fn() + Sync),
) -> Result<Dataset, ArenaError> {
    check(config, registry)?;
    let games = observe_games(&config.arena, registry, progress, |i, setup| {
        Labelling::new(config, registry, i, setup)
    })?;
    let mut data = Dataset::empty(config.arena.variant);
    for game in games {
        data.append(game.data);
    }
    Ok(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game_setup;
    use yokai_septet::Variant;
    use yokai_septet::{Card, CardSet};

    fn config(variant: Variant, bots: &[&str], teacher: &str, games: u64) -> ImitationConfig {
        let mut arena = ArenaConfig::new(variant, bots, games, 7);
        arena.max_rounds = Some(3);
        arena.threads = 1;
        ImitationConfig {
            arena,
            teacher: teacher.into(),
            labelled: vec![0],
        }
    }

    /// Every labelled decision is legal for the teacher and for the seat, and the entry
    /// that is the teacher plays exactly the labels.
    #[test]
    fn labels_are_legal_and_a_teacher_entry_plays_its_labels() {
        for v in Variant::ALL {
            let data = generate(
                &config(v, &["heuristic", "random"], "heuristic", 4),
                &BotRegistry::new(),
                &|| {},
            )
            .unwrap();
            assert!(!data.is_empty());
            assert_eq!(data.observations.len(), data.len() * observation_size(v));
            assert_eq!(data.play_log.len(), data.len() * play_log_size(v));
            for i in 0..data.len() {
                let label = Card::new(data.labels[i]).unwrap();
                assert!(CardSet(data.legal[i]).contains(label));
                assert_eq!(data.labels[i], data.played[i], "{v}: decision {i}");
                // The heuristic teacher's label is the heuristic's card.
                assert_eq!(data.labels[i], data.heuristic[i], "{v}: decision {i}");
            }
        }
    }

    /// The belief labels of a play decision: the holder of every unseen card is a seat
    /// the decider cannot rule out, with a positive uniform probability; the uniform
    /// probabilities of each unseen card sum to 1; passing decisions have none.
    #[test]
    fn belief_labels_name_a_possible_holder_and_uniform_rows_sum_to_one() {
        for v in Variant::ALL {
            let n = v.num_players();
            let a = v.num_actions();
            let data = generate(
                &config(v, &["heuristic", "heuristic"], "heuristic", 2),
                &BotRegistry::new(),
                &|| {},
            )
            .unwrap();
            assert_eq!(data.holders.len(), data.len() * a);
            assert_eq!(data.uniform.len(), data.len() * a * n);
            let mut labelled = 0;
            for i in 0..data.len() {
                for c in 0..a {
                    let (bits, holder) = (data.possible[i * a + c], data.holders[i * a + c]);
                    if bits == 0 {
                        continue;
                    }
                    labelled += 1;
                    assert!(holder < n as u8 && bits >> holder & 1 == 1, "{v}: {i} {c}");
                    let row = &data.uniform[(i * a + c) * n..(i * a + c + 1) * n];
                    assert!(row[holder as usize] > 0.0);
                    assert!((row.iter().sum::<f32>() - 1.0).abs() < 1e-4, "{v}: {row:?}");
                }
            }
            assert!(labelled > 100, "{v}: {labelled}");
        }
    }

    /// A student seat plays its own cards (here `random`), while the labels are the
    /// teacher's: they differ somewhere, and only entry 0's seats are labelled.
    #[test]
    fn a_student_entry_plays_its_own_cards_and_only_labelled_seats_are_recorded() {
        let c = config(
            Variant::FourPlayer,
            &["random", "heuristic"],
            "heuristic",
            4,
        );
        let data = generate(&c, &BotRegistry::new(), &|| {}).unwrap();
        assert!(data.labels.iter().zip(&data.played).any(|(l, p)| l != p));
        for (&g, &s) in data.games.iter().zip(&data.seats) {
            let setup = game_setup(&c.arena, g).unwrap();
            assert_eq!(setup.entry_of_seat[s as usize], 0);
        }
    }

    /// A searching teacher's values come with its labels: the label is the first card of
    /// highest value, and only legal cards have values.
    #[test]
    fn a_search_teachers_values_agree_with_its_labels() {
        let c = config(Variant::FourPlayer, &["pimc:8", "heuristic"], "pimc:8", 2);
        let data = generate(&c, &BotRegistry::new(), &|| {}).unwrap();
        let a = Variant::FourPlayer.num_actions();
        let mut searched = 0;
        for i in 0..data.len() {
            let row = &data.values[i * a..(i + 1) * a];
            let valued: Vec<usize> = (0..a).filter(|&k| !row[k].is_nan()).collect();
            if valued.is_empty() {
                continue;
            }
            searched += 1;
            let best = valued
                .iter()
                .copied()
                .fold(valued[0], |b, k| if row[k] > row[b] { k } else { b });
            assert_eq!(best, data.labels[i] as usize);
            for k in valued {
                assert!(CardSet(data.legal[i]).contains(Card::new(k as u8).unwrap()));
            }
        }
        assert!(searched > 10);
    }

    /// The same configuration gives the same dataset on 1 and 2 threads.
    #[test]
    fn the_dataset_does_not_depend_on_the_thread_count() {
        let one = config(Variant::ThreePlayer, &["pimc:5", "random"], "pimc:5", 6);
        let mut two = one.clone();
        two.arena.threads = 2;
        let (a, b) = (
            generate(&one, &BotRegistry::new(), &|| {}).unwrap(),
            generate(&two, &BotRegistry::new(), &|| {}).unwrap(),
        );
        let bits = |d: &Dataset| d.values.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&a), bits(&b));
        assert_eq!(
            (
                &a.observations,
                &a.legal,
                &a.labels,
                &a.played,
                &a.heuristic,
                &a.games,
                &a.seats
            ),
            (
                &b.observations,
                &b.legal,
                &b.labels,
                &b.played,
                &b.heuristic,
                &b.games,
                &b.seats
            )
        );
    }

    #[test]
    fn bad_labelled_entries_and_teachers_are_refused() {
        let mut c = config(
            Variant::FourPlayer,
            &["heuristic", "random"],
            "heuristic",
            2,
        );
        c.labelled = vec![2];
        let e = generate(&c, &BotRegistry::new(), &|| {})
            .unwrap_err()
            .to_string();
        assert!(e.contains("labelled entry 2"), "{e}");
        c.labelled = vec![0];
        c.teacher = "oracle".into();
        let e = generate(&c, &BotRegistry::new(), &|| {})
            .unwrap_err()
            .to_string();
        assert!(e.contains("unknown bot 'oracle'"), "{e}");
    }
}
