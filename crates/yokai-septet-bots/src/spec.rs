//! Bot names, parsed once: a name (`pimc-inf:200/1400`, `ismcts:5000:reuse:t4`,
//! `ismcts-nn:4600/nn:runs/4p.safetensors`) is read here into a [`BotSpec`] whose fields
//! say what the name asks for, and written back by its `Display`, so that
//! `name.parse::<BotSpec>()?.to_string()` is the name again (in its canonical form). Every
//! other module reads the fields: the registry builds bots from them, the server checks
//! them against its caps, `play` and `hint` set the threads. No other module splits a bot
//! name (`tests/bot_names.rs` checks it).
//!
//! The grammar, per family ([`Takes`], a column of [`BOT_FAMILIES`]):
//!
//! ```text
//! NAME    = HEAD [-inf] [: ARG]
//! Budget        ARG = BUDGET [/PASS]
//! BudgetOptions ARG = BUDGET [/PASS] {:OPTION} [@PATH]    OPTION = classic | reuse | vW | fade | tT
//! BudgetOrModel ARG = BUDGET [/PASS] [:PATH] | PATH
//! Model         ARG = PATH
//! BUDGET  = N | Nms        PASS = P | nn
//! ```
//!
//! A budget is digits (perhaps then `ms`), so the first `:`-part of an argument is a
//! budget with a pass suffix exactly when it reads `DIGITS[ms]/…`; anything else there is
//! a model path, `/`s and all (write a path that starts with digits and `/` as `./12/…`).
//! A malformed name is a [`BotSpecError`] that names the part that is wrong and why.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use super::families::{BotFamily, Family, Takes, BOT_FAMILIES};

/// The modifier of a search family's head: worlds drawn from the shipped belief model.
pub(crate) const INFER_MODIFIER: &str = "-inf";

/// A search's budget per decision, as a name writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Budget {
    /// `N`: a positive count (playouts, worlds or iterations): reproducible.
    Count(u32),
    /// `Nms`: a positive number of milliseconds: depends on machine speed.
    Millis(u64),
}

impl Budget {
    /// The budget of a configuration's count and time limit: the time where it has one
    /// (a count beside it is no limit of a name's), else the count. The inverse of
    /// [`Budget::count_and_limit`].
    pub fn of(count: u32, time_limit: Option<Duration>) -> Budget {
        match time_limit {
            Some(t) => Budget::Millis(u64::try_from(t.as_millis()).unwrap_or(u64::MAX)),
            None => Budget::Count(count),
        }
    }

    /// The count and the time limit a configuration takes: `(N, None)`, or for a time
    /// budget no count limit and the time.
    pub fn count_and_limit(self) -> (u32, Option<Duration>) {
        match self {
            Budget::Count(n) => (n, None),
            Budget::Millis(ms) => (u32::MAX, Some(Duration::from_millis(ms))),
        }
    }
}

impl FromStr for Budget {
    type Err = BotSpecError;

    fn from_str(text: &str) -> Result<Budget, BotSpecError> {
        let budget = || text.to_string();
        if text.is_empty() {
            return Err(BotSpecError::MissingBudget);
        }
        let (digits, read): (&str, fn(&str) -> Option<Budget>) = match text.strip_suffix("ms") {
            Some(ms) => (ms, |t| t.parse().ok().map(Budget::Millis)),
            None => (text, |t| t.parse().ok().map(Budget::Count)),
        };
        match read(digits) {
            Some(Budget::Count(0) | Budget::Millis(0)) => {
                Err(BotSpecError::ZeroBudget { budget: budget() })
            }
            Some(b) => Ok(b),
            None if is_digits(digits) => Err(BotSpecError::BudgetTooLarge { budget: budget() }),
            None => Err(BotSpecError::BadBudget { budget: budget() }),
        }
    }
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Count(n) => write!(f, "{n}"),
            Budget::Millis(ms) => write!(f, "{ms}ms"),
        }
    }
}

/// The source of a search bot's passing picks, as its name's pass suffix gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PassPicks {
    /// The heuristic's picks (no suffix: every default name).
    Heuristic,
    /// `/P`: PIMC over full-round heuristic playouts, P per pick spread over the hand.
    Searched(u32),
    /// `/nn`: the argmax of the variant's shipped `nn` model among the legal picks.
    Learned,
}

