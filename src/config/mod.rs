//! TOML configs: the sections every config shares, the plugin-owned sections, and helpers that
//! turn raw values into validated settings with errors that name the file, the line and the key.
//!
//! The flow is raw text -> [`Config`] (serde, `deny_unknown_fields`, every value [`Spanned`] so a
//! later check can still point at its line) -> a plugin's own validated settings (see
//! [`registry`](crate::registry)).
//!
//! Who owns which keys:
//!
//! - `[puzzle] kind`, `[search]` and `[start]` are the library's: [`Config`] reads them.
//! - The rest of `[puzzle]`, and all of `[goal]` and `[heuristic]`, belong to the plugin named
//!   by `kind`. A plugin declares each section once with the [`keys!`](crate::keys) macro (a
//!   serde struct with `deny_unknown_fields`, every value spanned; per key a doc line, and
//!   optionally a range and a default) and reads it with [`Config::section`] and the accessors
//!   the macro writes, which check the range, fill in the default and name the key in errors
//!   (`puzzle.rows`: the dotted name is never typed). `statespace puzzles` prints the same
//!   declaration, so the help cannot drift from what is accepted, and a key one plugin adds is
//!   unknown (with its line) to the others without anyone writing a refusal.
//! - `[heuristic] kind` is checked by the registry against the plugin's
//!   [`PluginInfo::heuristics`](crate::registry::PluginInfo::heuristics) (refused where the
//!   puzzle has none), the rest by the plugin.
//!
//! ```toml
//! [puzzle]
//! kind = "flip"      # a registered plugin: `statespace puzzles` lists them and their keys
//! rows = 4
//! cols = 4
//! [goal]
//! kind = "uniform"   # the plugin's goals
//! [search]
//! mode = "auto"      # bfs | iddfs | table | algebraic | auto (what the puzzle supports)
//! max_depth = 20     # optional limits
//! max_states = 1000000
//! time_limit = "30s"  # humantime syntax
//! memory = "4GiB"     # the budget engines check before allocating
//! threads = 2         # explore: worker threads (default: all for large spaces)
//! [heuristic]
//! kind = "default"   # astar/idastar: the plugin's heuristics (tiles: linear-conflict, pdb, ...)
//! [start]
//! board = """
//! bwwb
//! bbwb
//! bwwb
//! bwww
//! """
//! ```

use crate::board_text::BoardText;
use crate::error::{Error, Location, Result};
use serde::Deserialize;
use serde::de::{DeserializeOwned, IgnoredAny};
use std::fmt;
use std::ops::{Range, RangeInclusive};
pub use toml::Spanned;

/// The most worker threads `[search] threads` and `--threads` accept.
pub const MAX_THREADS: usize = 1024;

/// A parsed config file: the library's sections plus the source text, from which
/// [`sections`](Config::sections) reads the plugin's.
#[derive(Debug)]
pub struct Config {
    /// The file name errors mention.
    pub name: String,
    /// The whole text, to turn byte offsets into line numbers.
    pub text: String,
    /// `[puzzle] kind`: the plugin.
    pub kind: Spanned<String>,
    /// `[search]`: the engine and its limits.
    pub search: SearchSection,
    /// `[start]`: the position to solve, when given.
    pub start: Option<StartSection>,
    /// `[heuristic] kind`, when the file has the section (the rest is the plugin's).
    pub heuristic: Option<Spanned<String>>,
}

/// The whole file as the library sees it: the plugin's sections are only checked to be tables
/// here; [`Config::sections`] reads them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawConfig {
    puzzle: KindOnly,
    #[allow(dead_code)] // read by the plugin, through Config::sections
    goal: Option<IgnoredAny>,
    heuristic: Option<KindOnly>,
    #[serde(default)]
    search: SearchSection,
    start: Option<StartSection>,
}

/// `[puzzle]` as the library reads it: only `kind` (the other keys are the plugin's).
#[derive(Debug, Deserialize)]
struct KindOnly {
    kind: Spanned<String>,
}

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
    /// The value when the key is absent, as written in the declaration.
    pub default: Option<&'static str>,
}

