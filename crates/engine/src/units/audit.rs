//! A solve by units checked in full: every position's stored value against
//! its children's, the children made by the plain rules and looked up in
//! the stored units, a unit at a time, resumable.
//!
//! This is [`audit`](crate::audit) for a game too large for one table: the
//! same equation at every position (see there why passing it everywhere
//! proves the values), read through what the solve stored rather than
//! through the solver's own parent generation. A unit is checked once the
//! values of the units its moves reach are in memory; those read again
//! later stay while a budget allows, the one needed latest leaving first.
//! The record after each unit (the next unit, the counts so far) lets a
//! killed audit resume; a finished audit leaves its result there. It also
//! holds a checksum of the values of every unit audited, checked again
//! before resuming: a record carried to a copy of the units solved again
//! vouches for it only where the values are the same bytes.

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

use rayon::prelude::*;

use super::{ForwardUnits, SiblingMemo, Unit};
use crate::audit::{AuditReport, Disagreement, EXAMPLES};
use crate::distances::DistanceCounter;
use crate::packed::WideValue;
use crate::progress::{Interrupted, Progress};
use crate::solution::Solution;
use crate::table::{Checkpoint, TableError};
use crate::value::{Plies, Value};

/// Where an audit by units records how far it got, and how often.
#[derive(Clone, Debug)]
pub struct AuditRecord {
    /// The file: a finished audit leaves its result there.
    pub file: Checkpoint,
    /// The least time between two saves.
    pub every: Duration,
}