impl PassPicks {
    /// Reads a pass suffix (the text after the `/`): `nn`, or a positive count.
    fn parse(text: &str) -> Result<PassPicks, BotSpecError> {
        if text == "nn" {
            return Ok(PassPicks::Learned);
        }
        match text.parse::<u32>() {
            Ok(0) => Err(BotSpecError::ZeroPassPlayouts),
            Ok(p) => Ok(PassPicks::Searched(p)),
            Err(_) => Err(BotSpecError::BadPassSuffix {
                suffix: text.to_string(),
            }),
        }
    }

    /// The suffix that names these picks after a budget (empty for the heuristic's).
    pub fn suffix(self) -> String {
        match self {
            PassPicks::Heuristic => String::new(),
            PassPicks::Searched(p) => format!("/{p}"),
            PassPicks::Learned => "/nn".into(),
        }
    }
}

/// The options of an `ismcts` name, as written (each at most once): what they do is
/// [`IsmctsConfig`](super::IsmctsConfig)'s.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct IsmctsOptions {
    /// `:classic`: the search as it was before its techniques.
    pub classic: bool,
    /// `:reuse`: tree reuse on.
    pub reuse: bool,
    /// `:vW`: value leaves of weight `W` percent (0..=100).
    pub value_weight: Option<u8>,
    /// `:fade`: the value weight fading over the round.
    pub fade: bool,
    /// `:tT`: `T` threads per decision (at least 1).
    pub threads: Option<u32>,
}

impl IsmctsOptions {
    /// Whether no option is given.
    pub fn is_empty(&self) -> bool {
        *self == IsmctsOptions::default()
    }

    /// Reads one option (the text between two `:`) into these.
    fn read(&mut self, option: &str) -> Result<(), BotSpecError> {
        let repeated = || BotSpecError::RepeatedOption {
            option: option.to_string(),
        };
        let flag = |set: &mut bool| {
            if std::mem::replace(set, true) {
                Err(repeated())
            } else {
                Ok(())
            }
        };
        match option {
            "classic" => flag(&mut self.classic),
            "reuse" => flag(&mut self.reuse),
            "fade" => flag(&mut self.fade),
            _ if option.starts_with('v') => {
                let w = canonical_number::<u8>(&option[1..])
                    .filter(|&w| w <= 100)
                    .ok_or_else(|| BotSpecError::BadValueWeight {
                        option: option.to_string(),
                    })?;
                match self.value_weight.replace(w) {
                    Some(_) => Err(repeated()),
                    None => Ok(()),
                }
            }
            _ if option.starts_with('t') => {
                let t = canonical_number::<u32>(&option[1..]).ok_or_else(|| {
                    BotSpecError::BadThreads {
                        option: option.to_string(),
                    }
                })?;
                if t == 0 {
                    return Err(BotSpecError::ZeroThreads);
                }
                match self.threads.replace(t) {
                    Some(_) => Err(repeated()),
                    None => Ok(()),
                }
            }
            _ => Err(BotSpecError::UnknownOption {
                option: option.to_string(),
            }),
        }
    }
}

impl fmt::Display for IsmctsOptions {
    /// The options in their canonical order, each after a `:`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.classic {
            f.write_str(":classic")?;
        }
        if self.reuse {
            f.write_str(":reuse")?;
        }
        if let Some(w) = self.value_weight {
            write!(f, ":v{w}")?;
        }
        if self.fade {
            f.write_str(":fade")?;
        }
        if let Some(t) = self.threads {
            write!(f, ":t{t}")?;
        }
        Ok(())
    }
}

/// A bot name, parsed: what each part of it asks for. A part the name leaves out is
/// `None` (or empty): the family's default.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct BotSpec {
    /// The family its head names.
    pub family: Family,
    /// The `-inf` modifier: play-phase worlds drawn from a belief model.
    pub infers: bool,
    /// The budget per decision (`None`: the family's default).
    pub budget: Option<Budget>,
    /// Where its passing picks come from (the pass suffix).
    pub pass: PassPicks,
    /// `ismcts`'s options.
    pub options: IsmctsOptions,
    /// The model file it names: `nn:PATH`'s network, `ismcts-nn`'s guide, `ismcts`'s
    /// value model (after `@`).
    pub model: Option<String>,
}

