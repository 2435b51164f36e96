//! The settings tables ([`yokai_septet::settings`]) on the Python side: arguments bound to a
//! table's rows and parsed by each row's kind (every error names the setting and the
//! value), and `_settings_spec()`, the tables as Python data for the package
//! (`VectorEnv`'s signature, `ArenaSpec`, docs/api.md's constructor table).

use crate::errors::Class;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use super::convert::{extract_flag, extract_integer, extract_number, quoted_list, type_name};
use yokai_septet::settings::{DefaultValue, Kind, Setting};
use yokai_septet::{Episode, GameConfig, Scoring, Variant};

/// One setting's value, as its kind reads it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value {
    /// `None`.
    None,
    /// A flag.
    Bool(bool),
    /// A number in the row's range.
    Int(u64),
    /// One of the row's names.
    Name(&'static str),
    /// Bot names: one for every seat (one entry) or one per seat.
    Names(Vec<String>),
    /// A float.
    Float(f64),
}

/// The values of every row of a table, in its order, and whether each was given.
pub(crate) struct Values {
    table: &'static [Setting],
    values: Vec<Value>,
    given: Vec<bool>,
}

impl Values {
    fn at(&self, name: &str) -> usize {
        self.table
            .iter()
            .position(|s| s.name == name)
            .unwrap_or_else(|| unreachable!("no setting {name}"))
    }

    /// The value of `name`.
    pub(crate) fn get(&self, name: &str) -> &Value {
        &self.values[self.at(name)]
    }

    /// Whether `name` was given (an explicit `None` counts).
    pub(crate) fn given(&self, name: &str) -> bool {
        self.given[self.at(name)]
    }

    /// A flag's value.
    pub(crate) fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Value::Bool(true))
    }

    /// A number's value (`None` for `None`).
    pub(crate) fn int(&self, name: &str) -> Option<u64> {
        match self.get(name) {
            Value::Int(v) => Some(*v),
            _ => None,
        }
    }

    /// A name's value (`None` for `None`).
    pub(crate) fn name(&self, name: &str) -> Option<&'static str> {
        match self.get(name) {
            Value::Name(v) => Some(v),
            _ => None,
        }
    }

    /// A float's value (`None` for anything else).
    pub(crate) fn float(&self, name: &str) -> Option<f64> {
        match self.get(name) {
            Value::Float(v) => Some(*v),
            _ => None,
        }
    }

    /// The [`GameConfig`] of the game section's rows ([`yokai_septet::settings::game`]) this
    /// table includes: `variant`, `scoring` (`None` only for the seal variants, which
    /// ignore it), and, where the table has them, `seed` (else 0), `episode` (else a whole
    /// game) and `max_rounds` (else none).
    pub(crate) fn game_config(&self) -> PyResult<GameConfig> {
        let has = |name: &str| self.table.iter().any(|s| s.name == name);
        let variant = self
            .name("variant")
            .and_then(Variant::from_name)
            .unwrap_or_else(|| unreachable!("the variant row reads a variant's name"));
        let scoring = match self.name("scoring").and_then(Scoring::from_name) {
            Some(s) => s,
            None if variant.is_seal() => Scoring::Advanced,
            None => {
                return Err(Class::InvalidValue.err(format!(
                    "scoring None is only for the seal variants: valid scorings for {:?} are {}",
                    variant.name(),
                    quoted_list(Scoring::NAMES)
                )))
            }
        };
        let episode = if has("episode") {
            self.name("episode")
                .and_then(Episode::from_name)
                .unwrap_or_else(|| unreachable!("the episode row reads an episode's name"))
        } else {
            Episode::Game
        };
        let seed = if has("seed") {
            self.int("seed").unwrap_or(0)
        } else {
            0
        };
        let max_rounds = if has("max_rounds") {
            self.int("max_rounds")
        } else {
            None
        };
        Ok(GameConfig::new(variant, seed)
            .with_scoring(scoring)
            .with_episode(episode)
            .with_max_rounds(max_rounds.map(|m| m as u32)))
    }

    /// Every value as a Python dict (`ArenaSpec` keeps these normalized values).
    pub(crate) fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (s, v) in self.table.iter().zip(&self.values) {
            d.set_item(s.name, value_to_py(py, v)?)?;
        }
        Ok(d)
    }
}

