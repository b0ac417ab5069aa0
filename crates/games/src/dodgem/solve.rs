//! Glue to the engine's tiered retrograde solver, and the table it makes.

use std::ops::Range;

use solved_engine::table::{Packed, TableKey};
use solved_engine::{
    DenseIndex, Expansion, Interrupted, Progress, Rules, Solution, TieredRetrograde, Value, bits, retrograde,
};

use super::{Dodgem, Player, Position};
use crate::tables::{Cost, ObtainError, Solvable};

/// The version of [`DodgemIndex`](super::DodgemIndex)'s layout, recorded
/// in table headers: bump it whenever a position moves to another index.
const INDEX_VERSION: u32 = 1;

impl Rules for Dodgem {
    type Position = Position;

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        Dodgem::terminal_value(self, pos)
    }

    fn for_each_child(&self, pos: &Position, f: impl FnMut(Position)) {
        self.for_each_child_unchecked(pos, f);
    }
}

/// The solver's index: positions up to the diagonal reflection (see
/// [`DodgemIndex`](super::DodgemIndex)).
impl DenseIndex for Dodgem {
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

/// Dodgem with every position indexed on its own, both sides to move: for
/// counting reachable positions and for checks that must not lean on the
/// symmetry the solver uses.
///
/// Position `2i` is the solver's position `i` (Blue to move) and `2i + 1`
/// its mirror image (Red to move), so a pass over these indices is a pass
/// over the table.
#[derive(Copy, Clone, Debug)]
pub struct EveryPosition<'a>(pub &'a Dodgem);

impl Rules for EveryPosition<'_> {
    type Position = Position;

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        self.0.terminal_value(pos)
    }

    fn for_each_child(&self, pos: &Position, f: impl FnMut(Position)) {
        self.0.for_each_child_unchecked(pos, f);
    }
}

impl DenseIndex for EveryPosition<'_> {
    fn position_count(&self) -> u64 {
        2 * self.0.index.count()
    }

    fn index(&self, pos: &Position) -> u64 {
        2 * self.0.index.index(pos) + pos.turn as u64
    }

    fn unindex(&self, idx: u64) -> Position {
        let pos = self.0.index.unindex(idx / 2);
        if idx.is_multiple_of(2) { pos } else { self.0.index.mirror(&pos) }
    }
}

impl TieredRetrograde for Dodgem {
    fn tiers(&self) -> Vec<Range<u64>> {
        self.index.tiers()
    }

    fn unindex_in_tier(&self, tier: usize, idx: u64) -> Position {
        self.index.unindex_in_tier(tier, idx)
    }

    fn max_in_tier_moves(&self) -> u8 {
        3 * (self.size - 1)
    }

    fn expand(&self, pos: &Position, mut earlier_child: impl FnMut(u64)) -> Expansion {
        if let Some(value) = self.terminal_value(pos) {
            return Expansion::Terminal(value);
        }
        let exits = self.steps(pos, pos.turn).exits;
        if exits != 0 {
            // A child has the other side to move, so its index is that of
            // its mirror image: this position's mirror image (computed once)
            // without the reflected car, and with this side to move.
            let mirror = self.index.mirror(pos);
            let opponent = pos.turn.other();
            for exit in bits(exits) {
                let mut child = mirror;
                child.cars[opponent] &= !self.index.mirror_square(exit);
                child.turn = pos.turn;
                earlier_child(self.index.index(&child));
            }
        }
        Expansion::Moves { in_tier: self.on_board_moves(pos) as u8 }
    }

    fn for_each_in_range(&self, tier: usize, range: Range<u64>, f: impl FnMut(u64, Position)) {
        self.index.for_each_in_range(tier, range, f);
    }

    fn for_each_parent(&self, pos: &Position, mut f: impl FnMut(u64, Position)) {
        // Parents have the other side to move. Those of a Blue-to-move
        // position are generated as the (Blue-to-move) parents of its
        // mirror image, which index without a reflection each.
        let pos = match pos.turn {
            Player::Blue => self.index.mirror(pos),
            Player::Red => *pos,
        };
        let mover = Player::Blue;
        // With no Red cars, every parent would already be over (Red would
        // have just got its last car off).
        if pos.cars.red == 0 {
            return;
        }
        let n = u32::from(self.size);
        let cars = pos.cars.blue;
        let empty = self.board & !(pos.cars.blue | pos.cars.red);
        // For each way Blue's cars move (right, up, down): the squares a car
        // could have come from (empty now), and the step that brought it here.
        let origins: [(u32, i32); 3] = [
            (((cars & !self.first_file) >> 1) & empty, 1),
            ((cars >> n) & empty, n as i32),
            ((cars << n) & empty, -(n as i32)),
        ];
        for (sources, step) in origins {
            for source in bits(sources) {
                let target = source.wrapping_add_signed(step);
                let mut parent = Position { turn: mover, ..pos };
                parent.cars[mover] = (cars & !(1 << target)) | 1 << source;
                f(self.index.index_blue_to_move(parent.cars), parent);
            }
        }
    }
}

impl Solvable for Dodgem {
    type Encoding = Packed;
    type Solution = Solution;

    fn table_key(&self) -> TableKey {
        TableKey {
            game: super::INFO.id.into(),
            variant: self.objective.id().into(),
            size: format!("{0}x{0}", self.size),
            index_version: INDEX_VERSION,
            positions: self.index.count(),
        }
    }

    /// Measured on 5×5: the solve, then the reachable positions and the
    /// mutual zugzwangs the table's facts keep, 45 s in all.
    fn cost(&self) -> Cost {
        let positions = self.index.count();
        Cost { seconds: positions as f64 * 3.8e-7, bytes: 8 * positions / 7 }
    }

    fn solve(&self, progress: &dyn Progress) -> Result<Solution, ObtainError> {
        Ok(retrograde::solve(self, progress)?)
    }

    fn facts(&self, solution: &Solution, progress: &dyn Progress) -> Result<Vec<(&'static str, u64)>, Interrupted> {
        Dodgem::facts(self, solution, progress)
    }
}