/// Why an audit by units stopped.
#[derive(Debug, thiserror::Error)]
pub enum UnitAuditError {
    /// It was asked to stop; the record, if any, was saved first.
    #[error(transparent)]
    Interrupted(#[from] Interrupted),
    /// A unit or the record could not be read or written.
    #[error(transparent)]
    Store(#[from] TableError),
    /// A move leads into a unit its unit does not list as reached: the
    /// game's units are not what its solve assumed.
    #[error("a move of unit {unit} leads into unit {reached}, which it does not list")]
    Unlisted {
        /// The unit audited.
        unit: usize,
        /// The unit a move led into.
        reached: usize,
    },
}

/// Positions a task checks at once.
const CHUNK: u64 = 1 << 14;

/// Positions whose children are all located, and the lines holding their
/// values asked for, before any of them is checked: the values of large
/// units are read from memory many at once rather than one after another.
const BATCH: usize = 16;

/// Checks every position of `game` (see [`ForwardUnits`]), unit after
/// unit in its order: a position numbered `n` in a unit has the value
/// `load(unit).value(entry(n))` (a number may stand for a stored entry
/// shared by symmetric positions, each checked on its own). It must be its
/// terminal value, or else the best of its moves' values by the plain
/// rules (`Rules::for_each_child`, never the game's faster numbered
/// children). Stored values read again by later units are kept up to
/// `budget` bytes. The report counts every value audited in its
/// distances.
///
/// With a `record`, an audit resumes from the one saved there, once the
/// units it covers are read again and found to be those it audited, and
/// leaves its result in it: calling again then checks nothing else.
///
/// # Errors
///
/// [`UnitAuditError`] if it is interrupted (the record saved), a unit or
/// the record cannot be read or written, the record covers other values
/// than the units', or a move leads outside the units its unit lists.
pub fn audit_by_units<G: ForwardUnits>(
    game: &G,
    load: impl Fn(usize) -> Result<Solution, TableError> + Sync,
    entry: impl Fn(u64) -> u64 + Sync,
    record: Option<&AuditRecord>,
    budget: u64,
    progress: &dyn Progress,
) -> Result<AuditReport, UnitAuditError> {
    let units = game.units();
    let starts: Vec<u64> = units.iter().scan(0, |at, u| Some(std::mem::replace(at, *at + u.len))).collect();
    let mut sofar = record.map(|r| recorded(units.len(), &r.file)).transpose()?.flatten().unwrap_or_default();
    if let Some(record) = record {
        sofar.check_covers(&record.file, &load, progress)?;
    }
    progress.start("audit", units.iter().map(|u| u.len).sum());
    progress.advance(units[..sofar.next].iter().map(|u| u.len).sum());
    let mut kept = Kept::new(&units, budget);
    let mut saved_at = Instant::now();
    while sofar.next < units.len() {
        let number = sofar.next;
        let checked = kept.values_for(number, &units, &load).map_err(UnitAuditError::from).and_then(|values| {
            let part = audit_unit(game, number, &units[number], starts[number], &values, &entry, progress)?;
            let own = &values.iter().find(|(u, _)| *u == number).expect("a unit's own values are loaded").1;
            Ok((part, own.checksum()))
        });
        let (part, checksum) = match checked {
            Ok(checked) => checked,
            Err(stopped) => {
                if let Some(record) = record {
                    sofar.save(&record.file)?;
                }
                return Err(stopped);
            }
        };
        sofar.add(part);
        sofar.digest = chained(sofar.digest, checksum);
        sofar.next += 1;
        kept.done_with(number);
        let finished = sofar.next == units.len();
        if let Some(record) = record.filter(|r| saved_at.elapsed() >= r.every || finished) {
            sofar.save(&record.file)?;
            saved_at = Instant::now();
        }
    }
    Ok(sofar.report)
}

/// Whether `record` says its audit has finished, as far as the record
/// alone tells: [`finished_audit`] also checks the values are those audited.
///
/// # Errors
///
/// [`TableError`] if the record cannot be read or does not fit `units`.
pub fn audit_recorded_finished(units: &[Unit], record: &Checkpoint) -> Result<bool, TableError> {
    Ok(recorded(units.len(), record)?.is_some_and(|sofar| sofar.next == units.len()))
}

/// The result a finished audit by units left in `record`, or `None` if
/// none has finished there. It audits nothing, but reads every unit by
/// `load` to check the values are those audited.
///
/// # Errors
///
/// [`TableError`] if the record cannot be read, does not fit `units`, or
/// covers other values than `load` gives.
pub fn finished_audit(
    units: &[Unit],
    record: &Checkpoint,
    load: impl Fn(usize) -> Result<Solution, TableError> + Sync,
    progress: &dyn Progress,
) -> Result<Option<AuditReport>, TableError> {
    let Some(sofar) = recorded(units.len(), record)?.filter(|sofar| sofar.next == units.len()) else {
        return Ok(None);
    };
    sofar.check_covers(record, &load, progress)?;
    Ok(Some(sofar.report))
}

/// How far the audit recorded in `record` got, if one is, over a game of
/// `units` units.
fn recorded(units: usize, record: &Checkpoint) -> Result<Option<Sofar>, TableError> {
    let Some(saved) = record.load_any()? else { return Ok(None) };
    Sofar::restore(&saved.words, units).map(Some).ok_or_else(|| record.refuse("its state does not fit these units"))
}

/// Checks every position of `unit` (number `number`, its positions
/// numbered from `base` in the whole game), the values of it and of the
/// units it reaches in `values`.
fn audit_unit<G: ForwardUnits>(
    game: &G,
    number: usize,
    unit: &Unit,
    base: u64,
    values: &[(usize, Arc<Solution>)],
    entry: &(impl Fn(u64) -> u64 + Sync),
    progress: &dyn Progress,
) -> Result<AuditReport, UnitAuditError> {
    let own = &values.iter().find(|(u, _)| *u == number).expect("a unit's own values are loaded").1;
    let mut reads: Vec<Option<&Solution>> = vec![None; values.iter().map(|(u, _)| u + 1).max().unwrap_or(0)];
    for (u, solution) in values {
        reads[*u] = Some(solution);
    }
    (0..unit.len.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            if progress.should_stop() {
                return Err(Interrupted.into());
            }
            let range = c * CHUNK..((c + 1) * CHUNK).min(unit.len);
            let mut report = AuditReport::default();
            let mut distances = DistanceCounter::default();
            let mut unlisted = None;
            // Each position waiting to be checked: its number, its value
            // if the game is over there, and where its children's places
            // end in `located`.
            let mut waiting: Vec<(u64, Option<Value>, usize)> = Vec::with_capacity(BATCH);
            let mut located = Vec::new();
            let (mut children, mut memo) = (Vec::new(), SiblingMemo::default());
            let mut check = |waiting: &[(u64, Option<Value>, usize)], located: &[(usize, u64)]| {
                let mut from = 0;
                for &(n, terminal, end) in waiting {
                    let moves = &located[from..end];
                    from = end;
                    let code = own.code(entry(n));
                    let stored = WideValue::from_code(code).unpack();
                    let implied = match terminal {
                        Some(value) => value,
                        None => {
                            let best = moves
                                .iter()
                                .filter_map(|&(reached, at)| {
                                    let solution = reads.get(reached).copied().flatten()?;
                                    Some(move_goodness(solution.code(entry(at))))
                                })
                                .max();
                            match best {
                                Some(best) if Some(best_child_code(best)) == child_code_for(code) => stored,
                                Some(best) => Value::of_move_into(WideValue::from_code(best_child_code(best)).unpack()),
                                // Only moves into units not listed: the error below says so.
                                None if !moves.is_empty() => continue,
                                None => panic!("a position that is not terminal has a move"),
                            }
                        }
                    };
                    report.checked += 1;
                    distances.add(stored, 1);
                    if implied != stored {
                        report.disagreements += 1;
                        if report.examples.len() < EXAMPLES {
                            report.examples.push(Disagreement { idx: base + n, stored, implied });
                        }
                    }
                }
            };
            game.for_each_in_unit(number, range.clone(), |n, pos| {
                let terminal = game.terminal_value(&pos);
                if terminal.is_none() {
                    let first = located.len();
                    children.clear();
                    game.for_each_child(&pos, |child| children.push(child));
                    game.locate_siblings(&pos, &children, &mut memo, &mut located);
                    for &(reached, at) in &located[first..] {
                        match reads.get(reached).copied().flatten() {
                            Some(solution) => solution.prefetch(entry(at)),
                            None => unlisted = Some(reached),
                        }
                    }
                }
                waiting.push((n, terminal, located.len()));
                if waiting.len() == BATCH {
                    check(&waiting, &located);
                    waiting.clear();
                    located.clear();
                }
            });
            check(&waiting, &located);
            if let Some(reached) = unlisted {
                return Err(UnitAuditError::Unlisted { unit: number, reached });
            }
            report.distances = distances.finish();
            progress.advance(range.end - range.start);
            Ok(report)
        })
        .try_reduce(AuditReport::default, |a, b| Ok(a.merge(b)))
}

// The best move is found among the children's codes (see [`WideValue`]),
// not their values: a unit of gigabytes is checked a few billion times.

/// How good a move into a position of stored `code` is for the side that
/// makes it: the larger the better, as [`Value::of_move_into`] orders them.
#[inline]
fn move_goodness(code: u16) -> u32 {
    match code {
        0 => DRAWN_MOVE,
        // The child wins: the longer, the better for the mover.
        odd if odd % 2 == 1 => u32::from(odd),
        // The child loses: the sooner, the better.
        even => WON_MOVES - u32::from(even),
    }
}

/// The goodness of a move into a drawn position, between all losing moves
/// and all winning ones.
const DRAWN_MOVE: u32 = 1 << 16;

/// Less a losing child's code, the goodness of moving into it.
const WON_MOVES: u32 = 3 << 16;

/// The code of the child a move of this [`move_goodness`] goes into.
#[inline]
fn best_child_code(goodness: u32) -> u16 {
    match goodness {
        DRAWN_MOVE => 0,
        losing if losing < DRAWN_MOVE => losing as u16,
        winning => (WON_MOVES - winning) as u16,
    }
}

/// The code a position's best child has if the position has stored
/// `code`, unless that is won or lost at once, which no move gives.
#[inline]
fn child_code_for(code: u16) -> Option<u16> {
    match code {
        0 => Some(0),
        // Won in d: the best child is lost in d − 1.
        odd if odd % 2 == 1 => odd.checked_sub(1).filter(|&c| c > 0),
        // Lost in d: the best child is won in d − 1.
        even => even.checked_sub(3),
    }
}

/// The stored values of units read by more than one unit, kept while the
/// budget allows.
struct Kept {
    values: Vec<Option<Arc<Solution>>>,
    /// For each unit, the units that read it (itself included), ascending.
    readers: Vec<Vec<usize>>,
    budget: u64,
}

impl Kept {
    fn new(units: &[Unit], budget: u64) -> Kept {
        let mut readers: Vec<Vec<usize>> = (0..units.len()).map(|u| vec![u]).collect();
        for (u, unit) in units.iter().enumerate() {
            for &d in unit.depends_on.iter().filter(|&&d| d != u) {
                readers[d].push(u);
            }
        }
        readers.iter_mut().for_each(|r| r.sort_unstable());
        Kept { values: vec![None; units.len()], readers, budget }
    }

