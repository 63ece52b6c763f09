//! A plugin's own sections (`[puzzle]`, `[goal]`, `[heuristic]`), declared once with
//! [`keys!`](crate::keys): each key's doc line, range and default, the [`Keys`] list that
//! `statespace puzzles` prints, and the typed accessors ([`Field`] -> [`Checked`]) that check a
//! value against its declaration and name its file, line and dotted key in errors.
//!
//! Every declared check (a range, a list of choices) runs when the section is read
//! ([`Config::section`]), so a bad value is refused at load, in one line naming the file, the
//! line, the key and what is allowed, whether or not the plugin reads that key for this config.
//!
//! The trade-off: a macro_rules macro (no proc-macro crate to build) whose grammar is small and
//! fixed: a doc comment per key, then optionally `#[range(..)]`, `#[choices(..)]` and
//! `#[default(..)]`, in that order.

use super::{Config, line_of, toml_error};
use crate::error::{Error, Location, Result};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde::de::IgnoredAny;
use std::fmt;
pub use toml::Spanned;

/// One key of a plugin's section, as `statespace puzzles` prints it and as errors name it.
#[derive(Clone, Copy, Debug, serde::Serialize)]
pub struct Key {
    /// The TOML key.
    pub name: &'static str,
    /// The section and the key, as errors name it: `puzzle.rows`.
    pub dotted: &'static str,
    /// One line: what it means.
    pub doc: &'static str,
    /// The values allowed, as words (`2 to 12`), when the key declares a range.
    #[serde(serialize_with = "serialize_text")]
    pub range: Option<fn() -> String>,
    /// The words allowed, when the key declares them (`#[choices("unit", "line", "path")]`);
    /// empty when any value of its type is.
    pub choices: &'static [&'static str],
    /// The value when the key is absent, as written in the declaration.
    pub default: Option<&'static str>,
    /// The declared range of an integer key, as `(low, high)` (inclusive): what a front end's
    /// flag for the same key is checked against too ([`Key::check`]).
    #[serde(skip)]
    pub bounds: Option<fn() -> (i64, i64)>,
}

impl Key {
    /// `Some(complaint)` when `value` is outside the key's declared range.
    pub fn check(&self, value: i64) -> Option<String> {
        let (low, high) = self.bounds?();
        (!(low..=high).contains(&value))
            .then(|| format!("{value} is out of range (allowed: {low} to {high})"))
    }

    /// The doc line with the range or the choices and the default, for help: `board rows; 2 to
    /// 12`, `how far a move goes; unit | line | path; default "unit"`.
    pub fn help(&self) -> String {
        let mut help = self.doc.to_string();
        if let Some(range) = self.range {
            help.push_str(&format!("; {}", range()));
        }
        if !self.choices.is_empty() {
            help.push_str(&format!("; {}", self.choices.join(" | ")));
        }
        if let Some(default) = self.default {
            help.push_str(&format!("; default {default}"));
        }
        help
    }
}

fn serialize_text<S: serde::Serializer>(
    text: &Option<fn() -> String>,
    s: S,
) -> std::result::Result<S::Ok, S::Error> {
    match text {
        Some(text) => s.serialize_some(&text()),
        None => s.serialize_none(),
    }
}

/// A plugin's section (`[puzzle]`, `[goal]`, `[heuristic]`): a serde struct declared with
/// [`keys!`](crate::keys), which also lists its keys with their docs, ranges and defaults.
pub trait Keys: DeserializeOwned {
    /// The section's name: `puzzle`.
    const SECTION: &'static str;
    /// Every key but `kind`, in declaration order.
    const KEYS: &'static [Key];

    /// Checks every written value against its declaration (range, choices): what
    /// [`Config::section`] runs when it reads the section.
    fn validate(&self, config: &Config) -> Result<()>;
}

