//! The solve by tiers over [`DodgemIndex`]: how every board up to 5×5 was
//! solved before units, kept as an independent check of the solve by units
//! (its index, its moves and its parents are all written separately). To
//! the engine, its tiers are units in a line, solved in one table.

use std::ops::Range;

use solved_engine::{
    DenseIndex, Expansion, Progress, Rules, Solution, SolveError, Unit, Units, Value, bits, retrograde,
};

use super::{Dodgem, DodgemIndex, Player, Position};

/// Dodgem indexed by [`DodgemIndex`], its tiers the units of a solve in
/// one table.
#[derive(Copy, Clone, Debug)]
pub struct ByTiers<'a>(&'a Dodgem, &'a DodgemIndex);

impl<'a> ByTiers<'a> {
    /// The board of `game`, if it is small enough for [`DodgemIndex`].
    pub fn new(game: &'a Dodgem) -> Option<ByTiers<'a>> {
        Some(ByTiers(game, game.positions()?))
    }

    /// Solves every position, indexed by [`DodgemIndex`].
    ///
    /// # Errors
    ///
    /// As for [`retrograde::solve`].
    pub fn solve(&self, progress: &dyn Progress) -> Result<Solution, SolveError> {
        retrograde::solve(self, progress)
    }
}

impl Rules for ByTiers<'_> {
    type Position = Position;

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        self.0.terminal_value(pos)
    }

    fn for_each_child(&self, pos: &Position, f: impl FnMut(Position)) {
        self.0.for_each_child_unchecked(pos, f);
    }
}

impl DenseIndex for ByTiers<'_> {
    fn position_count(&self) -> u64 {
        self.1.count()
    }

    fn index(&self, pos: &Position) -> u64 {
        self.1.index(pos)
    }

    fn unindex(&self, idx: u64) -> Position {
        self.1.unindex(idx)
    }
}

impl ByTiers<'_> {
    /// The tier of the position with index `idx`, and its number there.
    fn locate_index(&self, idx: u64) -> (usize, u64) {
        let tier = self.1.tier_of(idx);
        (tier, idx - self.1.tier_start(tier))
    }
}

/// A tier's moves leave it only for tiers listed earlier, so each is a unit
/// that reads every unit before it.
impl Units for ByTiers<'_> {
    fn units(&self) -> Vec<Unit> {
        let tiers = self.1.tiers().into_iter().enumerate();
        tiers.map(|(tier, range)| Unit { len: range.end - range.start, depends_on: (0..tier).collect() }).collect()
    }

    fn locate(&self, pos: &Position) -> (usize, u64) {
        self.locate_index(self.1.index(pos))
    }

    fn unindex_in_unit(&self, tier: usize, idx: u64) -> Position {
        self.1.unindex_in_tier(tier, self.1.tier_start(tier) + idx)
    }

    fn for_each_in_unit(&self, tier: usize, range: Range<u64>, mut f: impl FnMut(u64, Position)) {
        let start = self.1.tier_start(tier);
        self.1.for_each_in_range(tier, start + range.start..start + range.end, |idx, pos| f(idx - start, pos));
    }

    fn max_in_unit_moves(&self) -> u8 {
        3 * (self.0.size - 1)
    }

    fn expand(&self, _: usize, pos: &Position, mut earlier_child: impl FnMut(usize, u64)) -> Expansion {
        if let Some(value) = self.terminal_value(pos) {
            return Expansion::Terminal(value);
        }
        let exits = self.0.steps(pos, pos.turn).exits;
        if exits != 0 {
            // A child has the other side to move, so its index is that of
            // its mirror image: this position's mirror image (computed once)
            // without the reflected car, and with this side to move.
            let mirror = self.1.mirror(pos);
            let opponent = pos.turn.other();
            for exit in bits(exits) {
                let mut child = mirror;
                child.cars[opponent] &= !self.1.mirror_square(exit);
                child.turn = pos.turn;
                let (tier, idx) = self.locate_index(self.1.index(&child));
                earlier_child(tier, idx);
            }
        }
        Expansion::Moves { in_unit: self.0.on_board_moves(pos) as u8 }
    }

    fn for_each_parent(&self, tier: usize, pos: &Position, mut f: impl FnMut(u64, Position)) {
        let start = self.1.tier_start(tier);
        // Parents have the other side to move. Those of a Blue-to-move
        // position are generated as the (Blue-to-move) parents of its
        // mirror image, which index without a reflection each.
        let pos = match pos.turn {
            Player::Blue => self.1.mirror(pos),
            Player::Red => *pos,
        };
        let mover = Player::Blue;
        // With no Red cars, every parent would already be over (Red would
        // have just got its last car off).
        if pos.cars.red == 0 {
            return;
        }
        let n = u32::from(self.0.size);
        let cars = pos.cars.blue;
        let empty = self.0.board & !(pos.cars.blue | pos.cars.red);
        // For each way Blue's cars move (right, up, down): the squares a car
        // could have come from (empty now), and the step that brought it here.
        let origins: [(u64, i32); 3] = [
            (((cars & !self.0.first_file) >> 1) & empty, 1),
            ((cars >> n) & empty, n as i32),
            ((cars << n) & empty, -(n as i32)),
        ];
        for (sources, step) in origins {
            for source in bits(sources) {
                let target = source.wrapping_add_signed(step);
                let mut parent = Position { turn: mover, ..pos };
                parent.cars[mover] = (cars & !(1 << target)) | 1 << source;
                f(self.1.index_blue_to_move(parent.cars) - start, parent);
            }
        }
    }
}

/// Whether `by_units` (the table, in its layout) and `by_tiers` give every
/// position the same value and distance: the number of positions compared,
/// or the first that differs.
pub fn same_values(
    game: &Dodgem,
    by_units: &(impl solved_engine::Values + ?Sized),
    by_tiers: &Solution,
) -> Result<u64, Position> {
    use rayon::prelude::*;
    let tiers = ByTiers::new(game).expect("a board with a flat index");
    let count = tiers.position_count();
    let first_bad = (0..count.div_ceil(1 << 16)).into_par_iter().find_map_first(|piece| {
        let range = piece << 16..((piece + 1) << 16).min(count);
        range.into_iter().find_map(|idx| {
            let pos = tiers.unindex(idx);
            (by_units.probe(game.index(&pos)) != by_tiers.value(idx)).then_some(pos)
        })
    });
    first_bad.map_or(Ok(count), Err)
}
