//! The settings-table mechanism: a front end's settings (the Python `VectorEnv`'s, the
//! arena's, the single Gymnasium and PettingZoo envs', the web table's new game) declared
//! once each, as rows of name, type, default, range and doc, in the way the vector env's
//! output table (`yokai-septet-vector`'s `vector/outputs.rs`) declares the outputs. The
//! tables themselves live beside what they configure (`yokai_septet_vector::settings`,
//! `yokai_septet_bots::arena::settings`, the web table's `settings.rs`, the Python
//! module's `env_settings.rs`); the Python binding parses arguments by walking them,
//! `_settings_spec()` hands them to the Python package (signatures, `ArenaSpec`, the
//! generated constructor table), and the Rust defaults are read from them.
//!
//! The settings of the game itself (variant, scoring, seed, episode, round cap) are one
//! section, [`game::Section`], that every table splices in ([`splice`]) rather than
//! restates.

pub mod game;

/// What values a setting takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `true` or `false`.
    Bool,
    /// An integer in `lo..=hi`.
    Int {
        /// The smallest value.
        lo: u64,
        /// The largest value.
        hi: u64,
    },
    /// One of these names, exactly.
    Choice(&'static [&'static str]),
    /// One of these names, read loosely: any case, `_` optional, or an enum member whose
    /// `value` is one (gymnasium's `AutoresetMode`).
    Mode(&'static [&'static str]),
    /// A bot name, or a list of bot names (one per seat).
    Names,
    /// A number (an integer or a float, read as a float).
    Float,
    /// A seat number (`0..=3`, checked against the game's seats where it is used) or one
    /// of these names.
    Seat(&'static [&'static str]),
}

/// A setting's default.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DefaultValue {
    /// Required: no default.
    Required,
    /// `None` (its meaning is the setting's doc).
    None,
    /// A flag.
    Bool(bool),
    /// A number.
    Int(u64),
    /// A name.
    Str(&'static str),
    /// A float.
    Float(f64),
}

impl DefaultValue {
    /// The default as a number (`const`, so that Rust defaults can be read off a table).
    pub const fn int(self) -> u64 {
        match self {
            DefaultValue::Int(v) => v,
            _ => panic!("not an integer default"),
        }
    }

    /// The default as a name (`const`, for a flag's default in the command-line tool).
    pub const fn str(self) -> &'static str {
        match self {
            DefaultValue::Str(v) => v,
            _ => panic!("not a name default"),
        }
    }

    /// The default as a flag.
    pub const fn bool(self) -> bool {
        match self {
            DefaultValue::Bool(v) => v,
            _ => panic!("not a flag default"),
        }
    }
}

/// One setting: a row of a settings table.
#[derive(Clone, Copy, Debug)]
pub struct Setting {
    /// The keyword (and field) name.
    pub name: &'static str,
    /// What values it takes.
    pub kind: Kind,
    /// Whether `None` is a value (its meaning is in `doc`).
    pub nullable: bool,
    /// The value when not given.
    pub default: DefaultValue,
    /// Whether it may also be given by position (the positional ones come first).
    pub positional: bool,
    /// The Python type annotation the stubs and signatures show.
    pub py_type: &'static str,
    /// One line for the docs.
    pub doc: &'static str,
}

/// The Python annotation of a kind's values, `Optional[...]` where `None` is one too:
/// what a row shows unless [`Setting::py`] says otherwise.
const fn py_type_of(kind: Kind, nullable: bool) -> &'static str {
    match (kind, nullable) {
        (Kind::Bool, false) => "bool",
        (Kind::Bool, true) => "Optional[bool]",
        (Kind::Int { .. }, false) => "int",
        (Kind::Int { .. }, true) => "Optional[int]",
        (Kind::Choice(_) | Kind::Mode(_), false) => "str",
        (Kind::Choice(_) | Kind::Mode(_), true) => "Optional[str]",
        (Kind::Float, false) => "float",
        (Kind::Float, true) => "Optional[float]",
        (Kind::Names, false) => "Union[str, Sequence[str]]",
        (Kind::Names, true) => "Union[str, Sequence[str], None]",
        (Kind::Seat(_), false) => "int",
        (Kind::Seat(_), true) => "Optional[int]",
    }
}

/// Rows are built by name: a constructor for the kind (`Setting::int("games", 1, MAX)`),
/// then what differs from its plain form (`.or_none()`, `.default_int(1000)`,
/// `.positional()`, `.doc("...")`). A row starts required, keyword-only, without `None`.
impl Setting {
    const fn of(name: &'static str, kind: Kind) -> Setting {
        Setting {
            name,
            kind,
            nullable: false,
            default: DefaultValue::Required,
            positional: false,
            py_type: py_type_of(kind, false),
            doc: "",
        }
    }

    /// `true` or `false`, by default `default`.
    pub const fn flag(name: &'static str, default: bool) -> Setting {
        Setting::of(name, Kind::Bool).default(DefaultValue::Bool(default))
    }

    /// An integer in `lo..=hi`.
    pub const fn int(name: &'static str, lo: u64, hi: u64) -> Setting {
        Setting::of(name, Kind::Int { lo, hi })
    }

