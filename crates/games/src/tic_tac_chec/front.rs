//! Tic-Tac-Chec for the front ends. Probes read the compact copy of the
//! table where it has been made, else the table; a server never builds
//! either, and shows the moves unvalued until someone does.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use solved_engine::compact::{Compact, CompactBuilder};
use solved_engine::table::Packed;
use solved_engine::{DenseIndex, Table, Values, audit};

use super::answers::{self, Audited, Compacted, MissingJson, Probe, Report, Solved, Summary};
use super::play::{Judge, Session};
use super::{INFO, PawnRule, Position, ProbeValues, Reference, TicTacChec, census, compare_variants};
use crate::contest::{computer_move, match_params, play_match};
use crate::front::{self, Answer, Claims, Game, Host, NotBuilt, TimedSolve, Wanted, loaded, perfect_line};
use crate::info::{GameInfo, Operation};
use crate::manifest::{self, Described};
use crate::params::{ParamError, Params, Rendered, quote};
use crate::puzzles::{puzzle_params, puzzles};
use crate::tables::{Provenance, Solvable, obtain, path_of};

/// Tic-Tac-Chec in the registry.
pub const GAME: &dyn Game = &TicTacChecGame;

/// What building the tables a page reads takes (the solve, then its
/// compact copy), measured on the 2-core reference machine.
const BUILD_COST: &str = "about 5 minutes and 2.5 GB of memory on 2 cores";

#[derive(Debug)]
struct TicTacChecGame;

impl Game for TicTacChecGame {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn board(&self, params: &Params) -> Result<Rendered, ParamError> {
        Ok(TicTacChec::from_params(params)?.to_params())
    }