/// A declared list of choices' check: `Some(complaint)` (naming the choices) when `value` is
/// not one of them.
pub fn check_choice(value: &str, choices: &[&str]) -> Option<String> {
    match choices.contains(&value) {
        true => None,
        false => Some(format!(
            "unknown value `{value}` (allowed: {})",
            choices.join(", ")
        )),
    }
}

/// A declared range's check: `Some(complaint)` (naming the range) when a value is outside it.
pub type RangeCheck<T> = fn(&T) -> Option<String>;

/// A key's value as read, with its declaration and the config it came from; what a
/// [`keys!`](crate::keys) accessor returns. Say what the key is to this plugin:
/// [`value`](Self::value) (required, or its default), [`optional`](Self::optional) or
/// [`refuse`](Self::refuse) (the key makes no sense with the other values).
pub struct Field<'a, T> {
    /// The value as read, if written.
    pub raw: &'a Option<Spanned<T>>,
    /// The key's declaration.
    pub key: &'static Key,
    /// The declared range, checked on a written value.
    pub check: Option<RangeCheck<T>>,
    /// The declared default.
    pub default: Option<fn() -> T>,
    /// Where errors point.
    pub config: &'a Config,
}

impl<T: Clone> Field<'_, T> {
    /// The value, checked against its range; its default when absent; else an error that the
    /// key is missing.
    pub fn value(self) -> Result<Checked<T>> {
        let key = self.key.dotted;
        let config = self.config;
        self.optional()?.ok_or_else(|| config.missing(key))
    }

    /// The value, checked against its range, or its default; `None` when absent with no default.
    pub fn optional(self) -> Result<Option<Checked<T>>> {
        let location = Location::file(&self.config.name).with_key(self.key.dotted);
        match (self.raw, self.default) {
            (Some(raw), _) => {
                let location = location.at_line(line_of(&self.config.text, raw.span().start));
                let checked = Checked {
                    value: raw.get_ref().clone(),
                    location,
                    written: true,
                };
                if let Some(message) = self.check.and_then(|check| check(checked.get())) {
                    return Err(checked.error(message));
                }
                Ok(Some(checked))
            }
            (None, Some(default)) => Ok(Some(Checked {
                value: default(),
                location,
                written: false,
            })),
            (None, None) => Ok(None),
        }
    }

    /// `Ok` when the key is absent; else an error at its line: "not used here: `why`".
    pub fn refuse(self, why: &str) -> Result<()> {
        self.config.refuse(self.raw, self.key.dotted, why)
    }
}

/// A key's value, checked against its declaration, with where it stands: a later check that
/// involves it (a board too large for its cells) names its line and key through
/// [`error`](Self::error) without writing either again.
#[derive(Clone, Debug)]
pub struct Checked<T> {
    value: T,
    location: Location,
    written: bool,
}

impl<T> Checked<T> {
    /// The value.
    pub fn get(&self) -> &T {
        &self.value
    }

    /// The value, owned.
    pub fn into_inner(self) -> T {
        self.value
    }

    /// Where the value stands (file, line when written, key).
    pub fn location(&self) -> &Location {
        &self.location
    }

    /// Whether the value was written in the file (not a default).
    pub fn is_written(&self) -> bool {
        self.written
    }

    /// An error about this key: at its line when it was written, else at the key alone.
    pub fn error(&self, message: impl Into<String>) -> Error {
        Error::input(self.location.clone(), message)
    }
}

impl Checked<String> {
    /// The error for a value the plugin declared (a goal kind the registry let through, a
    /// choice `keys!` checked) that its code does not handle: declaration and code out of step,
    /// a bug in the plugin, said as one line at the key rather than a panic. What a user gets
    /// for a value the plugin does not declare is the registry's or the key's own message.
    pub fn not_handled(&self) -> Error {
        self.error(format!(
            "`{}` is declared by the plugin but not handled (a bug in the plugin)",
            self.value
        ))
    }
}

