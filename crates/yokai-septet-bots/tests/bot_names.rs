//! Bot names are parsed once (`src/bots/spec.rs`): every built-in name round-trips through
//! its [`BotSpec`], a malformed name gets an error naming the part that is wrong, and no
//! other file of `src/` splits a name on `:` or `/` again.

use std::path::Path;

use yokai_septet::Variant;
use yokai_septet_bots::{
    bot_by_name, bot_names_help, BotError, BotRegistry, BotSpec, BotSpecError, Budget, Family,
    PassPicks, BOT_NAMES, BUILT_IN_BOTS,
};

/// A model path for the forms that name one (`PATH`): slashes and a colon included.
const PATH: &str = "runs/nn/a:b.safetensors";

/// The names of the help texts, the docs and the registry's tests: every form of
/// [`BOT_NAMES`] with its placeholders filled, the ladder's entrants, the help's examples,
/// and the names the registry's and the searches' tests build.
fn built_in_names() -> Vec<String> {
    let mut names: Vec<String> = BOT_NAMES
        .iter()
        .flat_map(|form| {
            [
                form.replace(":N", ":8").replace("PATH", PATH),
                form.replace(":N", ":20ms").replace("PATH", PATH),
            ]
        })
        .collect();
    names.extend(BUILT_IN_BOTS.iter().map(|n| n.to_string()));
    for example in [
        "pimc-inf",
        "ismcts-inf:5000",
        "pimc:200/1400",
        "ismcts:5000/nn",
        "ismcts-nn:4600/nn:PATH",
        "pimc-dd-inf:8",
        "ismcts-nn-inf:4600",
        "pimc:12/300",
        "pimc:20ms/300",
        "pimc-random:12",
        "pimc-random-inf:12",
        "pimc-dd:5ms",
        "epimc:3",
        "epimc-inf:3",
        "pimc-inf:12/300",
        "pimc-dd-inf:3/nn",
        "ismcts-inf:30/140",
        "ismcts:300:classic",
        "ismcts:300:reuse",
        "ismcts:300:t4",
        "ismcts:20ms:classic:reuse:t2",
        "ismcts:300:v100",
        "ismcts:300:v50:t2",
        "ismcts:300:v100:fade",
        "ismcts:300:classic:v50",
        "ismcts:300:v30@PATH",
        "ismcts:300:v50:t2@PATH",
        "ismcts:800/nn:t2",
        "ismcts-inf:80:t2",
        "ismcts-nn:30/40:PATH",
        "ismcts-nn:9ms/nn:PATH",
        "ismcts-nn:./12/x.safetensors",
        "nn:PATH",
    ] {
        names.push(example.replace("PATH", PATH));
    }
    for name in bot_names_help().split([' ', ',', ';', '(', ')']) {
        // the help's own examples: names without a placeholder
        let name = name.trim_end_matches('.');
        if name.parse::<BotSpec>().is_ok() && !name.contains(['N', 'P', 'W', 'T']) {
            names.push(name.to_string());
        }
    }
    names
}

#[test]
fn every_built_in_name_round_trips_through_its_spec() {
    let names = built_in_names();
    assert!(names.len() > 60, "{}", names.len());
    for name in &names {
        let spec: BotSpec = name.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&spec.to_string(), name);
        assert_eq!(spec.to_string().parse::<BotSpec>().unwrap(), spec);
    }
}

/// The bots built from a name and from its spec are the same bot, and a bot's own name
/// is a canonical name: it round-trips too.
#[test]
fn a_bot_built_from_its_spec_is_the_bot_of_its_name() {
    let registry = BotRegistry::new();
    let v = Variant::FourPlayer;
    for name in built_in_names() {
        let built = match registry.build(&name, 3, v) {
            Ok(bot) => bot,
            // a missing model file, or the shipped models of a build without them
            Err(BotError::Weights { .. } | BotError::NoShippedModels { .. }) => continue,
            Err(e) => panic!("{name}: {e}"),
        };
        let spec: BotSpec = name.parse().unwrap();
        let from_spec = registry.build_spec(&spec, 3, v).unwrap();
        assert_eq!(from_spec.name(), built.name(), "{name}");
        let own = built.name();
        assert_eq!(own.parse::<BotSpec>().unwrap().to_string(), own);
    }
}

