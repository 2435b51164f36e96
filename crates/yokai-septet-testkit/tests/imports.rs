//! What the crates' boundaries cannot say about the workspace's layout: no import circles
//! between the modules of one crate, the folders of a crate that stack, no bot built by
//! its type outside the bots' modules, and no source file too long. (Between crates the
//! compiler refuses what a manifest does not allow; `arrows.rs` checks the manifests
//! against docs/architecture.md.)
//!
//! Inside a crate, a module is one file (`crates/yokai-septet/src/rules/state.rs` is
//! `rules::state`, a folder's `mod.rs` the folder, `lib.rs` the crate root). Module `a`
//! depends on module `b` when `a`'s code names something of `b`: a `use` path or a path
//! written in the code (`crate::rng::…`, `super::…`, a child module's `child::…`), a name
//! reached through a re-export (`pub use`) counting as a use of the module that defines it.
//! Test-only code (`#[cfg(test)]` items and modules) is left out. A parent's uses of its
//! children are edges like any other (declaring a child with `mod child;` is not a use).
//!
//! A circle is a loop of such edges that leaves a folder and comes back: its modules'
//! nearest common ancestor is not one of them (`game::bot` → `game::table` →
//! `game::table::play` → `game::bot` is one, through the parent's use of its child). A
//! loop between a folder's `mod.rs` and the files under it (the `mod.rs` calling a file
//! that names the `mod.rs`'s types) stays inside that folder, which is its unit: not a
//! circle. None is accepted.
//!
//! Folders stack: in the crates of [`FOLDER_ORDER`], each folder of `src/` (a top-level
//! file such as `rng.rs` counts as one) names only folders below it, so the crate reads
//! bottom to top (docs/architecture.md draws it). A module-level check cannot see a circle
//! between folders, which is why the folder order is checked on its own.
//!
//! The check reads the source with the test kit's small reader of Rust source
//! (`rust_source`: comments, strings and test code dropped), so it costs a few
//! milliseconds.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use yokai_septet_testkit::rust_source::{ident, tokenize, use_tree, without_tests, Tok};
use yokai_septet_testkit::workspace::{crate_folders, crates_dir};

/// The folders of a crate's `src/`, bottom to top: a folder's code may name only the
/// folders before it. `"*"` stands for every folder not named (the crate root's own
/// modules among them); without it, a new folder must be placed here before the test
/// passes, and the crate root is the top (it only declares and re-exports). Peers (the
/// engine's foundations; `infoset` and `record`) are in the order too, so that a new
/// import between them is a choice made here, not by accident.
#[rustfmt::skip]
const FOLDER_ORDER: &[(&str, &[&str])] = &[
    ("yokai-septet", &[
        // Foundations: no imports inside the crate.
        "simd", "names", "rng", "files", "cores",
        // The game.
        "cards", "error", "rules",
        // The settings tables' mechanism and the game's own rows (they name the rules'
        // variants, scorings and episodes), below every table that includes them.
        "settings",
        // What one seat knows, what happened.
        "infoset", "record",
        // The encoders of a view and a state.
        "encoding",
    ]),
    // The bots (the crate root's own modules), the analysis of a game (its estimates
    // play on with the heuristic), the arenas that seat them.
    ("yokai-septet-bots", &["*", "analysis", "arena"]),
    // The pool of stepping threads, below the vector env that steps on it.
    ("yokai-septet-vector", &["pool", "*"]),
];

/// One module's source, read.
struct Module {
    /// Paths it uses (as written), and whether each is a re-export.
    uses: Vec<(Vec<String>, bool)>,
}