impl<T: Copy> Checked<T> {
    /// The value, copied.
    pub fn value(&self) -> T {
        self.value
    }
}

/// Declares a plugin's section (`[puzzle]`, `[goal]`, `[heuristic]`) once: a serde struct
/// (unknown keys refused, every value [`Spanned`] and optional, so a check can name its line),
/// its [`Keys`] list for `statespace puzzles`, and an accessor per key that gives the value
/// checked against its declaration (a [`Field`]). Each key needs a doc comment (its help text)
/// and may declare, in this order, `#[range(a..=b)]` (the values allowed), `#[choices("a",
/// "b")]` (the words allowed, for a `String` key) and `#[default(v)]` (the value when absent).
/// Ranges and choices are checked when the section is read (see [`Keys::validate`]). The struct also gets `kind` (the plugin's name in `[puzzle]`, the
/// goal's in `[goal]`, the heuristic's in `[heuristic]`) and `kind_at(config)`, the kind
/// [`Checked`] (for an error at its line).
///
/// A key's dotted name (`puzzle.rows`), its range and its default are written once, here; the
/// accessor, the errors and the help all come from this.
///
/// ```
/// statespace::keys! {
///     /// `[puzzle]` of a counter puzzle.
///     pub struct CounterKeys in [puzzle] {
///         /// the modulus
///         #[range(2..=100)]
///         #[default(10)]
///         modulus: i64,
///         /// the name of the counter
///         label: String,
///         /// which way it counts
///         #[choices("up", "down")]
///         #[default("up")]
///         direction: String,
///     }
/// }
/// use statespace::config::{Config, Keys};
/// assert_eq!(CounterKeys::KEYS[0].help(), "the modulus; 2 to 100; default 10");
/// assert_eq!(CounterKeys::KEYS[2].help(), "which way it counts; up | down; default \"up\"");
/// assert_eq!(CounterKeys::KEYS[0].dotted, "puzzle.modulus");
///
/// let config = Config::parse("c.toml", "[puzzle]\nkind = \"counter\"\nmodulus = 7\n").unwrap();
/// let keys: CounterKeys = config.section().unwrap().unwrap();
/// assert_eq!(keys.modulus(&config).value().unwrap().value(), 7);
/// assert!(keys.label(&config).optional().unwrap().is_none());
/// let err = keys.label(&config).value().unwrap_err().to_string();
/// assert_eq!(err, "c.toml: puzzle.label: missing (required here)");
///
/// // Ranges and choices are checked as the section is read.
/// let config = Config::parse("c.toml", "[puzzle]\nkind = \"counter\"\nmodulus = 1\n").unwrap();
/// let err = config.section::<CounterKeys>().unwrap_err().to_string();
/// assert_eq!(err, "c.toml:3: puzzle.modulus: 1 is out of range (allowed: 2 to 100)");
/// let config = Config::parse("c.toml", "[puzzle]\nkind = \"counter\"\ndirection = \"sideways\"\n").unwrap();
/// let err = config.section::<CounterKeys>().unwrap_err().to_string();
/// assert_eq!(err, "c.toml:3: puzzle.direction: unknown value `sideways` (allowed: up, down)");
///
/// let config = Config::parse("c.toml", "[puzzle]\nkind = \"counter\"\n").unwrap();
/// let keys: CounterKeys = config.section().unwrap().unwrap();
/// let modulus = keys.modulus(&config).value().unwrap();
/// assert_eq!((modulus.value(), modulus.is_written()), (10, false));
/// ```
#[macro_export]
macro_rules! keys {
    // A section without `kind` (the library's `[search]`): the same, but for `kind`.
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident in [$section:ident] without kind {
            $(
                #[doc = $doc:literal]
                $(#[range($range:expr)])?
                $(#[choices($($choice:literal),+ $(,)?)])?
                $(#[default($default:expr)])?
                $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Default, $crate::__private::serde::Deserialize)]
        #[serde(crate = "statespace::__private::serde", deny_unknown_fields)]
        $vis struct $name {
            $(
                #[doc = $doc]
                pub $field: Option<$crate::config::Spanned<$ty>>,
            )*
        }
        $crate::keys!(@keys $name [$section] $(
            [$doc] [$($range)?] [$($($choice),+)?] [$($default)?] $field : $ty;
        )*);
    };
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident in [$section:ident] {
            $(
                #[doc = $doc:literal]
                $(#[range($range:expr)])?
                $(#[choices($($choice:literal),+ $(,)?)])?
                $(#[default($default:expr)])?
                $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, $crate::__private::serde::Deserialize)]
        #[serde(crate = "statespace::__private::serde", deny_unknown_fields)]
        $vis struct $name {
            /// `kind`: the puzzle's name in `[puzzle]`, the goal's in `[goal]`, the
            /// heuristic's in `[heuristic]`.
            pub kind: $crate::config::Spanned<String>,
            $(
                #[doc = $doc]
                pub $field: Option<$crate::config::Spanned<$ty>>,
            )*
        }
        $crate::keys!(@keys $name [$section] $(
            [$doc] [$($range)?] [$($($choice),+)?] [$($default)?] $field : $ty;
        )*);
        #[allow(dead_code)]
        impl $name {
            /// `kind`, checked (for an error at its line).
            pub fn kind_at(
                &self,
                config: &$crate::config::Config,
            ) -> $crate::config::Checked<String> {
                config.checked_kind(&self.kind, concat!(stringify!($section), ".kind"))
            }
        }
    };
    (@keys $name:ident [$section:ident] $(
        [$doc:literal] [$($range:expr)?] [$($choice:literal),*] [$($default:expr)?] $field:ident : $ty:ty;
    )*) => {
        impl $crate::config::Keys for $name {
            const SECTION: &'static str = stringify!($section);
            const KEYS: &'static [$crate::config::Key] = &[
                $( $crate::config::Key {
                    name: stringify!($field),
                    dotted: concat!(stringify!($section), ".", stringify!($field)),
                    doc: $crate::config::trim_doc($doc),
                    range: $crate::keys!(@range_text $($range)?),
                    choices: &[$($choice),*],
                    default: $crate::keys!(@default_text $($default)?),
                    bounds: $crate::keys!(@bounds $($range)?),
                }, )*
            ];
            fn validate(
                &self,
                config: &$crate::config::Config,
            ) -> $crate::error::Result<()> {
                $( self.$field(config).optional()?; )*
                Ok(())
            }
        }
        #[allow(dead_code)]
        impl $name {
            $crate::keys!(@accessors 0usize; $(
                [$doc] [$($range)?] [$($choice),*] [$($default)?] $field : $ty;
            )*);
        }
    };
    (@accessors $index:expr;) => {};
    (@accessors $index:expr; [$doc:literal] [$($range:expr)?] [$($choice:literal),*] [$($default:expr)?] $field:ident : $ty:ty; $($rest:tt)*) => {
        #[doc = concat!("`", stringify!($field), "`: ", $doc)]
        pub fn $field<'a>(
            &'a self,
            config: &'a $crate::config::Config,
        ) -> $crate::config::Field<'a, $ty> {
            $crate::config::Field {
                raw: &self.$field,
                key: &<Self as $crate::config::Keys>::KEYS[$index],
                check: $crate::keys!(@check $ty; [$($range)?] [$($choice),*]),
                default: $crate::keys!(@default $ty; $($default)?),
                config,
            }
        }
        $crate::keys!(@accessors $index + 1usize; $($rest)*);
    };
    (@range_text) => { None };
    (@range_text $range:expr) => {
        Some(|| {
            let range = $range;
            format!("{} to {}", range.start(), range.end())
        })
    };
    (@bounds) => { None };
    (@bounds $range:expr) => {
        Some(|| {
            let range = $range;
            (*range.start() as i64, *range.end() as i64)
        })
    };
    (@default_text) => { None };
    (@default_text $value:expr) => { Some(stringify!($value)) };
    (@check $ty:ty; [] []) => { None };
    (@check $ty:ty; [] [$($choice:literal),+]) => {
        Some(|value: &$ty| $crate::config::check_choice(value.as_str(), &[$($choice),+]))
    };
    (@check $ty:ty; [$range:expr] []) => {
        Some(|value: &$ty| {
            let range = $range;
            match range.contains(value) {
                true => None,
                false => Some(format!(
                    "{value} is out of range (allowed: {} to {})",
                    range.start(),
                    range.end()
                )),
            }
        })
    };
    (@default $ty:ty;) => { None };
    (@default $ty:ty; $value:expr) => {
        Some(|| -> $ty { ::core::convert::Into::into($value) })
    };
}

/// A doc comment's text without the space `///` leaves in front (for [`keys!`](crate::keys)).
pub const fn trim_doc(doc: &'static str) -> &'static str {
    match doc.as_bytes() {
        [b' ', rest @ ..] => match std::str::from_utf8(rest) {
            Ok(rest) => rest,
            Err(_) => doc,
        },
        _ => doc,
    }
}

/// Reading a plugin's sections.
impl Config {
    /// The plugin's `[puzzle]` section `P` and, when the file has one, its `[goal]` section `G`
    /// (both declared with [`keys!`](crate::keys)). An unknown or misplaced key, or a value of
    /// the wrong type, is an error at its line.
    pub fn sections<P: Keys, G: Keys>(&self) -> Result<(P, Option<G>)> {
        let puzzle = self
            .section::<P>()?
            .ok_or_else(|| self.missing(P::SECTION))?;
        Ok((puzzle, self.section::<G>()?))
    }

    /// The plugin's section `K` (declared with [`keys!`](crate::keys), named by
    /// [`Keys::SECTION`]) when the file has it. An unknown key, a value of the wrong type, or one
    /// outside its declared range or choices ([`Keys::validate`]) is an error at its line.
    pub fn section<K: Keys>(&self) -> Result<Option<K>> {
        /// The whole file read for one section, every other skipped unread.
        struct Only<K>(Option<K>);
        impl<'de, K: Keys> Deserialize<'de> for Only<K> {
            fn deserialize<D: serde::Deserializer<'de>>(
                deserializer: D,
            ) -> std::result::Result<Self, D::Error> {
                struct Sections<K>(std::marker::PhantomData<K>);
                impl<'de, K: Keys> serde::de::Visitor<'de> for Sections<K> {
                    type Value = Only<K>;
                    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                        f.write_str("a config's sections")
                    }
                    fn visit_map<A: serde::de::MapAccess<'de>>(
                        self,
                        mut map: A,
                    ) -> std::result::Result<Only<K>, A::Error> {
                        let mut found = None;
                        while let Some(name) = map.next_key::<String>()? {
                            if name == K::SECTION {
                                found = Some(map.next_value::<K>()?);
                            } else {
                                map.next_value::<IgnoredAny>()?;
                            }
                        }
                        Ok(Only(found))
                    }
                }
                deserializer.deserialize_map(Sections(std::marker::PhantomData))
            }
        }
        let only: Only<K> =
            toml::from_str(&self.text).map_err(|e| toml_error(&self.name, &self.text, e))?;
        if let Some(section) = &only.0 {
            section.validate(self)?;
        }
        Ok(only.0)
    }

    /// A section's `kind` with where it stands (for [`keys!`](crate::keys)'s `kind_at`).
    pub fn checked_kind(&self, kind: &Spanned<String>, dotted: &str) -> Checked<String> {
        Checked {
            value: kind.get_ref().clone(),
            location: Location::file(&self.name)
                .at_line(line_of(&self.text, kind.span().start))
                .with_key(dotted),
            written: true,
        }
    }
}