    /// One of `names`, exactly.
    pub const fn choice(name: &'static str, names: &'static [&'static str]) -> Setting {
        Setting::of(name, Kind::Choice(names))
    }

    /// One of `names`, read loosely ([`Kind::Mode`]).
    pub const fn mode(name: &'static str, names: &'static [&'static str]) -> Setting {
        Setting::of(name, Kind::Mode(names))
    }

    /// A bot name, or one per seat.
    pub const fn bot_names(name: &'static str) -> Setting {
        Setting::of(name, Kind::Names)
    }

    /// A number.
    pub const fn float(name: &'static str) -> Setting {
        Setting::of(name, Kind::Float)
    }

    /// A seat number, or one of `names`.
    pub const fn seat(name: &'static str, names: &'static [&'static str]) -> Setting {
        Setting::of(name, Kind::Seat(names))
    }

    /// The same row with `None` among its values (and in its annotation).
    pub const fn or_none(self) -> Setting {
        Setting {
            nullable: true,
            py_type: py_type_of(self.kind, true),
            ..self
        }
    }

    /// The same row with this default.
    pub const fn default(self, default: DefaultValue) -> Setting {
        Setting { default, ..self }
    }

    /// The same row, by default `None`.
    pub const fn default_none(self) -> Setting {
        self.or_none().default(DefaultValue::None)
    }

    /// The same row, by default the number `v`.
    pub const fn default_int(self, v: u64) -> Setting {
        self.default(DefaultValue::Int(v))
    }

    /// The same row, by default the name `v`.
    pub const fn default_str(self, v: &'static str) -> Setting {
        self.default(DefaultValue::Str(v))
    }

    /// The same row, by default the number `v`.
    pub const fn default_float(self, v: f64) -> Setting {
        self.default(DefaultValue::Float(v))
    }

    /// The same row, also given by position (the positional ones come first in a table).
    pub const fn positional(self) -> Setting {
        Setting {
            positional: true,
            ..self
        }
    }

    /// The same row, by keyword only.
    pub const fn keyword(self) -> Setting {
        Setting {
            positional: false,
            ..self
        }
    }

    /// The same row with another Python annotation than its kind's.
    pub const fn py(self, py_type: &'static str) -> Setting {
        Setting { py_type, ..self }
    }

    /// The same row with this one-line doc.
    pub const fn doc(self, doc: &'static str) -> Setting {
        Setting { doc, ..self }
    }
}

/// The setting called `name` in `table`.
pub const fn find(table: &'static [Setting], name: &str) -> &'static Setting {
    let mut i = 0;
    while i < table.len() {
        if eq(table[i].name, name) {
            return &table[i];
        }
        i += 1;
    }
    panic!("no such setting")
}

/// A piece of a table: rows of its own, or the game section (or a piece of it).
// Parts exist only while a `const` table is built, so their size costs nothing at run time.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Copy, Debug)]
pub enum Part {
    /// The front end's own rows.
    Rows(&'static [Setting]),
    /// The game's rows, as the table takes them.
    Game(game::Section),
}

impl Part {
    /// Its number of rows.
    const fn len(&self) -> usize {
        match self {
            Part::Rows(rows) => rows.len(),
            Part::Game(section) => section.len(),
        }
    }

    /// Its row `i`, as the table shows it.
    const fn row(&self, i: usize) -> Setting {
        match self {
            Part::Rows(rows) => rows[i],
            Part::Game(section) => section.shown(i),
        }
    }
}

/// A table of `N` rows from its parts, in order (a `const` table's `N` is checked when it
/// is built: a wrong count does not compile).
pub const fn splice<const N: usize>(parts: &[Part]) -> [Setting; N] {
    let mut out = [game::VARIANT; N];
    let mut n = 0;
    let mut p = 0;
    while p < parts.len() {
        let mut i = 0;
        while i < parts[p].len() {
            assert!(n < N, "more rows than the table's length");
            out[n] = parts[p].row(i);
            n += 1;
            i += 1;
        }
        p += 1;
    }
    assert!(n == N, "fewer rows than the table's length");
    out
}

const fn eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// Checks a table's shape: unique names, positional settings first, every default a
/// value of its kind; panics naming the first fault. (Each table's test calls it, in this
/// crate and in the crates whose tables include the game's rows.)
pub fn check_table(table: &[Setting]) {
    for (i, s) in table.iter().enumerate() {
        assert!(
            table[..i].iter().all(|t| t.name != s.name),
            "{} twice",
            s.name
        );
        if s.positional {
            assert!(table[..i].iter().all(|t| t.positional), "{}", s.name);
        }
        let fits = match (s.default, s.kind) {
            (DefaultValue::Required, _) => true,
            (DefaultValue::None, _) => s.nullable,
            (DefaultValue::Bool(_), Kind::Bool) => true,
            (DefaultValue::Int(v), Kind::Int { lo, hi }) => (lo..=hi).contains(&v),
            (DefaultValue::Str(v), Kind::Choice(c) | Kind::Mode(c)) => c.contains(&v),
            (DefaultValue::Str(_), Kind::Names) => true,
            (DefaultValue::Str(v), Kind::Seat(names)) => names.contains(&v),
            (DefaultValue::Int(v), Kind::Seat(_)) => v <= 3,
            (DefaultValue::Float(v), Kind::Float) => v.is_finite(),
            _ => false,
        };
        assert!(fits, "{}'s default is not one of its values", s.name);
        assert!(!s.doc.is_empty() && !s.py_type.is_empty(), "{}", s.name);
    }
}
