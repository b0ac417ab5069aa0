//! Dodgem's commands: solve, probe, verify, play, bench.

use std::fmt::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::StdRng;
use solved_engine::table::Packed;
use solved_engine::{Plies, Table, Value};
use solved_games::dodgem::{self, Dodgem, DodgemValues, Ending, Move, Objective, Player, Position, RecordMove, Square};
use solved_games::player::choose;
use solved_games::registry::{Game, Kind, Operation, command_line};
use solved_games::tables::{Provenance, Solvable};

use super::play::{self, Playable};
use super::{Request, bench, bytes as bytes_text, open_table, provenance_words, unsupported, verify_report};
use anyhow::Context;

use crate::json::{DodgemSolveJson, DodgemUnitsJson, ProbeJson, RecordMoveJson};
use crate::output;
use crate::progress::Bar;
use crate::text::{columns, thousands};

pub(super) fn run(request: &Request) -> anyhow::Result<ExitCode> {
    match request.operation {
        Operation::Solve => {
            let game = Dodgem::from_params(request.params)?;
            let options = dodgem::unit_options(&game, request.params)?;
            if options.on_disk { solve_units(request, &game, options.budget) } else { solve(request, &game) }
        }
        Operation::Probe => probe(request),
        Operation::Verify => verify(request),
        Operation::Play => play(request),
        Operation::Bench => bench::bench(&Game::Dodgem(Dodgem::from_params(request.params)?), request),
        _ => unsupported(request, Kind::Dodgem),
    }
}

fn table(request: &Request, game: &Dodgem) -> anyhow::Result<(Table<Packed>, Provenance)> {
    if game.size() > dodgem::MAX_FLAT_SIZE {
        anyhow::bail!("Dodgem {0}x{0} is kept as unit files, not as one table", game.size());
    }
    let command =
        (request.operation != Operation::Solve).then(|| command_line(Operation::Solve, &Game::Dodgem(game.clone())));
    open_table(request.config, dodgem::INFO.name, game, command)
}

/// The solved values of `game`: its table, built first if need be, or the
/// unit files a solve must have made.
fn values(request: &Request, game: &Dodgem) -> anyhow::Result<DodgemValues> {
    Ok(if dodgem::reads_units(game, request.params)? {
        DodgemValues::Units(Arc::new(open_units(request, game)?))
    } else {
        DodgemValues::Table(Arc::new(table(request, game)?.0))
    })
}

