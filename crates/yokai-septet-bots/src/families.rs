//! The one table of bot names ([`BOT_FAMILIES`]): each family's head, the forms it is
//! written in, what it is, and what its names may carry after the head (the columns the
//! name's parser, [`BotSpec`](super::BotSpec), reads). The lists a reader meets come from
//! it: [`BOT_NAMES`], the ladder's entrants ([`BUILT_IN_BOTS`]), the `--bots` help
//! ([`bot_names_help`]) and the server's budget caps (each family's [`Counts`]); the
//! Python `Bot` docstring and the docs are checked against it.
//!
//! The table sits at the bottom of the bots: it names no bot type, so the configurations
//! read their default budgets from it and the parser depends on nothing above it.

/// A family of built-in bots: what the head of a name chooses. Each has one row of
/// [`BOT_FAMILIES`], in this order ([`Family::row`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Family {
    /// `random`: uniform over the legal actions.
    Random,
    /// `heuristic`: the rule-based player.
    Heuristic,
    /// `pimc`: determinized heuristic playouts.
    Pimc,
    /// `pimc-random`: determinized random playouts.
    PimcRandom,
    /// `pimc-dd`: determinized worlds solved exactly.
    PimcDd,
    /// `epimc`: `pimc-dd` choosing its next card per information set.
    Epimc,
    /// `ismcts`: information-set tree search.
    Ismcts,
    /// `nn`: a neural-network policy.
    Nn,
    /// `ismcts-nn`: `ismcts` guided by an `nn` model.
    IsmctsNn,
}

impl Family {
    /// The family's row of [`BOT_FAMILIES`].
    pub fn row(self) -> &'static BotFamily {
        &BOT_FAMILIES[self as usize]
    }
}

/// What a family's names take after the head's `:` (the grammar of its argument).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Takes {
    /// Nothing: the head is the whole name (`random`, `heuristic`).
    Nothing,
    /// A model file, the rest of the name (`nn:PATH`).
    Model,
    /// A budget (`pimc:200`, `pimc:20ms`), and a pass suffix where the family
    /// [passes](BotFamily::passes).
    Budget,
    /// A budget, then options (`:classic`, `:reuse`, `:vW`, `:fade`, `:tT`: the tree
    /// search's techniques and threads), then a value model file after an `@` (`ismcts`).
    BudgetOptions,
    /// A budget, a model file, or the budget then the file (`ismcts-nn:4600:PATH`).
    BudgetOrModel,
}

/// What a family's count budget (`HEAD:N`) counts, its default, and how many a slow, busy
/// core gets through in a second: the server caps `N` at that rate times
/// `--max-think-ms` (a few times fewer than the measured mean, which is the cheapest
/// decisions' too: a round's first card is its costliest decision).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counts {
    /// What `N` counts (`playouts`).
    pub unit: &'static str,
    /// The bare name's budget.
    pub default: u32,
    /// Units a second a slow, busy core allows.
    pub per_second: u64,
}

/// Playouts of `pimc` per decision at its default budget.
pub const DEFAULT_PLAYOUTS: u32 = 200;

/// Worlds of `pimc-dd` and `epimc` per decision at their default budget.
pub const DEFAULT_WORLDS: u32 = 20;

/// Iterations of `ismcts` at its default budget: the one place to change it.
pub const DEFAULT_ITERATIONS: u32 = 5000;

/// The iterations of `ismcts-nn` at its default budget: about the time per decision of
/// `ismcts` at its default (the network's forward passes cost some iterations).
pub const GUIDED_ITERATIONS: u32 = 4600;

/// `pimc`'s playouts (a searched pass, `/P`, is this search too).
// The rates keep the capped decision near half of `--max-think-ms`: on the 2-core
// development machine under a load of 9 to 17, a round's first card took 1.99 s of CPU at
// `pimc:50000` (`scripts/serve_hostile.py`; CPU time grows with the load).
const PLAYOUTS: Counts = Counts {
    unit: "playouts",
    default: DEFAULT_PLAYOUTS,
    per_second: 15_000,
};

/// What a searched pass (`/P`) counts: `pimc`'s playouts, at `pimc`'s rate.
pub const PASS_SEARCH: Counts = PLAYOUTS;

