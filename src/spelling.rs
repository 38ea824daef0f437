//! One spelling per value of a named-choice enum: its serde name.
//!
//! The option enums ([`crate::bandit::TieBreak`], [`crate::bandit::AlgoName`], …) are written
//! in studies, summaries, cache keys, `dpbai run` flags and Python keywords. Each is spelled by
//! its serde derive (`#[serde(rename_all = "kebab-case")]`) and by nothing else: [`Spelling`]
//! reads the names back from that derive, and [`spelled!`](crate::spelled) gives the enum
//! `FromStr` and `Display` from them. The command line's `clap::ValueEnum` derive (feature
//! `cli`) uses the same kebab-case names; a test of `src/cli` checks that they agree.

use serde::de::{self, Deserializer, IntoDeserializer, Visitor, value::Error as ValueError};

/// A fieldless enum spelled by its serde names.
///
/// # Contract
/// `Self` derives `Deserialize` as an enum of unit variants; [`Spelling::spellings`] lists the
/// variants' serde names in declaration order, and for every value `v`,
/// `Self::parse(v.spelling()) == Ok(v)`.
pub trait Spelling: for<'de> serde::Deserialize<'de> + PartialEq + Copy + 'static {
    /// The name of the option the values belong to, as in error messages (`tie-break`).
    const KEY: &'static str;

    /// Every spelling, in declaration order (the serde derive's list of variant names).
    fn spellings() -> &'static [&'static str] {
        variant_names::<Self>()
    }

    /// Every value, in declaration order.
    fn values() -> Vec<Self> {
        Self::spellings()
            .iter()
            .map(|s| from_name(s).expect("invariant: a serde variant name reads back"))
            .collect()
    }

    /// This value's spelling.
    fn spelling(&self) -> &'static str {
        Self::spellings()
            .iter()
            .copied()
            .find(|s| from_name::<Self>(s).is_ok_and(|v| v == *self))
            .expect("invariant: every value has a serde variant name")
    }

    /// The value spelled `text`.
    ///
    /// # Errors
    /// [`crate::Error::InvalidParameter`] naming [`Spelling::KEY`], `text` and the allowed
    /// spellings (`one of lowest-index, uniform`).
    fn parse(text: &str) -> crate::Result<Self> {
        Self::parse_as(Self::KEY, text)
    }

    /// [`Spelling::parse`] with the error naming `key` instead of [`Spelling::KEY`].
    ///
    /// # Errors
    /// As [`Spelling::parse`].
    fn parse_as(key: &str, text: &str) -> crate::Result<Self> {
        if Self::spellings().contains(&text) {
            if let Ok(v) = from_name(text) {
                return Ok(v);
            }
        }
        Err(crate::Error::param(
            key,
            text,
            format!("one of {}", Self::spellings().join(", ")),
        ))
    }
}

fn from_name<T: for<'de> serde::Deserialize<'de>>(name: &str) -> Result<T, ValueError> {
    T::deserialize(IntoDeserializer::<ValueError>::into_deserializer(name))
}

/// The variant names that `T`'s derived `Deserialize` passes to `deserialize_enum` (empty when
/// `T` is not an enum).
fn variant_names<T: for<'de> serde::Deserialize<'de>>() -> &'static [&'static str] {
    let mut names = Names(&[]);
    // The capture ends deserialisation with an error by design; only `names` is wanted.
    let _ = T::deserialize(&mut names);
    names.0
}

/// A deserializer that records the variant names of the enum asked of it, and fails.
struct Names(&'static [&'static str]);

impl<'de> Deserializer<'de> for &mut Names {
    type Error = ValueError;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, ValueError> {
        Err(de::Error::custom("not an enum"))
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        variants: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, ValueError> {
        self.0 = variants;
        Err(de::Error::custom("names recorded"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map struct identifier
        ignored_any
    }
}

/// Implements [`Spelling`] (with its option name), `FromStr` and `Display` for fieldless
/// serde enums: `spelled!(TieBreak => "tie-break", Rules => "rules");`.
#[macro_export]
macro_rules! spelled {
    ($($ty:ty => $key:literal),+ $(,)?) => {$(
        impl $crate::spelling::Spelling for $ty {
            const KEY: &'static str = $key;
        }
        impl ::std::str::FromStr for $ty {
            type Err = $crate::Error;
            fn from_str(s: &str) -> $crate::Result<Self> {
                <$ty as $crate::spelling::Spelling>::parse(s)
            }
        }
        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::spelling::Spelling::spelling(self))
            }
        }
    )+};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Clone, Copy, PartialEq, serde::Deserialize)]
    #[serde(rename_all = "kebab-case")]
    enum Shape {
        RoundCorner,
        Eq11LogN,
    }
    crate::spelled!(Shape => "shape");

    #[test]
    fn spellings_come_from_serde_and_read_back() {
        assert_eq!(Shape::spellings(), ["round-corner", "eq11-log-n"]);
        assert_eq!(Shape::values(), [Shape::RoundCorner, Shape::Eq11LogN]);
        for v in Shape::values() {
            assert_eq!(v.to_string().parse::<Shape>(), Ok(v));
        }
        assert_eq!(Shape::Eq11LogN.to_string(), "eq11-log-n");
    }

    #[test]
    fn an_unknown_spelling_names_the_key_and_the_allowed_ones() {
        let e = "Round-Corner".parse::<Shape>().unwrap_err().to_string();
        assert_eq!(
            e,
            "invalid shape = Round-Corner: must be one of round-corner, eq11-log-n"
        );
        let e = Shape::parse_as("form", "x").unwrap_err().to_string();
        assert!(e.starts_with("invalid form = x:"), "{e}");
    }

    #[test]
    fn a_non_enum_has_no_spellings() {
        assert!(variant_names::<f64>().is_empty());
    }
}
