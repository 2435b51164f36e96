//! The sampling schemes of `docs/inference.md` measured against each other: `pimc-inf`
//! draws its worlds from the belief model, `pimc-infw` (built here, not by the registry)
//! draws them uniformly and weights each by its probability under the belief.
//!
//! `cargo run --release -p yokai-septet-bots --example belief_schemes -- arena GAMES BOT,BOT SEED THREADS`
//! plays a duplicate `4p` arena (the command-line arena's settings and seeds) where
//! `pimc-infw:N` is also a name, e.g. `arena 400 pimc-inf:100,pimc-infw:100 4731 2`.
//!
//! `cargo run --release -p yokai-septet-bots --example belief_schemes -- ess GAMES SEED PLAYOUTS` plays
//! `pimc:100` self-play games (two rounds) and, at every play decision with two cards or
//! more, draws the worlds `pimc-infw:PLAYOUTS` would (PLAYOUTS over the legal cards) and
//! prints the mean effective sample size of their weights over their number (Kish), by
//! phase: why weighting does what it does.
//!
//! With `BELIEF_MODEL=PATH`, a model file (`training/train_belief.py`'s output) takes the
//! shipped model's place: `pimc-infw:N` weighs by it, and `model:NAME` is the `-inf` bot
//! `NAME` (`model:pimc-inf:100`, `model:ismcts-inf:1000`) drawing from it, so that a
//! candidate is measured before it is installed (installed, the plain names replay the
//! same games).
use std::sync::{Arc, OnceLock};

use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use yokai_septet::belief::{effective_sample_fraction, normalized_weights, BeliefSampler};
use yokai_septet::sampler::Sampler;
use yokai_septet::{CardSet, GameConfig, Phase, State, Variant};
use yokai_septet_bots::arena::{run_arena, ArenaConfig};
use yokai_septet_bots::{
    bot_by_name, BeliefNet, BeliefScratch, BeliefSource, Bot, BotRegistry, Budget, PimcBot,
    PimcConfig,
};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.into());
    match arg(0, "arena").as_str() {
        "arena" => arena(
            arg(1, "400").parse().expect("GAMES"),
            &arg(2, "pimc-inf:100,pimc-infw:100"),
            arg(3, "4731").parse().expect("SEED"),
            arg(4, "2").parse().expect("THREADS"),
        ),
        "ess" => ess(
            arg(1, "40").parse().expect("GAMES"),
            arg(2, "4740").parse().expect("SEED"),
            arg(3, "100").parse().expect("PLAYOUTS"),
        ),
        other => eprintln!("unknown mode {other}: arena or ess"),
    }
}

/// The belief model: the file `BELIEF_MODEL` names, or the shipped one.
fn source() -> BeliefSource {
    static MODEL: OnceLock<Option<Arc<BeliefNet>>> = OnceLock::new();
    let model = MODEL.get_or_init(|| {
        let path = std::env::var_os("BELIEF_MODEL")?;
        let net =
            BeliefNet::load(std::path::Path::new(&path)).expect("BELIEF_MODEL is a belief model");
        Some(Arc::new(net))
    });
    match model {
        Some(net) => BeliefSource::Model(net.clone()),
        None => BeliefSource::Shipped,
    }
}

/// The registry of the built-in bots, `pimc-infw:BUDGET` and `model:NAME`.
fn registry() -> BotRegistry {
    let mut registry = BotRegistry::new();
    registry.register(Arc::new(|name: &str, seed| {
        let budget = name.strip_prefix("pimc-infw:")?;
        let config = PimcConfig::default().with_budget(budget.parse::<Budget>().ok()?);
        let mut bot = PimcBot::new(config, seed);
        bot.weigh_uniform_worlds(source());
        Some(Ok(Box::new(bot) as Box<dyn Bot>))
    }));
    registry.register(Arc::new(|name: &str, seed| {
        let name = name.strip_prefix("model:")?;
        let registry = BotRegistry::new().with_belief(source());
        Some(registry.build(name, seed, Variant::FourPlayer))
    }));
    registry
}

fn arena(games: u64, lineup: &str, seed: u64, threads: usize) {
    let bots: Vec<&str> = lineup.split(',').collect();
    let mut config = ArenaConfig::new(Variant::FourPlayer, &bots, games, seed);
    config.threads = threads;
    match run_arena(&config, &registry(), &|| {}) {
        Ok(report) => {
            println!("{report}");
            println!("{}", serde_json::to_string(&report.summary).unwrap());
        }
        Err(e) => eprintln!("{e}"),
    }
}

fn ess(games: u64, seed: u64, playouts: u32) {
    let variant = Variant::FourPlayer;
    let model = source();
    let net = model.model(variant).expect("a 4p belief model");
    let mut scratch = BeliefScratch::default();
    let (mut uniform, mut weighted) = (Sampler::new(), BeliefSampler::new());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // [early, mid, late, all]: sum of ESS/N and decisions.
    let mut sums = [(0.0f64, 0u64); 4];
    for game in 0..games {
        let mut bots: Vec<_> = (0..4)
            .map(|p| bot_by_name("pimc:100", seed * 1000 + game * 4 + p, variant).unwrap())
            .collect();
        let config = GameConfig::new(variant, seed * 1000 + game).with_max_rounds(Some(2));
        let mut s = State::new(config);
        let dealt = s.hand(0).len().max(1) as f64;
        while let Some(p) = s.current_player() {
            let view = s.view(p);
            let k = view.legal_actions().len() as u32;
            if s.phase() == Phase::Play && k > 1 {
                weighted.prepare(&view, &net.belief(&view, &mut scratch));
                let logs: Vec<f64> = (0..(playouts / k).max(1))
                    .map(|_| {
                        let world = uniform.sample(&view, &mut rng);
                        let hands: [CardSet; 4] = std::array::from_fn(|q| world.hand(q));
                        weighted.log_probability(&hands)
                    })
                    .collect();
                let fraction = effective_sample_fraction(&normalized_weights(&logs));
                let share = view.hand().len() as f64 / dealt;
                let phase = if share > 0.75 {
                    0
                } else if share > 0.4 {
                    1
                } else {
                    2
                };
                for i in [phase, 3] {
                    sums[i].0 += fraction;
                    sums[i].1 += 1;
                }
            }
            let card = bots[p].act(&view).unwrap();
            s.apply(card).unwrap();
        }
    }
    for (name, (sum, n)) in ["early", "mid", "late", "all"].iter().zip(sums) {
        println!(
            "{name}: mean ESS/N {:.3} over {n} decisions",
            sum / n.max(1) as f64
        );
    }
}