fn value_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    use pyo3::IntoPyObjectExt;
    match v {
        Value::None => Ok(py.None().into_bound(py)),
        Value::Bool(b) => b.into_bound_py_any(py),
        Value::Int(i) => i.into_bound_py_any(py),
        Value::Name(n) => n.into_bound_py_any(py),
        Value::Names(n) if n.len() == 1 => n[0].clone().into_bound_py_any(py),
        Value::Names(n) => n.clone().into_bound_py_any(py),
        Value::Float(f) => f.into_bound_py_any(py),
    }
}

/// A row's default as a value (`None` where it is required).
fn default_value(s: &Setting) -> Option<Value> {
    Some(match s.default {
        DefaultValue::Required => return None,
        DefaultValue::None => Value::None,
        DefaultValue::Bool(b) => Value::Bool(b),
        DefaultValue::Int(v) => Value::Int(v),
        DefaultValue::Float(v) => Value::Float(v),
        DefaultValue::Str(n) => match s.kind {
            Kind::Names => Value::Names(vec![n.to_string()]),
            _ => Value::Name(n),
        },
    })
}

/// `hi` as the docs write it: a power of two (less one) as `2**k` (`2**k-1`).
fn bound(hi: u64) -> String {
    let k = |v: u64| v.is_power_of_two() && v >= 1 << 16;
    if k(hi) {
        format!("2**{}", hi.trailing_zeros())
    } else if hi == u64::MAX {
        "2**64-1".into()
    } else if k(hi + 1) {
        format!("2**{}-1", (hi + 1).trailing_zeros())
    } else {
        hi.to_string()
    }
}

/// `obj` read as a value of `s` (`TypeError` for a wrong type, `ValueError` for a value
/// out of range or unknown, each naming the setting).
pub(crate) fn parse(s: &Setting, obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let name = s.name;
    if obj.is_none() && s.nullable {
        return Ok(Value::None);
    }
    match s.kind {
        Kind::Bool => extract_flag(obj, name).map(Value::Bool),
        Kind::Int { lo, hi } => match extract_integer(obj, name)? {
            Some(v) if (lo as i128..=hi as i128).contains(&v) => Ok(Value::Int(v as u64)),
            _ => Err(Class::InvalidValue.err(format!(
                "{name} {} is out of range: it must be an integer in {lo}..{}{}",
                obj.repr()?,
                bound(hi),
                if s.nullable { " (or None)" } else { "" }
            ))),
        },
        Kind::Choice(names) => {
            // (A `str` that does not encode, a lone surrogate's, is no name either.)
            if let Some(t) = obj
                .downcast::<PyString>()
                .ok()
                .and_then(|t| t.to_cow().ok())
            {
                if let Some(n) = names.iter().find(|n| **n == t) {
                    return Ok(Value::Name(n));
                }
            }
            Err(Class::InvalidValue.err(format!(
                "unknown {name} {}: valid {name}s are {}",
                obj.repr()?,
                quoted_list(names.iter().copied())
            )))
        }
        Kind::Mode(names) => {
            let text = match obj.extract::<String>() {
                Ok(t) => Some(t),
                // An enum member (gymnasium's AutoresetMode holds its name in `value`).
                Err(_) => obj.getattr("value").ok().and_then(|v| v.extract().ok()),
            };
            let key = |t: &str| t.replace('_', "").to_ascii_lowercase();
            if let Some(t) = text {
                if let Some(n) = names.iter().find(|n| key(n) == key(&t)) {
                    return Ok(Value::Name(n));
                }
            }
            Err(Class::InvalidValue.err(format!(
                "unknown {name} {}: valid values are {} (any case, or an enum member whose \
                 value is one, such as gymnasium.vector.AutoresetMode's)",
                obj.repr()?,
                quoted_list(names.iter().copied())
            )))
        }
        Kind::Float => extract_number(obj, name).map(Value::Float),
        Kind::Seat(names) => {
            if let Ok(t) = obj.downcast::<PyString>() {
                let t = t.to_cow().unwrap_or_default();
                return match names.iter().find(|n| **n == t) {
                    Some(n) => Ok(Value::Name(n)),
                    None => Err(Class::InvalidValue.err(format!(
                        "unknown {name} {}: it must be a seat number{}",
                        obj.repr()?,
                        if names.is_empty() {
                            String::new()
                        } else {
                            format!(" or one of {}", quoted_list(names.iter().copied()))
                        }
                    ))),
                };
            }
            match extract_integer(obj, name)? {
                Some(v) if (0..=3).contains(&v) => Ok(Value::Int(v as u64)),
                _ => Err(Class::InvalidValue.err(format!(
                    "{name} {} is out of range: seats are 0..3 at most",
                    obj.repr()?
                ))),
            }
        }
        Kind::Names => {
            if let Ok(t) = obj.extract::<String>() {
                return Ok(Value::Names(vec![t]));
            }
            let list = if obj.is_instance_of::<PyString>() {
                None
            } else {
                obj.extract::<Vec<String>>().ok()
            };
            list.filter(|l| !l.is_empty())
                .map(Value::Names)
                .ok_or_else(|| {
                    Class::InvalidValue.err(format!(
                        "{name} must be a bot name or a list of one bot name per seat, not {}",
                        obj.repr().map(|r| r.to_string()).unwrap_or_default()
                    ))
                })
        }
    }
}