    /// The values `number` reads: its own and those of the units it lists.
    fn values_for(
        &mut self,
        number: usize,
        units: &[Unit],
        load: &(impl Fn(usize) -> Result<Solution, TableError> + Sync),
    ) -> Result<Vec<(usize, Arc<Solution>)>, TableError> {
        let mut wanted = vec![number];
        wanted.extend(units[number].depends_on.iter().filter(|&&d| d != number));
        let missing: Vec<usize> = wanted.iter().copied().filter(|&u| self.values[u].is_none()).collect();
        // Small units are many: several read at once keep both cores busy.
        let loaded = missing.par_iter().map(|&u| load(u).map(|s| (u, Arc::new(s)))).collect::<Result<Vec<_>, _>>()?;
        for (u, solution) in loaded {
            self.values[u] = Some(solution);
        }
        let values = wanted.iter().map(|&u| (u, self.values[u].clone().expect("loaded above"))).collect();
        self.shrink(number, &wanted);
        Ok(values)
    }

    /// Drops kept values past the budget, the one read again latest first,
    /// but none of `wanted` (which `number` reads now).
    fn shrink(&mut self, number: usize, wanted: &[usize]) {
        let mut bytes: u64 = self.values.iter().flatten().map(|s| s.size_in_bytes()).sum();
        while bytes > self.budget {
            let next_use = |u: usize| self.readers[u].iter().copied().find(|&r| r > number);
            let latest = (0..self.values.len())
                .filter(|&u| self.values[u].is_some() && !wanted.contains(&u))
                .max_by_key(|&u| next_use(u).unwrap_or(usize::MAX));
            let Some(u) = latest else { break };
            bytes -= self.values[u].take().expect("kept").size_in_bytes();
        }
    }