impl BotSpec {
    /// The bare name of `family`: its defaults.
    pub fn bare(family: Family) -> BotSpec {
        BotSpec {
            family,
            infers: false,
            budget: None,
            pass: PassPicks::Heuristic,
            options: IsmctsOptions::default(),
            model: None,
        }
    }

    /// The spec with its family's default budget where the family counts one and it sets
    /// none: the spec of the bot the registry builds from it, which a built bot's
    /// [`Bot::spec`](crate::Bot::spec) answers and its name writes (`pimc` → `pimc:200`).
    pub fn with_default_budget(mut self) -> BotSpec {
        if let Some(counts) = self.row().counts {
            self.budget.get_or_insert(Budget::Count(counts.default));
        }
        self
    }

    /// The family's row of [`BOT_FAMILIES`].
    pub fn row(&self) -> &'static BotFamily {
        self.family.row()
    }

    /// The spec with `threads` threads per decision where its family searches on threads
    /// (`ismcts`, `ismcts-inf`) and it sets none; else itself. What `play` and `hint` build
    /// their bots from: one decision at a time, so each may use the cores. A count budget
    /// still plays the same cards for the same seed and thread count, but the thread count
    /// is the machine's.
    pub fn with_threads(mut self, threads: u32) -> BotSpec {
        if threads > 1 && self.row().takes_threads() && self.options.threads.is_none() {
            self.options.threads = Some(threads);
        }
        self
    }

    /// The budget the name writes: its own, or the family's default where something
    /// follows the budget (a pass suffix, an option, a model a path could be misread as
    /// a budget, an `@` value model).
    fn written_budget(&self) -> Option<Budget> {
        let row = self.row();
        let model_follows = match (row.takes, &self.model) {
            (Takes::BudgetOptions, Some(_)) => true,
            (Takes::BudgetOrModel, Some(path)) => reads_as_budget(path),
            _ => false,
        };
        let needed = self.pass != PassPicks::Heuristic || !self.options.is_empty() || model_follows;
        let default = || Budget::Count(row.counts.map_or(1, |c| c.default));
        self.budget.or_else(|| needed.then(default))
    }
}

impl FromStr for BotSpec {
    type Err = BotSpecError;

