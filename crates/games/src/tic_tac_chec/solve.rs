//! Glue to the engine's retrograde solver, and the table it makes.

use std::ops::Range;
use std::time::Duration;

use solved_engine::retrograde::Solver;
use solved_engine::table::{Packed, TableKey};
use solved_engine::{
    DenseIndex, Expansion, Plies, Progress, Rules, Solution, TableError, TableStore, Unit, Units, Value,
};

use super::{Position, TicTacChec};
use crate::tables::{Cost, ObtainError, Solvable};

/// The version of [`TicTacChecIndex`](super::TicTacChecIndex)'s layout,
/// recorded in table headers: bump it whenever a position moves to another
/// index.
const INDEX_VERSION: u32 = 1;

/// How long the full solve runs between two saves of its state.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(180);

impl Rules for TicTacChec {
    type Position = Position;

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        pos.is_over().then_some(Value::Loss(Plies(0)))
    }

    fn for_each_child(&self, pos: &Position, mut f: impl FnMut(Position)) {
        pos.for_each_move(self.rule, |_, child| f(child));
    }
}

impl DenseIndex for TicTacChec {
    fn position_count(&self) -> u64 {
        self.index.count()
    }

    fn index(&self, pos: &Position) -> u64 {
        self.index.index(pos)
    }

    fn unindex(&self, idx: u64) -> Position {
        self.index.unindex(idx)
    }
}

/// The post-opening domain is one unit (its moves go round in cycles),
/// solved first; each opening ply is a unit of its own, solved from the
/// last ply back, whose moves all lead to the next ply or out of the
/// opening. The post-opening positions come first in the index, numbered
/// there as in their unit.
const POST_OPENING: usize = 0;

impl TicTacChec {
    /// The index range of `unit`: the post-opening positions, then the
    /// opening plies from the last to the first.
    pub(super) fn unit_range(&self, unit: usize) -> Range<u64> {
        match unit {
            POST_OPENING => self.index.post_opening(),
            unit => self.index.opening_ply(6 - unit),
        }
    }

    /// The unit of the position with index `idx`, and its number there.
    fn locate_index(&self, idx: u64) -> (usize, u64) {
        let unit = (0..7).find(|&unit| self.unit_range(unit).contains(&idx)).expect("an index below the count");
        (unit, idx - self.unit_range(unit).start)
    }
}

impl Units for TicTacChec {
    fn units(&self) -> Vec<Unit> {
        (0..7)
            .map(|unit| {
                let range = self.unit_range(unit);
                Unit { len: range.end - range.start, depends_on: (0..unit).collect() }
            })
            .collect()
    }

    fn locate(&self, pos: &Position) -> (usize, u64) {
        self.locate_index(self.index.index(pos))
    }

    fn unindex_in_unit(&self, unit: usize, idx: u64) -> Position {
        match unit {
            POST_OPENING => self.index.unindex(idx),
            unit => self.index.unindex_opening(self.unit_range(unit).start + idx),
        }
    }

    fn unindex_ascending_in_unit(
        &self,
        unit: usize,
        indices: impl Iterator<Item = u64>,
        mut f: impl FnMut(u64, Position),
    ) {
        match unit {
            POST_OPENING => self.index.unindex_ascending_post(indices, f),
            unit => {
                let start = self.unit_range(unit).start;
                indices.for_each(|idx| f(idx, self.index.unindex_opening(start + idx)));
            }
        }
    }

    fn max_in_unit_moves(&self) -> u8 {
        64
    }

    fn for_each_in_unit(&self, unit: usize, range: Range<u64>, mut f: impl FnMut(u64, Position)) {
        match unit {
            POST_OPENING => self.index.for_each_post(range, f),
            unit => {
                let start = self.unit_range(unit).start;
                range.for_each(|idx| f(idx, self.index.unindex_opening(start + idx)));
            }
        }
    }

    fn expand(&self, _: usize, pos: &Position, mut earlier_child: impl FnMut(usize, u64)) -> Expansion {
        if pos.is_over() {
            return Expansion::Terminal(Value::Loss(Plies(0)));
        }
        if pos.opening {
            pos.for_each_move(self.rule, |_, child| {
                let (unit, idx) = self.locate_index(self.index.index(&child));
                earlier_child(unit, idx);
            });
            return Expansion::Moves { in_unit: 0 };
        }
        Expansion::Moves { in_unit: pos.count_moves(self.rule) as u8 }
    }

    /// Post-opening positions are classified a run at a time (see
    /// [`Position::count_moves_along`]): seeding is most of the solve's
    /// work, and most of each position's work is shared with its
    /// neighbours.
    fn expand_range(
        &self,
        unit: usize,
        range: Range<u64>,
        children: &mut Vec<u64>,
        first_number: impl Fn(usize) -> u64,
        mut f: impl FnMut(u64, Expansion, usize),
    ) {
        if unit != POST_OPENING {
            return self.for_each_in_unit(unit, range, |idx, pos| {
                let expansion = self.expand(unit, &pos, |to, at| children.push(first_number(to) + at));
                f(idx, expansion, children.len());
            });
        }
        // Post-opening moves stay in the unit: no children are pushed.
        let pushed = children.len();
        let expansion = |moves: Option<u32>| {
            moves.map_or(Expansion::Terminal(Value::Loss(Plies(0))), |moves| Expansion::Moves { in_unit: moves as u8 })
        };
        self.index.for_each_run(range, |run| {
            let mut idx = run.first;
            let mut classified = |moves| {
                f(idx, expansion(moves), pushed);
                idx += 1;
            };
            match run.moving {
                Some(slot) => run.pos.count_moves_along(slot, run.squares, self.rule, &mut classified),
                None => classified((!run.pos.is_over()).then(|| run.pos.count_moves(self.rule))),
            }
        });
    }

    fn for_each_parent(&self, _: usize, pos: &Position, mut f: impl FnMut(u64, Position)) {
        if pos.opening {
            return;
        }
        pos.for_each_parent(self.rule, |parent| f(self.index.index_post(&parent.squares, parent.directions), parent));
    }
}

/// The full solve takes minutes: it keeps a checkpoint beside the table,
/// and resumes from it.
impl Solvable for TicTacChec {
    type Encoding = Packed;
    type Solution = Solution;

    fn table_key(&self) -> TableKey {
        TableKey {
            game: super::INFO.id.into(),
            variant: self.rule.id().into(),
            size: "4x4".into(),
            index_version: INDEX_VERSION,
            positions: self.index.count(),
        }
    }

    fn cost(&self) -> Cost {
        Cost { seconds: 75.0, bytes: 2_600_000_000 }
    }

    fn solve(&self, progress: &dyn Progress) -> Result<Solution, ObtainError> {
        Ok(solved_engine::retrograde::solve(self, progress)?)
    }

    fn solve_for(&self, store: &TableStore, progress: &dyn Progress) -> Result<Solution, ObtainError> {
        let checkpoint = store.checkpoint::<Packed>(&self.table_key());
        Ok(Solver::new().with_checkpoints(&checkpoint, CHECKPOINT_EVERY).solve(self, progress)?)
    }

    fn saved(&self, store: &TableStore) -> Result<(), TableError> {
        store.checkpoint::<Packed>(&self.table_key()).remove()
    }
}