/// Binds a call's arguments to `table` as Python binds them to a signature (the
/// positional rows first, by position or keyword; the others by keyword only), then
/// parses each; a row not given takes its default. `what` names the callable in errors.
pub(crate) fn bind(
    table: &'static [Setting],
    what: &str,
    args: &Bound<'_, PyTuple>,
    kwargs: Option<&Bound<'_, PyDict>>,
) -> PyResult<Values> {
    let positional = table.iter().take_while(|s| s.positional).count();
    if args.len() > positional {
        return Err(Class::InvalidType.err(format!(
            "{what}() takes at most {positional} positional arguments ({} given)",
            args.len()
        )));
    }
    let mut objs: Vec<Option<Bound<'_, PyAny>>> = vec![None; table.len()];
    for (i, a) in args.iter().enumerate() {
        objs[i] = Some(a);
    }
    if let Some(kwargs) = kwargs {
        for (k, v) in kwargs.iter() {
            let key = k.extract::<String>()?;
            let Some(i) = table.iter().position(|s| s.name == key) else {
                return Err(unexpected_keyword(table, what, &key, args.py()));
            };
            if objs[i].is_some() {
                return Err(Class::InvalidType
                    .err(format!("{what}() got multiple values for argument '{key}'")));
            }
            objs[i] = Some(v);
        }
    }
    values(table, what, objs)
}

/// Python's error for a keyword argument `key` that `table` has no row for, naming the
/// closest row (as `difflib.get_close_matches` finds it): "did you mean 'opponents'?".
fn unexpected_keyword(table: &[Setting], what: &str, key: &str, py: Python<'_>) -> PyErr {
    let names: Vec<&str> = table.iter().map(|s| s.name).collect();
    let close = py
        .import("difflib")
        .and_then(|d| d.call_method1("get_close_matches", (key, names, 1)))
        .and_then(|m| m.extract::<Vec<String>>())
        .unwrap_or_default();
    let hint = close
        .first()
        .map(|c| format!("; did you mean '{c}'?"))
        .unwrap_or_default();
    Class::InvalidType.err(format!(
        "{what}() got an unexpected keyword argument '{key}'{hint}"
    ))
}

/// Reads every row of `table` from the attributes of `spec` (an `ArenaSpec`, or any
/// object with its fields).
pub(crate) fn from_spec(
    table: &'static [Setting],
    spec: &Bound<'_, PyAny>,
    kind: &str,
) -> PyResult<Values> {
    let objs = table
        .iter()
        .map(|s| {
            spec.getattr(s.name).map(Some).map_err(|_| {
                Class::InvalidType.err(format!(
                    "spec must be a yokai_septet.{kind}: {} has no field {:?}",
                    type_name(spec),
                    s.name
                ))
            })
        })
        .collect::<PyResult<Vec<_>>>()?;
    values(table, kind, objs)
}

