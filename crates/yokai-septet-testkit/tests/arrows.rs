//! The crates' arrows: every crate of the workspace depends only on the crates that the
//! table of crates in `docs/architecture.md` says it may use, and on all of them, so that
//! the docs and the manifests cannot drift. A crate may use only the crates its manifest
//! names, and the compiler refuses the rest: with this check, the table is what the
//! compiler enforces. The engine (`yokai-septet`) uses none, under any of its features.

use std::collections::{BTreeMap, BTreeSet};

use yokai_septet_testkit::workspace::{crate_folders, crates_dir};

/// The workspace's crates (`yokai-septet…`) that a manifest names in its normal
/// dependencies (`[dependencies]`, a target's, `[build-dependencies]`; optional ones
/// included) and in its dev-dependencies. The manifests keep one dependency a line
/// (`name.workspace = true`, `name = { … }`), which is all this reads.
fn workspace_deps(manifest: &str) -> (BTreeSet<String>, BTreeSet<String>) {
    let (mut normal, mut dev) = (BTreeSet::new(), BTreeSet::new());
    let mut section: Option<bool> = None; // Some(is_dev) inside a dependency table
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            let header = line.trim_matches(|c| c == '[' || c == ']');
            section = if header.ends_with("dev-dependencies") {
                Some(true)
            } else if header.ends_with("dependencies") {
                Some(false)
            } else {
                None
            };
            continue;
        }
        let Some(is_dev) = section else { continue };
        let key: String = line
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect();
        if key.starts_with("yokai-septet") {
            if is_dev { &mut dev } else { &mut normal }.insert(key);
        }
    }
    (normal, dev)
}

/// The table of crates in `docs/architecture.md` (the one whose header starts
/// `| crate |`): each crate (the row's first name in backticks) and the crates it may use
/// (the names in backticks of the row's last cell).
fn allowed_arrows(architecture: &str) -> BTreeMap<String, BTreeSet<String>> {
    let names = |cell: &str| -> Vec<String> {
        cell.split('`')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    };
    let mut out = BTreeMap::new();
    let mut rows = architecture
        .lines()
        .skip_while(|l| !l.starts_with("| crate |"))
        .skip(2)
        .take_while(|l| l.starts_with('|'));
    for row in rows.by_ref() {
        let cells: Vec<&str> = row.trim_matches('|').split('|').collect();
        let krate = names(cells[0])
            .into_iter()
            .next()
            .expect("a crate in backticks");
        let uses = names(cells.last().expect("a last cell"));
        out.insert(krate, uses.into_iter().collect());
    }
    out
}

/// What disagrees between the crates' manifests (name, text) and the table of allowed
/// arrows: a crate missing from the table or from the workspace, a dependency the table
/// does not allow, an arrow the table lists that the manifest lacks, and a dev-dependency
/// on anything but an allowed crate, the crate itself or the test kit.
fn crate_arrows(
    manifests: &[(String, String)],
    allowed: &BTreeMap<String, BTreeSet<String>>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (name, text) in manifests {
        let Some(may) = allowed.get(name) else {
            out.push(format!(
                "{name} is not in docs/architecture.md's table of crates"
            ));
            continue;
        };
        let (normal, dev) = workspace_deps(text);
        for d in normal.difference(may) {
            out.push(format!(
                "{name} -> {d} is not an arrow docs/architecture.md allows"
            ));
        }
        for d in may.difference(&normal) {
            out.push(format!(
                "docs/architecture.md lists {name} -> {d}, which the manifest does not have"
            ));
        }
        for d in &dev {
            if !may.contains(d) && d != name && d != "yokai-septet-testkit" {
                out.push(format!(
                    "{name} -> {d} (dev) is not an arrow docs/architecture.md allows"
                ));
            }
        }
    }
    for name in allowed.keys() {
        if !manifests.iter().any(|(m, _)| m == name) {
            out.push(format!(
                "docs/architecture.md lists {name}, which is not in crates/"
            ));
        }
    }
    out
}

/// Every crate's manifest (the folder's name is the package's), as `(name, text)`.
fn manifests() -> Vec<(String, String)> {
    crate_folders()
        .into_iter()
        .map(|name| {
            let text = std::fs::read_to_string(crates_dir().join(&name).join("Cargo.toml"))
                .expect("a manifest");
            assert!(
                text.contains(&format!("name = \"{name}\"")),
                "crates/{name} holds the package {name}"
            );
            (name, text)
        })
        .collect()
}

#[test]
fn every_crate_uses_only_the_crates_docs_architecture_allows() {
    let docs = std::fs::read_to_string(crates_dir().join("../docs/architecture.md"))
        .expect("docs/architecture.md");
    let allowed = allowed_arrows(&docs);
    assert!(
        allowed["yokai-septet"].is_empty(),
        "the engine uses no crate of the workspace"
    );
    let found = crate_arrows(&manifests(), &allowed);
    assert!(found.is_empty(), "{found:#?}");
}

#[test]
fn the_arrow_check_finds_an_arrow_against_the_table() {
    let docs = "| crate | what it is for | may use |\n\
                |---|---|---|\n\
                | `yokai-septet` | the engine | nothing |\n\
                | `yokai-septet-bots` | bots | `yokai-septet` |\n\
                | `yokai-septet-gone` | a crate no more | `yokai-septet` |\n\
                \n\
                | crate | other table |\n";
    let allowed = allowed_arrows(docs);
    assert_eq!(allowed.len(), 3);
    let manifest = |name: &str, deps: &str| (name.to_string(), deps.to_string());
    let found = crate_arrows(
        &[
            // The engine reaching up to the bots, behind a feature.
            manifest(
                "yokai-septet",
                "[features]\nbots = [\"dep:yokai-septet-bots\"]\n[dependencies]\n\
                 yokai-septet-bots = { workspace = true, optional = true }\n\
                 [dev-dependencies]\nyokai-septet-testkit.workspace = true\n",
            ),
            // Allowed, and a dev-dependency on itself with a feature.
            manifest(
                "yokai-septet-bots",
                "[target.'cfg(unix)'.dependencies]\nyokai-septet.workspace = true\n\
                 [dev-dependencies]\nyokai-septet-bots = { workspace = true }\n",
            ),
            manifest("yokai-septet-new", "[dependencies]\nserde = \"1\"\n"),
        ],
        &allowed,
    );
    assert_eq!(
        found,
        [
            "yokai-septet -> yokai-septet-bots is not an arrow docs/architecture.md allows",
            "yokai-septet-new is not in docs/architecture.md's table of crates",
            "docs/architecture.md lists yokai-septet-gone, which is not in crates/",
        ]
    );
}