impl Key {
    /// The doc line with the range and the default, for help: `board rows; 2 to 12`.
    pub fn help(&self) -> String {
        let mut help = self.doc.to_string();
        if let Some(range) = self.range {
            help.push_str(&format!("; {}", range()));
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
/// and may declare, in this order, `#[range(a..=b)]` (the values allowed) and `#[default(v)]`
/// (the value when absent). The struct also gets `kind` (the plugin's name in `[puzzle]`, the
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
///     }
/// }
/// use statespace::config::{Config, Keys};
/// assert_eq!(CounterKeys::KEYS[0].help(), "the modulus; 2 to 100; default 10");
/// assert_eq!(CounterKeys::KEYS[0].dotted, "puzzle.modulus");
///
/// let config = Config::parse("c.toml", "[puzzle]\nkind = \"counter\"\nmodulus = 7\n").unwrap();
/// let keys: CounterKeys = config.section().unwrap().unwrap();
/// assert_eq!(keys.modulus(&config).value().unwrap().value(), 7);
/// assert!(keys.label(&config).optional().unwrap().is_none());
/// let err = keys.label(&config).value().unwrap_err().to_string();
/// assert_eq!(err, "c.toml: puzzle.label: missing (required here)");
///
/// let config = Config::parse("c.toml", "[puzzle]\nkind = \"counter\"\nmodulus = 1\n").unwrap();
/// let keys: CounterKeys = config.section().unwrap().unwrap();
/// let err = keys.modulus(&config).value().unwrap_err().to_string();
/// assert_eq!(err, "c.toml:3: puzzle.modulus: 1 is out of range (allowed: 2 to 100)");
///
/// let config = Config::parse("c.toml", "[puzzle]\nkind = \"counter\"\n").unwrap();
/// let keys: CounterKeys = config.section().unwrap().unwrap();
/// let modulus = keys.modulus(&config).value().unwrap();
/// assert_eq!((modulus.value(), modulus.is_written()), (10, false));
/// ```
#[macro_export]
macro_rules! keys {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident in [$section:ident] {
            $(
                #[doc = $doc:literal]
                $(#[range($range:expr)])?
                $(#[default($default:expr)])?
                $field:ident : $ty:ty
            ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Debug, ::serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        $vis struct $name {
            /// `kind`: the puzzle's name in `[puzzle]`, the goal's in `[goal]`, the
            /// heuristic's in `[heuristic]`.
            pub kind: $crate::config::Spanned<String>,
            $(
                #[doc = $doc]
                pub $field: Option<$crate::config::Spanned<$ty>>,
            )*
        }
        impl $crate::config::Keys for $name {
            const SECTION: &'static str = stringify!($section);
            const KEYS: &'static [$crate::config::Key] = &[
                $( $crate::config::Key {
                    name: stringify!($field),
                    dotted: concat!(stringify!($section), ".", stringify!($field)),
                    doc: $crate::config::trim_doc($doc),
                    range: $crate::keys!(@range_text $($range)?),
                    default: $crate::keys!(@default_text $($default)?),
                }, )*
            ];
        }
        #[allow(dead_code)]
        impl $name {
            /// `kind`, checked (for an error at its line).
            pub fn kind_at(
                &self,
                config: &$crate::config::Config,
            ) -> $crate::config::Checked<String> {
                config.checked_kind(&self.kind, concat!(stringify!($section), ".kind"))
            }
            $crate::keys!(@accessors 0usize; $(
                [$doc] [$($range)?] [$($default)?] $field : $ty;
            )*);
        }
    };
    (@accessors $index:expr;) => {};
    (@accessors $index:expr; [$doc:literal] [$($range:expr)?] [$($default:expr)?] $field:ident : $ty:ty; $($rest:tt)*) => {
        #[doc = concat!("`", stringify!($field), "`: ", $doc)]
        pub fn $field<'a>(
            &'a self,
            config: &'a $crate::config::Config,
        ) -> $crate::config::Field<'a, $ty> {
            $crate::config::Field {
                raw: &self.$field,
                key: &<Self as $crate::config::Keys>::KEYS[$index],
                check: $crate::keys!(@check $ty; $($range)?),
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
    (@default_text) => { None };
    (@default_text $value:expr) => { Some(stringify!($value)) };
    (@check $ty:ty;) => { None };
    (@check $ty:ty; $range:expr) => {
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

/// `[search]`: the engine and its limits.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchSection {
    /// The engine (`bfs`, `table`, ...); the puzzle's default when absent.
    pub mode: Option<Spanned<String>>,
    /// Give up deeper than this many moves.
    pub max_depth: Option<Spanned<i64>>,
    /// Give up after this many states.
    pub max_states: Option<Spanned<i64>>,
    /// Wall-clock limit, e.g. `"30s"`, `"2m"` (humantime syntax).
    pub time_limit: Option<Spanned<String>>,
    /// Memory budget, e.g. `"4GiB"`, `"512MB"`.
    pub memory: Option<Spanned<String>>,
    /// Worker threads for engines that use several (`explore`); default: chosen by size.
    pub threads: Option<Spanned<i64>>,
    /// Moved to `[heuristic] kind`: read only to say so.
    #[serde(default)]
    heuristic: Option<Spanned<IgnoredAny>>,
    /// Moved to `[heuristic] groups`: read only to say so.
    #[serde(default)]
    pdb: Option<Spanned<IgnoredAny>>,
    /// Moved to `[heuristic] reflect`: read only to say so.
    #[serde(default)]
    reflect: Option<Spanned<IgnoredAny>>,
}

/// `[start]`: the position to solve.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartSection {
    /// The board, in the puzzle's board text.
    pub board: Option<Spanned<String>>,
    /// Or moves applied to the goal, in the puzzle's move names (puzzles that read scrambles).
    pub scramble: Option<Spanned<String>>,
}

impl Config {
    /// Reads and parses the config at `path`.
    pub fn load(path: &str) -> Result<Config> {
        let text = crate::error::read_text(std::path::Path::new(path))?;
        Config::parse(path, &text)
    }

    /// Parses `text`; `name` is the file name errors mention.
    pub fn parse(name: &str, text: &str) -> Result<Config> {
        let raw: RawConfig = toml::from_str(text).map_err(|e| toml_error(name, text, e))?;
        let config = Config {
            name: name.to_string(),
            text: text.to_string(),
            kind: raw.puzzle.kind,
            search: raw.search,
            start: raw.start,
            heuristic: raw.heuristic.map(|h| h.kind),
        };
        config.check_moved()?;
        config.check_start()?;
        Ok(config)
    }

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
    /// [`Keys::SECTION`]) when the file has it. An unknown key or a value of the wrong type is an
    /// error at its line.
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

    /// Refuses the `[search]` keys that moved to `[heuristic]`, saying where they went.
    fn check_moved(&self) -> Result<()> {
        let search = &self.search;
        let why = "moved: write it in the [heuristic] section as";
        for (raw, key, now) in [
            (&search.heuristic, "search.heuristic", "kind"),
            (&search.pdb, "search.pdb", "groups"),
            (&search.reflect, "search.reflect", "reflect"),
        ] {
            if let Some(raw) = raw {
                return Err(self.error_at(raw.span(), key, format!("{why} `{now}`")));
            }
        }
        Ok(())
    }

    /// An error about the value at `span`, under `key` (`puzzle.rows`).
    pub fn error_at(&self, span: Range<usize>, key: &str, message: impl Into<String>) -> Error {
        let location = Location::file(&self.name)
            .at_line(line_of(&self.text, span.start))
            .with_key(key);
        Error::input(location, message)
    }

    /// An error about a key that is missing (so has no line).
    pub fn missing(&self, key: &str) -> Error {
        Error::input(
            Location::file(&self.name).with_key(key),
            "missing (required here)",
        )
    }

    /// A required integer in `range`.
    pub fn int_in(
        &self,
        value: &Option<Spanned<i64>>,
        key: &str,
        range: RangeInclusive<i64>,
    ) -> Result<i64> {
        let value = value.as_ref().ok_or_else(|| self.missing(key))?;
        let v = *value.get_ref();
        if range.contains(&v) {
            Ok(v)
        } else {
            Err(self.error_at(
                value.span(),
                key,
                format!(
                    "{v} is out of range (allowed: {} to {})",
                    range.start(),
                    range.end()
                ),
            ))
        }
    }

    /// Refuses a key that the chosen plugin does not use.
    pub fn refuse<T>(&self, value: &Option<Spanned<T>>, key: &str, why: &str) -> Result<()> {
        match value {
            Some(v) => Err(self.error_at(v.span(), key, format!("not used here: {why}"))),
            None => Ok(()),
        }
    }

    /// `[goal] target` as board text: the `pattern` goal (`kind`) needs one (`Some`), every other
    /// goal refuses it (`None`).
    pub fn pattern_target(
        &self,
        kind: &Spanned<String>,
        target: Field<'_, String>,
    ) -> Result<Option<BoardText>> {
        let key = target.key.dotted;
        match (target.raw, kind.get_ref() == "pattern") {
            (Some(raw), true) => Ok(Some(self.board_text(raw, key))),
            (None, true) => Err(self.missing(key)),
            (_, false) => {
                target.refuse("only the pattern goal has a target")?;
                Ok(None)
            }
        }
    }

    /// `[search] mode` as written, with its span (whether the puzzle has that engine is the
    /// registry's check: engine names are open).
    pub fn mode(&self) -> Option<(&str, Range<usize>)> {
        let raw = self.search.mode.as_ref()?;
        Some((raw.get_ref().as_str(), raw.span()))
    }

    /// `[search]` limits, over `base` (which carries the memory budget and any CLI limits).
    pub fn limits(&self, mut base: crate::limit::Limits) -> Result<crate::limit::Limits> {
        if self.search.max_depth.is_some() {
            let d = self.int_in(
                &self.search.max_depth,
                "search.max_depth",
                0..=u32::MAX as i64,
            )?;
            base.max_depth = Some(d as u32);
        }
        if self.search.max_states.is_some() {
            let n = self.int_in(&self.search.max_states, "search.max_states", 1..=i64::MAX)?;
            base.max_states = Some(n as u64);
        }
        if let Some(raw) = &self.search.time_limit {
            let limit = parse_duration(raw.get_ref())
                .map_err(|e| self.error_at(raw.span(), "search.time_limit", e.to_string()))?;
            base.time_limit = Some(limit);
        }
        if let Some(raw) = &self.search.memory {
            base.memory_budget = parse_bytes(raw.get_ref())
                .map_err(|e| self.error_at(raw.span(), "search.memory", e.to_string()))?;
        }
        Ok(base)
    }

    /// `[search] threads`: 1 to [`MAX_THREADS`], or `None` when absent (the engine chooses).
    pub fn threads(&self) -> Result<Option<usize>> {
        match &self.search.threads {
            None => Ok(None),
            Some(_) => {
                let n = self.int_in(
                    &self.search.threads,
                    "search.threads",
                    1..=MAX_THREADS as i64,
                )?;
                Ok(Some(n as usize))
            }
        }
    }

    /// The `[start] board` (or `scramble`) text with where it stands in the file; an error when
    /// the section gives both or neither.
    pub fn start_board(&self) -> Option<BoardText> {
        let start = self.start.as_ref()?;
        match (&start.board, &start.scramble) {
            (Some(board), None) => Some(self.board_text(board, "start.board")),
            (None, Some(moves)) => {
                let mut text = self.board_text(moves, "start.scramble");
                text.scramble = true;
                Some(text)
            }
            _ => None,
        }
    }

    /// Checks that `[start]`, when present, gives exactly one of `board` and `scramble`.
    pub fn check_start(&self) -> Result<()> {
        let Some(start) = &self.start else {
            return Ok(());
        };
        match (&start.board, &start.scramble) {
            (Some(_), Some(scramble)) => Err(self.error_at(
                scramble.span(),
                "start.scramble",
                "give a board or a scramble, not both",
            )),
            (None, None) => Err(self.missing("start.board")),
            _ => Ok(()),
        }
    }

    /// A multi-line string value as a [`BoardText`] that reports errors at the file's lines.
    pub fn board_text(&self, value: &Spanned<String>, key: &str) -> BoardText {
        let span = value.span();
        let raw = &self.text[span.clone()];
        // A multi-line string drops the newline right after its opening quotes.
        let starts_on_next_line = (raw.starts_with("\"\"\"") || raw.starts_with("'''"))
            && raw[3..].starts_with(['\n', '\r']);
        BoardText {
            text: value.get_ref().clone(),
            file: self.name.clone(),
            first_line: line_of(&self.text, span.start) + starts_on_next_line as usize,
            key: Some(key.to_string()),
            scramble: false,
        }
    }
}

/// A search engine's id: the name configs and the command line use for it (`bfs`, `table`, a
/// plugin's own `algebraic`).
///
/// Open, not an enum: the library's engines are the constants here, and a plugin names its own
/// with [`Mode::new`] (and says what it does in [`PluginInfo`](crate::registry::PluginInfo)'s
/// `engines`), so the library never lists a puzzle's engine. Two modes are equal when their
/// names are.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Mode(&'static str);

impl Mode {
    /// Breadth-first search from the start.
    pub const BFS: Mode = Mode("bfs");
    /// Iterative deepening: memory linear in depth.
    pub const IDDFS: Mode = Mode("iddfs");
    /// A distance table built backward from the goal set, then a lookup.
    pub const TABLE: Mode = Mode("table");
    /// A* with the puzzle's heuristic: optimal, memory for every state it reaches.
    pub const ASTAR: Mode = Mode("astar");
    /// IDA* with the puzzle's heuristic: optimal, memory linear in depth.
    pub const IDASTAR: Mode = Mode("idastar");
    /// The engine the puzzle picks (by size, by what it has).
    pub const AUTO: Mode = Mode("auto");

    /// The library's engines, in the order lists show them, with what each does; `auto` last.
    pub const LIBRARY: [(Mode, &'static str); 6] = [
        (Mode::BFS, "Breadth-first search from the start"),
        (Mode::IDDFS, "Iterative deepening: memory linear in depth"),
        (
            Mode::TABLE,
            "A distance table built backward from the goal set, then a lookup",
        ),
        (
            Mode::ASTAR,
            "A* with the puzzle's heuristic: optimal, memory for every state it reaches",
        ),
        (
            Mode::IDASTAR,
            "IDA* with the puzzle's heuristic: optimal, memory linear in depth",
        ),
        (Mode::AUTO, "The plugin picks by board size"),
    ];

    /// A plugin's own engine, named `name` (lowercase, as configs write it).
    pub const fn new(name: &'static str) -> Mode {
        Mode(name)
    }

    /// The name used in configs and on the command line.
    pub fn name(self) -> &'static str {
        self.0
    }

    /// Where `self` stands in lists: the library's engines in [`LIBRARY`](Self::LIBRARY) order,
    /// then plugins' engines, then `auto`.
    pub fn rank(self) -> usize {
        match Mode::LIBRARY.iter().position(|(m, _)| *m == self) {
            Some(i) if self == Mode::AUTO => usize::MAX - Mode::LIBRARY.len() + i,
            Some(i) => i,
            None => Mode::LIBRARY.len(),
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl fmt::Debug for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0)
    }
}

impl serde::Serialize for Mode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.0)
    }
}

/// A mode asked of a puzzle that does not run it: the modes it does, and why others are missing
/// when the plugin said (`for a 9 x 9 board: ...`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnsupportedMode {
    /// The mode asked for, as written.
    pub asked: String,
    /// The modes the puzzle runs.
    pub supported: Vec<Mode>,
    /// Why the puzzle lacks some modes, when its plugin said.
    pub note: Option<String>,
}

impl fmt::Display for UnsupportedMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (asked, supported) = (&self.asked, names(&self.supported));
        match &self.note {
            Some(note) => write!(
                f,
                "search mode `{asked}` is not available {note} (supported: {supported})"
            ),
            None => write!(
                f,
                "search mode `{asked}` is not supported by this puzzle (supported: {supported})"
            ),
        }
    }
}

