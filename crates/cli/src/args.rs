//! What the user typed: the command line, built from the registry.
//!
//! Every `solved OPERATION GAME` subcommand comes from one game's
//! description ([`GameInfo`]): its fields become flags and positional
//! arguments, with their help. What the user gave is handed on as name and
//! value pairs, which the game's own parser reads, as it reads a query
//! string for the web app.

use std::ffi::OsString;
use std::net::SocketAddr;
use std::path::PathBuf;

use clap::parser::ValueSource;
use clap::{Arg, ArgAction, ArgMatches, value_parser};
use solved_games::front::Game;
use solved_games::params::{Field, Shape};
use solved_games::registry::{GameInfo, Operation, find};
use solved_web::Budget;

/// A parsed command line.
#[derive(Debug)]
pub struct Invocation {
    /// `--data-dir`.
    pub data_dir: Option<PathBuf>,
    /// `--threads`.
    pub threads: Option<usize>,
    /// What to do.
    pub command: Command,
}

/// What to do.
#[derive(Debug)]
pub enum Command {
    /// An operation on a game, with the parameters given.
    Game {
        /// The operation.
        operation: Operation,
        /// The game.
        game: &'static dyn Game,
        /// Each parameter given, by name, flags as `true`.
        pairs: Vec<(String, String)>,
        /// Print the result as JSON.
        json: bool,
    },
    /// Serve the web app.
    Serve {
        /// The address to listen on.
        addr: SocketAddr,
        /// What a table built on request may cost.
        budget: Budget,
        /// What to log, as a `RUST_LOG` filter; `None` for `RUST_LOG`'s own.
        log: Option<String>,
    },
    /// `bench machine`: measure what this machine can do at best.
    Machine {
        /// The buffer the memory kernels work on, in bytes.
        buffer_bytes: u64,
        /// Print the result as JSON.
        json: bool,
    },
    /// One timed solve in this process, for `bench`.
    BenchRun {
        /// The game.
        game: &'static dyn Game,
        /// Its parameters.
        pairs: Vec<(String, String)>,
    },
}

/// The subcommand `bench` runs in a fresh process for each thread count.
pub const BENCH_RUN: &str = "bench-run";

/// Whether an operation prints a result (and so takes `--json`).
fn prints_result(operation: Operation) -> bool {
    operation != Operation::Play
}

