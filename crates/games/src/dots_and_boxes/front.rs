//! Dots and Boxes for the front ends: every operation reads the board's
//! quiet table; `bench` times the full sweep where there is one.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Instant;

use solved_engine::table::Margin;
use solved_engine::{Table, TableKey};

use super::answers::{Probe, Searched, Solved, Summary};
use super::claims::{RECORD_4X5, check_4x5_again};
use super::game::{DIAGRAM, MEMORY, MOVES, RECORD, SEARCH, SEARCH_AGAIN, SWEEP, TO_MOVE, UNASKED_SEARCH_LINES};
use super::play::{Judge, Session};
use super::quiet::{QuietOutcomes, QuietTable};
use super::search::{Search, SearchedMove, estimate};
use super::{
    Board, INFO, LineScore, MAX_FREE_LINES, Position, ProbeRequest, Scorer, Variant, probe_request,
    verify_against_sweep,
};
use crate::contest::{computer_move, match_params, play_match};
use crate::front::{self, Answer, Claims, Game, Host, TimedSolve, Wanted, Work, loaded};
use crate::info::{GameInfo, Operation};
use crate::levels::LEVEL;
use crate::manifest::{self, Described};
use crate::params::{ParamError, Params, Rendered};
use crate::puzzles::{puzzle_params, puzzles};
use crate::tables::{Cost, Provenance, Solvable};

/// The most memory the search's table of bounds takes unless told: 16
/// bytes a slot.
const SEARCH_TABLE_GB: f64 = 2.0;

/// Dots and Boxes in the registry.
pub const GAME: &dyn Game = &DotsAndBoxes;

#[derive(Debug)]
struct DotsAndBoxes;

impl Game for DotsAndBoxes {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn board(&self, params: &Params) -> Result<Rendered, ParamError> {
        Ok(Board::from_params(params)?.to_params())
    }

