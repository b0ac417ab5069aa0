//! The traits a game implements to be solved.
//!
//! Each capability is a trait of its own, and each solver asks for exactly
//! the ones it needs: [`Rules`] and [`DenseIndex`] are enough for the naive
//! reference solver, reachability counts and audits; [`Units`] adds what
//! the fast retrograde solver needs, whether it solves the game in one
//! table or unit by unit.

use std::ops::Range;

use crate::solution::Solution;
use crate::value::Value;

/// The rules of a game, seen as a graph of positions.
pub trait Rules: Sync {
    /// A legal position, including whose turn it is.
    type Position: Copy + Eq + Send + Sync + std::fmt::Debug;

    /// The value of a position where the game has ended, or `None` while play
    /// goes on. A position that is not terminal must have at least one move.
    fn terminal_value(&self, pos: &Self::Position) -> Option<Value>;

    /// Calls `f` with the position after each legal move, once per move.
    ///
    /// The solvers assume that every move passes the turn to the opponent, so
    /// a child's value is negated to give the move's value for the mover.
    fn for_each_child(&self, pos: &Self::Position, f: impl FnMut(Self::Position));
}

/// A dense index of a game's positions: a bijection with `0..position_count()`.
pub trait DenseIndex: Rules {
    /// The number of positions.
    fn position_count(&self) -> u64;

    /// The index of `pos`.
    fn index(&self, pos: &Self::Position) -> u64;

    /// The position with index `idx`, which must be below
    /// [`position_count`](Self::position_count).
    fn unindex(&self, idx: u64) -> Self::Position;
}

/// What the retrograde solver needs to know about a position before
/// propagation starts.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub enum Expansion {
    /// The game is over.
    Terminal(Value),
    /// Play goes on, with this many moves that stay in the position's unit.
    /// Moves that leave the unit were reported to the caller's callback.
    Moves {
        /// The number of moves whose child lies in the same unit.
        in_unit: u8,
    },
}

/// One unit of a game: how many positions it has and which units its
/// moves out of it reach.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Unit {
    /// Its positions, numbered `0..len`.
    pub len: u64,
    /// The units, all listed earlier, that moves out of this one lead to.
    pub depends_on: Vec<usize>,
}

/// A game whose positions split into units that moves leave only towards
/// units listed earlier: what the retrograde solver needs of a game.
///
/// A game of tiers is a game of units in a line, solved in one table by
/// [`retrograde::solve`](crate::retrograde::solve); a game too large for
/// that is solved unit by unit onto disk by
/// [`UnitSolver`](crate::units::UnitSolver). Within a unit the solver needs
/// each position's number of moves that stay in the unit, its children in
/// other units and its in-unit parents; only these are game-specific,
/// everything else (counters, distances, parallelism) is the engine's.
pub trait Units: Rules {
    /// The units in solving order. A unit's dependencies come before it.
    fn units(&self) -> Vec<Unit>;

    /// The unit of `pos` and its number within it.
    fn locate(&self, pos: &Self::Position) -> (usize, u64);

    /// The position numbered `idx` in `unit`.
    fn unindex_in_unit(&self, unit: usize, idx: u64) -> Self::Position;

    /// Calls `f(idx, position)` for every position numbered in `range` of
    /// `unit`, in order.
    ///
    /// The default unindexes each; a game that can step from one position
    /// to the next more cheaply should.
    fn for_each_in_unit(&self, unit: usize, range: Range<u64>, mut f: impl FnMut(u64, Self::Position)) {
        for idx in range {
            f(idx, self.unindex_in_unit(unit, idx));
        }
    }

    /// Calls `f(idx, position)` for each of `indices`, which ascend and
    /// number positions of `unit`, in order.
    ///
    /// The default unindexes each; a game whose neighbouring positions
    /// share the work of unindexing should share it.
    fn unindex_ascending_in_unit(
        &self,
        unit: usize,
        indices: impl Iterator<Item = u64>,
        mut f: impl FnMut(u64, Self::Position),
    ) {
        for idx in indices {
            f(idx, self.unindex_in_unit(unit, idx));
        }
    }

    /// An upper bound on [`Expansion::Moves::in_unit`] over all positions.
    fn max_in_unit_moves(&self) -> u8;

    /// Classifies `pos` of `unit` and calls `earlier_child(unit, idx)` for
    /// every child (once per move) in another unit.
    ///
    /// A terminal position reports no children.
    fn expand(&self, unit: usize, pos: &Self::Position, earlier_child: impl FnMut(usize, u64)) -> Expansion;