    fn from_str(name: &str) -> Result<BotSpec, BotSpecError> {
        let (head, arg) = match name.split_once(':') {
            Some((head, arg)) => (head, Some(arg)),
            None => (name, None),
        };
        let (row, infers) = family_of(head)?;
        let mut spec = BotSpec {
            infers,
            ..BotSpec::bare(row.family)
        };
        let Some(arg) = arg else {
            return Ok(spec);
        };
        let missing_model = || BotSpecError::MissingModel { head: row.head };
        match row.takes {
            Takes::Nothing => {
                return Err(BotSpecError::TakesNoArgument {
                    head: row.head,
                    arg: arg.to_string(),
                })
            }
            Takes::Model if arg.is_empty() => return Err(missing_model()),
            Takes::Model => spec.model = Some(arg.to_string()),
            Takes::Budget | Takes::BudgetOptions | Takes::BudgetOrModel => {
                let (rest, pass) = split_pass(row, arg)?;
                spec.pass = pass;
                match row.takes {
                    Takes::BudgetOptions => read_options(&mut spec, &rest)?,
                    Takes::BudgetOrModel => read_guided(&mut spec, rest)?,
                    _ => spec.budget = Some(rest.parse()?),
                }
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for BotSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = self.row();
        f.write_str(row.head)?;
        if self.infers {
            f.write_str(INFER_MODIFIER)?;
        }
        let mut arg = match self.written_budget() {
            Some(budget) => format!("{budget}{}", self.pass.suffix()),
            None => String::new(),
        };
        match (row.takes, &self.model) {
            (Takes::BudgetOptions, model) => {
                arg.push_str(&self.options.to_string());
                if let Some(path) = model {
                    arg.push('@');
                    arg.push_str(path);
                }
            }
            (Takes::Model, Some(path)) => arg.push_str(path),
            (Takes::BudgetOrModel, Some(path)) if arg.is_empty() => arg.push_str(path),
            (Takes::BudgetOrModel, Some(path)) => {
                arg.push(':');
                arg.push_str(path);
            }
            _ => {}
        }
        if !arg.is_empty() {
            write!(f, ":{arg}")?;
        }
        Ok(())
    }
}

/// Why a name is not a bot name: which part is wrong, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BotSpecError {
    /// No built-in family has this head (a name the registry's makers may know).
    UnknownFamily {
        /// The text before the first `:`.
        head: String,
    },
    /// `-inf` on a family that draws no worlds (`random-inf`).
    NoInference {
        /// The family's head.
        head: &'static str,
    },
    /// An argument to a family that takes none (`random:1`).
    TakesNoArgument {
        /// The family's head.
        head: &'static str,
        /// The text after its `:`.
        arg: String,
    },
    /// An empty budget (`pimc:`).
    MissingBudget,
    /// A budget that is neither `N` nor `Nms` (`pimc:x`).
    BadBudget {
        /// The budget as written.
        budget: String,
    },
    /// A budget of zero (`pimc:0`, `pimc:0ms`).
    ZeroBudget {
        /// The budget as written.
        budget: String,
    },
    /// A count too large to hold (`pimc:99999999999`).
    BudgetTooLarge {
        /// The budget as written.
        budget: String,
    },
    /// A pass suffix on a family that passes as the heuristic does (`pimc-random:1/nn`).
    NoPassSuffix {
        /// The family's head.
        head: &'static str,
    },
    /// A pass suffix that is neither `nn` nor a count (`pimc:8/x`).
    BadPassSuffix {
        /// The suffix after the `/`.
        suffix: String,
    },
    /// A pass suffix of zero playouts (`pimc:8/0`).
    ZeroPassPlayouts,
    /// An `ismcts` option that is none of them (`ismcts:300:x`).
    UnknownOption {
        /// The option as written.
        option: String,
    },
    /// An option given twice (`ismcts:300:reuse:reuse`).
    RepeatedOption {
        /// The option as written the second time.
        option: String,
    },
    /// A value weight that is not a whole percent written plainly (`:v101`, `:v050`).
    BadValueWeight {
        /// The option as written.
        option: String,
    },
    /// A thread count that is not a number written plainly (`:tx`, `:t02`).
    BadThreads {
        /// The option as written.
        option: String,
    },
    /// Zero threads (`:t0`).
    ZeroThreads,
    /// A model file that is empty (`nn:`, `ismcts-nn:8:`, `ismcts:8:v50@`).
    MissingModel {
        /// The family's head.
        head: &'static str,
    },
    /// A value model file without the value leaves that use it (`ismcts:300@PATH`).
    ValueModelWithoutWeight,
}

impl fmt::Display for BotSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotSpecError::UnknownFamily { head } => {
                write!(f, "no bot family is called '{head}'")
            }
            BotSpecError::NoInference { head } => write!(
                f,
                "{head} takes no -inf: it searches no worlds to draw from a belief model"
            ),
            BotSpecError::TakesNoArgument { head, arg } => {
                write!(f, "{head} takes nothing after its name, given ':{arg}'")
            }
            BotSpecError::MissingBudget => {
                f.write_str("the budget is missing: N (a count) or Nms (milliseconds)")
            }
            BotSpecError::BadBudget { budget } => write!(
                f,
                "the budget '{budget}' is neither N (a count) nor Nms (milliseconds)"
            ),
            BotSpecError::ZeroBudget { budget } => {
                write!(f, "the budget '{budget}' is zero: a budget is at least 1")
            }
            BotSpecError::BudgetTooLarge { budget } => write!(
                f,
                "the budget '{budget}' is over the largest count, {}",
                u32::MAX
            ),
            BotSpecError::NoPassSuffix { head } => write!(
                f,
                "{head} takes no pass suffix (/P or /nn): it passes as the heuristic does"
            ),
            BotSpecError::BadPassSuffix { suffix } => write!(
                f,
                "the pass suffix '/{suffix}' is neither /P (P playouts a pick) nor /nn"
            ),
            BotSpecError::ZeroPassPlayouts => {
                f.write_str("the pass suffix '/0' searches no playouts: P is at least 1")
            }
            BotSpecError::UnknownOption { option } => write!(
                f,
                "the option ':{option}' is none of :classic, :reuse, :vW, :fade, :tT"
            ),
            BotSpecError::RepeatedOption { option } => {
                write!(f, "the option ':{option}' is given twice")
            }
            BotSpecError::BadValueWeight { option } => write!(
                f,
                "the value weight ':{option}' is not :vW with W a percent from 0 to 100 \
                 (no leading zeros)"
            ),
            BotSpecError::BadThreads { option } => write!(
                f,
                "the threads ':{option}' are not :tT with T a number (no leading zeros)"
            ),
            BotSpecError::ZeroThreads => f.write_str("':t0' gives no thread: T is at least 1"),
            BotSpecError::MissingModel { head } => {
                write!(f, "{head}'s model file is missing after its separator")
            }
            BotSpecError::ValueModelWithoutWeight => f.write_str(
                "a value model file (@PATH) needs the value leaves that use it (:vW) before it",
            ),
        }
    }
}