/// Model files of both kinds in the test's temporary folder: a 4p policy (`nn:PATH`,
/// `ismcts-nn`'s guide) and a 4p value model (`ismcts`'s `@PATH`), both all zeros.
fn model_files() -> (String, String) {
    use yokai_septet_bots::{Inputs, Mlp, ValueNet};
    let v = Variant::FourPlayer;
    let dir = std::env::temp_dir().join(format!("ys-bot-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (inputs, actions) = (
        yokai_septet::observation::observation_size(v),
        v.num_actions(),
    );
    let policy = Mlp::new(v, vec![(vec![0.0; inputs * actions], vec![0.0; actions])]).unwrap();
    let width = Inputs::ObservationAndHands.size(v);
    let value = ValueNet::new(v, vec![(vec![0.0; 4 * width], vec![0.0; 4])]).unwrap();
    let policy_path = dir.join("policy.safetensors");
    let value_path = dir.join("value.safetensors");
    std::fs::write(&policy_path, policy.to_bytes()).unwrap();
    std::fs::write(&value_path, value.to_bytes()).unwrap();
    let text = |p: std::path::PathBuf| p.display().to_string();
    (text(policy_path), text(value_path))
}

/// Every name a built-in bot reports is one the registry builds, and the spec it was
/// built from: for every family and modifier (each bare name, count and time budgets,
/// pass suffixes, `ismcts` options and threads, `-inf`, model files), the bot's
/// [`Bot::spec`](yokai_septet_bots::Bot::spec) is its name's spec with the family's
/// default budget filled in, and its name parses back to it.
#[test]
fn every_built_bot_names_the_spec_it_was_built_from() {
    use yokai_septet_bots::{bare_bot_names, with_threads};
    let (policy, value) = model_files();
    let mut names = bare_bot_names();
    names.extend(bare_bot_names().iter().map(|n| with_threads(n, 2)));
    names.extend(built_in_names());
    for form in [
        "nn:POLICY",
        "ismcts-nn:POLICY",
        "ismcts-nn:30:POLICY",
        "ismcts-nn:9ms/nn:POLICY",
        "ismcts-nn-inf:30/40:POLICY",
        "ismcts:300:v30@VALUE",
        "ismcts-inf:300:reuse:v50:fade:t2@VALUE",
        "ismcts:20ms/nn:classic:v40:t3@VALUE",
        "pimc-random-inf:5ms",
        "epimc-inf:5ms/nn",
        "pimc-dd:4/12",
        "pimc-inf:8ms/nn",
    ] {
        names.push(form.replace("POLICY", &policy).replace("VALUE", &value));
    }
    let registry = BotRegistry::new();
    let mut checked = 0;
    for name in &names {
        let bot = match registry.build(name, 3, Variant::FourPlayer) {
            Ok(bot) => bot,
            // a missing model file, or the shipped models of a build without them
            Err(BotError::Weights { .. } | BotError::NoShippedModels { .. }) => continue,
            Err(e) => panic!("{name}: {e}"),
        };
        let spec = name.parse::<BotSpec>().unwrap().with_default_budget();
        assert_eq!(bot.spec().as_ref(), Some(&spec), "{name}");
        assert_eq!(bot.name(), spec.to_string(), "{name}");
        assert_eq!(bot.name().parse::<BotSpec>(), Ok(spec), "{name}");
        checked += 1;
    }
    let least = if cfg!(feature = "models") { 90 } else { 50 };
    assert!(checked > least, "{checked} of {}", names.len());
}

/// `pimc:8/x` and `pimc:8/0` are wrong in the same part for different reasons: each
/// error names the pass suffix and says why.
#[test]
fn a_bad_pass_suffix_and_a_zero_one_get_different_errors_naming_the_part() {
    let x = "pimc:8/x".parse::<BotSpec>().unwrap_err();
    let zero = "pimc:8/0".parse::<BotSpec>().unwrap_err();
    assert_eq!(x, BotSpecError::BadPassSuffix { suffix: "x".into() });
    assert_eq!(zero, BotSpecError::ZeroPassPlayouts);
    assert_ne!(x.to_string(), zero.to_string());
    assert!(x.to_string().contains("pass suffix '/x'"), "{x}");
    assert!(zero.to_string().contains("pass suffix '/0'"), "{zero}");
    // The registry's error carries the spec error and the name.
    let e = bot_by_name("pimc:8/x", 0, Variant::FourPlayer)
        .err()
        .unwrap();
    assert_eq!(
        e,
        BotError::Spec {
            name: "pimc:8/x".into(),
            error: x
        }
    );
    assert!(e.to_string().contains("'pimc:8/x'") && e.to_string().contains("'/x'"));
}

/// Each part of a name has its own error, which names the part as written (here as the
/// error's `Debug` text), and its own message.
#[test]
fn each_bad_part_of_a_name_gets_its_own_error() {
    let cases = [
        ("stockfish:3", r#"UnknownFamily { head: "stockfish" }"#),
        ("random-inf", r#"NoInference { head: "random" }"#),
        (
            "heuristic:2",
            r#"TakesNoArgument { head: "heuristic", arg: "2" }"#,
        ),
        ("pimc:", "MissingBudget"),
        ("pimc:x", r#"BadBudget { budget: "x" }"#),
        ("pimc:0", r#"ZeroBudget { budget: "0" }"#),
        ("pimc-dd:0ms", r#"ZeroBudget { budget: "0ms" }"#),
        (
            "pimc:99999999999",
            r#"BudgetTooLarge { budget: "99999999999" }"#,
        ),
        (
            "pimc:10:/etc/passwd",
            r#"BadBudget { budget: "10:/etc/passwd" }"#,
        ),
        (
            "pimc-random:1/nn",
            r#"NoPassSuffix { head: "pimc-random" }"#,
        ),
        ("ismcts:300:x", r#"UnknownOption { option: "x" }"#),
        ("ismcts:300:", r#"UnknownOption { option: "" }"#),
        (
            "ismcts:300:reuse:reuse",
            r#"RepeatedOption { option: "reuse" }"#,
        ),
        ("ismcts:300:t2:t3", r#"RepeatedOption { option: "t3" }"#),
        ("ismcts:300:v101", r#"BadValueWeight { option: "v101" }"#),
        ("ismcts:300:v050", r#"BadValueWeight { option: "v050" }"#),
        ("ismcts:300:tx", r#"BadThreads { option: "tx" }"#),
        ("ismcts:300:t02", r#"BadThreads { option: "t02" }"#),
        ("ismcts:300:t0", "ZeroThreads"),
        ("ismcts:300@m.safetensors", "ValueModelWithoutWeight"),
        ("ismcts:300:v50@", r#"MissingModel { head: "ismcts" }"#),
        ("nn:", r#"MissingModel { head: "nn" }"#),
        ("ismcts-nn:7:", r#"MissingModel { head: "ismcts-nn" }"#),
        ("ismcts:classic", r#"BadBudget { budget: "classic" }"#),
    ];
    let mut messages = std::collections::BTreeSet::new();
    for (name, want) in cases {
        let e = name.parse::<BotSpec>().unwrap_err();
        assert_eq!(format!("{e:?}"), want, "{name}");
        assert!(messages.insert(e.to_string()), "{name}: {e}");
    }
}

/// The fields a name sets, as the registry and the server read them.
#[test]
fn a_spec_holds_each_part_of_its_name() {
    let spec: BotSpec = "pimc-dd-inf:20ms/nn".parse().unwrap();
    assert_eq!(spec.family, Family::PimcDd);
    assert!(spec.infers);
    assert_eq!(spec.budget, Some(Budget::Millis(20)));
    assert_eq!(spec.pass, PassPicks::Learned);
    assert!(spec.options.is_empty() && spec.model.is_none());
    let bare: BotSpec = "ismcts-nn".parse().unwrap();
    assert_eq!(bare, BotSpec::bare(Family::IsmctsNn));
}

/// The files of the crates' `src/` that split text on `:` or `/` which is not a bot name,
/// and why.
const NOT_BOT_NAMES: &[(&str, &str)] = &[
    (
        "yokai-septet-bots/src/spec.rs",
        "the one parser of bot names",
    ),
    (
        "yokai-septet-web/src/guard.rs",
        "a Host header's `host:port`",
    ),
    (
        "yokai-septet-vector/src/pool/cores.rs",
        "/proc/cpuinfo lines and cgroup paths",
    ),
];

/// The calls that take a bot name apart by its separators.
fn splitting_calls() -> Vec<String> {
    let mut calls = Vec::new();
    for sep in [':', '/', '@'] {
        for call in ["split", "split_once", "rsplit", "rsplit_once"] {
            calls.push(format!("{call}('{sep}')"));
            calls.push(format!("{call}(\"{sep}\")"));
        }
        calls.push(format!("splitn(2, '{sep}')"));
    }
    for suffix in ["\"ms\"", "\"-inf\"", "INFER_MODIFIER"] {
        calls.push(format!("strip_suffix({suffix})"));
    }
    calls
}

/// The places of `files` (path, text) outside [`NOT_BOT_NAMES`] that split on a bot name's
/// separators, as `path:line: call`.
fn name_splitters(files: &[(String, String)]) -> Vec<String> {
    let calls = splitting_calls();
    let mut found = Vec::new();
    for (path, text) in files {
        if NOT_BOT_NAMES.iter().any(|(p, _)| p == path) {
            continue;
        }
        for (n, line) in text.lines().enumerate() {
            for call in &calls {
                if line.contains(call.as_str()) {
                    found.push(format!("{path}:{}: {call}", n + 1));
                }
            }
        }
    }
    found
}

fn read_tree(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            read_tree(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path
                .strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&path).unwrap()));
        }
    }
}

#[test]
fn no_file_but_the_spec_splits_a_bot_name() {
    // Every crate of the workspace: crates/*/src.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = Vec::new();
    for krate in std::fs::read_dir(root).unwrap() {
        let src = krate.unwrap().path().join("src");
        if src.is_dir() {
            read_tree(&src, root, &mut files);
        }
    }
    assert!(files
        .iter()
        .any(|(p, _)| p == "yokai-septet-bots/src/spec.rs"));
    for (path, why) in NOT_BOT_NAMES {
        assert!(
            files.iter().any(|(p, _)| p == path),
            "{path} ({why}) is gone"
        );
    }
    let found = name_splitters(&files);
    assert!(
        found.is_empty(),
        "bot names split outside spec.rs:\n{}",
        found.join("\n")
    );
}

#[test]
fn the_split_check_finds_a_name_split_outside_the_spec() {
    let file = |path: &str, text: &str| (path.to_string(), text.to_string());
    let files = [
        file(
            "yokai-septet-web/src/bots.rs",
            "let (head, arg) = name.split_once(':')?;",
        ),
        file(
            "yokai-septet-bots/src/hint.rs",
            "let ms = budget.strip_suffix(\"ms\");",
        ),
        file(
            "yokai-septet-bots/src/spec.rs",
            "let (head, arg) = name.split_once(':')?;",
        ),
        file("yokai-septet-web/src/guard.rs", "host.split_once(':')"),
        file("yokai-septet-bots/src/pimc.rs", "let s = name.to_string();"),
    ];
    assert_eq!(
        name_splitters(&files),
        [
            "yokai-septet-web/src/bots.rs:1: split_once(':')",
            "yokai-septet-bots/src/hint.rs:1: strip_suffix(\"ms\")"
        ]
    );
}
