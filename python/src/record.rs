//! Typed result objects: the [`record!`] macro declares a `#[pyclass(frozen, get_all)]` class
//! once, with its fields; from that one declaration it derives the conversion from the
//! library's serialised result ([`FromJson`]: a field per key, an unknown key refused so that a
//! field the library adds cannot be dropped silently), `to_dict()` (nested records as dicts, the
//! library's JSON key names) and `__repr__`.
//!
//! The conversion goes through [`serde_json::to_value`], never through text: a number keeps its
//! exact `f64` bits. `null` (which is also how serde writes NaN and ±∞) is `None` for an
//! `Option` field and NaN for an `f64` or an ndarray entry.

use numpy::PyArray1;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use serde_json::Value;

/// A field of a typed result, read from the library's serialised value at `at` (a key path,
/// for the message of a mismatch, which is a bug of this crate, not of the caller).
pub(crate) trait FromJson: Sized {
    fn from_json(py: Python<'_>, v: &Value, at: &str) -> PyResult<Self>;
}

fn mismatch(at: &str, v: &Value, want: &str) -> PyErr {
    PyRuntimeError::new_err(format!(
        "internal: result field {at} = {v} is not {want} (the Python result class and the \
         library disagree)"
    ))
}

fn number(v: &Value, at: &str) -> PyResult<f64> {
    match v {
        Value::Null => Ok(f64::NAN),
        _ => v.as_f64().ok_or_else(|| mismatch(at, v, "a number")),
    }
}

impl FromJson for f64 {
    fn from_json(_: Python<'_>, v: &Value, at: &str) -> PyResult<Self> {
        number(v, at)
    }
}

impl FromJson for u64 {
    fn from_json(_: Python<'_>, v: &Value, at: &str) -> PyResult<Self> {
        v.as_u64()
            .ok_or_else(|| mismatch(at, v, "an unsigned integer"))
    }
}

impl FromJson for bool {
    fn from_json(_: Python<'_>, v: &Value, at: &str) -> PyResult<Self> {
        v.as_bool().ok_or_else(|| mismatch(at, v, "a bool"))
    }
}

impl FromJson for String {
    fn from_json(_: Python<'_>, v: &Value, at: &str) -> PyResult<Self> {
        v.as_str()
            .map(str::to_string)
            .ok_or_else(|| mismatch(at, v, "a string"))
    }
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(py: Python<'_>, v: &Value, at: &str) -> PyResult<Self> {
        match v {
            Value::Null => Ok(None),
            _ => T::from_json(py, v, at).map(Some),
        }
    }
}

/// A list; an absent key (serde omits an empty list) is an empty list.
impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(py: Python<'_>, v: &Value, at: &str) -> PyResult<Self> {
        match v {
            Value::Null => Ok(Vec::new()),
            Value::Array(xs) => xs
                .iter()
                .enumerate()
                .map(|(i, x)| T::from_json(py, x, &format!("{at}[{i}]")))
                .collect(),
            _ => Err(mismatch(at, v, "a list")),
        }
    }
}

/// A pair (`[a, b]` in the JSON): an interval, a pair of counts or of inputs.
impl<A: FromJson, B: FromJson> FromJson for (A, B) {
    fn from_json(py: Python<'_>, v: &Value, at: &str) -> PyResult<Self> {
        match v.as_array().map(Vec::as_slice) {
            Some([a, b]) => Ok((
                A::from_json(py, a, &format!("{at}[0]"))?,
                B::from_json(py, b, &format!("{at}[1]"))?,
            )),
            _ => Err(mismatch(at, v, "a pair")),
        }
    }
}

/// A float64 ndarray (NaN where the JSON has `null`).
pub(crate) type F64Array = Py<PyArray1<f64>>;

impl FromJson for F64Array {
    fn from_json(py: Python<'_>, v: &Value, at: &str) -> PyResult<Self> {
        let xs = v.as_array().ok_or_else(|| mismatch(at, v, "a list"))?;
        let xs: Vec<f64> = xs
            .iter()
            .enumerate()
            .map(|(i, x)| number(x, &format!("{at}[{i}]")))
            .collect::<PyResult<_>>()?;
        Ok(PyArray1::from_vec(py, xs).unbind())
    }
}

/// A nested record.
pub(crate) trait Record:
    FromJson + pyo3::PyClass + Into<pyo3::PyClassInitializer<Self>>
{
}

impl<R: Record> FromJson for Py<R> {
    fn from_json(py: Python<'_>, v: &Value, at: &str) -> PyResult<Self> {
        Py::new(py, R::from_json(py, v, at)?)
    }
}