/// The solver's worlds (`pimc-dd`, `epimc`).
// One world costs up to 40,000 solver nodes (about 20 ms).
const WORLDS: Counts = Counts {
    unit: "worlds",
    default: DEFAULT_WORLDS,
    per_second: 40,
};

/// One family of bot names: its head, the forms it is written in, what it is, and what
/// its names take. [`BOT_FAMILIES`] is the one table of bot names.
#[derive(Debug)]
pub struct BotFamily {
    /// Which family the row is.
    pub family: Family,
    /// The name before any `:` (`pimc`): a name is in this family when its text up to its
    /// first `:` (all of it, without one) is the head, perhaps with `-inf`.
    pub head: &'static str,
    /// The forms it is written in, as [`BOT_NAMES`] lists them (`pimc`, `pimc:N`).
    pub forms: &'static [&'static str],
    /// What it is, one line (the help and the docstring).
    pub doc: &'static str,
    /// What its names take after the head's `:`.
    pub takes: Takes,
    /// Whether its budget takes a pass suffix (`/P`, `/nn`: `passing.rs`).
    pub passes: bool,
    /// Whether its head takes the `-inf` modifier (a search: its worlds may be drawn from
    /// the shipped belief model).
    pub infers: bool,
    /// What its count budget counts (`None`: a bot that searches nothing, deciding in
    /// microseconds).
    pub counts: Option<Counts>,
    /// Its bare names among the ladder's entrants ([`BUILT_IN_BOTS`]), each with its place
    /// (0 the weakest).
    pub ladder: &'static [(usize, &'static str)],
}

impl BotFamily {
    /// Whether its bots search (they have a budget; the others decide at once).
    pub fn searches(&self) -> bool {
        self.counts.is_some()
    }

    /// Whether its decisions may run on several threads (the `:tT` option).
    pub fn takes_threads(&self) -> bool {
        self.takes == Takes::BudgetOptions
    }
}

/// Every family of built-in bot names, in the order of [`Family`] (and the order
/// [`BOT_NAMES`] lists their forms).
pub const BOT_FAMILIES: [BotFamily; 9] = [
    BotFamily {
        family: Family::Random,
        head: "random",
        forms: &["random"],
        doc: "uniform over the legal actions",
        takes: Takes::Nothing,
        passes: false,
        infers: false,
        counts: None,
        ladder: &[(0, "random")],
    },
    BotFamily {
        family: Family::Heuristic,
        head: "heuristic",
        forms: &["heuristic"],
        doc: "a rule-based player",
        takes: Takes::Nothing,
        passes: false,
        infers: false,
        counts: None,
        ladder: &[(1, "heuristic")],
    },
    BotFamily {
        family: Family::Pimc,
        head: "pimc",
        forms: &["pimc", "pimc:N"],
        doc: "determinized heuristic playouts; pimc:N N playouts per decision, pimc:Nms N \
              milliseconds per decision",
        takes: Takes::Budget,
        passes: true,
        infers: true,
        counts: Some(PLAYOUTS),
        ladder: &[(4, "pimc"), (5, "pimc-inf")],
    },
    BotFamily {
        family: Family::PimcRandom,
        head: "pimc-random",
        forms: &["pimc-random", "pimc-random:N"],
        doc: "pimc with random playouts; pimc's budgets",
        takes: Takes::Budget,
        passes: false,
        infers: true,
        counts: Some(PLAYOUTS),
        ladder: &[(3, "pimc-random")],
    },
    BotFamily {
        family: Family::PimcDd,
        head: "pimc-dd",
        forms: &["pimc-dd", "pimc-dd:N"],
        doc: "determinized worlds solved exactly; pimc-dd:N N worlds, pimc-dd:Nms",
        takes: Takes::Budget,
        passes: true,
        infers: true,
        counts: Some(WORLDS),
        ladder: &[(8, "pimc-dd"), (9, "pimc-dd-inf")],
    },
    BotFamily {
        family: Family::Epimc,
        head: "epimc",
        forms: &["epimc", "epimc:N"],
        doc: "pimc-dd choosing its next card per information set; epimc:N, epimc:Nms",
        takes: Takes::Budget,
        passes: true,
        infers: true,
        counts: Some(WORLDS),
        ladder: &[],
    },
    BotFamily {
        family: Family::Ismcts,
        head: "ismcts",
        forms: &["ismcts", "ismcts:N"],
        doc: "information-set tree search; ismcts:N N iterations, ismcts:Nms; options \
              :classic, :reuse, :vW (value leaves, W%; :vW@PATH a value model file), :tT",
        takes: Takes::BudgetOptions,
        passes: true,
        infers: true,
        // 1.67 to 1.79 s of CPU for a round's first card at 40,000 or 50,000 iterations.
        counts: Some(Counts {
            unit: "iterations",
            default: DEFAULT_ITERATIONS,
            per_second: 15_000,
        }),
        ladder: &[(6, "ismcts"), (7, "ismcts-inf")],
    },
    BotFamily {
        family: Family::Nn,
        head: "nn",
        forms: &["nn", "nn:PATH"],
        doc: "the neural-network model shipped for the variant; nn:PATH a model saved as \
              .safetensors",
        takes: Takes::Model,
        passes: false,
        infers: false,
        counts: None,
        ladder: &[(2, "nn")],
    },
    BotFamily {
        family: Family::IsmctsNn,
        head: "ismcts-nn",
        forms: &["ismcts-nn", "ismcts-nn:N", "ismcts-nn:PATH"],
        doc: "ismcts guided by the nn model; ismcts-nn:N, ismcts-nn:Nms, ismcts-nn:PATH (a \
              model file), ismcts-nn:N:PATH",
        takes: Takes::BudgetOrModel,
        passes: true,
        infers: true,
        // 1.50 s of CPU for a round's first card at 40,000 iterations.
        counts: Some(Counts {
            unit: "iterations",
            default: GUIDED_ITERATIONS,
            per_second: 12_000,
        }),
        ladder: &[(10, "ismcts-nn")],
    },
];