impl std::error::Error for UnsupportedMode {}

/// The mode among `supported` named `mode`, else an [`UnsupportedMode`] that lists them.
pub fn check_mode(mode: &str, supported: &[Mode]) -> std::result::Result<Mode, UnsupportedMode> {
    match supported.iter().find(|m| m.name() == mode) {
        Some(&found) => Ok(found),
        None => Err(UnsupportedMode {
            asked: mode.to_string(),
            supported: supported.to_vec(),
            note: None,
        }),
    }
}

fn names(modes: &[Mode]) -> String {
    modes
        .iter()
        .map(|m| m.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A positive duration in humantime syntax: `30s`, `1m 30s`, `500ms`.
pub fn parse_duration(text: &str) -> std::result::Result<std::time::Duration, DurationError> {
    match humantime::parse_duration(text) {
        Ok(d) if !d.is_zero() => Ok(d),
        Ok(_) => Err(DurationError::Zero(text.to_string())),
        Err(e) => Err(DurationError::Unreadable {
            text: text.to_string(),
            why: e.to_string(),
        }),
    }
}

/// A positive byte count no larger than the physical memory: `4GiB`, `512 MB`, `1000000`.
pub fn parse_bytes(text: &str) -> std::result::Result<u64, SizeError> {
    let physical = crate::limit::physical_memory();
    match text.trim().parse::<bytesize::ByteSize>() {
        Ok(size) if physical.is_some_and(|p| size.as_u64() > p) => Err(SizeError::MoreThanMemory {
            text: text.to_string(),
            physical: physical.unwrap_or(0),
        }),
        Ok(size) if size.as_u64() > 0 => Ok(size.as_u64()),
        Ok(_) => Err(SizeError::Zero(text.to_string())),
        Err(_) => Err(SizeError::Unreadable(text.to_string())),
    }
}

/// Why [`parse_duration`] refused a text (a flag's value or `[search] time_limit`); each
/// displays as one line that quotes the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DurationError {
    /// A duration of zero: no limit can be that short.
    #[error("`{0}` is zero: give a positive duration")]
    Zero(String),
    /// Not a duration in humantime syntax.
    #[error("`{text}` is not a duration like 30s or 2m ({why})")]
    Unreadable {
        /// The text given.
        text: String,
        /// What the parser said (`unknown time unit "x"`).
        why: String,
    },
}

/// Why [`parse_bytes`] refused a text (a flag's value or `[search] memory`); each displays as
/// one line that quotes the text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SizeError {
    /// More than the machine's physical memory.
    #[error(
        "`{text}` is more than this machine's {} of memory",
        crate::limit::human_bytes(*physical as u128)
    )]
    MoreThanMemory {
        /// The text given.
        text: String,
        /// The physical memory, in bytes.
        physical: u64,
    },
    /// A size of zero.
    #[error("`{0}` is zero: give a positive size")]
    Zero(String),
    /// Not a size (`4GiB`, `512 MB`, `1000000`).
    #[error("`{0}` is not a size like 4GiB or 512MB")]
    Unreadable(String),
}