/// Every module of the source tree `files` (path relative to `src/`, text), test-only
/// modules left out. The crate root (`lib.rs`) is the module with the empty path.
fn modules(files: &[(String, String)]) -> BTreeMap<Vec<String>, Module> {
    let mut out = BTreeMap::new();
    let mut test_only = Vec::new();
    for (path, text) in files {
        let mut parts: Vec<String> = path.split('/').map(String::from).collect();
        if parts[0] == "bin" {
            continue;
        }
        let file = parts.pop().expect("a file name");
        if file != "mod.rs" && file != "lib.rs" {
            parts.push(file.trim_end_matches(".rs").to_string());
        }
        let (t, test_children) = without_tests(tokenize(text));
        test_only.extend(test_children.into_iter().map(|c| {
            let mut m = parts.clone();
            m.push(c);
            m
        }));
        let mut uses = Vec::new();
        let mut i = 0;
        while i < t.len() {
            if ident(t.get(i)) == Some("use") {
                let public = ident(t.get(i.wrapping_sub(1))) == Some("pub")
                    || (t.get(i.wrapping_sub(1)) == Some(&Tok::P(')'))
                        && ident(t.get(i.wrapping_sub(4))) == Some("pub"));
                let mut leaves = Vec::new();
                i = use_tree(&t, i + 1, &[], &mut leaves);
                uses.extend(leaves.into_iter().map(|l| (l, public)));
                continue;
            }
            // A path written in the code: a chain of identifiers joined by `::`.
            if let Some(first) = ident(t.get(i)) {
                let after_path = i > 0 && t[i - 1] == Tok::Path;
                if !after_path && t.get(i + 1) == Some(&Tok::Path) {
                    let mut chain = vec![first.to_string()];
                    let mut j = i + 1;
                    while t.get(j) == Some(&Tok::Path) {
                        match ident(t.get(j + 1)) {
                            Some(s) => chain.push(s.to_string()),
                            None => break,
                        }
                        j += 2;
                    }
                    uses.push((chain, false));
                    i = j;
                    continue;
                }
            }
            i += 1;
        }
        out.insert(parts, Module { uses });
    }
    out.retain(|m, _| !test_only.iter().any(|t| m.starts_with(t)));
    out
}

/// `path` as written in `module`, from the crate root; `None` for another crate's path.
fn absolute(
    mods: &BTreeMap<Vec<String>, Module>,
    module: &[String],
    path: &[String],
) -> Option<Vec<String>> {
    let mut base = module.to_vec();
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => return Some(path[1..].to_vec()),
        Some("self") => rest = &path[1..],
        Some("super") => {
            while rest.first().map(String::as_str) == Some("super") {
                base.pop();
                rest = &rest[1..];
            }
        }
        Some(child) => {
            let mut m = module.to_vec();
            m.push(child.to_string());
            if !mods.contains_key(&m) {
                return None;
            }
        }
        None => return None,
    }
    base.extend_from_slice(rest);
    Some(base)
}

/// The module that defines what the absolute `path` names, through re-exports.
fn resolve(
    mods: &BTreeMap<Vec<String>, Module>,
    reexports: &BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>>,
    path: &[String],
    depth: usize,
) -> Option<Vec<String>> {
    let k = (0..=path.len())
        .rev()
        .find(|&k| mods.contains_key(&path[..k]))?;
    let module = path[..k].to_vec();
    if let (Some(name), true) = (path.get(k), depth < 16) {
        if let Some(target) = reexports.get(&module).and_then(|r| r.get(name)) {
            let mut next = target.clone();
            next.extend_from_slice(&path[k + 1..]);
            if let Some(m) = resolve(mods, reexports, &next, depth + 1) {
                return Some(m);
            }
        }
    }
    Some(module)
}

