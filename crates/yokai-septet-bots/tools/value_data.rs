//! Generates the training data of a value model (`training/train_value.py` runs it): the
//! positions of self-play arena games with each seat's round value
//! ([`yokai_septet_bots::arena::value_data`]), written as one safetensors file.
//!
//! `cargo run --release -p yokai-septet-bots --example value_data -- --variant 4p --bots ismcts:1000
//! --games 2000 --seed 5801 --max-rounds 4 --threads 0 --out runs/value-4p/data.safetensors`
//!
//! `--bots` is the arena's line-up (comma-separated names, one per side or seat). The
//! file's tensors are the dataset's fields (`row_starts`, `columns`, `values`: the inputs
//! as compressed sparse rows; `targets` and `playout` `[positions, players]`; `hand_len`; `games`), its
//! metadata the arguments that made it. The same arguments give the same file at any
//! thread count.
use std::collections::HashMap;

use safetensors::tensor::{Dtype, TensorView};
use yokai_septet::Variant;
use yokai_septet_bots::arena::value_data::generate;
use yokai_septet_bots::arena::ArenaConfig;
use yokai_septet_bots::BotRegistry;

fn bytes<T: Copy>(values: &[T], to_le: impl Fn(T) -> Vec<u8>) -> Vec<u8> {
    values.iter().flat_map(|&v| to_le(v)).collect()
}

fn main() {
    let usage = "usage: value_data --variant V --bots NAMES --games N --seed S \
                 [--max-rounds R] [--threads T] --out FILE";
    let mut flags: HashMap<String, String> = HashMap::new();
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let name = flag.strip_prefix("--").unwrap_or_else(|| panic!("{usage}"));
        flags.insert(
            name.to_string(),
            args.next().unwrap_or_else(|| panic!("{usage}")),
        );
    }
    let get = |k: &str| {
        flags
            .get(k)
            .unwrap_or_else(|| panic!("--{k} is missing; {usage}"))
    };
    let variant: Variant = get("variant")
        .parse()
        .expect("a variant: 4p, 3p, seal, seal-short");
    let bots: Vec<&str> = get("bots").split(',').collect();
    let games: u64 = get("games").parse().expect("--games: a count");
    let seed: u64 = get("seed").parse().expect("--seed: a number");
    let mut arena = ArenaConfig::new(variant, &bots, games, seed);
    // 0: no cap, as the arena command reads it.
    arena.max_rounds = flags
        .get("max-rounds")
        .map(|r| r.parse().expect("--max-rounds: a count"))
        .filter(|&r| r > 0);
    arena.threads = flags
        .get("threads")
        .map_or(0, |t| t.parse().expect("--threads: a count"));
    let t0 = std::time::Instant::now();
    let data = generate(&arena, &BotRegistry::new(), &|| {}).unwrap_or_else(|e| panic!("{e}"));
    let rows = data.len();
    let fields: Vec<(&str, Dtype, Vec<usize>, Vec<u8>)> = vec![
        (
            "row_starts",
            Dtype::U64,
            vec![rows + 1],
            bytes(&data.row_starts, |v| v.to_le_bytes().to_vec()),
        ),
        (
            "columns",
            Dtype::U16,
            vec![data.columns.len()],
            bytes(&data.columns, |v| v.to_le_bytes().to_vec()),
        ),
        (
            "values",
            Dtype::U8,
            vec![data.values.len()],
            data.values.clone(),
        ),
        (
            "targets",
            Dtype::F32,
            vec![rows, data.players],
            bytes(&data.targets, |v| v.to_le_bytes().to_vec()),
        ),
        (
            "playout",
            Dtype::F32,
            vec![rows, data.players],
            bytes(&data.playout, |v| v.to_le_bytes().to_vec()),
        ),
        ("hand_len", Dtype::U8, vec![rows], data.hand_len.clone()),
        (
            "games",
            Dtype::U64,
            vec![rows],
            bytes(&data.games, |v| v.to_le_bytes().to_vec()),
        ),
    ];
    let views: Vec<(&str, TensorView<'_>)> = fields
        .iter()
        .map(|(name, dtype, shape, b)| {
            (
                *name,
                TensorView::new(*dtype, shape.clone(), b).expect("sized"),
            )
        })
        .collect();
    let mut meta = HashMap::new();
    for key in ["variant", "bots", "games", "seed"] {
        meta.insert(key.to_string(), get(key).clone());
    }
    meta.insert(
        "max_rounds".into(),
        flags.get("max-rounds").cloned().unwrap_or_default(),
    );
    meta.insert("input_size".into(), data.input_size.to_string());
    meta.insert("inputs".into(), "observation+hands".into());
    let out = get("out");
    if let Some(dir) = std::path::Path::new(out).parent() {
        std::fs::create_dir_all(dir).expect("the output's folder");
    }
    safetensors::serialize_to_file(views, Some(meta), std::path::Path::new(out))
        .unwrap_or_else(|e| panic!("cannot write {out}: {e}"));
    eprintln!(
        "{rows} positions from {} games in {:.1} s -> {out}",
        arena.total_games(),
        t0.elapsed().as_secs_f64()
    );
}