fn solve(request: &Request, game: &Dodgem) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    let (table, provenance) = table(request, game)?;
    let summary = game.summary(&table)?;
    let seconds = began.elapsed().as_secs_f64();
    let path = request.config.store.path::<Packed>(&game.table_key()).display().to_string();
    if request.json {
        output::json(&DodgemSolveJson {
            game: dodgem::INFO.id,
            size: game.size(),
            variant: game.objective().id(),
            positions: summary.all.positions(),
            wins: summary.all.wins,
            losses: summary.all.losses,
            draws: summary.all.draws,
            reachable: summary.reachable.into(),
            start: summary.start,
            max_win_distance: summary.longest_win.map(|p| p.0),
            max_loss_distance: summary.longest_loss.map(|p| p.0),
            mutual_zugzwang: summary.mutual_zugzwang,
            seconds,
            table: path,
            cached: provenance == Provenance::Cached,
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    let how = provenance_words(provenance);
    writeln!(text, "Dodgem {0}x{0} ({1}), {how} {path}", game.size(), game.objective().id())?;
    text.push_str(&tallies(summary.all, summary.reachable));
    writeln!(text, "start position: {} ({})", summary.start, describe(summary.start))?;
    let longest = |p: Option<Plies>| p.map_or("none".into(), |p| format!("{p} plies"));
    writeln!(text, "longest win: {}, longest loss: {}", longest(summary.longest_win), longest(summary.longest_loss))?;
    writeln!(text, "placements lost for either side to move: {}", summary.mutual_zugzwang)?;
    writeln!(text, "time: {seconds:.2} s")?;
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The table of positions by result: all of them, and those reachable
/// from the start.
fn tallies(all: solved_engine::Tally, reachable: solved_engine::Tally) -> String {
    let row = |label: &str, t: solved_engine::Tally| {
        vec![label.into(), thousands(t.positions()), thousands(t.wins), thousands(t.losses), thousands(t.draws)]
    };
    columns(&[
        ["", "positions", "wins", "losses", "draws"].map(String::from).to_vec(),
        row("all (either side to move)", all),
        row("reachable from the start", reachable),
    ])
}

/// What is missing of the unit files of `game`, with the command that
/// makes them, if anything is.
fn missing_units(request: &Request, game: &Dodgem) -> Option<String> {
    let files = game.unit_files(&request.config.store);
    let missing = (0..game.unit_index().units().len()).filter(|&u| !files.path(u).exists()).count();
    (missing > 0).then(|| {
        let command = command_line(Operation::Solve, &Game::Dodgem(game.clone()));
        format!(
            "{missing} of the {} units of Dodgem {1}x{1} are not solved yet in {2}: `{command}` solves them (hours on two cores), resuming where it stopped",
            game.unit_index().units().len(),
            game.size(),
            files.dir().display()
        )
    })
}

/// The unit files of a board kept as units, which a solve must have made.
fn open_units(request: &Request, game: &Dodgem) -> anyhow::Result<dodgem::DodgemUnits> {
    if let Some(missing) = missing_units(request, game) {
        anyhow::bail!(missing);
    }
    Ok(dodgem::DodgemUnits::open(game, &request.config.store)?)
}

/// Solves `game` into unit files, resuming from those already there;
/// spread over the ranks of an `mpirun` when built with the `mpi` feature.
fn solve_units(request: &Request, game: &Dodgem, budget: u64) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    let files = game.unit_files(&request.config.store);
    let dir = files.dir().to_path_buf();
    let failed = || format!("cannot solve Dodgem {0}x{0} ({1}) by units", game.size(), game.objective().id());
    #[cfg(feature = "mpi")]
    let universe = crate::distributed::universe()?;
    #[cfg(feature = "mpi")]
    let world = universe.as_ref().map(|universe| universe.world());
    #[cfg(feature = "mpi")]
    if let Some(world) = world.as_ref().filter(|w| mpi::traits::Communicator::rank(*w) != 0) {
        // A worker: the manager, rank 0, holds the lock and reports.
        solved_engine::units::solve_over_mpi(world, game, &files, budget, &Bar::hidden()).with_context(failed)?;
        return Ok(ExitCode::SUCCESS);
    }
    let _lock = files.lock(|| {
        eprintln!("solved: waiting for another process that is solving into {}", dir.display());
    })?;
    let bar = Bar::new();
    #[cfg(feature = "mpi")]
    let report = match &world {
        Some(world) => solved_engine::units::solve_over_mpi(world, game, &files, budget, &bar)
            .with_context(failed)?
            .expect("rank 0 reports"),
        None => game.solve_to_files(&files, budget, &bar).with_context(failed)?,
    };
    #[cfg(not(feature = "mpi"))]
    let report = game.solve_to_files(&files, budget, &bar).with_context(failed)?;
    let reachable = game.reachable_by_units(&files, &bar).with_context(|| {
        format!("cannot count the positions of Dodgem {0}x{0} reachable from the start", game.size())
    })?;
    drop(bar);
    let units = dodgem::DodgemUnits::open(game, &request.config.store)?;
    let all = units.every_position();
    let figures = units.figures()?;
    let start = units.value(game, &game.start())?;
    let seconds = began.elapsed().as_secs_f64();
    let stored = units.stored_bytes();
    if request.json {
        output::json(&DodgemUnitsJson {
            game: dodgem::INFO.id,
            size: game.size(),
            variant: game.objective().id(),
            positions: all.positions(),
            wins: all.wins,
            losses: all.losses,
            draws: all.draws,
            reachable: reachable.into(),
            start,
            max_win_distance: figures.longest_win.map(|p| p.0),
            max_loss_distance: figures.longest_loss.map(|p| p.0),
            mutual_zugzwang: figures.mutual_zugzwang,
            units: game.unit_index().units().len(),
            solved_units: report.solved,
            resumed_units: report.resumed,
            peak_unit_bytes: report.peak_bytes,
            stored_bytes: stored,
            seconds,
            dir: dir.display().to_string(),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    writeln!(text, "Dodgem {0}x{0} ({1}), units in {2}", game.size(), game.objective().id(), dir.display())?;
    writeln!(
        text,
        "units: {} solved now, {} found done, {} in all",
        report.solved,
        report.resumed,
        game.unit_index().units().len()
    )?;
    text.push_str(&tallies(all, reachable));
    writeln!(text, "start position: {start} ({})", describe(start))?;
    let longest = |p: Option<Plies>| p.map_or("none".into(), |p| format!("{p} plies"));
    writeln!(text, "longest win: {}, longest loss: {}", longest(figures.longest_win), longest(figures.longest_loss))?;
    writeln!(text, "placements lost for either side to move: {}", figures.mutual_zugzwang)?;
    writeln!(
        text,
        "on disk: {} for {} values ({:.1}x smaller)",
        bytes_text(stored),
        thousands(all.positions() / 2),
        all.positions() as f64 / 2.0 / stored.max(1) as f64
    )?;
    writeln!(text, "time: {seconds:.2} s")?;
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn probe(request: &Request) -> anyhow::Result<ExitCode> {
    let (game, pos) = dodgem::probe_request(request.params)?;
    let values = values(request, &game)?;
    let (value, moves) = (values.value(&game, &pos)?, values.ranked_moves(&game, &pos)?);
    if request.json {
        output::json(&ProbeJson::new(&pos, &pos.turn(), value, &moves))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    writeln!(text, "{pos}  (Dodgem {0}x{0}, {1})", game.size(), game.objective().id())?;
    text.push_str(&board(&pos));
    writeln!(text, "{} to move: {} ({})", pos.turn(), value, describe(value))?;
    if !moves.is_empty() {
        let mut rows = vec![vec!["move".into(), "value".into(), "position after".into()]];
        rows.extend(moves.iter().map(|(m, v, child)| vec![m.to_string(), v.to_string(), child.to_string()]));
        text.push_str(&columns(&rows));
    }
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn verify(request: &Request) -> anyhow::Result<ExitCode> {
    let bar = Bar::new();
    // 6×6 takes hours: it is checked if a solve has made its units.
    let game = Dodgem::new(6, Objective::Normal)?;
    let six = match missing_units(request, &game) {
        Some(missing) => Err(missing),
        None => Ok((
            dodgem::DodgemUnits::open(&game, &request.config.store)?,
            game.reachable_if_walked(&game.unit_files(&request.config.store))?,
        )),
    };
    let six = six.as_ref().map(|(units, reachable)| (units, *reachable)).map_err(String::clone);
    let (claims, record) = dodgem::verify(|game| table(request, game).map(|(t, _)| t), six, &bar)?;
    drop(bar);
    let preamble = if request.json { String::new() } else { record_text(&record) };
    verify_report(request, Kind::Dodgem, &claims, preamble, record_json(&record))
}

fn record_json(record: &[RecordMove]) -> Vec<RecordMoveJson> {
    record
        .iter()
        .map(|m| RecordMoveJson {
            ply: m.ply,
            written: m.written.clone(),
            ours: m.ours.clone(),
            before: m.before.map(|p| p.to_string()),
            legal: m.before.map(|_| m.legal_as_written),
            value_before: m.value_before,
            value_after: m.value_after,
            drawing_moves: m.drawing_moves,
            problems: m.problems.clone(),
        })
        .collect()
}

fn record_text(record: &[RecordMove]) -> String {
    let mut text = String::from("desJardins' 4x4 record (his transposed notation, then ours), replayed:\n");
    let mut rows = vec![
        ["ply", "his", "ours", "value before", "move value", "drawing moves", "problems"].map(String::from).to_vec(),
    ];
    for m in record {
        let show = |v: Option<Value>| v.map_or("-".into(), |v| v.to_string());
        let problems = if m.problems.is_empty() { "none".into() } else { m.problems.join("; ") };
        rows.push(vec![
            m.ply.to_string(),
            m.written.clone(),
            m.ours.clone(),
            show(m.value_before),
            show(m.value_after),
            m.drawing_moves.to_string(),
            problems,
        ]);
    }
    text.push_str(&columns(&rows));
    text
}

fn describe(value: Value) -> String {
    match value {
        Value::Win(d) => format!("the side to move wins in {d} plies"),
        Value::Loss(d) => format!("the side to move loses in {d} plies"),
        Value::Draw => "a draw with best play".into(),
    }
}

/// The board with coordinates, top rank first.
fn board(pos: &Position) -> String {
    let mut out = String::new();
    for rank in (0..pos.size()).rev() {
        out.push_str(&format!("  {} |", rank + 1));
        for file in 0..pos.size() {
            out.push_str(match pos.car_on(Square::new(file, rank)) {
                Some(Player::Blue) => " B",
                Some(Player::Red) => " R",
                None => " .",
            });
        }
        out.push('\n');
    }
    out.push_str("     ");
    for file in 0..pos.size() {
        out.push(' ');
        out.push(char::from(b'a' + file));
    }
    out.push('\n');
    out
}

fn play(request: &Request) -> anyhow::Result<ExitCode> {
    let params = request.params;
    let game = Dodgem::from_params(params)?;
    let human = params.required("as", params.parsed::<Player>("as")?)?;
    let seed = params.number::<u64>("seed")?;
    let values = values(request, &game)?;
    let rng = StdRng::seed_from_u64(seed.unwrap_or_else(rand::random));
    let mut session = Session { game, values, human, rng };
    play::run(&mut session, params.flag("hints")?, std::io::stdin().lock())
}

/// A game against the perfect player.
struct Session {
    game: Dodgem,
    values: DodgemValues,
    human: Player,
    rng: StdRng,
}

impl Playable for Session {
    type Position = Position;

    fn intro(&self) -> String {
        format!(
            "Dodgem {0}x{0} ({1}). You are {2}; Blue moves first. Blue moves right, up or down and leaves off the right edge; \
             Red moves up, left or right and leaves off the top. Type a move like a3-b3 or c3-off, 'hint', or 'quit'.",
            self.game.size(),
            self.game.objective().id(),
            self.human
        )
    }

    fn start(&self) -> Position {
        self.game.start()
    }

    fn show(&self, pos: &Position, hints: bool, repeated: u32) -> anyhow::Result<String> {
        let mut text = board(pos);
        if repeated == 3 && !self.game.is_over(pos) {
            let value = self.values.value(&self.game, pos)?;
            let _ = writeln!(
                text,
                "This position has now occurred three times: with best play from here the game is {}.",
                describe(value)
            );
        }
        if hints {
            let _ = writeln!(text, "{}", self.hints(pos)?);
        }
        Ok(text)
    }

    fn result(&self, pos: &Position) -> Option<String> {
        let outcome = self.game.outcome(pos)?;
        let reason = match outcome.reason {
            Ending::AllCarsOff(player) => format!("{player} has no cars left on the board"),
            Ending::NoMove(player) => format!("{player} has no legal move"),
        };
        let rules = match self.game.objective() {
            Objective::Normal => "",
            Objective::Misere => " (misère)",
        };
        Some(format!("{reason}: {} wins{rules}.", outcome.winner))
    }

    fn is_players_turn(&self, pos: &Position) -> bool {
        pos.turn() == self.human
    }

    fn computer(&mut self, pos: &Position) -> anyhow::Result<(Position, String)> {
        let ranked = self.values.ranked_moves(&self.game, pos)?;
        let values: Vec<Value> = ranked.iter().map(|r| r.1).collect();
        let (m, value, child) = ranked[choose(&values, &mut self.rng).expect("the game is not over")];
        Ok((child, format!("{} plays {m} ({value})", pos.turn())))
    }

    fn hints(&self, pos: &Position) -> anyhow::Result<String> {
        let hints: Vec<String> =
            self.values.ranked_moves(&self.game, pos)?.iter().map(|(m, v, _)| format!("{m} {v}")).collect();
        Ok(format!("moves (best first): {}", hints.join(", ")))
    }

    fn prompt(&self, pos: &Position) -> String {
        format!("{} to move> ", pos.turn())
    }

    fn play(&self, pos: &Position, text: &str) -> Result<Position, String> {
        let m = text.parse::<Move>().map_err(|e| e.to_string())?;
        self.game.play(pos, m).map_err(|e| e.to_string())
    }
}