/// The dependency graph between the modules of `files` (see the module docs).
fn graph(files: &[(String, String)]) -> BTreeMap<String, BTreeSet<String>> {
    let mods = modules(files);
    let mut reexports: BTreeMap<Vec<String>, BTreeMap<String, Vec<String>>> = BTreeMap::new();
    for (name, m) in &mods {
        for (path, public) in &m.uses {
            if let (true, Some(abs)) = (*public, absolute(&mods, name, path)) {
                let leaf = path.last().expect("a path has a name").clone();
                reexports.entry(name.clone()).or_default().insert(leaf, abs);
            }
        }
    }
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, m) in &mods {
        let deps = g.entry(name.join("::")).or_default();
        for (path, public) in &m.uses {
            if *public {
                continue;
            }
            let Some(abs) = absolute(&mods, name, path) else {
                continue;
            };
            if let Some(target) = resolve(&mods, &reexports, &abs, 0) {
                if &target != name {
                    deps.insert(target.join("::"));
                }
            }
        }
    }
    g
}

/// The strongly connected components of `g` of more than one module.
fn components(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    // Two modules share a component when each reaches the other.
    let reach = |from: &String| -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            for d in g.get(&m).into_iter().flatten() {
                if seen.insert(d.clone()) {
                    todo.push(d.clone());
                }
            }
        }
        seen
    };
    let reaches: BTreeMap<&String, BTreeSet<String>> = g.keys().map(|m| (m, reach(m))).collect();
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    for m in g.keys() {
        if out.iter().any(|c| c.contains(m)) {
            continue;
        }
        let component: BTreeSet<String> = reaches[m]
            .iter()
            .filter(|o| *o != m && reaches.get(*o).is_some_and(|r| r.contains(m)))
            .cloned()
            .chain([m.clone()])
            .collect();
        if component.len() > 1 {
            out.push(component);
        }
    }
    out
}

/// The child of module `parent` that module `m` lies under (`m` itself when a child),
/// `None` unless `m` is a strict descendant of `parent` (every module is one of the
/// crate root's, the module with the empty name).
fn child_under<'m>(parent: &str, m: &'m str) -> Option<&'m str> {
    let rest = if parent.is_empty() {
        (!m.is_empty()).then_some(m)?
    } else {
        m.strip_prefix(parent)?.strip_prefix("::")?
    };
    Some(rest.split("::").next().unwrap_or(rest))
}

