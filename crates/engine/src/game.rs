//! The traits a game implements to be solved.
//!
//! Each capability is a trait of its own, and each solver asks for exactly
//! the ones it needs: [`Rules`] and [`DenseIndex`] are enough for the naive
//! reference solver, reachability counts and audits; [`TieredRetrograde`]
//! adds what the fast retrograde solver needs.

use std::ops::Range;

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
    /// Play goes on, with this many moves that stay in the position's tier.
    /// Moves that leave the tier were reported to the caller's callback.
    Moves {
        /// The number of moves whose child lies in the same tier.
        in_tier: u8,
    },
}

/// A game whose index splits into tiers that moves only leave towards tiers
/// solved earlier.
///
/// The solver works through [`tiers`](Self::tiers) in order. Within a tier it
/// needs each position's number of moves that stay in the tier, the indices
/// of the children in earlier tiers, and the in-tier parents of a position.
/// Only these three are game-specific; everything else (counters, distances,
/// parallelism) is the engine's.
pub trait TieredRetrograde: DenseIndex {
    /// Ranges of indices, in solving order, that together cover
    /// `0..position_count()` without overlap. A move either stays in its
    /// position's tier or leads into a tier listed earlier.
    fn tiers(&self) -> Vec<Range<u64>>;

    /// The position with index `idx`, which lies in `tiers()[tier]`.
    ///
    /// The solver always knows the tier, so a game can skip finding it.
    fn unindex_in_tier(&self, tier: usize, idx: u64) -> Self::Position {
        let _ = tier;
        self.unindex(idx)
    }

    /// Calls `f(idx, position)` for every index of `range`, in order; the
    /// range lies in `tiers()[tier]`.
    ///
    /// The default unindexes each; a game that can step from one position
    /// to the next more cheaply should.
    fn for_each_in_range(&self, tier: usize, range: Range<u64>, mut f: impl FnMut(u64, Self::Position)) {
        for idx in range {
            f(idx, self.unindex_in_tier(tier, idx));
        }
    }

    /// Calls `f(idx, position)` for each of `indices`, which ascend and lie
    /// in `tiers()[tier]`, in order.
    ///
    /// The default unindexes each; a game whose neighbouring positions
    /// share the work of unindexing should share it.
    fn unindex_ascending(
        &self,
        tier: usize,
        indices: impl Iterator<Item = u64>,
        mut f: impl FnMut(u64, Self::Position),
    ) {
        for idx in indices {
            f(idx, self.unindex_in_tier(tier, idx));
        }
    }

    /// An upper bound on [`Expansion::Moves::in_tier`] over all positions.
    fn max_in_tier_moves(&self) -> u8;

    /// Classifies `pos` and calls `earlier_child` with the index of every
    /// child (once per move) that lies in an earlier tier.
    ///
    /// A terminal position reports no children.
    fn expand(&self, pos: &Self::Position, earlier_child: impl FnMut(u64)) -> Expansion;

    /// Expands every position of `range`, which lies in `tiers()[tier]`,
    /// in order: pushes its children in earlier tiers onto `children`, then
    /// calls `f(idx, expansion, children.len())`.
    ///
    /// The default is [`expand_each`]; a game that can classify
    /// neighbouring positions together, sharing the work, should.
    fn expand_range(
        &self,
        tier: usize,
        range: Range<u64>,
        children: &mut Vec<u64>,
        f: impl FnMut(u64, Expansion, usize),
    ) {
        expand_each(self, tier, range, children, f);
    }

    /// Calls `f` with the index and the position of every non-terminal
    /// position in the same tier that has a move to `pos`, once per such
    /// move. The position may be any with that index (an index can stand
    /// for several symmetric positions).
    fn for_each_parent(&self, pos: &Self::Position, f: impl FnMut(u64, Self::Position));

    /// Calls `f(tag, idx, parent)` for every parent of each position of
    /// `positions`, given with a tag, as
    /// [`for_each_parent`](Self::for_each_parent) does for one. The
    /// positions ascend in `tiers()[tier]`.
    ///
    /// The default finds each position's parents alone; a game whose
    /// neighbouring positions share the work of finding them should share it.
    fn for_each_parent_of_each<T: Copy>(
        &self,
        tier: usize,
        positions: impl Iterator<Item = (T, Self::Position)>,
        mut f: impl FnMut(T, u64, Self::Position),
    ) {
        let _ = tier;
        for (tag, pos) in positions {
            self.for_each_parent(&pos, |idx, parent| f(tag, idx, parent));
        }
    }

    /// The split of `tiers()[tier]` into parts that its in-tier moves never
    /// leave, if the game has one (see [`TierParts`]). The solver of a tier
    /// alone, which solves units, then solves part by part; the solve of a
    /// whole game does not ask.
    fn parts(&self, tier: usize) -> Option<impl TierParts + '_> {
        let _ = tier;
        None::<std::convert::Infallible>
    }
}

/// A tier split into parts that its in-tier moves never leave.
///
/// A part numbers its positions by *slots*, numbers below its slot count
/// from which the game finds parents by arithmetic, where numbering
/// positions in the tier takes ranking them. Some slots may hold no
/// position. The solver seeds and propagates one part at a time in a
/// table of its slots small enough for the caches, and writes the tier's
/// cells once, at the end.
pub trait TierParts: Sync {
    /// How many slots each part has.
    fn slot_counts(&self) -> Vec<u32>;

    /// Expands every position of `part`, as
    /// [`TieredRetrograde::expand_range`] does a range: calls
    /// `f(slot, idx, expansion, children)`, `idx` being its index and
    /// `children` its children in earlier tiers. Positions whose indices
    /// follow one another should come one after another: the solver writes
    /// such runs a word at a time.
    fn expand(&self, part: usize, f: impl FnMut(u32, u64, Expansion, &[u64]));

    /// Calls `f(parent)` with the slot of every position of `part` that has
    /// a move to the position in `slot`, once per such move. Parents whose
    /// value is final (terminal ones) may be among them: the solver leaves
    /// final values alone.
    fn for_each_parent(&self, part: usize, slot: u32, f: impl FnMut(u32));
}

/// No parts: what a game without them gives.
impl TierParts for std::convert::Infallible {
    fn slot_counts(&self) -> Vec<u32> {
        match *self {}
    }

    fn expand(&self, _: usize, _: impl FnMut(u32, u64, Expansion, &[u64])) {
        match *self {}
    }

    fn for_each_parent(&self, _: usize, _: u32, _: impl FnMut(u32)) {
        match *self {}
    }
}

/// [`TieredRetrograde::expand_range`] one position at a time: steps through
/// `range` with [`for_each_in_range`](TieredRetrograde::for_each_in_range)
/// and expands each position.
pub fn expand_each<G: TieredRetrograde + ?Sized>(
    game: &G,
    tier: usize,
    range: Range<u64>,
    children: &mut Vec<u64>,
    mut f: impl FnMut(u64, Expansion, usize),
) {
    game.for_each_in_range(tier, range, |idx, pos| {
        let expansion = game.expand(&pos, |child| children.push(child));
        f(idx, expansion, children.len());
    });
}
