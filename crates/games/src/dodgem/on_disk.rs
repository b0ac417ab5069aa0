//! Dodgem kept as unit files: the boards too large for one table (6×6),
//! solved a unit at a time into a directory and probed a block at a time.

use std::ops::Range;
use std::sync::Arc;

use solved_engine::table::{FormatError, Header, Packed, TableKey};
use std::time::Duration;

use solved_engine::units::{
    ForwardUnits, LONGEST_LOSS, LONGEST_WIN, OpenUnits, ReachError, UnitAuditError, UnitFiles, UnitReport,
    UnitSolveError, UnitSolver, UnitStore, audit_by_units, audit_recorded_finished, finished_audit, finished_walk,
    reach_by_units,
};
use solved_engine::{
    AuditReport, Disagreement, DistanceCounter, Distances, Interrupted, Plies, Progress, Table, TableError, TableStore,
    Tally, Units, Value, Values,
};

use super::summary::ZUGZWANGS;
use super::{Dodgem, EveryPosition, MissingFact, Move, Position};
use crate::tables::Solvable;

/// What the unit files of a board say about it as a whole (see
/// [`Summary`](super::Summary) for one table).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub struct UnitFigures {
    /// The longest win, if any.
    pub longest_win: Option<Plies>,
    /// The longest loss, if any.
    pub longest_loss: Option<Plies>,
    /// Car placements (with at least one car) that lose for whichever side
    /// is to move.
    pub mutual_zugzwang: u64,
}

/// The unit files of one board, open for probing.
#[derive(Debug)]
pub struct DodgemUnits {
    units: OpenUnits,
}

impl Dodgem {
    /// This board's unit files in `store`: the directory
    /// `dodgem-VARIANT-NxN.units` there.
    pub fn unit_files(&self, store: &TableStore) -> UnitFiles {
        let key = TableKey { positions: 0, ..self.table_key() };
        let dir = store.dir().join(format!("{}-{}-{}.units", key.game, key.variant, key.size));
        UnitFiles::new(dir, key, self.unit_index().units().iter().map(|u| u.len).collect())
    }

    /// Solves the units `files` does not hold yet, holding at most about
    /// `memory` bytes of tables at once, a quarter of them for finished
    /// units kept for the units that read them (see
    /// [`UnitSolver::within`]): with 0, every unit reads the units it
    /// depends on one at a time.
    ///
    /// # Errors
    ///
    /// [`UnitSolveError`] if a unit fails, the solve is interrupted, or a
    /// file cannot be read or written; the units saved stay saved.
    pub fn solve_to_files(
        &self,
        files: &UnitFiles,
        memory: u64,
        progress: &dyn Progress,
    ) -> Result<UnitReport, UnitSolveError> {
        UnitSolver::new(kept_of(memory)).within(memory).solve(self, files, progress)
    }
}

/// The part of a solve's `memory` for finished units kept for the units
/// that read them (or, in an audit, read again).
pub(super) fn kept_of(memory: u64) -> u64 {
    memory / 4
}

/// How often a walk over the units saves where it is. On 6×6 a save
/// writes the marks left on the units still to walk, gigabytes at times.
const WALK_SAVED_EVERY: Duration = Duration::from_secs(600);

impl Dodgem {
    /// The positions reachable from the start (either side to move), by
    /// their values in the solved unit `files`, walked a unit at a time
    /// (see [`reach_by_units`]): resumed from where an earlier walk
    /// stopped, or read from the one that finished.
    ///
    /// # Errors
    ///
    /// [`ReachError`] if it is interrupted (having saved where it is), or
    /// a unit or the checkpoint cannot be read or written.
    pub fn reachable_by_units(&self, files: &UnitFiles, progress: &dyn Progress) -> Result<Tally, ReachError> {
        let units = self.unit_index().units();
        let counted = reach_by_units(
            &EveryPosition(self),
            &self.start(),
            3,
            Some(&files.walk_checkpoint(WALK_SAVED_EVERY)),
            progress,
            |unit, reached| {
                let values = files.load(unit, units[unit].len)?;
                // Both sides to move have the stored position's value.
                let tally = reached.par_fold(
                    Tally::default,
                    |mut tally, idx| {
                        tally.add(values.value(idx / 2));
                        tally
                    },
                    Tally::merge,
                );
                Ok(vec![tally.wins, tally.losses, tally.draws])
            },
        )?;
        Ok(Tally { wins: counted[0], losses: counted[1], draws: counted[2] })
    }

