//! Parameters by name: what the command line's flags and a query string
//! hold, checked once for both.
//!
//! A game describes each parameter it takes as a [`Field`]. The command
//! line turns the fields into flags, the web app into query keys; both hand
//! what the user gave to [`Params::new`], and the game's own parser reads
//! them from there, so that a bad value is refused with the same words
//! whichever way it came.

use std::fmt;
use std::io;
use std::str::FromStr;

/// How a parameter is written.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Shape {
    /// Given or not: `--misere`, `misere=true`.
    Flag,
    /// A named value: `--size 4`, `size=4`.
    Value,
    /// A value the command line takes by position (`probe dodgem POSITION`)
    /// and a query by name.
    Positional,
}

/// Where a parameter can be given.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Scope {
    /// On the command line and in a query.
    Everywhere,
    /// Only on the command line: files to read, and what to print.
    CommandLine,
}

/// One parameter a game or one of its operations takes.
#[derive(Copy, Clone, Debug)]
pub struct Field {
    /// Its name: the long flag and the query key.
    pub name: &'static str,
    /// How it is written.
    pub shape: Shape,
    /// What its value is, in usage lines (`N`, `FILE`).
    pub value_name: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// The value it has when not given.
    pub default: Option<&'static str>,
    /// Whether it must be given (the game's parser says so if it is not;
    /// the command line's usage shows it).
    pub required: bool,
    /// Where it can be given.
    pub scope: Scope,
}

impl Field {
    /// A flag.
    pub const fn flag(name: &'static str, help: &'static str) -> Field {
        Field {
            name,
            shape: Shape::Flag,
            value_name: "",
            help,
            default: None,
            required: false,
            scope: Scope::Everywhere,
        }
    }

    /// A named value.
    pub const fn value(name: &'static str, value_name: &'static str, help: &'static str) -> Field {
        Field { name, shape: Shape::Value, value_name, help, default: None, required: false, scope: Scope::Everywhere }
    }

    /// A value the command line takes by position.
    pub const fn positional(name: &'static str, value_name: &'static str, help: &'static str) -> Field {
        Field {
            name,
            shape: Shape::Positional,
            value_name,
            help,
            default: None,
            required: false,
            scope: Scope::Everywhere,
        }
    }

    /// The same, with this value when not given.
    pub const fn with_default(self, default: &'static str) -> Field {
        Field { default: Some(default), ..self }
    }

    /// The same, to be given always.
    pub const fn required(self) -> Field {
        Field { required: true, ..self }
    }

    /// The same, given only on the command line.
    pub const fn command_line_only(self) -> Field {
        Field { scope: Scope::CommandLine, ..self }
    }
}

/// Show every move's value before the player chooses (`play`).
pub const HINTS: Field = Field::flag("hints", "Show every move's value before you choose").command_line_only();

/// Seed the perfect player's choice among equally good moves (`play`).
pub const SEED: Field =
    Field::value("seed", "SEED", "Seed for the computer's choice among equally good moves").command_line_only();

/// The thread counts `bench` compares.
pub const THREAD_COUNTS: Field =
    Field::value("thread-counts", "N,N", "Thread counts to compare, each in a fresh process")
        .with_default("1,2")
        .command_line_only();

/// How many times `bench` times each thread count.
pub const REPEAT: Field = Field::value(
    "repeat",
    "N",
    "Runs of each thread count (alternating with the baseline's); the fastest and the median are reported",
)
.with_default("1")
.command_line_only();

/// Another `solved` executable that `bench` times run for run with this one.
pub const BASELINE: Field = Field::value(
    "baseline",
    "PATH",
    "Another solved executable to time alternately with this one, on the same arguments, for the ratio of their times",
)
.command_line_only();

/// Reads the files that parameters name, where the front end allows it.
///
/// The command line reads them (with a bound on their size); the web app
/// reads none, so that a request cannot make it open a path.
pub trait Files: Sync {
    /// The text of the file at `path`, if it is no longer than `limit` bytes.
    ///
    /// # Errors
    ///
    /// [`io::ErrorKind::NotFound`] if there is no such file (or files are not
    /// read here), and any other error reading it.
    fn read(&self, path: &str, limit: u64) -> io::Result<String>;
}

/// Reads no file: every path is missing.
#[derive(Copy, Clone, Debug)]
pub struct NoFiles;

impl Files for NoFiles {
    fn read(&self, _: &str, _: u64) -> io::Result<String> {
        Err(io::Error::new(io::ErrorKind::NotFound, "no file is read here"))
    }
}

