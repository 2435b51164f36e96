//! Conversions between JSON values (records) and Python objects.

use crate::errors::Class;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString, PyTuple};
use pyo3::IntoPyObjectExt;
use serde_json::{Map, Number, Value};

use super::convert::{index, np_integer};

/// A JSON value as plain Python objects (dict, list, int, float, str, bool, None).
pub(crate) fn json_to_py<'py>(py: Python<'py>, v: &Value) -> PyResult<Bound<'py, PyAny>> {
    Ok(match v {
        Value::Null => py.None().into_bound(py),
        Value::Bool(b) => b.into_bound_py_any(py)?,
        Value::Number(n) => {
            if let Some(i) = n.as_u64() {
                i.into_bound_py_any(py)?
            } else if let Some(i) = n.as_i64() {
                i.into_bound_py_any(py)?
            } else {
                n.as_f64().unwrap_or(f64::NAN).into_bound_py_any(py)?
            }
        }
        Value::String(s) => PyString::new(py, s).into_any(),
        Value::Array(a) => {
            let items = a
                .iter()
                .map(|x| json_to_py(py, x))
                .collect::<PyResult<Vec<_>>>()?;
            PyList::new(py, items)?.into_any()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, json_to_py(py, x)?)?;
            }
            d.into_any()
        }
    })
}

fn bad(path: &str, what: String) -> PyErr {
    let at = if path.is_empty() {
        "the top level"
    } else {
        path
    };
    Class::InvalidValue.err(format!("invalid record at {at}: {what}"))
}

/// How deeply dicts and lists may nest in a record given as Python objects (a real record
/// nests 6 levels; serde_json's limit for JSON text is 128 too). Deeper data, and
/// self-referential lists or dicts, would otherwise overflow the stack.
pub(crate) const MAX_DEPTH: usize = 128;

/// A Python object made of dicts, lists/tuples, ints (numpy integers too), floats, strings,
/// bools and None, as a JSON value. Anything else, or nesting deeper than [`MAX_DEPTH`], is
/// a `ValueError` naming where it is. `path` is the field path so far (for messages),
/// restored on return.
pub(crate) fn py_to_json(obj: &Bound<'_, PyAny>, path: &mut String) -> PyResult<Value> {
    to_json(obj, path, 0)
}

/// A string of the record at `path`: one that does not encode (a lone surrogate) is no
/// JSON text.
fn text(s: &Bound<'_, PyString>, path: &str) -> PyResult<String> {
    s.to_cow().map(|t| t.into_owned()).map_err(|_| {
        bad(
            path,
            format!(
                "{} is not text that can be read: it holds a lone surrogate",
                s.repr().map(|r| r.to_string()).unwrap_or_default()
            ),
        )
    })
}

fn to_json(obj: &Bound<'_, PyAny>, path: &mut String, depth: usize) -> PyResult<Value> {
    if obj.is_none() {
        return Ok(Value::Null);
    }
    if let Ok(b) = obj.downcast::<PyBool>() {
        return Ok(Value::Bool(b.is_true()));
    }
    if obj.is_instance_of::<PyInt>() || obj.is_instance(np_integer(obj.py())?)? {
        let Some(i) = index(obj) else {
            return Err(bad(
                path,
                format!(
                    "{} of type {} is not an integer",
                    obj.repr()?,
                    obj.get_type().name()?
                ),
            ));
        };
        if let Ok(v) = i.extract::<i64>() {
            return Ok(Value::Number(v.into()));
        }
        if let Ok(v) = i.extract::<u64>() {
            return Ok(Value::Number(v.into()));
        }
        return Err(bad(path, format!("integer {} is too large", obj.repr()?)));
    }
    if let Ok(f) = obj.downcast::<PyFloat>() {
        return Number::from_f64(f.value())
            .map(Value::Number)
            .ok_or_else(|| bad(path, format!("{} is not a JSON number", f.value())));
    }
    if let Ok(s) = obj.downcast::<PyString>() {
        return text(s, path).map(Value::String);
    }
    let container = obj.is_instance_of::<PyDict>()
        || obj.is_instance_of::<PyList>()
        || obj.is_instance_of::<PyTuple>();
    if container && depth >= MAX_DEPTH {
        return Err(bad(
            path,
            format!(
                "lists and dicts are nested more than {MAX_DEPTH} levels deep (or contain \
                 themselves)"
            ),
        ));
    }
    if let Ok(d) = obj.downcast::<PyDict>() {
        let mut m = Map::new();
        for (k, v) in d.iter() {
            let key = k.downcast::<PyString>().map_err(|_| {
                bad(
                    path,
                    format!(
                        "dictionary key {} is not a string",
                        k.repr().map(|r| r.to_string()).unwrap_or_default()
                    ),
                )
            })?;
            let key = text(key, path)?;
            let len = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(&key);
            let value = to_json(&v, path, depth + 1)?;
            path.truncate(len);
            m.insert(key, value);
        }
        return Ok(Value::Object(m));
    }
    if obj.is_instance_of::<PyList>() || obj.is_instance_of::<PyTuple>() {
        let mut out = Vec::new();
        for (i, v) in obj.try_iter()?.enumerate() {
            let len = path.len();
            path.push_str(&format!("[{i}]"));
            out.push(to_json(&v?, path, depth + 1)?);
            path.truncate(len);
        }
        return Ok(Value::Array(out));
    }
    Err(bad(
        path,
        format!(
            "{} of type {} is not JSON data",
            obj.repr()?,
            obj.get_type().name()?
        ),
    ))
}