    fn answer(&self, operation: Operation, params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn Answer>> {
        Ok(match operation {
            Operation::Solve => {
                let search = params.flag(SEARCH.name)?;
                // Unasked, a board past the search's reach is refused as too
                // large to table, which is what was asked.
                let board = match Board::for_search_from_params(params) {
                    Err(_) if !search => Board::from_params(params)?,
                    board => board?,
                };
                match Board::new(board.rows(), board.cols(), board.variant()) {
                    Ok(_) if !search => {
                        if params.is_given(RECORD.name) || params.is_given(MEMORY.name) {
                            return Err(ParamError::Combination(
                                "--record and --memory are for the search: give --search too",
                            )
                            .into());
                        }
                        Box::new(solve(&board, params.flag(SWEEP.name)?, host)?)
                    }
                    Err(too_large) if !search && board.free_line_count() > UNASKED_SEARCH_LINES => {
                        anyhow::bail!(
                            "{too_large}; past {UNASKED_SEARCH_LINES} lines (4x5 American) a search runs far longer than 4x5's: --search starts one anyway"
                        )
                    }
                    _ if params.flag(SWEEP.name)? => {
                        swept(&board)?;
                        return Err(ParamError::Combination("--sweep tables every position, the search none").into());
                    }
                    _ => Box::new(search_start(&board, params, host)?),
                }
            }
            Operation::Summary => {
                let board = Board::from_params(params)?;
                let (quiet, table, _) = table(&board, host)?;
                Box::new(summary(&board, &Scorer::new(&quiet, &table))?)
            }
            Operation::Probe => Box::new(probe(params, host)?),
            Operation::Verify => Box::new(verify(params, host)?),
            Operation::Manifest => {
                let board = Board::from_params(params)?;
                let command = INFO.command_line(Operation::Solve, &board.to_params());
                let (path, key, command) = if params.flag(SWEEP.name)? {
                    swept(&board)?;
                    let path = host.store().path::<Margin>(&board.table_key());
                    (path, board.table_key(), format!("{command} --sweep"))
                } else {
                    let key = QuietTable::new(&board).table_key();
                    (host.store().path::<QuietOutcomes>(&key), key, command)
                };
                let described = Described { path: &path, key: &key, board: board.to_params(), command };
                let headline = || {
                    let (quiet, table, _) = table(&board, host)?;
                    Ok(Box::new(summary(&board, &Scorer::new(&quiet, &table))?) as Box<dyn Answer>)
                };
                manifest::answer(described, params, headline, host.progress())?
            }
            Operation::Match => {
                let board = Board::from_params(params)?;
                let (levels, games, seed) = match_params(params)?;
                let (quiet, table, _) = table(&board, host)?;
                let name = super::answers::describe(&board);
                Box::new(play_match(&Judge { board, quiet, table }, name, levels, games, seed)?)
            }
            Operation::Puzzle => {
                let board = Board::from_params(params)?;
                let (count, seed) = puzzle_params(params)?;
                let (quiet, table, _) = table(&board, host)?;
                let name = super::answers::describe(&board);
                let settings = board.to_params();
                Box::new(puzzles(&Judge { board, quiet, table }, (name, settings), count, seed)?)
            }
            _ => anyhow::bail!("Dots and Boxes has no {} command", operation.name()),
        })
    }

    fn session(&self, params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn front::Session>> {
        let board = Board::from_params(params)?;
        let (quiet, table, _) = table(&board, host)?;
        Session::start(board, quiet, table, params)
    }

    /// The full sweep where the board has one, else the quiet solve.
    fn timed_solve(&self, params: &Params) -> Result<Option<TimedSolve>, ParamError> {
        let board = Board::from_params(params)?;
        Ok(Some(if board.is_swept() {
            TimedSolve { key: board.table_key(), solve: Box::new(move |progress| Ok(board.solve_in_memory(progress)?)) }
        } else {
            let quiet = QuietTable::new(&board);
            TimedSolve { key: quiet.table_key(), solve: Box::new(move |progress| Ok(quiet.solve_in_memory(progress)?)) }
        }))
    }
}

/// The quiet table of `board`, which every answer reads.
fn table(board: &Board, host: &dyn Host) -> anyhow::Result<(QuietTable, Arc<Table<QuietOutcomes>>, Provenance)> {
    let quiet = QuietTable::new(board);
    let command = INFO.command_line(Operation::Solve, &board.to_params());
    let mut wanted = Wanted::table(host.store(), INFO.name, &quiet, command);
    // A quiet table keeps fewer entries than the positions it stands for.
    wanted.positions = quiet.quiet().count();
    wanted.detail.insert("lines", u64::from(board.free_line_count()));
    let (table, provenance) = host.typed::<Table<QuietOutcomes>>(wanted)?;
    Ok((quiet, table, provenance))
}

fn summary(board: &Board, scorer: &Scorer) -> anyhow::Result<Summary> {
    Ok(Summary::new(board, &scorer.summary()?, scorer.line_scores(&board.start())?))
}

/// Refuses `--sweep` where the full sweep would not fit.
fn swept(board: &Board) -> anyhow::Result<()> {
    anyhow::ensure!(
        board.is_swept(),
        "--sweep: the full sweep takes boards of at most {MAX_FREE_LINES} undrawn lines; this board has {}",
        board.free_line_count()
    );
    Ok(())
}

fn solve(board: &Board, sweep: bool, host: &dyn Host) -> anyhow::Result<Solved> {
    let began = Instant::now();
    let sweep_table = if sweep {
        swept(board)?;
        let command = format!("{} --sweep", INFO.command_line(Operation::Solve, &board.to_params()));
        host.table(INFO.name, board, command)?;
        Some(host.store().path::<Margin>(&board.table_key()).display().to_string())
    } else {
        None
    };
    let (quiet, table, provenance) = table(board, host)?;
    let summary = summary(board, &Scorer::new(&quiet, &table))?;
    Ok(Solved {
        summary,
        representatives: table.header().tally.positions(),
        seconds: began.elapsed().as_secs_f64(),
        table: host.store().path::<QuietOutcomes>(&quiet.table_key()).display().to_string(),
        table_bytes: table.stored_len(),
        cached: provenance == Provenance::Cached,
        sweep_table,
    })
}

/// A table of bounds as large as a search of `lines` undrawn lines can
/// use, up to [`SEARCH_TABLE_GB`]: a slot for every 64 of the positions
/// the lines make (3×4's 31 lines searched 65 M positions in a table of
/// 33 M slots), so that a page's short searches ask for little memory.
fn search_table_bytes(lines: u32) -> usize {
    (16usize << lines.saturating_sub(6).min(40)).min((SEARCH_TABLE_GB * 1e9) as usize)
}

/// The table of bounds `--memory` asks for, else as large as a search of
/// `lines` can use.
fn table_bytes(params: &Params, lines: u32) -> Result<usize, ParamError> {
    match params.number::<f64>(MEMORY.name)? {
        None => Ok(search_table_bytes(lines)),
        Some(gigabytes) if gigabytes.is_finite() && gigabytes > 0.0 && gigabytes <= 1e6 => {
            Ok((gigabytes * 1e9) as usize)
        }
        Some(_) => Err(ParamError::Combination("--memory is a number of gigabytes, more than 0")),
    }
}

/// The start and every first line by search, going on from the board's
/// record, with a table of bounds of `--memory` (by default as large as
/// the board can use, up to [`SEARCH_TABLE_GB`]).
fn search_start(board: &Board, params: &Params, host: &dyn Host) -> anyhow::Result<Searched> {
    let began = Instant::now();
    let table_bytes = table_bytes(params, board.free_line_count())?;
    let record = match params.text(RECORD.name) {
        Some(path) => std::path::PathBuf::from(path),
        None => host.store().dir().join(format!(
            "{}-{}x{}-{}.search.json",
            INFO.id,
            board.rows(),
            board.cols(),
            board.variant().id()
        )),
    };
    let search = Search::new(board, table_bytes).with_record(&record)?;
    let (recorded, _, seconds) = search.recorded();
    host.progress().note(&format!(
        "searching the {} first lines of {}x{} {} with a {} MB table of bounds, recording at {}: {} from nothing on two threads of the machine in docs/performance.md (a guess past the boards measured there){}",
        board.free_line_count(),
        board.rows(),
        board.cols(),
        board.variant().id(),
        table_bytes / 1_000_000,
        record.display(),
        estimate::say(estimate::search_seconds(board.free_line_count())),
        if recorded == 0 {
            String::new()
        } else {
            format!("; going on from {recorded} positions recorded over {:.1} hours", seconds / 3600.0)
        }
    ));
    let start = search.start(host.progress())?;
    Ok(Searched::new(board, &start, &record, began.elapsed().as_secs_f64(), rayon::current_num_threads()))
}

fn probe(params: &Params, host: &dyn Host) -> anyhow::Result<Probe> {
    let ProbeRequest { board, position: pos, loony, searched } = probe_request(params)?;
    if searched {
        return probe_by_search(&board, &pos, params, host);
    }
    let (quiet, table, _) = table(&board, host)?;
    let judge = Judge { board, quiet, table };
    let scorer = judge.scorer();
    let next = computer_move(&judge, &pos, params, host)?;
    let choice = next.and_then(|next| judge.line_between(&pos, &next));
    let (value, scores) = (scorer.value(&pos)?, scorer.line_scores(&pos)?);
    Ok(Probe::new(&judge.board, &pos, value, scores, &loony, choice.map(|line| line.to_string())))
}

/// A position of a board too large to table, every undrawn line scored by
/// search (on 4×5 American, from the repository's record as far as it
/// reaches): the host runs the search as it builds a table, within its
/// budget, saying first what it will take.
fn probe_by_search(board: &Board, pos: &Position, params: &Params, host: &dyn Host) -> anyhow::Result<Probe> {
    // The search finds the best lines only: the perfect player's choice.
    if params.text(LEVEL.name).is_some_and(|level| level != "perfect") {
        return Err(ParamError::Combination(
            "--level plays from the table, and this board is too large to table: its lines are scored by search, the best chosen",
        )
        .into());
    }
    // The record is read with a table of one slot: nothing is searched yet.
    let recorded = knowing_the_record(Search::new(board, 0), board)?.recorded_line_worths(pos.drawn());
    let worths = match recorded {
        Some(worths) => worths,
        None => host.typed::<Vec<SearchedMove>>(searched_lines(board, pos, params, host))?.0.to_vec(),
    };
    let sign = pos.turn().sign();
    let mut scores: Vec<LineScore> = worths
        .into_iter()
        .map(|worth| LineScore {
            line: worth.line,
            score: pos.score_so_far() + sign * worth.score,
            best: false,
            takes: board.completed_by(pos.drawn(), worth.line).len(),
            loony: None,
        })
        .collect();
    let best = scores.iter().map(|s| sign * s.score).max();
    for line in &mut scores {
        line.best = Some(sign * line.score) == best;
    }
    let value = best.map_or(pos.score_so_far(), |best| sign * best);
    let choice = scores.iter().find(|s| s.best).map(|s| s.line.to_string());
    Ok(Probe::new(board, pos, value, scores, &[], choice).searched())
}

/// Claim 9 tested by a search of its own, which keeps what it finds in a
/// record beside the tables and goes on from it when run again.
fn search_4x5_again(params: &Params, host: &dyn Host) -> anyhow::Result<crate::claims::ClaimCheck> {
    let make = || {
        let board = Board::for_search(4, 5, Variant::American).expect("4x5 is within the search's reach");
        let path = host.store().dir().join(format!("{}-4x5-american.search-again.json", INFO.id));
        let search = Search::new(&board, table_bytes(params, board.free_line_count())?).with_record(&path)?;
        let (positions, _, seconds) = search.recorded();
        host.progress().note(&format!(
            "searching 4x5 American's start again, keeping what it finds at {}: {} from nothing on two threads of the machine in docs/performance.md{}",
            path.display(),
            estimate::say(estimate::search_seconds(board.free_line_count())),
            if positions > 0 {
                format!("; going on from {positions} positions found over {:.1} hours", seconds / 3600.0)
            } else {
                String::new()
            },
        ));
        Ok(search)
    };
    check_4x5_again(make, host.progress())
}

/// `search`, knowing the repository's record if `board` is 4×5 American.
fn knowing_the_record(search: Search, board: &Board) -> anyhow::Result<Search> {
    if (board.rows(), board.cols(), board.variant()) != (4, 5, Variant::American) {
        return Ok(search);
    }
    search.knowing(RECORD_4X5).map_err(|e| anyhow::anyhow!("the 4x5 search's record: {e}"))
}

/// The search of every undrawn line of `pos`, as a host makes what a game
/// wants: within its budget (a page's server), with what it takes said
/// first (the command line), and kept for the next request (the server,
/// by the position's own path).
fn searched_lines(board: &Board, pos: &Position, params: &Params, host: &dyn Host) -> Wanted {
    let undrawn = board.undrawn(pos).count() as u32;
    let seconds = estimate::search_seconds(undrawn);
    let table_bytes = search_table_bytes(undrawn);
    let (rows, cols, variant) = (board.rows(), board.cols(), board.variant().id());
    let key = TableKey {
        game: INFO.id.into(),
        variant: variant.into(),
        size: format!("{rows}x{cols}"),
        index_version: 0,
        positions: 0,
    };
    // The command names this very position, to be run as it stands.
    let mut named = board.to_params();
    match params.text(MOVES.name).filter(|moves| !moves.is_empty()) {
        Some(moves) => named.push((MOVES.name, moves.to_string())),
        None if params.is_given(DIAGRAM.name) => {
            named.push((DIAGRAM.name, "FILE".into()));
            named.extend(params.text(TO_MOVE.name).map(|player| (TO_MOVE.name, player.to_string())));
        }
        None => {}
    }
    let said = format!(
        "{rows}x{cols} {variant} is too large to table: searching the {undrawn} lines of this position takes {} on two threads of the machine in docs/performance.md",
        estimate::say(seconds),
    );
    let (searched, drawn) = (board.clone(), pos.drawn());
    Wanted {
        path: host.store().dir().join(format!("{}-{rows}x{cols}-{variant}.search", INFO.id)).join(format!("{drawn:x}")),
        what: format!("the search of this {rows}x{cols} {variant} position's {undrawn} lines"),
        work: Work::Search,
        key,
        positions: 0,
        command: INFO.command_line(Operation::Probe, &named),
        detail: BTreeMap::from([("lines", u64::from(undrawn))]),
        open: Box::new(|_| Ok(None)),
        build: Ok((
            Cost { seconds: seconds.1, bytes: table_bytes as u64 },
            Box::new(move |_, progress| {
                progress.note(&said);
                let search = knowing_the_record(Search::new(&searched, table_bytes), &searched)?;
                let worths = search.line_worths(drawn, progress)?;
                Ok((loaded(size_of_val(worths.as_slice()) as u64, worths), Provenance::Solved))
            }),
        )),
        on_request: true,
    }
}

fn verify(params: &Params, host: &dyn Host) -> anyhow::Result<Claims> {
    let store = host.store();
    let mut claims = super::verify(
        |quiet| table(quiet.board(), host).map(|(_, table, _)| table),
        // A large table is probed a block at a time; verifying it reads
        // and checks every block first.
        |quiet| {
            let table = store.open::<QuietOutcomes>(&quiet.table_key())?;
            table.as_ref().map(Table::check_all).transpose()?;
            Ok::<_, anyhow::Error>(table)
        },
    )?;
    if params.flag("exhaustive")? {
        claims.extend(verify_against_sweep(host.progress())?);
    }
    if params.flag(SEARCH_AGAIN.name)? {
        claims.push(search_4x5_again(params, host)?);
    }
    claims.extend(manifest::claims(store.dir(), INFO.id, host.progress())?);
    Ok(Claims::new(INFO.id, &claims))
}