/// Why parameters were refused.
#[derive(Debug, thiserror::Error)]
pub enum ParamError {
    /// A name no field has.
    #[error("unknown parameter {name:?} (expected {expected})")]
    Unknown {
        /// The name given.
        name: String,
        /// The names that may be given.
        expected: String,
    },
    /// A name given twice.
    #[error("parameter {0:?} given twice")]
    Twice(String),
    /// A parameter that must be given.
    #[error("missing parameter {0:?}")]
    Missing(&'static str),
    /// A number or a flag that does not read.
    #[error("invalid value '{value}' for {name}")]
    Invalid {
        /// The parameter.
        name: &'static str,
        /// A short prefix of what was given.
        value: String,
        /// Why it does not read.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// A value its type refuses, saying why.
    #[error("invalid {name}")]
    Rejected {
        /// The parameter.
        name: &'static str,
        /// Why, in the type's own words.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Parameters that do not go together, or one that needs another.
    #[error("{0}")]
    Combination(&'static str),
    /// A file a parameter names cannot be read.
    #[error("cannot read {what} {path}")]
    File {
        /// What the file was to hold.
        what: &'static str,
        /// A short prefix of its path.
        path: String,
        /// Why not.
        source: io::Error,
    },
    /// The values read, but name nothing the game has (a board size out
    /// of range, a position of another board).
    #[error(transparent)]
    Game(Box<dyn std::error::Error + Send + Sync>),
}

impl ParamError {
    /// A game's refusal of values that read well.
    pub fn game(error: impl std::error::Error + Send + Sync + 'static) -> ParamError {
        ParamError::Game(Box::new(error))
    }
}

/// At most this many characters of what a user gave go into a message.
const QUOTED: usize = 40;

/// A short prefix of `text`, for quoting in a message: bad input may be
/// long, and the message should not be.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

/// The parameters a request gave, each checked against the fields that may
/// be given, with the files they name readable through [`Files`].
pub struct Params<'f> {
    fields: Vec<Field>,
    given: Vec<(&'static str, String)>,
    files: &'f dyn Files,
}

impl fmt::Debug for Params<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Params").field("given", &self.given).finish_non_exhaustive()
    }
}

impl<'f> Params<'f> {
    /// The parameters `pairs` of names and values, which must each be the
    /// name of one of `fields` and be given at most once. A flag's value is
    /// `true` or `false` (`1`, `0` or empty, as a query may write it).
    ///
    /// # Errors
    ///
    /// [`ParamError::Unknown`] and [`ParamError::Twice`].
    pub fn new(
        pairs: impl IntoIterator<Item = (String, String)>,
        fields: &[Field],
        files: &'f dyn Files,
    ) -> Result<Params<'f>, ParamError> {
        let mut given: Vec<(&'static str, String)> = Vec::new();
        for (name, value) in pairs {
            let Some(field) = fields.iter().find(|f| f.name == name) else {
                let expected = fields.iter().map(|f| f.name).collect::<Vec<_>>().join(", ");
                return Err(ParamError::Unknown { name: quote(&name), expected });
            };
            if given.iter().any(|(n, _)| *n == field.name) {
                return Err(ParamError::Twice(field.name.to_string()));
            }
            given.push((field.name, value));
        }
        Ok(Params { fields: fields.to_vec(), given, files })
    }

    /// What was given for `name`, or its default; `None` if neither, or if
    /// the front end does not take that parameter (the web app takes no
    /// file, say).
    pub fn text(&self, name: &str) -> Option<&str> {
        let field = self.fields.iter().find(|f| f.name == name)?;
        self.given.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str()).or(field.default)
    }

    /// Whether `name` was given (not merely defaulted).
    pub fn is_given(&self, name: &str) -> bool {
        self.given.iter().any(|(n, _)| *n == name)
    }

    /// The value of `name` read as a `T` whose errors say what is wrong
    /// with the text, or `None` if it is not given and has no default.
    ///
    /// # Errors
    ///
    /// [`ParamError::Rejected`] with `T`'s error.
    pub fn parsed<T: FromStr>(&self, name: &'static str) -> Result<Option<T>, ParamError>
    where
        T::Err: std::error::Error + Send + Sync + 'static,
    {
        self.text(name)
            .map(|text| text.parse().map_err(|e| ParamError::Rejected { name, source: Box::new(e) }))
            .transpose()
    }

    /// The value of `name` read as a number, or `None` if it is not given
    /// and has no default.
    ///
    /// # Errors
    ///
    /// [`ParamError::Invalid`] quoting the text.
    pub fn number<T: FromStr>(&self, name: &'static str) -> Result<Option<T>, ParamError>
    where
        T::Err: std::error::Error + Send + Sync + 'static,
    {
        self.text(name)
            .map(|text| text.parse().map_err(|e| ParamError::Invalid { name, value: quote(text), source: Box::new(e) }))
            .transpose()
    }

    /// Whether the flag `name` is set.
    ///
    /// # Errors
    ///
    /// [`ParamError::Invalid`] for a value other than `true`, `false`, `1`,
    /// `0` or nothing.
    pub fn flag(&self, name: &'static str) -> Result<bool, ParamError> {
        match self.text(name) {
            None | Some("0" | "false" | "") => Ok(false),
            Some("1" | "true") => Ok(true),
            Some(other) => {
                Err(ParamError::Invalid { name, value: quote(other), source: "expected true or false".into() })
            }
        }
    }

    /// A value that must be there.
    ///
    /// # Errors
    ///
    /// [`ParamError::Missing`] if `value` is `None`.
    pub fn required<T>(&self, name: &'static str, value: Option<T>) -> Result<T, ParamError> {
        value.ok_or(ParamError::Missing(name))
    }

    /// The text of the file whose path is given as `name`, read through the
    /// front end's [`Files`] with at most `limit` bytes, or `None` if the
    /// parameter is not given.
    ///
    /// # Errors
    ///
    /// [`ParamError::File`] if it cannot be read.
    pub fn file(&self, name: &'static str, what: &'static str, limit: u64) -> Result<Option<String>, ParamError> {
        let Some(path) = self.text(name) else { return Ok(None) };
        self.files.read(path, limit).map(Some).map_err(|source| ParamError::File { what, path: quote(path), source })
    }

    /// Reads the file at `path` through the front end, as [`file`](Self::file)
    /// does, for a parameter that may name a file or something else.
    ///
    /// # Errors
    ///
    /// The reader's error, to be told apart by its kind.
    pub fn read_file(&self, path: &str, limit: u64) -> io::Result<String> {
        self.files.read(path, limit)
    }
}

/// Parameters rendered as the pairs [`Params::new`] takes back: each game's
/// `to_params` gives them, and the command line writes them as flags to
/// re-invoke itself.
pub type Rendered = Vec<(&'static str, String)>;

/// The command-line arguments that give `params`, a game's parameters as it
/// renders them, for a command that takes `fields`: `--name value` for a
/// value, `--name` for a flag that is set, the bare value for a positional
/// one, and nothing for a value that is the default. The command line
/// re-invokes itself with them (`bench`), and the commands a game suggests
/// quote them.
///
/// # Panics
///
/// Panics if a parameter is not among `fields`: games render only their own.
pub fn arguments(fields: &[Field], params: &Rendered) -> Vec<String> {
    let mut arguments = Vec::new();
    for (name, value) in params {
        let field = fields.iter().find(|f| f.name == *name).expect("a game renders only its own parameters");
        if field.default == Some(value.as_str()) {
            continue;
        }
        match field.shape {
            Shape::Flag if value == "true" => arguments.push(format!("--{name}")),
            Shape::Flag => {}
            Shape::Value => arguments.extend([format!("--{name}"), value.clone()]),
            Shape::Positional => arguments.push(value.clone()),
        }
    }
    arguments
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIELDS: [Field; 3] = [
        Field::value("size", "N", "board size"),
        Field::flag("misere", "misère"),
        Field::value("variant", "V", "variant").with_default("american"),
    ];

    fn params(pairs: &[(&str, &str)]) -> Result<Params<'static>, ParamError> {
        Params::new(pairs.iter().map(|(n, v)| (n.to_string(), v.to_string())), &FIELDS, &NoFiles)
    }

    #[test]
    fn names_are_checked_and_defaults_filled_in() {
        let given = params(&[("size", "4"), ("misere", "true")]).unwrap();
        assert_eq!(given.number::<u32>("size").unwrap(), Some(4));
        assert!(given.flag("misere").unwrap());
        assert_eq!(given.text("variant"), Some("american"));
        assert!(!given.is_given("variant"));
        let error = params(&[("colour", "blue")]).unwrap_err().to_string();
        assert_eq!(error, r#"unknown parameter "colour" (expected size, misere, variant)"#);
        let error = params(&[("size", "3"), ("size", "4")]).unwrap_err().to_string();
        assert_eq!(error, r#"parameter "size" given twice"#);
    }

    #[test]
    fn bad_values_are_quoted_briefly() {
        let long = "x".repeat(5000);
        let given = params(&[("size", &long), ("misere", "maybe")]).unwrap();
        let error = given.number::<u32>("size").unwrap_err().to_string();
        assert_eq!(error, format!("invalid value '{}…' for size", "x".repeat(QUOTED)));
        assert_eq!(given.flag("misere").unwrap_err().to_string(), "invalid value 'maybe' for misere");
        assert_eq!(
            params(&[]).unwrap().required("size", None::<u32>).unwrap_err().to_string(),
            r#"missing parameter "size""#
        );
    }
}