fn values(
    table: &'static [Setting],
    what: &str,
    objs: Vec<Option<Bound<'_, PyAny>>>,
) -> PyResult<Values> {
    let mut values = Vec::with_capacity(table.len());
    let mut given = Vec::with_capacity(table.len());
    for (s, obj) in table.iter().zip(objs) {
        given.push(obj.is_some());
        values.push(match obj {
            Some(o) => parse(s, &o)?,
            None => default_value(s).ok_or_else(|| {
                Class::InvalidType.err(format!("{what}() missing required argument '{}'", s.name))
            })?,
        });
    }
    Ok(Values {
        table,
        values,
        given,
    })
}

/// One table as Python data: a list of dicts, one per row, in order: ``name``, ``type``
/// (the annotation), ``default`` (absent when required), ``nullable``, ``positional``,
/// ``doc``, and ``range`` (``(lo, hi)``) or ``choices`` (the names).
fn table_to_py<'py>(py: Python<'py>, table: &[Setting]) -> PyResult<Bound<'py, PyList>> {
    let rows = PyList::empty(py);
    for s in table {
        let d = PyDict::new(py);
        d.set_item("name", s.name)?;
        d.set_item("type", s.py_type)?;
        if let Some(v) = default_value(s) {
            d.set_item("default", value_to_py(py, &v)?)?;
        }
        d.set_item("nullable", s.nullable)?;
        d.set_item("positional", s.positional)?;
        d.set_item("doc", s.doc)?;
        match s.kind {
            Kind::Int { lo, hi } => d.set_item("range", (lo, hi))?,
            Kind::Choice(names) | Kind::Mode(names) => d.set_item("choices", names.to_vec())?,
            Kind::Seat(names) => d.set_item("choices", names.to_vec())?,
            Kind::Bool | Kind::Names | Kind::Float => {}
        }
        rows.append(d)?;
    }
    Ok(rows)
}

/// The table called `kind` (`_settings_spec()`'s keys).
fn table(kind: &str) -> PyResult<&'static [Setting]> {
    Ok(match kind {
        "vector" => &yokai_septet_vector::settings::SETTINGS,
        "arena" => &yokai_septet_bots::arena::settings::SETTINGS,
        "gym" => &super::env_settings::GYM,
        "aec" => &super::env_settings::AEC,
        "game" => &super::env_settings::GAME,
        _ => {
            return Err(Class::InvalidValue.err(format!(
                "unknown settings table {kind:?}: valid tables are 'vector', 'arena', 'gym', 'aec'"
            )))
        }
    })
}

/// The settings given as ``kwargs`` bound to the table ``kind`` (``"gym"``: the Gymnasium
/// env, ``"aec"``: the PettingZoo env) and parsed by its rows: every value, the defaults of
/// those not given, as a dict (errors name the setting; ``what`` names the callable).
#[pyfunction]
pub(crate) fn _check_settings<'py>(
    py: Python<'py>,
    kind: &str,
    what: &str,
    kwargs: &Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyDict>> {
    bind(table(kind)?, what, &PyTuple::empty(py), Some(kwargs))?.to_dict(py)
}

/// The settings tables: ``{"vector": [...], "arena": [...], "gym": [...], "aec": [...]}``,
/// each a list of rows (see the Rust tables, `rl/vector/settings.rs`, `arena/settings.rs`
/// and `python/env_settings.rs`): what ``VectorEnv``'s signature, ``ArenaSpec``, the
/// single envs' signatures and docs/api.md's constructor table read.
#[pyfunction]
pub(crate) fn _settings_spec(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    for kind in ["vector", "arena", "gym", "aec", "game"] {
        d.set_item(kind, table_to_py(py, table(kind)?)?)?;
    }
    Ok(d)
}
