//! Glue to the engine's retrograde solver, and the table it makes.

use std::ops::Range;
use std::time::Duration;

use solved_engine::retrograde::Solver;
use solved_engine::table::{Packed, TableKey};
use solved_engine::{
    DenseIndex, Expansion, Plies, Progress, Rules, Solution, TableError, TableStore, TieredRetrograde, Value,
    expand_each,
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

/// The post-opening domain is one tier (its moves go round in cycles);
/// each opening ply is a tier of its own, solved from the last ply back,
/// whose moves all lead to the next ply or out of the opening.
impl TieredRetrograde for TicTacChec {
    fn tiers(&self) -> Vec<Range<u64>> {
        let mut tiers = vec![self.index.post_opening()];
        tiers.extend((0..6).rev().map(|ply| self.index.opening_ply(ply)));
        tiers
    }

    fn unindex_ascending(&self, tier: usize, indices: impl Iterator<Item = u64>, mut f: impl FnMut(u64, Position)) {
        if tier == 0 {
            self.index.unindex_ascending_post(indices, f);
        } else {
            indices.for_each(|idx| f(idx, self.index.unindex_opening(idx)));
        }
    }

    fn max_in_tier_moves(&self) -> u8 {
        64
    }

    fn for_each_in_range(&self, tier: usize, range: Range<u64>, mut f: impl FnMut(u64, Position)) {
        if tier == 0 {
            self.index.for_each_post(range, f);
        } else {
            for idx in range {
                f(idx, self.index.unindex_opening(idx));
            }
        }
    }

    fn expand(&self, pos: &Position, mut earlier_child: impl FnMut(u64)) -> Expansion {
        if pos.is_over() {
            return Expansion::Terminal(Value::Loss(Plies(0)));
        }
        if pos.opening {
            pos.for_each_move(self.rule, |_, child| earlier_child(self.index.index(&child)));
            return Expansion::Moves { in_tier: 0 };
        }
        Expansion::Moves { in_tier: pos.count_moves(self.rule) as u8 }
    }

    /// Post-opening positions are classified a run at a time (see
    /// [`Position::count_moves_along`]): seeding is most of the solve's
    /// work, and most of each position's work is shared with its
    /// neighbours.
    fn expand_range(
        &self,
        tier: usize,
        range: Range<u64>,
        children: &mut Vec<u64>,
        mut f: impl FnMut(u64, Expansion, usize),
    ) {
        if tier != 0 {
            return expand_each(self, tier, range, children, f);
        }
        // Post-opening moves stay in the tier: no children are pushed.
        let pushed = children.len();
        let expansion = |moves: Option<u32>| {
            moves.map_or(Expansion::Terminal(Value::Loss(Plies(0))), |moves| Expansion::Moves { in_tier: moves as u8 })
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

    fn for_each_parent(&self, pos: &Position, mut f: impl FnMut(u64, Position)) {
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