    /// Expands every position of `unit` numbered in `range`, in order: for
    /// each child in another unit `to`, numbered `idx` there, pushes
    /// `first_number(to) + idx` (the number the solver knows it by) onto
    /// `children`; then calls `f(idx, expansion, children.len())`.
    ///
    /// The default expands each position that
    /// [`for_each_in_unit`](Self::for_each_in_unit) gives; a game that can
    /// classify neighbouring positions together, sharing the work, should.
    fn expand_range(
        &self,
        unit: usize,
        range: Range<u64>,
        children: &mut Vec<u64>,
        first_number: impl Fn(usize) -> u64,
        mut f: impl FnMut(u64, Expansion, usize),
    ) {
        self.for_each_in_unit(unit, range, |idx, pos| {
            let expansion = self.expand(unit, &pos, |to, at| children.push(first_number(to) + at));
            f(idx, expansion, children.len());
        });
    }

    /// Calls `f(idx, parent)` for every non-terminal position of `unit`
    /// with a move to `pos` (of the same unit), once per such move. The
    /// parent may be any position with that number (a number can stand for
    /// several symmetric positions).
    fn for_each_parent(&self, unit: usize, pos: &Self::Position, f: impl FnMut(u64, Self::Position));

    /// Calls `f(tag, idx, parent)` for every parent of each position of
    /// `positions`, given with a tag, as
    /// [`for_each_parent`](Self::for_each_parent) does for one. The
    /// positions ascend in `unit`.
    ///
    /// The default finds each position's parents alone; a game whose
    /// neighbouring positions share the work of finding them should share it.
    fn for_each_parent_of_each<T: Copy>(
        &self,
        unit: usize,
        positions: impl Iterator<Item = (T, Self::Position)>,
        mut f: impl FnMut(T, u64, Self::Position),
    ) {
        for (tag, pos) in positions {
            self.for_each_parent(unit, &pos, |idx, parent| f(tag, idx, parent));
        }
    }

    /// The split of `unit` into parts that its in-unit moves never leave,
    /// if the game has one (see [`UnitParts`]). A unit solved alone, as a
    /// solve by units solves them, is then solved part by part; the solve
    /// of a whole game in one table does not ask.
    fn parts(&self, unit: usize) -> Option<impl UnitParts + '_> {
        let _ = unit;
        None::<std::convert::Infallible>
    }

    /// Figures about the solved `unit` that a store on disk keeps in its
    /// header (beside the engine's own, see
    /// [`LONGEST_WIN`](crate::units::LONGEST_WIN)), so that a game's totals
    /// need no pass over every unit. None by default.
    fn unit_facts(&self, unit: usize, values: &Solution) -> Vec<(&'static str, u64)> {
        let _ = (unit, values);
        Vec::new()
    }
}

/// A unit split into parts that its in-unit moves never leave.
///
/// A part numbers its positions by *slots*, numbers below its slot count
/// from which the game finds parents by arithmetic, where numbering
/// positions in the unit takes ranking them. Some slots may hold no
/// position. The solver seeds and propagates one part at a time in a
/// table of its slots small enough for the caches, and writes the unit's
/// cells once, at the end.
pub trait UnitParts: Sync {
    /// How many slots each part has.
    fn slot_counts(&self) -> Vec<u32>;

    /// Expands every position of `part`, as [`Units::expand_range`] does a
    /// range: calls `f(slot, idx, expansion, children)`, `idx` being its
    /// number in the unit and `children` its children in other units,
    /// numbered as `expand_range` numbers them with `first_number`.
    /// Positions whose numbers follow one another should come one after
    /// another: the solver writes such runs a word at a time.
    fn expand(&self, part: usize, first_number: impl Fn(usize) -> u64, f: impl FnMut(u32, u64, Expansion, &[u64]));

    /// Calls `f(parent)` with the slot of every position of `part` that has
    /// a move to the position in `slot`, once per such move. Parents whose
    /// value is final (terminal ones) may be among them: the solver leaves
    /// final values alone.
    fn for_each_parent(&self, part: usize, slot: u32, f: impl FnMut(u32));
}

/// No parts: what a game without them gives.
impl UnitParts for std::convert::Infallible {
    fn slot_counts(&self) -> Vec<u32> {
        match *self {}
    }

    fn expand(&self, _: usize, _: impl Fn(usize) -> u64, _: impl FnMut(u32, u64, Expansion, &[u64])) {
        match *self {}
    }

    fn for_each_parent(&self, _: usize, _: u32, _: impl FnMut(u32)) {
        match *self {}
    }
}