impl std::error::Error for BotSpecError {}

/// The family of the head `head`, and whether its `-inf` modifier is given (`pimc-inf`:
/// `pimc`, inferring; a family that does not infer takes no modifier).
fn family_of(head: &str) -> Result<(&'static BotFamily, bool), BotSpecError> {
    let find = |head: &str| BOT_FAMILIES.iter().find(|f| f.head == head);
    if let Some(row) = find(head) {
        return Ok((row, false));
    }
    match head.strip_suffix(INFER_MODIFIER).and_then(find) {
        Some(row) if row.infers => Ok((row, true)),
        Some(row) => Err(BotSpecError::NoInference { head: row.head }),
        None => Err(BotSpecError::UnknownFamily {
            head: head.to_string(),
        }),
    }
}

/// Whether `text` is digits only (and not empty).
fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// `text` as a number written plainly: digits, no sign, no leading zero.
fn canonical_number<T: FromStr + ToString>(text: &str) -> Option<T> {
    let n: T = text.parse().ok()?;
    (n.to_string() == text).then_some(n)
}

/// Whether an argument's first `:`-part, up to any `/`, is a budget (`DIGITS[ms]`): then
/// it is one, else (for `ismcts-nn`) the argument is a model path.
fn reads_as_budget(arg: &str) -> bool {
    let first = arg.split(':').next().unwrap_or(arg);
    let budget = first.split('/').next().unwrap_or(first);
    is_digits(budget.strip_suffix("ms").unwrap_or(budget))
}

/// Splits the pass suffix off a search family's argument (`200/1400` → `200`, searched;
/// `4600/nn:PATH` → `4600:PATH`, learned). An argument whose first `:`-part is not
/// `DIGITS[ms]/…` has no suffix and is returned whole.
fn split_pass(row: &BotFamily, arg: &str) -> Result<(String, PassPicks), BotSpecError> {
    let (first, path) = match arg.split_once(':') {
        Some((first, path)) => (first, Some(path)),
        None => (arg, None),
    };
    let whole = || Ok((arg.to_string(), PassPicks::Heuristic));
    let Some((budget, pass)) = first.split_once('/') else {
        return whole();
    };
    if !reads_as_budget(first) {
        return whole();
    }
    if !row.passes {
        return Err(BotSpecError::NoPassSuffix { head: row.head });
    }
    let picks = PassPicks::parse(pass)?;
    let rest = match path {
        Some(path) => format!("{budget}:{path}"),
        None => budget.to_string(),
    };
    Ok((rest, picks))
}