    /// What [`reachable_by_units`](Self::reachable_by_units) found, if a
    /// walk over `files` has finished; it walks nothing.
    ///
    /// # Errors
    ///
    /// [`TableError`] if the walk's checkpoint cannot be read.
    pub fn reachable_if_walked(&self, files: &UnitFiles) -> Result<Option<Tally>, TableError> {
        let checkpoint = files.walk_checkpoint(WALK_SAVED_EVERY).file;
        let counted = finished_walk(self.unit_index().units(), 3, &checkpoint)?;
        Ok(counted.map(|c| Tally { wins: c[0], losses: c[1], draws: c[2] }))
    }
}

/// How often an audit of the units records how far it got: a unit of 6×6
/// takes up to minutes, and a record is a few hundred bytes.
const AUDIT_SAVED_EVERY: Duration = Duration::from_secs(30);

impl Dodgem {
    /// Checks every position of the unit `files`, either side to move,
    /// against its children made by the plain rules (see
    /// [`audit_by_units`]), keeping up to `budget` bytes of units read
    /// again later: resumed from the record an earlier audit left, or read
    /// from the one that finished. The report counts every position by
    /// distance.
    ///
    /// # Errors
    ///
    /// [`UnitAuditError`] if it is interrupted (having recorded where it
    /// is), or a unit or the record cannot be read or written.
    pub fn audit_units(
        &self,
        files: &UnitFiles,
        budget: u64,
        progress: &dyn Progress,
    ) -> Result<AuditReport, UnitAuditError> {
        let units = self.unit_index().units();
        let record = files.audit_record(AUDIT_SAVED_EVERY);
        // Positions 2i and 2i + 1 of a unit both have its stored value i.
        audit_by_units(
            &EveryPosition(self),
            |u| files.load(u, units[u].len),
            |n| n / 2,
            Some(&record),
            budget,
            progress,
        )
    }

    /// What [`audit_units`](Self::audit_units) found, if an audit of
    /// `files` has finished; it audits nothing, but reads every unit to
    /// check the values are those the audit covered.
    ///
    /// # Errors
    ///
    /// [`TableError`] if the audit's record or a unit cannot be read, or
    /// the record covers other values.
    pub fn audited(&self, files: &UnitFiles, progress: &dyn Progress) -> Result<Option<AuditReport>, TableError> {
        let units = self.unit_index().units();
        let record = files.audit_record(AUDIT_SAVED_EVERY);
        finished_audit(&EveryPosition(self).units(), &record.file, |u| files.load(u, units[u].len), progress)
    }

    /// Whether the record of an audit of `files` says it has finished (see
    /// [`audited`](Self::audited), which also checks the values).
    ///
    /// # Errors
    ///
    /// [`TableError`] if the audit's record cannot be read.
    pub fn audit_recorded_finished(&self, files: &UnitFiles) -> Result<bool, TableError> {
        audit_recorded_finished(&EveryPosition(self).units(), &files.audit_record(AUDIT_SAVED_EVERY).file)
    }

    /// Every position of the unit `files`, either side to move, counted by
    /// distance: from a finished audit, else read unit by unit.
    ///
    /// # Errors
    ///
    /// [`TableError`] if a unit or the audit's record cannot be read, or
    /// [`Interrupted`].
    pub fn unit_distances(&self, files: &UnitFiles, progress: &dyn Progress) -> Result<Distances, Sampled> {
        if let Some(audit) = self.audited(files, progress)? {
            return Ok(audit.distances);
        }
        let units = self.unit_index().units();
        progress.start("counting by distance", units.iter().map(|u| u.len).sum());
        let mut counter = DistanceCounter::default();
        for (unit, len) in units.iter().map(|u| u.len).enumerate() {
            if progress.should_stop() {
                return Err(Interrupted.into());
            }
            counter.add_all(&files.load(unit, len)?.distances());
            progress.advance(len);
        }
        // A stored position and its mirror image, the other side to move.
        Ok(counter.finish().times(2))
    }
}

