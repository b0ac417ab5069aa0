//! Dodgem for the front ends: every operation, its values had from one
//! table (boards up to 5×5) or from unit files (6×6, and any board solved
//! with `--units`).

use std::sync::Arc;
use std::time::Instant;

#[cfg(feature = "mpi")]
use solved_engine::Progress;
use solved_engine::table::Packed;
use solved_engine::{Table, Values};

use anyhow::Context;

use super::answers::{self, Audited, DisagreementJson, Probe, Solved, Summary, UnitSizeJson, UnitsJson};
use super::claims::SolvedUnits;
use super::on_disk::kept_of;
use super::play::{Judge, Session};
use super::{
    Dodgem, DodgemUnits, DodgemValues, EveryPosition, INFO, Objective, UnitFigures, UnitOptions, UnitStages,
    probe_request, reads_units, unit_options,
};
use crate::contest::{computer_move, match_params, play_match};
use crate::front::{
    self, Answer, Claims, Game, Host, NotBuilt, TallyJson, TimedSolve, Wanted, Work, loaded, perfect_line,
};
use crate::info::{GameInfo, Operation};
use crate::manifest::{self, Described};
use crate::params::{ParamError, Params, Rendered};
use crate::puzzles::{puzzle_params, puzzles};
use crate::tables::{Provenance, Solvable, obtain_for_play, path_of};
use crate::text::{duration, thousands};

/// Dodgem in the registry.
pub const GAME: &dyn Game = &DodgemGame;

#[derive(Debug)]
struct DodgemGame;

impl Game for DodgemGame {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn board(&self, params: &Params) -> Result<Rendered, ParamError> {
        Ok(Dodgem::from_params(params)?.to_params())
    }