/// Reads an `ismcts` argument (its pass suffix cut): `BUDGET{:OPTION}[@PATH]`.
fn read_options(spec: &mut BotSpec, arg: &str) -> Result<(), BotSpecError> {
    let (options, path) = match arg.split_once('@') {
        Some((options, path)) => (options, Some(path)),
        None => (arg, None),
    };
    let mut parts = options.split(':');
    spec.budget = Some(parts.next().unwrap_or_default().parse()?);
    for option in parts {
        spec.options.read(option)?;
    }
    match path {
        None => Ok(()),
        Some("") => Err(BotSpecError::MissingModel {
            head: spec.row().head,
        }),
        Some(_) if spec.options.value_weight.is_none() => {
            Err(BotSpecError::ValueModelWithoutWeight)
        }
        Some(path) => {
            spec.model = Some(path.to_string());
            Ok(())
        }
    }
}

/// Reads an `ismcts-nn` argument (its pass suffix cut): `BUDGET`, `BUDGET:PATH`, or a
/// `PATH` whose first part is not a budget (the path is the rest, colons and all).
fn read_guided(spec: &mut BotSpec, arg: String) -> Result<(), BotSpecError> {
    if !reads_as_budget(&arg) {
        if arg.is_empty() {
            return Err(BotSpecError::MissingBudget);
        }
        spec.model = Some(arg);
        return Ok(());
    }
    let (budget, path) = match arg.split_once(':') {
        Some((budget, path)) => (budget, Some(path)),
        None => (arg.as_str(), None),
    };
    spec.budget = Some(budget.parse()?);
    match path {
        Some("") => Err(BotSpecError::MissingModel {
            head: spec.row().head,
        }),
        path => {
            spec.model = path.map(str::to_string);
            Ok(())
        }
    }
}

/// A name outside the built-in families written `module:attribute` (the console script's
/// Python policies): the module, when the name has one.
pub fn policy_module(name: &str) -> Option<&str> {
    let (module, _) = name.rsplit_once(':')?;
    (!module.is_empty()).then_some(module)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(name: &str) -> BotSpec {
        name.parse().unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    #[test]
    fn a_name_reads_into_its_fields() {
        let s = spec("ismcts-inf:300/nn:reuse:v50:t4@runs/v.safetensors");
        assert_eq!(s.family, Family::Ismcts);
        assert!(s.infers);
        assert_eq!(s.budget, Some(Budget::Count(300)));
        assert_eq!(s.pass, PassPicks::Learned);
        assert!(s.options.reuse && !s.options.classic);
        assert_eq!(s.options.value_weight, Some(50));
        assert_eq!(s.options.threads, Some(4));
        assert_eq!(s.model.as_deref(), Some("runs/v.safetensors"));
        let s = spec("ismcts-nn:20ms/3:C:/models/x.safetensors");
        assert_eq!(s.budget, Some(Budget::Millis(20)));
        assert_eq!(s.pass, PassPicks::Searched(3));
        assert_eq!(s.model.as_deref(), Some("C:/models/x.safetensors"));
        assert_eq!(spec("ismcts-nn:./12/x").model.as_deref(), Some("./12/x"));
        assert_eq!(spec("nn:a:b/c").model.as_deref(), Some("a:b/c"));
        assert_eq!(spec("pimc"), BotSpec::bare(Family::Pimc));
    }

    #[test]
    fn a_spec_made_by_hand_writes_the_budget_its_other_parts_need() {
        let mut s = BotSpec::bare(Family::Ismcts);
        s.options.threads = Some(2);
        assert_eq!(s.to_string(), "ismcts:5000:t2");
        let mut s = BotSpec::bare(Family::IsmctsNn);
        s.model = Some("12/x".into());
        assert_eq!(s.to_string(), "ismcts-nn:4600:12/x");
        assert_eq!(spec(&s.to_string()), s.clone().with_budget(4600));
        s.model = Some("m.safetensors".into());
        assert_eq!(s.to_string(), "ismcts-nn:m.safetensors");
    }

    impl BotSpec {
        fn with_budget(mut self, n: u32) -> BotSpec {
            self.budget = Some(Budget::Count(n));
            self
        }
    }

    #[test]
    fn a_policy_name_has_a_module() {
        assert_eq!(policy_module("pkg.mod:policy"), Some("pkg.mod"));
        assert_eq!(policy_module(":policy"), None);
        assert_eq!(policy_module("policy"), None);
    }
}
