//! The settings-table mechanism: a front end's settings (the Python `VectorEnv`'s, the
//! arena's, the single Gymnasium and PettingZoo envs') declared once each, as rows of name, type, default, range and doc, in the
//! way `rl/vector/outputs.rs` declares the outputs. The tables themselves live beside
//! what they configure ([`crate::vector::settings`], [`crate::arena::settings`]); the
//! Python binding parses arguments by walking them, `_settings_spec()` hands them to the
//! Python package (signatures, `ArenaSpec`, the generated constructor table), and the
//! Rust defaults are read from them.

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

impl Setting {
    /// A row (in the tables' column order).
    pub const fn new(
        name: &'static str,
        kind: Kind,
        nullable: bool,
        default: DefaultValue,
        positional: bool,
        py_type: &'static str,
        doc: &'static str,
    ) -> Setting {
        Setting {
            name,
            kind,
            nullable,
            default,
            positional,
            py_type,
            doc,
        }
    }
}

impl Setting {
    /// The same row, also given by position (a table whose settings all are, such as
    /// the single envs', shares a keyword-only table's row this way).
    pub const fn by_position(self) -> Setting {
        Setting {
            positional: true,
            ..self
        }
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
/// value of its kind. (Each table's test calls it.)
#[cfg(test)]
pub(crate) fn check_table(table: &[Setting]) {
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