    fn answer(&self, operation: Operation, params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn Answer>> {
        Ok(match operation {
            Operation::Solve => solve(params, host)?,
            Operation::Summary => Box::new(summary(&Dodgem::from_params(params)?, params, host)?),
            Operation::Probe => Box::new(probe(params, host)?),
            Operation::Line => {
                let (game, start) = probe_request(params)?;
                let values = values(&game, params, host)?;
                Box::new(perfect_line(start, |pos| {
                    if game.is_over(pos) {
                        return Ok(None);
                    }
                    Ok(values.ranked_moves(&game, pos)?.into_iter().next())
                })?)
            }
            Operation::Verify => Box::new(verify(host)?),
            Operation::Audit => Box::new(audit(params, host)?),
            Operation::Manifest => manifest(params, host)?,
            Operation::Match => {
                let game = Dodgem::from_params(params)?;
                let (levels, games, seed) = match_params(params)?;
                let values = values(&game, params, host)?;
                let board = format!("Dodgem {0}x{0} ({1})", game.size(), game.objective().id());
                Box::new(play_match(&Judge { game, values }, board, levels, games, seed)?)
            }
            Operation::Puzzle => {
                let game = Dodgem::from_params(params)?;
                let (count, seed) = puzzle_params(params)?;
                let values = values(&game, params, host)?;
                let board = format!("Dodgem {0}x{0} ({1})", game.size(), game.objective().id());
                let settings = game.to_params();
                Box::new(puzzles(&Judge { game, values }, (board, settings), count, seed)?)
            }
            _ => anyhow::bail!("Dodgem has no {} command", operation.name()),
        })
    }

    fn session(&self, params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn front::Session>> {
        let game = Dodgem::from_params(params)?;
        let values = values(&game, params, host)?;
        Session::start(game, values, params)
    }

    fn timed_solve(&self, params: &Params) -> Result<Option<TimedSolve>, ParamError> {
        let game = Dodgem::from_params(params)?;
        Ok(Some(TimedSolve {
            key: game.table_key(),
            solve: Box::new(move |progress| Ok(game.solve_in_memory(progress)?)),
        }))
    }
}

/// The command that solves `game`.
fn solve_command(game: &Dodgem) -> String {
    INFO.command_line(Operation::Solve, &game.to_params())
}

/// The command that solves `game` into unit files.
fn units_command(game: &Dodgem) -> String {
    INFO.command_line(Operation::Solve, &game.to_unit_params())
}

/// The one table of `game`, solved if the host solves it now.
fn table(game: &Dodgem, host: &dyn Host) -> anyhow::Result<(Arc<Table<Packed>>, Provenance)> {
    if game.size() > super::MAX_FLAT_SIZE {
        anyhow::bail!("Dodgem {0}x{0} is kept as unit files, not as one table", game.size());
    }
    let mut wanted = Wanted::table(host.store(), INFO.name, game, solve_command(game));
    // An entry stands for a position and its mirror image, and a page says
    // how many positions it solves, as the summary counts them.
    wanted.positions = 2 * wanted.key.positions;
    if host.serves_requests() {
        // A page plays as soon as the values exist: the reachable counts,
        // ten times the solve's time on 5×5, wait for a summary.
        let solved = game.clone();
        wanted.build = wanted.build.map(|(cost, _)| {
            let build: crate::front::Build = Box::new(move |store, progress| {
                let (table, provenance) = obtain_for_play(&solved, store, progress)?;
                Ok((loaded(table.size_in_bytes(), table), provenance))
            });
            (cost, build)
        });
    }
    host.typed(wanted)
}

/// The solved values of `game`: its unit files where the request asks for
/// them (boards past 5×5 always do) or a solve by units has made them all,
/// else its table.
fn values(game: &Dodgem, params: &Params, host: &dyn Host) -> anyhow::Result<DodgemValues> {
    let files = game.unit_files(host.store());
    Ok(if reads_units(game, params)? || (files.dir().is_dir() && files.missing()? == 0) {
        DodgemValues::Units(units(game, host)?)
    } else {
        DodgemValues::Table(table(game, host)?.0)
    })
}

/// The unit files of `game`, which only a solve by units makes: never
/// solved on request, past one table that takes hours, which `solved
/// solve` spends resuming from what it wrote.
fn units(game: &Dodgem, host: &dyn Host) -> anyhow::Result<Arc<DodgemUnits>> {
    let files = game.unit_files(host.store());
    let count = game.unit_index().units().len();
    let missing = files.missing()?;
    let opened = game.clone();
    let wanted = Wanted {
        path: files.dir().to_path_buf(),
        what: format!("the {} {} ({}) table", INFO.name, game.table_key().size, game.table_key().variant),
        work: Work::Build,
        key: game.table_key(),
        positions: 2 * game.table_key().positions,
        command: units_command(game),
        detail: Default::default(),
        // What stays loaded is each unit's header and block list: the
        // values are read a block at a time.
        open: Box::new(move |store| {
            let files = opened.unit_files(store);
            if files.missing()? > 0 {
                return Ok(None);
            }
            Ok(Some(loaded(0, DodgemUnits::open(&opened, store)?)))
        }),
        build: Err(format!(
            "the units of Dodgem {0}x{0} are not solved yet ({missing} of its {count} units are missing): `{1}` \
             solves them in about {2} on two cores, resuming where it stopped",
            game.size(),
            units_command(game),
            duration(game.units_stages().units)
        )),
        on_request: false,
    };
    Ok(host.typed::<DodgemUnits>(wanted)?.0)
}

/// The manifest of the unit directory (boards past 5×5, or `--units`) or
/// else of the table.
fn manifest(params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn Answer>> {
    let game = Dodgem::from_params(params)?;
    let (path, command) = if reads_units(&game, params)? {
        (game.unit_files(host.store()).dir().to_path_buf(), units_command(&game))
    } else {
        (path_of(host.store(), &game), solve_command(&game))
    };
    let described = Described { path: &path, key: &game.table_key(), board: game.to_params(), command };
    let headline = || Ok(Box::new(summary(&game, params, host)?) as Box<dyn Answer>);
    manifest::answer(described, params, headline, host.progress())
}

fn summary(game: &Dodgem, params: &Params, host: &dyn Host) -> anyhow::Result<Summary> {
    Ok(match values(game, params, host)? {
        DodgemValues::Table(table) => {
            let summary = game.summary(&table)?;
            let figures = UnitFigures {
                longest_win: summary.longest_win,
                longest_loss: summary.longest_loss,
                mutual_zugzwang: summary.mutual_zugzwang,
            };
            Summary::new(game, summary.all, summary.start, &figures, summary.longest_examples)
        }
        DodgemValues::Units(units) => {
            let start = units.value(game, &game.start())?;
            Summary::new(game, units.every_position(), start, &units.figures()?, units.longest_examples(game)?)
        }
    })
}

fn solve(params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn Answer>> {
    let game = Dodgem::from_params(params)?;
    let options = unit_options(&game, params)?;
    if options.on_disk {
        return solve_units(&game, options, host);
    }
    let began = Instant::now();
    let (table, provenance) = table(&game, host)?;
    let figures = game.summary(&table)?;
    let unit_figures = UnitFigures {
        longest_win: figures.longest_win,
        longest_loss: figures.longest_loss,
        mutual_zugzwang: figures.mutual_zugzwang,
    };
    Ok(Box::new(Solved {
        summary: Summary::new(&game, figures.all, figures.start, &unit_figures, figures.longest_examples),
        reachable: game.reachable_in(&table, host.progress())?.into(),
        // A stored position and its mirror image, the other side to move.
        distances: table.distances().times(2),
        units: None,
        seconds: began.elapsed().as_secs_f64(),
        table: Some(host.store().path::<Packed>(&game.table_key()).display().to_string()),
        cached: Some(provenance == Provenance::Cached),
    }))
}

/// Stops when the progress it wraps stops, and shows nothing: a worker's
/// part of a solve spread over MPI ranks, which rank 0 reports.
#[cfg(feature = "mpi")]
struct Unseen<'a>(&'a dyn Progress);

#[cfg(feature = "mpi")]
impl Progress for Unseen<'_> {
    fn should_stop(&self) -> bool {
        self.0.should_stop()
    }
}

/// The MPI universe if this process is one rank of an `mpirun` (OpenMPI
/// sets `OMPI_COMM_WORLD_SIZE` in every rank it starts); `None` otherwise,
/// so that a plain run never starts MPI.
#[cfg(feature = "mpi")]
fn mpi_universe() -> anyhow::Result<Option<mpi::environment::Universe>> {
    if std::env::var_os("OMPI_COMM_WORLD_SIZE").is_none() {
        return Ok(None);
    }
    mpi::initialize().map(Some).ok_or_else(|| anyhow::anyhow!("MPI was started twice"))
}

/// Solves `game` into unit files, resuming from those already there;
/// spread over the ranks of an `mpirun` when built with the `mpi` feature.
fn solve_units(game: &Dodgem, options: UnitOptions, host: &dyn Host) -> anyhow::Result<Box<dyn Answer>> {
    if host.serves_requests() {
        anyhow::bail!(NotBuilt {
            message: format!("Dodgem {0}x{0} is solved by units only from the command line", game.size()),
            command: solve_command(game),
        });
    }
    let began = Instant::now();
    let store = host.store();
    let files = game.unit_files(store);
    let dir = files.dir().to_path_buf();
    let failed = || format!("cannot solve Dodgem {0}x{0} ({1}) by units", game.size(), game.objective().id());
    let progress = host.progress();
    #[cfg(feature = "mpi")]
    let universe = mpi_universe()?;
    #[cfg(feature = "mpi")]
    let world = universe.as_ref().map(|universe| universe.world());
    #[cfg(feature = "mpi")]
    let spread = world.as_ref().is_some_and(|world| mpi::traits::Communicator::size(world) > 1);
    #[cfg(not(feature = "mpi"))]
    let spread = false;
    if options.split_from.is_some() && !spread {
        anyhow::bail!("--split-from shares units among the ranks of an mpirun of two or more: this is one process");
    }
    let memory = options.memory;
    #[cfg(feature = "mpi")]
    let split_from = options.split_from.unwrap_or(u64::MAX);
    #[cfg(feature = "mpi")]
    if let Some(world) = world.as_ref().filter(|w| mpi::traits::Communicator::rank(*w) != 0) {
        // A worker: the manager, rank 0, holds the lock and reports.
        solved_engine::units::solve_over_mpi(world, game, &files, kept_of(memory), split_from, &Unseen(progress))
            .with_context(failed)?;
        return Ok(Box::new(()));
    }
    // A finished solve has nothing left to write: a copy of one that may
    // not be written to is reported, not refused.
    let finished = files.missing()? == 0 && game.reachable_if_walked(&files)?.is_some();
    let _lock = match finished {
        true => None,
        false => Some(files.lock(|| {
            progress.note(&format!("waiting for another process that is solving into {}", dir.display()));
        })?),
    };
    if !finished {
        let stages = game.units_stages();
        progress.note(&format!(
            "solving {} units into {}, resuming from those there, on two cores: about {} for the units, then {} to \
             count every position by distance and {} to count those reachable from the start",
            game.unit_index().units().len(),
            dir.display(),
            duration(stages.units),
            duration(stages.distances),
            duration(stages.reachable)
        ));
    }
    let solving = Instant::now();
    #[cfg(feature = "mpi")]
    let report = match &world {
        Some(world) => solved_engine::units::solve_over_mpi(world, game, &files, kept_of(memory), split_from, progress)
            .with_context(failed)?
            .expect("rank 0 reports"),
        None => game.solve_to_files(&files, memory, progress).with_context(failed)?,
    };
    #[cfg(not(feature = "mpi"))]
    let report = game.solve_to_files(&files, memory, progress).with_context(failed)?;
    // The counts by distance take minutes and the walk hours: the counts
    // are not kept waiting behind the walk.
    let solved_at = Instant::now();
    let distances = game.unit_distances(&files, progress)?;
    let counted_at = Instant::now();
    let reachable = game.reachable_by_units(&files, progress).with_context(|| {
        format!("cannot count the positions of Dodgem {0}x{0} reachable from the start", game.size())
    })?;
    let stage_seconds = UnitStages {
        units: (solved_at - solving).as_secs_f64(),
        distances: (counted_at - solved_at).as_secs_f64(),
        reachable: counted_at.elapsed().as_secs_f64(),
    };
    let units = DodgemUnits::open(game, store)?;
    let start = units.value(game, &game.start())?;
    Ok(Box::new(Solved {
        summary: Summary::new(game, units.every_position(), start, &units.figures()?, units.longest_examples(game)?),
        reachable: TallyJson::from(reachable),
        distances,
        units: Some(UnitsJson {
            units: game.unit_index().units().len(),
            solved_units: report.solved,
            resumed_units: report.resumed,
            in_passes_units: report.in_passes,
            peak_unit_bytes: report.peak_bytes,
            stored_bytes: units.stored_bytes(),
            dir: dir.display().to_string(),
            stage_seconds,
            by_size: report.by_size.iter().map(UnitSizeJson::from).collect(),
            peak_resident_bytes: solved_engine::machine::peak_memory_bytes(),
        }),
        seconds: began.elapsed().as_secs_f64(),
        table: None,
        cached: None,
    }))
}

/// Every position checked against its children by the plain rules: read
/// through the unit files where the values are kept there (resuming an
/// audit stopped before), else through the one table.
fn audit(params: &Params, host: &dyn Host) -> anyhow::Result<Audited> {
    use solved_engine::{AuditReport, DenseIndex, audit};
    let game = Dodgem::from_params(params)?;
    let began = Instant::now();
    let every = EveryPosition(&game);
    let (by, report): (_, AuditReport) = match values(&game, params, host)? {
        DodgemValues::Table(table) => ("table", audit(&every, &*table, |pos| game.index(pos), host.progress())?),
        DodgemValues::Units(_) => {
            let files = game.unit_files(host.store());
            let progress = host.progress();
            let _lock = files.lock(|| {
                progress.note(&format!("waiting for another process that is using {}", files.dir().display()));
            })?;
            let kept = kept_of(unit_options(&game, params)?.memory);
            if !game.audit_recorded_finished(&files)? {
                progress.note(&format!(
                    "checking {} positions, resuming where an audit stopped: about {} in all on two cores",
                    thousands(2 * game.position_count()),
                    duration(game.audit_cost().seconds)
                ));
            }
            let audited = game.audit_units(&files, kept, progress);
            ("units", audited.with_context(|| format!("cannot audit Dodgem {0}x{0}", game.size()))?)
        }
    };
    let examples = report
        .examples
        .iter()
        .map(|d| DisagreementJson {
            position: every.unindex(d.idx).to_string(),
            stored: d.stored,
            recomputed: d.implied,
        })
        .collect();
    Ok(Audited {
        game: INFO.id,
        size: game.size(),
        variant: game.objective().id(),
        by,
        checked: report.checked,
        disagreements: report.disagreements,
        examples,
        distances: report.distances,
        seconds: began.elapsed().as_secs_f64(),
    })
}

fn probe(params: &Params, host: &dyn Host) -> anyhow::Result<Probe> {
    let (game, pos) = probe_request(params)?;
    let values = values(&game, params, host)?;
    let (value, ranked) = (values.value(&game, &pos)?, values.ranked_moves(&game, &pos)?);
    let judge = Judge { game, values };
    let next = computer_move(&judge, &pos, params, host)?;
    let choice = next.and_then(|next| ranked.iter().find(|r| r.2 == next)).map(|r| r.0.to_string());
    Ok(Probe::new(&judge.game, &pos, value, &ranked, choice))
}

fn verify(host: &dyn Host) -> anyhow::Result<Claims<answers::RecordMoveJson>> {
    let progress = host.progress();
    // 6×6 takes hours: it is checked if a solve has made its units.
    let game = Dodgem::new(6, Objective::Normal)?;
    let files = game.unit_files(host.store());
    let six = match units(&game, host) {
        Ok(units) => Ok((units, game.reachable_if_walked(&files)?, game.audited(&files, progress)?)),
        Err(error) => match error.downcast::<NotBuilt>() {
            Ok(missing) => Err(missing.message),
            Err(error) => return Err(error),
        },
    };
    let six = match six {
        Ok((ref units, reachable, audited)) => Ok(SolvedUnits { units, reachable, audited }),
        Err(missing) => Err(missing),
    };
    let (mut claims, record) = super::verify(|game| table(game, host).map(|(table, _)| table), six, progress)?;
    // Whatever unit files a solve has written, of any size, read back whole.
    for size in 2..=6 {
        for objective in [Objective::Normal, Objective::Misere] {
            let game = Dodgem::new(size, objective)?;
            let files = game.unit_files(host.store());
            if files.dir().is_dir() {
                claims.push(super::claims::unit_blocks(&game, &files, &units_command(&game), progress)?);
            }
        }
    }
    claims.extend(manifest::claims(host.store().dir(), INFO.id, progress)?);
    let preamble = answers::record_text(&record);
    Ok(Claims::with_record(INFO.id, &claims, answers::record_json(&record), preamble))
}