    /// Drops what no unit after `number` reads.
    fn done_with(&mut self, number: usize) {
        for u in 0..self.values.len() {
            if self.values[u].is_some() && self.readers[u].last().is_none_or(|&r| r <= number) {
                self.values[u] = None;
            }
        }
    }
}

/// How far an audit got: the next unit to check and the counts so far.
#[derive(Default)]
struct Sofar {
    next: usize,
    /// The checksums of the values of the units before `next`, [`chained`].
    digest: u64,
    report: AuditReport,
}

/// The record's layout version, its first word.
const RECORD_VERSION: u64 = 2;

/// `digest` followed by one more unit's values, of this checksum.
fn chained(digest: u64, checksum: u64) -> u64 {
    let mut chain = crate::table::CRC.digest();
    chain.update(&digest.to_le_bytes());
    chain.update(&checksum.to_le_bytes());
    chain.finalize()
}

impl Sofar {
    fn add(&mut self, part: AuditReport) {
        self.report = std::mem::take(&mut self.report).merge(part);
    }

    /// The record as words: version, next unit, digest, checked, disagreements,
    /// the examples (count, then index, stored and implied each), then
    /// the distances (count, then value and count each).
    fn to_words(&self) -> Vec<u64> {
        let report = &self.report;
        let mut words = vec![RECORD_VERSION, self.next as u64, self.digest, report.checked, report.disagreements];
        words.push(report.examples.len() as u64);
        for d in &report.examples {
            words.extend([d.idx, value_word(d.stored), value_word(d.implied)]);
        }
        let distances = &report.distances;
        words.push((distances.wins.len() + distances.losses.len() + 1) as u64);
        for (&d, &n) in &distances.wins {
            words.extend([value_word(Value::Win(Plies(d))), n]);
        }
        for (&d, &n) in &distances.losses {
            words.extend([value_word(Value::Loss(Plies(d))), n]);
        }
        words.extend([value_word(Value::Draw), distances.draws]);
        words
    }