/// The circles of `g` (see the module docs): for each module, the components of the graph
/// between its strict descendants that reach under two or more of its children. A circle
/// of modules that share an ancestor within the circle (a folder's `mod.rs` and its
/// files) is that folder's own business; one whose nearest common ancestor is not in it
/// leaves a folder and comes back, whatever its edges (a parent's use of its child, a
/// child's of its parent, or a use across the tree).
fn circles(g: &BTreeMap<String, BTreeSet<String>>) -> Vec<BTreeSet<String>> {
    let mut out: Vec<BTreeSet<String>> = Vec::new();
    let root = String::new();
    for parent in g.keys().chain([&root]) {
        let below = |m: &String| child_under(parent, m).is_some();
        let sub: BTreeMap<String, BTreeSet<String>> = g
            .iter()
            .filter(|(m, _)| below(m))
            .map(|(m, deps)| {
                (
                    m.clone(),
                    deps.iter().filter(|d| below(d)).cloned().collect(),
                )
            })
            .collect();
        for c in components(&sub) {
            let children: BTreeSet<&str> =
                c.iter().filter_map(|m| child_under(parent, m)).collect();
            if children.len() > 1 && !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// The folder of a module: its first path segment (`rl::vector::outputs` is in `rl`).
fn folder(module: &str) -> &str {
    module.split("::").next().unwrap_or(module)
}

/// The imports of `g` that go up `order`, and the folders of `g` missing from it, as
/// `from -> to` lines (see [`FOLDER_ORDER`] for `"*"` and the crate root).
fn upward_imports(g: &BTreeMap<String, BTreeSet<String>>, order: &[&str]) -> Vec<String> {
    let rest = order.iter().position(|f| *f == "*");
    let rank = |m: &str| order.iter().position(|f| *f == folder(m)).or(rest);
    let mut out = Vec::new();
    for (m, deps) in g {
        if m.is_empty() && rest.is_none() {
            continue;
        }
        let Some(from) = rank(m) else {
            out.push(format!(
                "{m}: folder `{}` is not in FOLDER_ORDER",
                folder(m)
            ));
            continue;
        };
        for d in deps {
            let up = rank(d).is_none_or(|to| to > from);
            if up && folder(d) != folder(m) {
                out.push(format!("{m} -> {d}"));
            }
        }
    }
    out
}

/// The built-in bots' types. Outside the bots' own modules (the bots crate's root modules:
/// not its `analysis/` and `arena/`, nor any other crate) a bot is built by name through
/// the registry (`BotRegistry::build`) and played through the `Bot` trait, never named by
/// its type.
const BOT_TYPES: &[&str] = &[
    "RandomBot",
    "HeuristicBot",
    "PimcBot",
    "PimcDdBot",
    "IsmctsBot",
    "NnBot",
];

/// The one use of a bot type allowed outside the bots' modules, as `Type::item`: the heuristic's
/// pick as a function of a view (an input of the `nn` models' imitation data, the
/// ladder's time estimate), which builds no bot.
const BOT_TYPE_ALLOWED: &[&str] = &["HeuristicBot::choose"];

/// Where a file of `files` (path from `crates/`) outside the bots' modules names a bot
/// type of [`BOT_TYPES`] (test code, comments, strings and `use` lines left out), as
/// `path: Type::item` lines.
fn bot_types_outside_bots(files: &[(String, String)]) -> Vec<String> {
    let mut out = Vec::new();
    for (path, text) in files {
        let bots = path.strip_prefix("yokai-septet-bots/src/");
        if bots.is_some_and(|p| !p.starts_with("analysis/") && !p.starts_with("arena/")) {
            continue;
        }
        let (t, _) = without_tests(tokenize(text));
        let mut in_use = false;
        for (i, tok) in t.iter().enumerate() {
            match tok {
                Tok::Ident(s) if s == "use" => in_use = true,
                Tok::P(';') => in_use = false,
                Tok::Ident(s) if !in_use && BOT_TYPES.contains(&s.as_str()) => {
                    let item = match (t.get(i + 1), ident(t.get(i + 2))) {
                        (Some(Tok::Path), Some(item)) => format!("{s}::{item}"),
                        _ => s.clone(),
                    };
                    if !BOT_TYPE_ALLOWED.contains(&item.as_str()) {
                        out.push(format!("{path}: {item}"));
                    }
                }
                _ => {}
            }
        }
    }
    out
}

fn read_tree(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    for entry in std::fs::read_dir(dir).expect("src/ is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            read_tree(&path, root, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let rel = path.strip_prefix(root).expect("under src/");
            let rel = rel.to_string_lossy().replace('\\', "/");
            out.push((rel, std::fs::read_to_string(&path).expect("a source file")));
        }
    }
}

/// The files of crate `name`'s `src/` (path relative to `src/`, text), its binary's
/// `main.rs` left out (it only calls the library).
fn src_files(name: &str) -> Vec<(String, String)> {
    let root = crates_dir().join(name).join("src");
    let mut files = Vec::new();
    read_tree(&root, &root, &mut files);
    files.retain(|(p, _)| p != "main.rs");
    files
}

/// The files of every crate's `src/`, each path from `crates/`.
fn all_src_files() -> Vec<(String, String)> {
    crate_folders()
        .iter()
        .flat_map(|c| {
            src_files(c)
                .into_iter()
                .map(move |(p, t)| (format!("{c}/src/{p}"), t))
        })
        .collect()
}

/// The longest a source file may grow before it is split by job.
const MAX_FILE_LINES: usize = 800;

#[test]
fn no_source_file_is_over_800_lines() {
    let long: Vec<String> = all_src_files()
        .into_iter()
        .filter(|(_, text)| text.lines().count() > MAX_FILE_LINES)
        .map(|(path, text)| format!("crates/{path}: {} lines", text.lines().count()))
        .collect();
    assert!(
        long.is_empty(),
        "split these files by job (docs/architecture.md): {long:#?}"
    );
}

#[test]
fn no_bot_is_reached_outside_bots_except_through_the_registry_and_the_trait() {
    let found = bot_types_outside_bots(&all_src_files());
    assert!(
        found.is_empty(),
        "bot types named outside the bots' modules (build them by name with BotRegistry and \
         play them through the Bot trait): {found:#?}"
    );
}

#[test]
fn the_bot_type_check_finds_a_bot_built_by_its_type() {
    let found = bot_types_outside_bots(&files(&[
        (
            "yokai-septet-bots/src/arena/a.rs",
            "use crate::bots::{HeuristicBot, PimcBot};\n\
             fn f(v: &SeatView) -> Card { HeuristicBot::choose(v) }\n\
             fn g() -> Box<dyn Bot> { Box::new(PimcBot::new(PimcConfig::default(), 1)) }\n\
             // IsmctsBot::new in a comment\n\
             #[cfg(test)]\nmod tests { fn t() { let _ = RandomBot::new(1); } }",
        ),
        (
            "yokai-septet-bots/src/b.rs",
            "fn h() { let _ = RandomBot::new(1); }",
        ),
        (
            "yokai-septet-web/src/c.rs",
            "fn h() { let _ = RandomBot::new(1); }",
        ),
    ]));
    assert_eq!(
        found,
        vec![
            "yokai-septet-bots/src/arena/a.rs: PimcBot::new".to_string(),
            "yokai-septet-web/src/c.rs: RandomBot::new".to_string(),
        ]
    );
}

#[test]
fn no_import_circles_between_the_modules_of_a_crate() {
    let mut found = Vec::new();
    for name in crate_folders() {
        let g = graph(&src_files(&name));
        if name == "yokai-septet" {
            assert!(g.contains_key("rules::state") && g["rules::state"].contains("rules::scoring"));
        }
        for c in circles(&g) {
            let edges: Vec<String> = c
                .iter()
                .map(|m| {
                    let to: Vec<&String> = g[m].iter().filter(|d| c.contains(*d)).collect();
                    format!("{m} -> {to:?}")
                })
                .collect();
            found.push(format!("{name}: {}", edges.join("; ")));
        }
    }
    assert!(found.is_empty(), "import circles: {found:#?}");
}

#[test]
fn no_folder_of_a_crate_imports_one_above_it() {
    let mut found = Vec::new();
    for (name, order) in FOLDER_ORDER {
        let g = graph(&src_files(name));
        found.extend(
            upward_imports(&g, order)
                .into_iter()
                .map(|e| format!("{name}: {e}")),
        );
    }
    assert!(
        found.is_empty(),
        "imports up a crate's folder order (FOLDER_ORDER): {found:#?}"
    );
    for (name, _) in FOLDER_ORDER {
        assert!(crate_folders().iter().any(|c| c == name), "{name} is gone");
    }
}

fn files(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect()
}

#[test]
fn the_check_finds_circles_through_uses_paths_and_reexports() {
    // A direct circle: a `use` one way, a path in the code the other.
    let g = graph(&files(&[
        ("a.rs", "use crate::b::X;\nfn f() {}"),
        ("b.rs", "pub struct X;\nfn g() { crate::a::f(); }"),
    ]));
    assert_eq!(circles(&g).len(), 1);
    // Through a re-export: `d` uses `c::Y`, defined in `c::inner`, which uses `d`.
    let g = graph(&files(&[
        ("c/mod.rs", "mod inner;\npub use inner::Y;"),
        ("c/inner.rs", "use crate::d::Z;\npub struct Y;"),
        ("d.rs", "use crate::c::Y;\npub struct Z;"),
    ]));
    assert_eq!(
        circles(&g),
        vec![BTreeSet::from(["c::inner".to_string(), "d".to_string()])]
    );
    // Siblings through `super::`, a child through its parent's `child::` path.
    let g = graph(&files(&[
        ("e/mod.rs", "mod f;\nmod g;"),
        ("e/f.rs", "use super::g::G;\npub struct F;"),
        ("e/g.rs", "pub struct G;\nfn h() { let _ = super::f::F; }"),
    ]));
    assert_eq!(circles(&g).len(), 1);
}

#[test]
fn the_check_leaves_out_tests_comments_strings_and_loops_inside_one_folder() {
    let g = graph(&files(&[
        (
            "a.rs",
            "// crate::b::X\nconst S: &str = \"crate::b::X\";\n\
             #[cfg(test)]\nmod tests {\n    use crate::b::X;\n}",
        ),
        (
            "b.rs",
            "use crate::a::S;\npub struct X;\n#[cfg(test)]\nmod only;",
        ),
        ("b/only.rs", "use crate::b::X;"),
        // A parent's glue using its child, the child using its parent: the folder itself.
        ("p/mod.rs", "mod c;\nfn f() { c::g(); }\npub struct P;"),
        ("p/c.rs", "use super::P;\npub fn g() {}"),
    ]));
    assert!(circles(&g).is_empty(), "{g:?}");
    assert!(
        g["p"].contains("p::c"),
        "a parent's use of its child is an edge"
    );
    assert!(!g.contains_key("b::only"), "test-only modules are left out");
    assert_eq!(g["b"], BTreeSet::from(["a".to_string()]));
}

#[test]
fn the_check_finds_a_circle_through_a_parents_use_of_its_child() {
    // The shape `python::bot` -> `python::game` -> `python::game::play` -> `python::bot`
    // once had: the bot reads a game's state, the game's `mod.rs` calls its child `play`,
    // and `play` seats bots.
    let tree = |parent_calls_child: bool| {
        let game = if parent_calls_child {
            "mod play;\npub struct Game;\npub fn state_of() {}\nfn f() { play::run(); }"
        } else {
            "mod play;\npub struct Game;\npub fn state_of() {}"
        };
        graph(&files(&[
            ("py/mod.rs", "mod bot;\nmod game;"),
            ("py/bot.rs", "use super::game::state_of;\npub struct Bot;"),
            ("py/game/mod.rs", game),
            (
                "py/game/play.rs",
                "use crate::py::bot::Bot;\nuse super::Game;\npub fn run() {}",
            ),
        ]))
    };
    assert_eq!(
        circles(&tree(true)),
        vec![BTreeSet::from([
            "py::bot".to_string(),
            "py::game".to_string(),
            "py::game::play".to_string(),
        ])]
    );
    // Declaring the child is no use of it: `play` then sits above both, no circle.
    assert!(circles(&tree(false)).is_empty());
}

#[test]
fn the_folder_check_finds_upward_imports_and_unplaced_folders() {
    let g = graph(&files(&[
        ("low/mod.rs", "mod a;\npub use a::A;"),
        ("low/a.rs", "use crate::high::H;\npub struct A;"),
        ("high.rs", "use crate::low::A;\npub struct H;"),
        ("stray.rs", "pub struct S;"),
    ]));
    // No circle between files: `low` is a folder, `low::a` a file under it.
    assert_eq!(
        upward_imports(&g, &["low", "high"]),
        vec![
            "low::a -> high".to_string(),
            "stray: folder `stray` is not in FOLDER_ORDER".to_string(),
        ]
    );
    assert_eq!(upward_imports(&g, &["high", "low", "stray"]).len(), 1);
    // `"*"`: every other folder, and the crate root, at its place.
    assert_eq!(
        upward_imports(&g, &["low", "*"]),
        vec!["low::a -> high".to_string()]
    );
    assert_eq!(
        upward_imports(&g, &["*", "low"]),
        vec!["high -> low::a".to_string()]
    );
}
