//! The solve by tiers over [`DodgemIndex`]: how every board up to 5×5 was
//! solved before units, kept as an independent check of the solve by units
//! (its index, its moves and its parents are all written separately).

use std::ops::Range;

use solved_engine::{
    DenseIndex, Expansion, Progress, Rules, Solution, SolveError, TieredRetrograde, Value, bits, retrograde,
};

use super::{Dodgem, DodgemIndex, Player, Position};

/// Dodgem indexed by [`DodgemIndex`], for the tiered retrograde solver.
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

impl TieredRetrograde for ByTiers<'_> {
    fn tiers(&self) -> Vec<Range<u64>> {
        self.1.tiers()
    }

    fn unindex_in_tier(&self, tier: usize, idx: u64) -> Position {
        self.1.unindex_in_tier(tier, idx)
    }

    fn max_in_tier_moves(&self) -> u8 {
        3 * (self.0.size - 1)
    }

    fn expand(&self, pos: &Position, mut earlier_child: impl FnMut(u64)) -> Expansion {
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
                earlier_child(self.1.index(&child));
            }
        }
        Expansion::Moves { in_tier: self.0.on_board_moves(pos) as u8 }
    }

    fn for_each_in_range(&self, tier: usize, range: Range<u64>, f: impl FnMut(u64, Position)) {
        self.1.for_each_in_range(tier, range, f);
    }

    fn for_each_parent(&self, pos: &Position, mut f: impl FnMut(u64, Position)) {
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
                f(self.1.index_blue_to_move(parent.cars), parent);
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