/// How many forms the families of `table` list.
const fn count_forms(table: &[BotFamily]) -> usize {
    let (mut n, mut i) = (0, 0);
    while i < table.len() {
        n += table[i].forms.len();
        i += 1;
    }
    n
}

/// The forms of `table`'s families, in order.
const fn all_forms<const N: usize>(table: &[BotFamily]) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut n, mut i) = (0, 0);
    while i < table.len() {
        let mut j = 0;
        while j < table[i].forms.len() {
            out[n] = table[i].forms[j];
            n += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// The bot names [`BotRegistry::build`](super::BotRegistry::build) accepts: every form of
/// [`BOT_FAMILIES`] (`N` a count or `Nms` a time limit, `PATH` a model file; each
/// family's doc line gives the rest).
pub const BOT_NAMES: [&str; count_forms(&BOT_FAMILIES)] = all_forms(&BOT_FAMILIES);

/// The ladder entrants of `table`, by their places: exactly `N` of them, one per place
/// (else the build stops).
const fn ladder<const N: usize>(table: &[BotFamily]) -> [&'static str; N] {
    let mut out = [""; N];
    let (mut placed, mut i) = (0, 0);
    while i < table.len() {
        let mut j = 0;
        while j < table[i].ladder.len() {
            let (place, name) = table[i].ladder[j];
            assert!(
                place < N && out[place].is_empty(),
                "a ladder place twice or past the end"
            );
            out[place] = name;
            placed += 1;
            j += 1;
        }
        i += 1;
    }
    assert!(placed == N, "a place of the ladder has no entrant");
    out
}

/// The built-in bots at their default budgets, weakest first (the ladder's entrants); each
/// search with a belief model (`-inf`) follows its uniform self. Each family's row declares
/// its own ([`BotFamily::ladder`]).
pub const BUILT_IN_BOTS: [&str; 11] = ladder(&BOT_FAMILIES);

/// The modifiers of the search bots' names (`-inf` on the heads that
/// [infer](BotFamily::infers), and the pass suffix of their budgets, `passing.rs`), for
/// the help texts.
pub(crate) fn modifiers_help() -> String {
    let searches: Vec<&str> = BOT_FAMILIES
        .iter()
        .filter(|f| f.infers)
        .map(|f| f.head)
        .collect();
    format!(
        "A search bot's head ({}) may end in -inf (its play-phase worlds drawn from the \
         shipped belief model): pimc-inf, ismcts-inf:5000. A search bot's budget may end \
         in /P (passing picks searched, P playouts each) or /nn (the shipped nn model's \
         picks); any model path comes after: pimc:200/1400, ismcts:5000/nn, \
         ismcts-nn:4600/nn:PATH.",
        searches.join(", ")
    )
}

/// The bot names and what each family is, for a help text: `Bot names: random (uniform
/// over the legal actions); …`, one entry per family of [`BOT_FAMILIES`]. The
/// command-line tool's `--bots` help, and the text the Python `Bot` docstring is checked
/// against.
pub fn bot_names_help() -> String {
    let families: Vec<String> = BOT_FAMILIES
        .iter()
        .map(|f| format!("{} ({})", f.forms.join(", "), f.doc))
        .collect();
    format!("Bot names: {}. {}", families.join("; "), modifiers_help())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The table is consistent: each row sits at its family's place, heads are unique,
    /// every form is its family's head or `head:…`, a family with a budget says what it
    /// counts, and the ladder's entrants are its own heads.
    #[test]
    fn the_name_table_lists_each_family_once_under_its_head() {
        let heads: std::collections::BTreeSet<&str> = BOT_FAMILIES.iter().map(|f| f.head).collect();
        assert_eq!(heads.len(), BOT_FAMILIES.len());
        for (i, f) in BOT_FAMILIES.iter().enumerate() {
            assert_eq!(f.family as usize, i, "{}", f.head);
            assert_eq!(f.forms[0], f.head, "a family's bare head comes first");
            for form in &f.forms[1..] {
                let arg = form.strip_prefix(f.head).and_then(|r| r.strip_prefix(':'));
                assert!(arg.is_some(), "{form}");
            }
            assert!(!f.doc.is_empty() && bot_names_help().contains(f.doc));
            let budgeted = matches!(
                f.takes,
                Takes::Budget | Takes::BudgetOptions | Takes::BudgetOrModel
            );
            assert_eq!(f.searches(), budgeted, "{}", f.head);
            assert_eq!(f.infers, budgeted, "{}: the searches take -inf", f.head);
            for (_, entrant) in f.ladder {
                assert!(
                    *entrant == f.head || *entrant == format!("{}-inf", f.head),
                    "{entrant}"
                );
            }
        }
        let forms: Vec<&str> = BOT_FAMILIES
            .iter()
            .flat_map(|f| f.forms.iter().copied())
            .collect();
        assert_eq!(BOT_NAMES.to_vec(), forms);
        assert_eq!(
            BUILT_IN_BOTS,
            [
                "random",
                "heuristic",
                "nn",
                "pimc-random",
                "pimc",
                "pimc-inf",
                "ismcts",
                "ismcts-inf",
                "pimc-dd",
                "pimc-dd-inf",
                "ismcts-nn",
            ]
        );
    }

    /// Every list of the bots a reader meets names every family: the crate docs, the
    /// architecture page and the Python `Bot` docstring.
    #[test]
    fn every_bot_family_is_in_every_list_of_bots() {
        let lists = [
            (
                "crates/yokai-septet-bots/src/lib.rs",
                include_str!("lib.rs"),
                "`",
            ),
            (
                "docs/architecture.md",
                include_str!("../../../docs/architecture.md"),
                "`",
            ),
            (
                "the Python Bot docstring",
                include_str!("../../yokai-septet-python/src/bot.rs"),
                "\"",
            ),
        ];
        for f in &BOT_FAMILIES {
            for (file, text, quote) in lists {
                let named = format!("{quote}{}{quote}", f.head);
                assert!(text.contains(&named), "{file} does not list {named}");
            }
        }
    }

    /// The help names the heads that take `-inf` from the table, as it always has.
    #[test]
    fn the_modifiers_help_names_the_searches() {
        assert!(modifiers_help().starts_with(
            "A search bot's head (pimc, pimc-random, pimc-dd, epimc, ismcts, ismcts-nn) may \
             end in -inf"
        ));
    }
}