/// A TOML or serde error as a one-line [`Error`] at its line and key.
fn toml_error(name: &str, text: &str, e: toml::de::Error) -> Error {
    let span = e.span().unwrap_or(0..0);
    let mut location = Location::file(name).at_line(line_of(text, span.start));
    if let Some(key) = key_at(text, span.start) {
        location = location.with_key(key);
    }
    Error::input(location, e.message().trim().to_string())
}

/// The 1-based line of byte `offset` in `text`.
pub fn line_of(text: &str, offset: usize) -> usize {
    let offset = offset.min(text.len());
    text.as_bytes()[..offset]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The dotted key whose value stands at `offset`: the last `[table]` header above it and the key
/// before `=` on its line (for TOML errors, which point at a value but do not name its key).
fn key_at(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let before = text.get(..offset)?; // a span always starts on a char boundary; never panic if not
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = &text[line_start..line_end];
    let header = line.trim();
    if header.starts_with('[') && !header.starts_with("[[") {
        // An error on a table header (an unknown section): the section is the key.
        return Some(
            header
                .trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_string(),
        );
    }
    let table = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('[') && !l.starts_with("[["))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim().to_string());
    let key = line
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches('"').to_string());
    match (table, key) {
        (Some(t), Some(k)) if !k.is_empty() => Some(format!("{t}.{k}")),
        (None, Some(k)) if !k.is_empty() => Some(k),
        (Some(t), None) => Some(t),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unsupported_mode_lists_the_supported_ones_and_the_plugins_reason() {
        let modes = [Mode::BFS, Mode::AUTO];
        assert_eq!(check_mode("bfs", &modes), Ok(Mode::BFS));
        let mut err = check_mode("table", &modes).unwrap_err();
        assert_eq!(
            (err.asked.as_str(), &err.supported[..]),
            ("table", &modes[..])
        );
        assert_eq!(
            err.to_string(),
            "search mode `table` is not supported by this puzzle (supported: bfs, auto)"
        );
        err.note = Some("for a 9 x 9 board".into());
        assert_eq!(
            err.to_string(),
            "search mode `table` is not available for a 9 x 9 board (supported: bfs, auto)"
        );
    }

    #[test]
    fn type_errors_name_line_and_key() {
        let text = "[puzzle]\nkind = \"flip\"\n[search]\nmax_depth = \"four\"\n";
        let err = Config::parse("x.toml", text).unwrap_err().to_string();
        assert!(
            err.starts_with("x.toml:4: search.max_depth: invalid type"),
            "{err}"
        );
        let text = "[puzzle]\nkind = \"t\"\nsize = \"four\"\n";
        let config = Config::parse("x.toml", text).unwrap();
        let err = config.sections::<TestKeys, TestGoal>().unwrap_err();
        let err = err.to_string();
        assert!(
            err.starts_with("x.toml:3: puzzle.size: invalid type"),
            "{err}"
        );
    }

    crate::keys! {
        /// A test plugin's `[puzzle]`.
        #[allow(dead_code)]
        struct TestKeys in [puzzle] {
            /// a size
            size: i64,
        }
    }

    crate::keys! {
        /// A test plugin's `[goal]`.
        #[allow(dead_code)]
        struct TestGoal in [goal] {
            /// a target
            target: String,
        }
    }

    #[test]
    fn plugin_sections_refuse_unknown_and_misplaced_keys_with_their_line() {
        let sections = |text: &str| {
            Config::parse("x.toml", text).and_then(|c| c.sections::<TestKeys, TestGoal>())
        };
        let (keys, goal) = sections("[puzzle]\nkind = \"t\"\nsize = 3\n").unwrap();
        assert_eq!(keys.size.map(|s| s.into_inner()), Some(3));
        assert!(goal.is_none());
        let err = sections("[puzzle]\nkind = \"t\"\ncolour = 3\n").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("x.toml:3: puzzle.colour: unknown field"),
            "{err}"
        );
        let err = sections("[puzzle]\nkind = \"t\"\n[goal]\nkind = \"g\"\nsize = 3\n");
        let err = err.unwrap_err().to_string();
        assert!(
            err.starts_with("x.toml:5: goal.size: unknown field"),
            "{err}"
        );
        assert_eq!(TestKeys::KEYS[0].name, "size");
        assert_eq!(TestKeys::KEYS[0].doc, "a size");
    }

    #[test]
    fn unknown_sections_are_refused_with_their_line() {
        let text = "[puzzle]\nkind = \"flip\"\n[serch]\nmode = \"bfs\"\n";
        let err = Config::parse("x.toml", text).unwrap_err().to_string();
        assert!(err.starts_with("x.toml:3: serch: unknown field"), "{err}");
    }

    #[test]
    fn threads_must_be_positive_and_name_their_line() {
        let config = |n: &str| {
            let text = format!("[puzzle]\nkind = \"flip\"\n[search]\nthreads = {n}\n");
            Config::parse("x.toml", &text).and_then(|c| c.threads())
        };
        assert_eq!(config("2").unwrap(), Some(2));
        let err = config("0").unwrap_err().to_string();
        assert_eq!(
            err,
            "x.toml:4: search.threads: 0 is out of range (allowed: 1 to 1024)"
        );
        assert!(config("\"two\"").is_err());
    }

    #[test]
    fn a_start_gives_a_board_or_a_scramble_not_both_nor_neither() {
        let parse = |start: &str| {
            let text = format!("[puzzle]\nkind = \"t\"\n[start]\n{start}");
            Config::parse("x.toml", &text).map_err(|e| e.to_string())
        };
        let scramble = parse("scramble = \"R U\"\n").unwrap();
        let board = scramble.start_board().unwrap();
        assert!(board.scramble);
        assert_eq!(board.key.as_deref(), Some("start.scramble"));
        assert!(
            !parse("board = \"bw\"\n")
                .unwrap()
                .start_board()
                .unwrap()
                .scramble
        );
        assert_eq!(
            parse("board = \"bw\"\nscramble = \"R\"\n").unwrap_err(),
            "x.toml:5: start.scramble: give a board or a scramble, not both"
        );
        assert_eq!(
            parse("").unwrap_err(),
            "x.toml: start.board: missing (required here)"
        );
    }

    #[test]
    fn board_text_knows_its_first_line() {
        let text = "[puzzle]\nkind = \"flip\"\n[start]\nboard = \"\"\"\nbw\nwb\n\"\"\"\n";
        let config = Config::parse("x.toml", text).unwrap();
        let board = config.start_board().unwrap();
        assert_eq!(board.first_line, 5);
        assert_eq!(
            board.error(2, "bad").to_string(),
            "x.toml:6: start.board: bad"
        );
    }
}