    fn answer(&self, operation: Operation, params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn Answer>> {
        if operation == Operation::Verify {
            let game = TicTacChec::new(PawnRule::Travel);
            let values = values(&game, host)?;
            let mut claims = super::verify(&game, &*values, host.progress())?;
            claims.extend(manifest::claims(host.store().dir(), INFO.id, host.progress())?);
            return Ok(Box::new(Claims::new(INFO.id, &claims)));
        }
        let game = TicTacChec::from_params(params)?;
        Ok(match operation {
            Operation::Solve => Box::new(solve(&game, host)?),
            Operation::Summary => {
                let values = values(&game, host)?;
                Box::new(Summary::new(game.rule().id(), values.tally(), values.probe(game.index(&Position::empty()))))
            }
            Operation::Probe => Box::new(probe(&game, params, host)?),
            Operation::Line => {
                let start = params.parsed::<Position>("position")?.unwrap_or_else(Position::empty);
                let values = values(&game, host)?;
                Box::new(perfect_line(start, |pos| {
                    Ok(if pos.is_over() { None } else { game.ranked_moves(pos, &*values).into_iter().next() })
                })?)
            }
            Operation::Audit => Box::new(audited(&game, host)?),
            Operation::Compact => Box::new(compact(&game, host)?),
            Operation::Manifest => manifest(&game, params, host)?,
            Operation::Report => Box::new(report(&game, params, host)?),
            Operation::Match => {
                let (levels, games, seed) = match_params(params)?;
                let judge = Judge { values: values(&game, host)?, game };
                let board = format!("Tic-Tac-Chec ({} pawns)", judge.game.rule().id());
                Box::new(play_match(&judge, board, levels, games, seed)?)
            }
            Operation::Puzzle => {
                let (count, seed) = puzzle_params(params)?;
                let judge = Judge { values: values(&game, host)?, game };
                let board = format!("Tic-Tac-Chec ({} pawns)", judge.game.rule().id());
                Box::new(puzzles(&judge, (board, judge.game.to_params()), count, seed)?)
            }
            Operation::Census => {
                let began = Instant::now();
                let census = census(&game, host.progress())?;
                Box::new(answers::Census {
                    game: INFO.id,
                    pawn: game.rule().id(),
                    positions: census.positions,
                    edges: census.edges,
                    terminal: census.terminal,
                    no_move: census.stuck,
                    max_moves: census.max_moves,
                    opening_positions: super::OPENING_POSITIONS,
                    seconds: began.elapsed().as_secs_f64(),
                })
            }
            _ => anyhow::bail!("Tic-Tac-Chec has no {} command", operation.name()),
        })
    }

    fn session(&self, params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn front::Session>> {
        let game = TicTacChec::from_params(params)?;
        let values = values(&game, host)?;
        Session::start(game, values, params)
    }

    fn timed_solve(&self, params: &Params) -> Result<Option<TimedSolve>, ParamError> {
        let game = TicTacChec::from_params(params)?;
        Ok(Some(TimedSolve {
            key: game.table_key(),
            solve: Box::new(move |progress| Ok(game.solve_in_memory(progress)?)),
        }))
    }
}

/// Where to get the tables a page reads, and what that takes.
fn missing(game: &TicTacChec) -> MissingJson {
    let solve = INFO.command_line(Operation::Solve, &game.to_params());
    let compact = INFO.command_line(Operation::Compact, &game.to_params());
    MissingJson {
        message: format!("the {} table has not been built yet: it takes {BUILD_COST}", game.rule().id()),
        command: format!("{solve} && {compact}"),
        takes: BUILD_COST,
    }
}

/// The manifest of the table `solve` writes (not of its compact copy,
/// which `compact` makes from it and checks entry by entry).
fn manifest(game: &TicTacChec, params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn Answer>> {
    let path = path_of(host.store(), game);
    let command = INFO.command_line(Operation::Solve, &game.to_params());
    let described = Described { path: &path, key: &game.table_key(), board: game.to_params(), command };
    let headline = || {
        let (table, _) = table(game, host)?;
        let start = table.probe(game.index(&Position::empty()));
        Ok(Box::new(Summary::new(game.rule().id(), table.header().tally, start)) as Box<dyn Answer>)
    };
    manifest::answer(described, params, headline, host.progress())
}

/// The table of `game`, solved if the host solves it now.
fn table(game: &TicTacChec, host: &dyn Host) -> anyhow::Result<(Arc<Table<Packed>>, Provenance)> {
    host.table(INFO.name, game, INFO.command_line(Operation::Solve, &game.to_params()))
}

/// The values a probe reads: the compact copy if it has been made, else
/// the table, solved if the host solves it now (a server does not). They
/// are kept under the file they came from, so that a compact copy made
/// after the table was loaded is read next time.
fn values(game: &TicTacChec, host: &dyn Host) -> anyhow::Result<Arc<ProbeValues>> {
    let store = host.store();
    let key = game.table_key();
    let compact = store.path::<Compact>(&key);
    let mut wanted = Wanted::table(store, INFO.name, game, INFO.command_line(Operation::Solve, &game.to_params()));
    if compact.is_file() {
        wanted.path = compact;
    }
    let (opened, solved) = (game.clone(), game.clone());
    wanted.open = Box::new(move |store| Ok(opened.open_for_probing(store)?.map(|v| loaded(v.size_in_bytes(), v))));
    wanted.build = wanted.build.map(|(cost, _)| {
        let build: crate::front::Build = Box::new(move |store, progress| {
            let (table, provenance) = obtain(&solved, store, progress)?;
            let values = ProbeValues::Full(table);
            Ok((loaded(values.size_in_bytes(), values), provenance))
        });
        (cost, build)
    });
    wanted.on_request = false;
    let built = host.typed::<ProbeValues>(wanted);
    match built {
        Err(error) if error.is::<NotBuilt>() => {
            let missing = missing(game);
            Err(NotBuilt { message: missing.message, command: missing.command }.into())
        }
        built => Ok(built?.0),
    }
}

fn solve(game: &TicTacChec, host: &dyn Host) -> anyhow::Result<Solved> {
    let began = Instant::now();
    let (table, provenance) = table(game, host)?;
    let figures = game.summary(&*table);
    let summary = Summary::new(game.rule().id(), table.header().tally, figures.start);
    let path = host.store().path::<Packed>(&game.table_key()).display().to_string();
    Ok(Solved::new(summary, &figures, began.elapsed().as_secs_f64(), path, provenance == Provenance::Cached))
}

fn probe(game: &TicTacChec, params: &Params, host: &dyn Host) -> anyhow::Result<Probe> {
    let pos = params.parsed::<Position>("position")?.unwrap_or_else(Position::empty);
    let pawn = game.rule().id();
    Ok(match values(game, host) {
        Ok(values) => {
            let value = values.probe(game.index(&pos));
            let ranked = game.ranked_moves(&pos, &*values);
            let judge = Judge { game: game.clone(), values };
            let next = computer_move(&judge, &pos, params, host)?;
            let choice = next.and_then(|next| ranked.iter().find(|r| r.2 == next)).map(|r| r.0.to_string());
            let moves = ranked.into_iter().map(|(m, v, child)| (m, Some(v), child));
            Probe::new(&pos, pawn, Some(value), moves.collect(), None, choice)
        }
        Err(error) if error.is::<NotBuilt>() => {
            let moves = if pos.is_over() { Vec::new() } else { pos.legal_moves(game.rule()) };
            let moves = moves.into_iter().map(|m| (m, None, pos.play_unchecked(m))).collect();
            Probe::new(&pos, pawn, None, moves, Some(missing(game)), None)
        }
        Err(error) => return Err(error),
    })
}

fn audited(game: &TicTacChec, host: &dyn Host) -> anyhow::Result<Audited> {
    let (table, _) = table(game, host)?;
    let began = Instant::now();
    let reference = Reference(game);
    let report = audit(&reference, &*table, |pos| game.positions().index(pos), host.progress())?;
    let examples = report
        .examples
        .iter()
        .map(|d| format!("{}: stored {}, children say {}", reference.unindex(d.idx), d.stored, d.implied))
        .collect();
    Ok(Audited {
        game: INFO.id,
        pawn: game.rule().id(),
        checked: report.checked,
        disagreements: report.disagreements,
        examples,
        seconds: began.elapsed().as_secs_f64(),
    })
}

fn compact(game: &TicTacChec, host: &dyn Host) -> anyhow::Result<Compacted> {
    let store = host.store();
    let (table, _) = table(game, host)?;
    let began = Instant::now();
    let compact = CompactBuilder::new(&*table).context("cannot make the compact copy")?;
    compact.verify(&*table).context("the compact copy does not match the table")?;
    let key = game.table_key();
    let path = store.save::<Compact>(&key, &[], &compact)?;
    // Read back through the file, as probe will.
    let saved = store.open::<Compact>(&key)?.context("the compact copy vanished")?;
    compact.verify(&saved).context("the saved compact copy does not match the table")?;
    let counts = saved.header().tally;
    Ok(Compacted {
        game: INFO.id,
        pawn: game.rule().id(),
        positions: saved.len(),
        decisive: counts.wins + counts.losses,
        table_bytes: table.size_in_bytes(),
        compact_bytes: saved.size_in_bytes(),
        verified: true,
        seconds: began.elapsed().as_secs_f64(),
        path: path.display().to_string(),
    })
}

/// A part of the report.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Section {
    /// A deterministic drawing line from the empty board until it repeats.
    Line,
    /// How often a side can win at once, and the defences.
    Threats,
    /// How the two pawn rules differ (needs both tables).
    Variants,
}

impl FromStr for Section {
    type Err = ParamError;

    fn from_str(text: &str) -> Result<Section, ParamError> {
        match text {
            "line" => Ok(Section::Line),
            "threats" => Ok(Section::Threats),
            "variants" => Ok(Section::Variants),
            _ => Err(ParamError::Invalid {
                name: "sections",
                value: quote(text),
                source: "expected line, threats or variants".into(),
            }),
        }
    }
}

fn report(game: &TicTacChec, params: &Params, host: &dyn Host) -> anyhow::Result<Report> {
    let listed = params.text("sections").unwrap_or_default();
    let sections = listed.split(',').map(str::parse).collect::<Result<Vec<Section>, _>>()?;
    let values = values(game, host)?;
    let mut report =
        Report { game: INFO.id, pawn: game.rule().id(), drawing_line: None, threats: None, variants: None };
    if sections.contains(&Section::Line) {
        report.drawing_line = Some((&game.drawing_line(&*values)?).into());
    }
    if sections.contains(&Section::Threats) {
        report.threats = Some((&game.threat_census(&*values, host.progress())?).into());
    }
    if sections.contains(&Section::Variants) {
        let other = TicTacChec::new(match game.rule() {
            PawnRule::Travel => PawnRule::Outbound,
            PawnRule::Outbound => PawnRule::Travel,
        });
        let other_values = self::values(&other, host)?;
        let (travel, outbound) = match game.rule() {
            PawnRule::Travel => ((game, &*values), (&other, &*other_values)),
            PawnRule::Outbound => ((&other, &*other_values), (game, &*values)),
        };
        report.variants = Some((&compare_variants(travel, outbound, host.progress())?).into());
    }
    Ok(report)
}