/// The whole command line, with a subcommand for each operation of each
/// of `games`.
pub fn command(games: &[&'static dyn Game]) -> clap::Command {
    let mut root = clap::Command::new("solved")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Strongly solve small board games, and play and study them against perfect play")
        .propagate_version(true)
        .subcommand_required(true)
        .arg_required_else_help(true)
        .arg(
            Arg::new("data-dir")
                .long("data-dir")
                .global(true)
                .value_name("DIR")
                .value_parser(value_parser!(PathBuf))
                .help("Where solved tables are cached [default: $SOLVED_DATA_DIR, else $XDG_DATA_HOME/solved, else ~/.local/share/solved]"),
        )
        .arg(
            Arg::new("threads")
                .long("threads")
                .global(true)
                .value_name("N")
                .value_parser(value_parser!(usize))
                .help("Worker threads for solving [default: one per core]"),
        );
    for operation in Operation::ALL {
        let mut sub = clap::Command::new(operation.name()).about(operation.about()).subcommand_required(true);
        for game in games.iter().map(|g| g.info()) {
            let Some(supported) = game.operation(operation) else { continue };
            let mut game_command = game_command(game, supported.about, supported.fields);
            if prints_result(operation) {
                game_command = game_command.arg(
                    Arg::new("json")
                        .long("json")
                        .action(ArgAction::SetTrue)
                        .help("Print the result as one JSON object"),
                );
            }
            sub = sub.subcommand(game_command);
        }
        if operation == Operation::Bench {
            sub = sub.subcommand(machine_command());
        }
        root = root.subcommand(sub);
    }
    let serve = clap::Command::new("serve")
        .about("Serve the web app: every game against the perfect player, with hints")
        .arg(
            Arg::new("addr")
                .long("addr")
                .value_name("IP:PORT")
                .default_value("127.0.0.1:8080")
                .value_parser(value_parser!(SocketAddr))
                .help("The address to listen on"),
        )
        .arg(
            Arg::new("build-limit")
                .long("build-limit")
                .value_name("POSITIONS")
                .value_parser(value_parser!(u64))
                .help("Build on request only tables of at most this many positions, 0 for none (for a server others can reach) [default: any]"),
        )
        .arg(
            Arg::new("build-seconds")
                .long("build-seconds")
                .value_name("SECONDS")
                .value_parser(non_negative)
                .help(format!(
                    "Build tables and search positions on request only where that is estimated to take at most this long; longer ones are answered with the command that does it [default: {}]",
                    Budget::default().seconds
                )),
        )
        .arg(
            Arg::new("build-memory")
                .long("build-memory")
                .value_name("GB")
                .value_parser(non_negative)
                .help(format!(
                    "Build on request only tables estimated to need at most this much memory [default: {}]",
                    Budget::default().bytes as f64 / 1e9
                )),
        )
        .after_help(format!(
            "One table is built in the background at a time, its requests answered 202 with its progress; one that takes under {} s is built while its request waits, two at a time. Every request is answered within {} s.",
            solved_web::AT_ONCE_SECONDS,
            solved_web::DEADLINE.as_secs()
        ))
        .arg(
            Arg::new("log")
                .long("log")
                .value_name("FILTER")
                .help("What to log on stderr: error, warn, info, debug or a RUST_LOG filter [default: $RUST_LOG, else info]"),
        );
    let mut bench_run =
        clap::Command::new(BENCH_RUN).about("One timed solve in this process (used by bench)").hide(true);
    for game in games.iter().map(|g| g.info()).filter(|g| g.operation(Operation::Bench).is_some()) {
        bench_run = bench_run.subcommand(game_command(game, game.name, game.fields));
    }
    root.subcommand(serve).subcommand(bench_run.subcommand_required(true))
}

/// `bench machine`, which times no game: the limits a solver's time is set against.
fn machine_command() -> clap::Command {
    clap::Command::new(MACHINE)
        .about("Measure this machine's limits: memory bandwidth and latency, random accesses, integer operations")
        .arg(
            Arg::new("size-mib")
                .long("size-mib")
                .value_name("MIB")
                .default_value("1024")
                .value_parser(value_parser!(u64).range(1..=1 << 20))
                .help("The buffer the memory kernels work on, in MiB: larger than the caches to measure memory"),
        )
        .arg(Arg::new("json").long("json").action(ArgAction::SetTrue).help("Print the result as one JSON object"))
}

/// The `bench` subcommand that measures the machine rather than a game.
const MACHINE: &str = "machine";

fn game_command(game: &GameInfo, about: &'static str, fields: &'static [Field]) -> clap::Command {
    fields.iter().fold(clap::Command::new(game.id).about(about), |command, field| command.arg(arg_of(field)))
}

fn arg_of(field: &Field) -> Arg {
    let arg = Arg::new(field.name).help(field.help).required(field.required);
    let arg = match field.shape {
        Shape::Flag => return arg.long(field.name).action(ArgAction::SetTrue),
        Shape::Value => arg.long(field.name).value_name(field.value_name).action(ArgAction::Set),
        Shape::Positional => arg.value_name(field.value_name).action(ArgAction::Set),
    };
    // Shown in the help; the game's parser applies the default itself.
    match field.default {
        Some(default) => arg.default_value(default),
        None => arg,
    }
}

/// Parses `args` (the program's name first).
///
/// # Errors
///
/// clap's error for a command line it does not take.
pub fn parse_from(
    args: impl IntoIterator<Item = impl Into<OsString> + Clone>,
    games: &[&'static dyn Game],
) -> Result<Invocation, clap::Error> {
    let matches = command(games).try_get_matches_from(args)?;
    let (name, sub) = matches.subcommand().expect("a subcommand is required");
    let (id, leaf) = match sub.subcommand() {
        Some(game) => game,
        None => ("", sub),
    };
    let data_dir = leaf.get_one::<PathBuf>("data-dir").cloned();
    let threads = leaf.get_one::<usize>("threads").copied();
    let command = match name {
        "serve" => Command::Serve {
            addr: *sub.get_one::<SocketAddr>("addr").expect("it has a default"),
            budget: Budget {
                positions: sub.get_one::<u64>("build-limit").copied().unwrap_or(u64::MAX),
                seconds: sub.get_one::<f64>("build-seconds").copied().unwrap_or(Budget::default().seconds),
                bytes: sub
                    .get_one::<f64>("build-memory")
                    .map_or(Budget::default().bytes, |gigabytes| (gigabytes.max(0.0) * 1e9) as u64),
            },
            log: sub.get_one::<String>("log").cloned(),
        },
        "bench" if id == MACHINE => Command::Machine {
            buffer_bytes: leaf.get_one::<u64>("size-mib").expect("it has a default") << 20,
            json: leaf.get_flag("json"),
        },
        BENCH_RUN => {
            let game = find(games, id).expect("clap knows only registered games");
            Command::BenchRun { game, pairs: pairs(leaf, game.info().fields) }
        }
        _ => {
            let operation = Operation::ALL.into_iter().find(|o| o.name() == name).expect("clap knows only operations");
            let game = find(games, id).expect("clap knows only registered games");
            let fields = game.info().operation(operation).expect("clap offers only supported operations").fields;
            let json = prints_result(operation) && leaf.get_flag("json");
            Command::Game { operation, game, pairs: pairs(leaf, fields), json }
        }
    };
    Ok(Invocation { data_dir, threads, command })
}

/// The parameters the user gave (not the defaults clap shows), as pairs.
fn pairs(matches: &ArgMatches, fields: &[Field]) -> Vec<(String, String)> {
    let mut pairs = Vec::new();
    for field in fields {
        if matches.value_source(field.name) != Some(ValueSource::CommandLine) {
            continue;
        }
        let value = match field.shape {
            Shape::Flag => matches.get_flag(field.name).to_string(),
            Shape::Value | Shape::Positional => {
                matches.get_one::<String>(field.name).cloned().expect("a value was given")
            }
        };
        pairs.push((field.name.to_string(), value));
    }
    pairs
}

/// A number of seconds or gigabytes: finite and not below zero.
fn non_negative(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(number) if number.is_finite() && number >= 0.0 => Ok(number),
        _ => Err("expected a number, 0 or more".into()),
    }
}

#[cfg(test)]
mod tests {
    use solved_games::params::arguments;
    use solved_games::params::{NoFiles, Params};
    use solved_games::registry::GAMES;

    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        command(GAMES).debug_assert();
    }

    #[test]
    fn bench_arguments_round_trip_through_the_command_line() {
        let cases: [(&str, &[(&str, &str)]); 5] = [
            ("dodgem", &[("size", "5")]),
            ("dodgem", &[("size", "4"), ("misere", "true")]),
            ("dots-and-boxes", &[("rows", "3"), ("cols", "5"), ("variant", "icelandic")]),
            ("dots-and-boxes", &[("rows", "1"), ("cols", "2")]),
            ("tic-tac-chec", &[("pawn", "outbound")]),
        ];
        for (id, given) in cases {
            let game = find(GAMES, id).unwrap();
            let fields = game.info().fields;
            let pairs = given.iter().map(|(n, v)| (n.to_string(), v.to_string()));
            let board = game.board(&Params::new(pairs, fields, &NoFiles).unwrap()).unwrap();
            let mut line = vec!["solved".to_string(), BENCH_RUN.into(), id.into()];
            line.extend(arguments(fields, &board));
            let Command::BenchRun { game: parsed, pairs } = parse_from(&line, GAMES).unwrap().command else {
                panic!("{line:?} is not a bench run");
            };
            assert_eq!(parsed.info().id, id);
            let again = game.board(&Params::new(pairs, fields, &NoFiles).unwrap()).unwrap();
            assert_eq!(again, board, "{line:?}");
        }
    }
}
