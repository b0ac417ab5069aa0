//! What a solved table says: the summary, the facts kept in its header,
//! mutual zugzwangs, and every move's value.

use std::ops::Range;

use rayon::prelude::*;
use solved_engine::Units;
use solved_engine::table::Packed;
use solved_engine::{DenseIndex, Interrupted, Plies, Progress, Table, Tally, Value, Values, reachable};

use super::{Dodgem, EveryPosition, Move, Player, Position};

/// What a solved table says about the whole game.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Summary {
    /// Over every position, either side to move.
    pub all: Tally,
    /// Over the positions reachable from the start, where the table kept
    /// them (see [`Dodgem::reachable_in`]).
    pub reachable: Option<Tally>,
    /// The value of the starting position.
    pub start: Value,
    /// The longest win, if any.
    pub longest_win: Option<Plies>,
    /// The longest loss, if any.
    pub longest_loss: Option<Plies>,
    /// A position won in the longest win and one lost in the longest loss,
    /// Blue to move.
    pub longest_examples: [Option<Position>; 2],
    /// Car placements (with at least one car) that lose for whichever side
    /// is to move.
    pub mutual_zugzwang: u64,
}

/// A table whose header lacks a figure this build stores when it solves.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("the table has no {0:?} figure; delete it to solve again")]
pub struct MissingFact(pub &'static str);

const REACHABLE: [&str; 4] = ["reachable", "reachable_wins", "reachable_losses", "reachable_draws"];
pub(super) const ZUGZWANGS: &str = "zugzwangs";

impl Dodgem {
    /// The value of `pos` in solved `values` of this game.
    pub fn probe(&self, values: &(impl Values + ?Sized), pos: &Position) -> Value {
        values.probe(self.index(pos))
    }

    /// The figures a table stores about itself, computed once from freshly
    /// solved `values`: the positions reachable from the start by result,
    /// and the number of mutual zugzwangs.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] if `progress` asks to stop.
    pub fn facts(
        &self,
        values: &impl Values,
        progress: &dyn Progress,
    ) -> Result<Vec<(&'static str, u64)>, Interrupted> {
        let reachable = self.reachable_tally(values, progress)?;
        let counts = [reachable.positions(), reachable.wins, reachable.losses, reachable.draws];
        let mut facts: Vec<_> = REACHABLE.into_iter().zip(counts).collect();
        facts.extend(self.play_facts(values));
        Ok(facts)
    }

    /// The figures a table built for a page keeps: the mutual zugzwangs,
    /// a second's count on 5×5, and not the positions reachable from the
    /// start, which take ten times as long as the solve and which play
    /// does not need ([`reachable_in`](Self::reachable_in) walks them).
    pub fn play_facts(&self, values: &impl Values) -> Vec<(&'static str, u64)> {
        vec![(ZUGZWANGS, self.mutual_zugzwangs(values).len() as u64)]
    }

    /// The positions reachable from the start in `table`, by result: as
    /// its header keeps them, else walked (a table built for a page).
    ///
    /// # Errors
    ///
    /// [`Interrupted`] if `progress` stops the walk.
    pub fn reachable_in(&self, table: &Table<Packed>, progress: &dyn Progress) -> Result<Tally, Interrupted> {
        match self.summary(table).ok().and_then(|s| s.reachable) {
            Some(kept) => Ok(kept),
            None => self.reachable_tally(table, progress),
        }
    }

    /// The positions reachable from the start, by result, both sides to
    /// move, walked in `values`.
    fn reachable_tally(&self, values: &(impl Values + ?Sized), progress: &dyn Progress) -> Result<Tally, Interrupted> {
        Ok(reachable(&EveryPosition(self), &self.start(), progress)?.par_fold(
            Tally::default,
            |mut tally, idx| {
                tally.add(values.probe(idx / 2));
                tally
            },
            Tally::merge,
        ))
    }

    /// Summarises a solved table of this game.
    ///
    /// Counts are over every position: each index stands for a position
    /// and its mirror image, which have the same value, so they count twice.
    ///
    /// # Errors
    ///
    /// [`MissingFact`] if the table's header lacks the zugzwang count.
    pub fn summary(&self, table: &Table<Packed>) -> Result<Summary, MissingFact> {
        let (longest, longest_examples) = self.longest(table);
        let header = table.header();
        let fact = |name: &'static str| header.fact(name).ok_or(MissingFact(name));
        let kept = [REACHABLE[1], REACHABLE[2], REACHABLE[3]].map(|name| header.fact(name));
        let reachable = match kept {
            [Some(wins), Some(losses), Some(draws)] => Some(Tally { wins, losses, draws }),
            _ => None,
        };
        Ok(Summary {
            all: header.tally.times(2),
            reachable,
            start: self.probe(table, &self.start()),
            longest_win: longest[0],
            longest_loss: longest[1],
            longest_examples,
            mutual_zugzwang: fact(ZUGZWANGS)?,
        })
    }

    /// The longest win and loss in `values`, and a position of each, Blue
    /// to move: of the smallest unit holding it (the first unit of that
    /// size), the first position. Unit files give the same (see
    /// [`DodgemUnits::longest_examples`](super::DodgemUnits::longest_examples)).
    fn longest(&self, values: &(impl Values + ?Sized)) -> ([Option<Plies>; 2], [Option<Position>; 2]) {
        let units = self.unit_index();
        let in_unit = |unit: usize| units.start(unit)..units.start(unit) + units.units()[unit].len;
        let by_unit: Vec<[Option<Plies>; 2]> = (0..units.units().len())
            .into_par_iter()
            .map(|unit| {
                in_unit(unit).fold([None, None], |[win, loss], idx| match values.probe(idx) {
                    Value::Win(d) => [win.max(Some(d)), loss],
                    Value::Loss(d) => [win, loss.max(Some(d))],
                    Value::Draw => [win, loss],
                })
            })
            .collect();
        let longest = [0, 1].map(|kind| by_unit.iter().filter_map(|l| l[kind]).max());
        let values_of: [fn(Plies) -> Value; 2] = [Value::Win, Value::Loss];
        let examples = [0, 1].map(|kind| {
            let plies = longest[kind]?;
            let holding = (0..by_unit.len()).filter(|&u| by_unit[u][kind] == Some(plies));
            let unit = holding.min_by_key(|&u| units.units()[u].len)?;
            let idx = in_unit(unit).find(|&idx| values.probe(idx) == values_of[kind](plies))?;
            Some(Units::unindex_in_unit(self, unit, idx - units.start(unit)))
        });
        (longest, examples)
    }

    /// Placements with at least one car that lose for whichever side is to
    /// move, with Blue to move. (The empty board, which the terminal rule
    /// makes lost for both, is not a position of play and is left out.)
    pub fn mutual_zugzwangs(&self, values: &(impl Values + ?Sized)) -> Vec<Position> {
        let units = self.unit_index();
        let chunks: Vec<(usize, Range<u64>)> = units
            .units()
            .iter()
            .enumerate()
            .flat_map(|(u, unit)| (0..unit.len).step_by(1 << 16).map(move |s| (u, s..(s + (1 << 16)).min(unit.len))))
            .collect();
        chunks
            .into_par_iter()
            .flat_map_iter(|(unit, range)| {
                let mut found = Vec::new();
                let start = units.start(unit);
                self.for_each_in_unit(unit, range, |idx, pos| {
                    let idx = start + idx;
                    // Most positions are not lost with Blue to move: only then
                    // look up the Red-to-move one, a cache miss away.
                    if matches!(values.probe(idx), Value::Loss(_))
                        && !pos.is_empty()
                        && matches!(self.probe(values, &pos.with_turn(Player::Red)), Value::Loss(_))
                    {
                        found.push(pos);
                    }
                });
                found
            })
            .collect()
    }

    /// Every legal move at `pos` with its value for the mover and the
    /// position it leads to, best first (fastest wins, then draws, then
    /// slowest losses); ties keep move order.
    pub fn ranked_moves(&self, pos: &Position, table: &(impl Values + ?Sized)) -> Vec<(Move, Value, Position)> {
        let mut moves: Vec<_> = self
            .legal_moves(pos)
            .into_iter()
            .map(|m| {
                let child = self.play_unchecked(pos, m);
                (m, Value::of_move_into(self.probe(table, &child)), child)
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        moves
    }
}

#[cfg(test)]
mod tests {
    use solved_engine::{Silent, TableStore};

    use super::super::Objective;
    use super::*;

    /// A table built for a page keeps no reachable counts (they take ten times
    /// the solve on 5×5) and plays at once; they are walked when asked for,
    /// and agree with the full table's.
    #[test]
    fn a_table_built_for_play_summarises_as_the_full_one() {
        for size in [3, 4] {
            let game = Dodgem::new(size, Objective::Normal).unwrap();
            let (full_dir, play_dir) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
            let full = crate::tables::obtain(&game, &TableStore::new(full_dir.path()), &Silent).unwrap().0;
            let store = TableStore::new(play_dir.path());
            let played = crate::tables::obtain_for_play(&game, &store, &Silent).unwrap().0;
            assert!(full.header().fact("reachable").is_some());
            assert_eq!(played.header().fact("reachable"), None, "{size}x{size}");
            let (a, b) = (game.summary(&full).unwrap(), game.summary(&played).unwrap());
            assert_eq!(b.reachable, None);
            assert_eq!(a.reachable, Some(game.reachable_in(&played, &Silent).unwrap()), "{size}x{size}");
            assert_eq!(a.reachable, Some(game.reachable_in(&full, &Silent).unwrap()));
            assert_eq!((a.mutual_zugzwang, a.all), (b.mutual_zugzwang, b.all), "{size}x{size}");
            assert_eq!(game.probe(&full, &game.start()), game.probe(&played, &game.start()));
        }
    }
}