    fn restore(words: &[AtomicU64], units: usize) -> Option<Sofar> {
        let mut words = words.iter().map(|w| w.load(std::sync::atomic::Ordering::Relaxed));
        let mut take = || words.next();
        if take()? != RECORD_VERSION {
            return None;
        }
        let next = usize::try_from(take()?).ok().filter(|&n| n <= units)?;
        let digest = take()?;
        let mut report = AuditReport { checked: take()?, disagreements: take()?, ..AuditReport::default() };
        for _ in 0..take()?.min(EXAMPLES as u64) {
            let (idx, stored, implied) = (take()?, word_value(take()?)?, word_value(take()?)?);
            report.examples.push(Disagreement { idx, stored, implied });
        }
        let mut distances = DistanceCounter::default();
        for _ in 0..take()? {
            let (value, count) = (word_value(take()?)?, take()?);
            distances.add(value, count);
        }
        report.distances = distances.finish();
        (take().is_none() && report.distances.positions() == report.checked).then_some(Sofar { next, digest, report })
    }

    /// Refuses `record`, which this was restored from, unless `load` gives
    /// the values it audited for every unit before `next`.
    fn check_covers(
        &self,
        record: &Checkpoint,
        load: &(impl Fn(usize) -> Result<Solution, TableError> + Sync),
        progress: &dyn Progress,
    ) -> Result<(), TableError> {
        if self.next == 0 {
            return Ok(());
        }
        progress
            .note(&format!("reading the {} units audited, to check they are the values the record covers", self.next));
        let checksums =
            (0..self.next).into_par_iter().map(|u| load(u).map(|s| s.checksum())).collect::<Result<Vec<_>, _>>()?;
        if checksums.into_iter().fold(0, chained) != self.digest {
            return Err(record.refuse(
                "it covers other values than these units hold: solve them again, or delete the record to audit them anew",
            ));
        }
        Ok(())
    }

    fn save(&self, file: &Checkpoint) -> Result<(), TableError> {
        let words: Vec<AtomicU64> = self.to_words().into_iter().map(AtomicU64::new).collect();
        file.save(&[], &words)
    }
}

/// A value as a record word: 0 a draw, `1 << 16 | d` a win in `d`, `2 << 16 | d` a loss.
fn value_word(value: Value) -> u64 {
    match value {
        Value::Draw => 0,
        Value::Win(Plies(d)) => 1 << 16 | u64::from(d),
        Value::Loss(Plies(d)) => 2 << 16 | u64::from(d),
    }
}

fn word_value(word: u64) -> Option<Value> {
    let d = Plies(word as u16);
    match word >> 16 {
        0 if word == 0 => Some(Value::Draw),
        1 => Some(Value::Win(d)),
        2 => Some(Value::Loss(d)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes' order, and the check made with them, are those of the
    /// values, for every code either width holds.
    #[test]
    fn the_best_move_by_codes_is_the_best_by_values() {
        let value = |code: u16| WideValue::from_code(code).unpack();
        let codes: Vec<u16> = (0..=u16::MAX).collect();
        let mut by_goodness = codes.clone();
        by_goodness.sort_by_key(|&c| move_goodness(c));
        assert!(by_goodness.windows(2).all(|w| Value::of_move_into(value(w[0])) < Value::of_move_into(value(w[1]))));
        for &child in &codes {
            assert_eq!(best_child_code(move_goodness(child)), child);
        }
        let child_of: std::collections::HashMap<Value, u16> =
            codes.iter().map(|&c| (Value::of_move_into(value(c)), c)).collect();
        for &code in &codes {
            assert_eq!(child_code_for(code), child_of.get(&value(code)).copied(), "{}", value(code));
        }
    }
}