/// The JSON key of a field: its name without the trailing `_` that a Python keyword needs
/// (`global_` is the key `global`).
pub(crate) fn key(field: &str) -> &str {
    field.strip_suffix('_').unwrap_or(field)
}

/// The object of `v` (a record), with every key one of `fields`.
pub(crate) fn object<'a>(
    v: &'a Value,
    at: &str,
    fields: &[&str],
) -> PyResult<&'a serde_json::Map<String, Value>> {
    let o = v.as_object().ok_or_else(|| mismatch(at, v, "an object"))?;
    if let Some(k) = o
        .keys()
        .find(|k| !fields.iter().any(|f| key(f) == k.as_str()))
    {
        return Err(PyRuntimeError::new_err(format!(
            "internal: result field {at}.{k} has no attribute in the Python result class"
        )));
    }
    Ok(o)
}

/// A value as plain Python data, as the command line's JSON has it: a record (anything with
/// `to_dict`, except an ndarray) as its dict, a list or a pair (tuple) as a list, element-wise;
/// everything else (numbers, strings, ndarrays) as it is.
fn plain<'py>(v: Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    let py = v.py();
    if v.cast::<PyList>().is_ok() || v.cast::<PyTuple>().is_ok() {
        let items: Vec<Bound<'py, PyAny>> =
            v.try_iter()?.map(|x| plain(x?)).collect::<PyResult<_>>()?;
        return Ok(PyList::new(py, items)?.into_any());
    }
    if v.hasattr("to_dict")? && !v.hasattr("dtype")? {
        return v.call_method0("to_dict");
    }
    Ok(v)
}

/// `to_dict()` of a record with the attributes `fields`.
pub(crate) fn to_dict<'py>(
    obj: &Bound<'py, PyAny>,
    fields: &[&str],
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(obj.py());
    for f in fields {
        d.set_item(key(f), plain(obj.getattr(*f)?)?)?;
    }
    Ok(d)
}

/// `__repr__` of a record: `Name(field=repr, ...)`.
pub(crate) fn repr(obj: &Bound<'_, PyAny>, name: &str, fields: &[&str]) -> PyResult<String> {
    let parts: Vec<String> = fields
        .iter()
        .map(|f| Ok(format!("{f}={}", obj.getattr(*f)?.repr()?)))
        .collect::<PyResult<_>>()?;
    Ok(format!("{name}({})", parts.join(", ")))
}

/// Declares a typed result class once: its fields (documented), and optionally more Python
/// methods; derives [`FromJson`], [`Record`], `to_dict()` and `__repr__`.
macro_rules! record {
    (
        $(#[$meta:meta])*
        $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty ),* $(,)?
        }
        $( methods { $($methods:tt)* } )?
    ) => {
        $(#[$meta])*
        #[pyclass(frozen, get_all, module = "dpbai._dpbai")]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl $name {
            /// The attribute names, in declaration order.
            pub const FIELDS: &'static [&'static str] = &[$(stringify!($field)),*];
        }

        impl $crate::record::FromJson for $name {
            fn from_json(
                py: pyo3::Python<'_>,
                v: &serde_json::Value,
                at: &str,
            ) -> pyo3::PyResult<Self> {
                let o = $crate::record::object(v, at, Self::FIELDS)?;
                let null = serde_json::Value::Null;
                Ok($name {
                    $( $field: $crate::record::FromJson::from_json(
                        py,
                        o.get($crate::record::key(stringify!($field))).unwrap_or(&null),
                        &format!("{at}.{}", $crate::record::key(stringify!($field))),
                    )?, )*
                })
            }
        }

        impl $crate::record::Record for $name {}

        #[pymethods]
        impl $name {
            /// The result as plain Python data (nested results as dicts, the keys of the
            /// command line's JSON).
            fn to_dict<'py>(
                slf: &pyo3::Bound<'py, Self>,
            ) -> pyo3::PyResult<pyo3::Bound<'py, pyo3::types::PyDict>> {
                $crate::record::to_dict(slf.as_any(), Self::FIELDS)
            }

            fn __repr__(slf: &pyo3::Bound<'_, Self>) -> pyo3::PyResult<String> {
                $crate::record::repr(slf.as_any(), stringify!($name), Self::FIELDS)
            }

            $( $($methods)* )?
        }
    };
}

pub(crate) use record;

/// A record built from the serialised form of a library value.
pub(crate) fn from_serde<R: Record, T: serde::Serialize>(
    py: Python<'_>,
    value: &T,
) -> PyResult<Py<R>> {
    let v = serde_json::to_value(value)
        .map_err(|e| PyRuntimeError::new_err(format!("serialising the result: {e}")))?;
    Py::<R>::from_json(py, &v, "result")
}