/// Why a check of unit files (a sample audit, say) stopped.
#[derive(Debug, thiserror::Error)]
pub enum Sampled {
    /// It was asked to stop.
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
    /// A value could not be read.
    #[error(transparent)]
    Unreadable(#[from] TableError),
    /// A unit's header lacks a figure it should hold.
    #[error(transparent)]
    Incomplete(#[from] MissingFact),
}

impl Dodgem {
    /// Checks the minimax equation (as [`audit`](solved_engine::audit)
    /// does for a whole table) at `samples` stored positions spread evenly
    /// over `range` of the positions numbered with the units one after
    /// another (every one, if `samples` is its length), each value read by
    /// `value_of`: a check for a board whose full audit takes hours. A
    /// disagreement's `idx` is the position's number in that numbering.
    ///
    /// # Errors
    ///
    /// What `value_of` fails with, or [`Interrupted`].
    pub fn audit_sample(
        &self,
        range: Range<u64>,
        samples: u64,
        progress: &dyn Progress,
        value_of: impl Fn(&Position) -> Result<Value, TableError> + Sync,
    ) -> Result<AuditReport, Sampled> {
        use rayon::prelude::*;
        let units = self.unit_index();
        let total = range.end - range.start;
        let samples = samples.min(total);
        progress.start("sample audit", samples);
        let check = |sample: u64| -> Result<Option<Disagreement>, Sampled> {
            if progress.should_stop() {
                return Err(Interrupted.into());
            }
            // Evenly spaced over the units one after another.
            let idx = range.start + (u128::from(sample) * u128::from(total) / u128::from(samples)) as u64;
            let unit = units.unit_at(idx);
            let pos = Units::unindex_in_unit(self, unit, idx - units.start(unit));
            let stored = value_of(&pos)?;
            let implied = match self.terminal_value(&pos) {
                Some(value) => value,
                None => {
                    let mut best = None;
                    for m in self.legal_moves(&pos) {
                        let child = Value::of_move_into(value_of(&self.play_unchecked(&pos, m))?);
                        best = best.max(Some(child));
                    }
                    best.expect("a position that is not terminal has a move")
                }
            };
            progress.advance(1);
            Ok((stored != implied).then_some(Disagreement { idx, stored, implied }))
        };
        let found = (0..samples).into_par_iter().map(check).collect::<Result<Vec<_>, _>>()?;
        let disagreements: Vec<Disagreement> = found.into_iter().flatten().collect();
        Ok(AuditReport {
            checked: samples,
            disagreements: disagreements.len() as u64,
            examples: disagreements.into_iter().take(10).collect(),
            // A sample says nothing of how the board's distances spread.
            distances: Distances::default(),
        })
    }
}

impl DodgemUnits {
    /// Opens every unit file of `game` in `store`, checking each header and
    /// block list (see [`OpenUnits`] for the files it holds open).
    ///
    /// # Errors
    ///
    /// [`TableError`] for the first unit that is missing or invalid.
    pub fn open(game: &Dodgem, store: &TableStore) -> Result<DodgemUnits, TableError> {
        Ok(DodgemUnits { units: game.unit_files(store).open_all()? })
    }

    /// The headers of every unit.
    fn headers(&self) -> impl Iterator<Item = &Header> {
        (0..self.units.len()).map(|unit| self.units.header(unit))
    }

    /// What the units hold, Blue to move, one position per mirror pair.
    pub fn tally(&self) -> Tally {
        self.headers().map(|h| h.tally).fold(Tally::default(), Tally::merge)
    }

    /// Every position, either side to move: a position and its mirror
    /// image (the other side to move) have the same value.
    pub fn every_position(&self) -> Tally {
        let stored = self.tally();
        Tally { wins: 2 * stored.wins, losses: 2 * stored.losses, draws: 2 * stored.draws }
    }

    /// The longest win, the longest loss and the mutual zugzwangs over
    /// every unit, from the facts each unit's header keeps.
    ///
    /// # Errors
    ///
    /// [`MissingFact`] if a unit lacks the zugzwang count (a file written
    /// by another build).
    pub fn figures(&self) -> Result<UnitFigures, MissingFact> {
        let longest = |name| self.headers().filter_map(|h| h.fact(name)).max().map(|d| Plies(d as u16));
        let zugzwangs =
            self.headers().map(|h| h.fact(ZUGZWANGS).ok_or(MissingFact(ZUGZWANGS))).sum::<Result<u64, _>>()?;
        Ok(UnitFigures {
            longest_win: longest(LONGEST_WIN),
            longest_loss: longest(LONGEST_LOSS),
            mutual_zugzwang: zugzwangs,
        })
    }

    /// Re-derives the values of `samples` positions spread over every unit
    /// from their children's, by the plain rules (see
    /// [`audit_sample`](Dodgem::audit_sample)).
    ///
    /// # Errors
    ///
    /// [`TableError`] if a block cannot be read, or [`Interrupted`].
    pub fn audit_sample(&self, game: &Dodgem, samples: u64, progress: &dyn Progress) -> Result<AuditReport, Sampled> {
        game.audit_sample(0..game.unit_index().count(), samples, progress, |pos| self.value(game, pos))
    }

    /// The same for every position of `unit`.
    ///
    /// # Errors
    ///
    /// As for [`audit_sample`](Self::audit_sample).
    pub fn audit_unit(&self, game: &Dodgem, unit: usize, progress: &dyn Progress) -> Result<AuditReport, Sampled> {
        let start = game.unit_index().start(unit);
        let len = self.units.header(unit).key.positions;
        game.audit_sample(start..start + len, len, progress, |pos| self.value(game, pos))
    }

    /// The smallest unit holding the longest loss, and that loss.
    pub fn longest_loss_unit(&self) -> Option<(usize, Plies)> {
        self.smallest_unit_holding(LONGEST_LOSS).map(|(unit, loss)| (unit, Plies(loss as u16)))
    }

    /// The smallest unit (then the first) whose header names the longest
    /// distance of `fact` over all units, and that distance.
    fn smallest_unit_holding(&self, fact: &str) -> Option<(usize, u64)> {
        let longest = |unit: usize| self.units.header(unit).fact(fact);
        let units = 0..self.units.len();
        let plies = units.clone().filter_map(longest).max()?;
        let unit = units.filter(|&u| longest(u) == Some(plies)).min_by_key(|&u| self.units.header(u).key.positions)?;
        Some((unit, plies))
    }

    /// A longest win and a longest loss, as positions with Blue to move:
    /// of the smallest unit holding one (the first unit of that size), the
    /// first position, as [`Dodgem::summary`] finds in a table.
    ///
    /// # Errors
    ///
    /// [`TableError`] if a block cannot be read, or holds no such value
    /// though its header says the unit does.
    pub fn longest_examples(&self, game: &Dodgem) -> Result<[Option<Position>; 2], TableError> {
        let example = |fact: &str, value: fn(Plies) -> Value| -> Result<Option<Position>, TableError> {
            let Some((unit, plies)) = self.smallest_unit_holding(fact) else { return Ok(None) };
            let sought = value(Plies(plies as u16));
            for idx in 0..self.units.header(unit).key.positions {
                if self.units.value(unit, idx)? == sought {
                    return Ok(Some(Units::unindex_in_unit(game, unit, idx)));
                }
            }
            Err(TableError::Invalid {
                path: format!("unit {unit}").into(),
                source: FormatError::Content { reason: format!("its header names a {fact} its values do not hold") },
            })
        };
        Ok([example(LONGEST_WIN, Value::Win)?, example(LONGEST_LOSS, Value::Loss)?])
    }

    /// The bytes the unit files take on disk.
    pub fn stored_bytes(&self) -> u64 {
        (0..self.units.len()).map(|unit| self.units.stored_len(unit)).sum()
    }

    /// The value of `pos`, reading one block of one unit.
    ///
    /// # Errors
    ///
    /// [`TableError`] if the block cannot be read or is corrupt.
    pub fn value(&self, game: &Dodgem, pos: &Position) -> Result<Value, TableError> {
        let (unit, idx) = game.locate(pos);
        self.units.value(unit, idx)
    }

    /// Every legal move at `pos` with its value for the mover and the
    /// position it leads to, best first (as [`Dodgem::ranked_moves`]).
    ///
    /// # Errors
    ///
    /// As for [`value`](Self::value).
    pub fn ranked_moves(&self, game: &Dodgem, pos: &Position) -> Result<Vec<(Move, Value, Position)>, TableError> {
        let mut moves = game
            .legal_moves(pos)
            .into_iter()
            .map(|m| {
                let child = game.play_unchecked(pos, m);
                Ok((m, Value::of_move_into(self.value(game, &child)?), child))
            })
            .collect::<Result<Vec<_>, TableError>>()?;
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        Ok(moves)
    }
}

/// Where a board's solved values are read from: its one table (boards up
/// to [`MAX_FLAT_SIZE`](super::MAX_FLAT_SIZE)) or its unit files.
#[derive(Clone, Debug)]
pub enum DodgemValues {
    /// One table, in memory.
    Table(Arc<Table<Packed>>),
    /// Unit files, read a block at a time.
    Units(Arc<DodgemUnits>),
}

impl DodgemValues {
    /// The value of `pos` for the side to move.
    ///
    /// # Errors
    ///
    /// [`TableError`] if a unit's block cannot be read or is corrupt.
    pub fn value(&self, game: &Dodgem, pos: &Position) -> Result<Value, TableError> {
        match self {
            DodgemValues::Table(table) => Ok(game.probe(&**table, pos)),
            DodgemValues::Units(units) => units.value(game, pos),
        }
    }

    /// Every legal move at `pos` with its value for the mover and the
    /// position it leads to, best first.
    ///
    /// # Errors
    ///
    /// As for [`value`](Self::value).
    pub fn ranked_moves(&self, game: &Dodgem, pos: &Position) -> Result<Vec<(Move, Value, Position)>, TableError> {
        match self {
            DodgemValues::Table(table) => Ok(game.ranked_moves(pos, &**table)),
            DodgemValues::Units(units) => units.ranked_moves(game, pos),
        }
    }
}
