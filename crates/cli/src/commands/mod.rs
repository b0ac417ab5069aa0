//! The commands: resolved through the registry, dispatched in one place to
//! the game's module, which calls the game and renders what it answers.

mod bench;
mod dodgem;
mod dots_and_boxes;
mod play;
mod serve;
mod snakes;
mod tic_tac_chec;

use std::fmt::Write;
use std::process::ExitCode;

use anyhow::{Context, bail};
use solved_engine::Table;
use solved_games::claims::{ClaimCheck, Verdict};
use solved_games::params::Params;
use solved_games::registry::{Game, Kind, Operation};
use solved_games::tables::{Provenance, Solvable, obtain};

use crate::args::{Command, Invocation};
use crate::config::Config;
use crate::files::CommandLineFiles;
use crate::json::{ClaimJson, RecordMoveJson, VerifyJson};
use crate::output;
use crate::progress::{self, Bar};
use crate::text::columns;

/// One operation asked of one game: what each game's module gets.
struct Request<'a> {
    operation: Operation,
    params: &'a Params<'a>,
    config: &'a Config,
    json: bool,
}

pub fn run(invocation: Invocation) -> anyhow::Result<ExitCode> {
    let config = Config::resolve(&invocation)?;
    progress::handle_interrupts();
    match invocation.command {
        Command::Serve { addr, build_limit, log } => serve::serve(&config, addr, build_limit, log.as_deref()),
        Command::Machine { buffer_bytes, json } => bench::machine(buffer_bytes, json),
        Command::BenchRun { kind, pairs } => {
            let params = Params::new(pairs, kind.info().fields, &CommandLineFiles)?;
            bench::run_once(&Game::resolve(kind, &params)?)
        }
        Command::Game { operation, kind, pairs, json } => {
            let supported = kind.info().operation(operation).context("the game does not support this operation")?;
            let params = Params::new(pairs, supported.fields, &CommandLineFiles)?;
            let request = Request { operation, params: &params, config: &config, json };
            match kind {
                Kind::Dodgem => dodgem::run(&request),
                Kind::DotsAndBoxes => dots_and_boxes::run(&request),
                Kind::Snakes => snakes::run(&request),
                Kind::TicTacChec => tic_tac_chec::run(&request),
            }
        }
    }
}

/// The error for an operation a game's module does not have: the registry
/// offers only the operations each game lists, so this means the two
/// disagree.
fn unsupported(request: &Request, game: Kind) -> anyhow::Result<ExitCode> {
    bail!("{} has no {} command", game.info().name, request.operation.name())
}

/// A solve expected to take at least this many seconds is announced first,
/// whether or not anyone watches the progress bar.
const ANNOUNCED: f64 = 3.0;

/// The table of `game`, from the cache or solved (and saved) first. A long
/// solve is announced on stderr with what it takes and, unless the solve is
/// what was asked for, `command`, which builds the table on its own.
fn open_table<G: Solvable>(
    config: &Config,
    name: &str,
    game: &G,
    command: Option<String>,
) -> anyhow::Result<(Table<G::Encoding>, Provenance)> {
    let key = game.table_key();
    let cost = game.cost();
    if cost.seconds >= ANNOUNCED && !config.store.path::<G::Encoding>(&key).is_file() {
        let (size, variant, seconds, memory) = (&key.size, &key.variant, duration(cost.seconds), bytes(cost.bytes));
        match command {
            Some(command) => eprintln!(
                "solved: building the {name} {size} ({variant}) table first: about {seconds} and {memory} of memory on two cores; `{command}` builds it on its own"
            ),
            None => eprintln!(
                "solved: solving the {name} {size} ({variant}) table: about {seconds} and {memory} of memory on two cores"
            ),
        }
    }
    let (table, provenance) = obtain(game, &config.store, &Bar::new())
        .with_context(|| format!("cannot get the table of {name} {} ({})", key.size, key.variant))?;
    if provenance == Provenance::Solved {
        eprintln!("solved: saved {}", config.store.path::<G::Encoding>(&key).display());
    }
    Ok((table, provenance))
}

/// `40 s`, `3 min`.
fn duration(seconds: f64) -> String {
    if seconds < 90.0 { format!("{:.0} s", seconds.max(1.0)) } else { format!("{:.0} min", seconds / 60.0) }
}

/// `130 MB`, `2.6 GB`.
fn bytes(bytes: u64) -> String {
    if bytes < 1_000_000_000 {
        format!("{:.0} MB", bytes as f64 / 1e6)
    } else {
        format!("{:.1} GB", bytes as f64 / 1e9)
    }
}

/// How a table was had, for a summary's first line.
fn provenance_words(provenance: Provenance) -> &'static str {
    match provenance {
        Provenance::Cached => "loaded from",
        Provenance::Solved => "solved and saved to",
    }
}

/// Prints checked claims as a table (or JSON), after `preamble`, and turns
/// them into the exit status: 1 if one that should agree does not. Errata
/// (published items shown to be wrong) and claims out of reach are
/// reported, not failures.
fn verify_report(
    request: &Request,
    game: Kind,
    claims: &[ClaimCheck],
    preamble: String,
    record: Vec<RecordMoveJson>,
) -> anyhow::Result<ExitCode> {
    let all_agree = !claims.iter().any(|c| c.verdict == Verdict::Disagrees);
    if request.json {
        let id = game.info().id;
        output::json(&VerifyJson { game: id, claims: claims.iter().map(claim_json).collect(), record, all_agree })?;
    } else {
        let mut text = preamble;
        text.push_str(&claims_text(claims));
        text.push_str(if all_agree { "All claims agree.\n" } else { "SOME CLAIMS DISAGREE.\n" });
        output::print(&text)?;
    }
    Ok(if all_agree { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn claim_json(c: &ClaimCheck) -> ClaimJson {
    ClaimJson {
        id: c.id.clone(),
        claim: c.claim.clone(),
        source: c.source.clone(),
        published: c.published.clone(),
        ours: c.ours.clone(),
        agrees: c.verdict == Verdict::Agrees,
        erratum: match &c.verdict {
            Verdict::Erratum(note) => Some(note.clone()),
            _ => None,
        },
    }
}

fn claims_text(claims: &[ClaimCheck]) -> String {
    let mut rows = vec![["#", "claim", "source", "published", "ours", "agrees"].map(String::from).to_vec()];
    for c in claims {
        let agrees = match c.verdict {
            Verdict::Agrees => "yes",
            Verdict::Disagrees => "NO",
            Verdict::Erratum(_) => "no: erratum",
            Verdict::NotYetReachable => "not yet",
        };
        rows.push(vec![
            c.id.clone(),
            c.claim.clone(),
            c.source.clone(),
            c.published.clone(),
            c.ours.clone(),
            agrees.into(),
        ]);
    }
    let mut text = columns(&rows);
    for c in claims {
        if let Verdict::Erratum(note) = &c.verdict {
            let _ = writeln!(text, "erratum in {} ({}): {note}", c.claim, c.source);
        }
    }
    text
}
