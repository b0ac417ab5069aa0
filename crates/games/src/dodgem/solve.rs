//! Glue to the engine's solver by units, and the table it makes.
//!
//! Every board is solved by [units](super::UnitIndex). On boards up to
//! [`MAX_FLAT_SIZE`](super::MAX_FLAT_SIZE) the units are solved in memory
//! and kept as one table, the units one after another; larger boards keep
//! a file per unit.

use std::ops::Range;

use solved_engine::table::{Packed, TableKey};
use solved_engine::units::{ForwardUnits, SiblingMemo, UnitSolver, UnitsInMemory};
use solved_engine::{
    DenseIndex, Expansion, Interrupted, Progress, Rules, Solution, Unit, UnitParts, Units, Value, bits,
};

use super::red_placements::Reflection;
use super::units::{InHalf, NO_HALF, Parts};
use super::{ByPlayer, Dodgem, MAX_FLAT_SIZE, Player, Position, Steps};
use crate::tables::{Cost, ObtainError, Solvable};

/// The version of the layout of positions in a table, recorded in table
/// headers: bump it whenever a position moves to another index. Version 2
/// is the units one after another; version 3 numbers Blue's cars by their
/// reflection (see [`UnitIndex`](super::UnitIndex)).
const INDEX_VERSION: u32 = 3;

impl Rules for Dodgem {
    type Position = Position;

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        Dodgem::terminal_value(self, pos)
    }

    fn for_each_child(&self, pos: &Position, f: impl FnMut(Position)) {
        self.for_each_child_unchecked(pos, f);
    }
}

/// The table's index: positions up to the diagonal reflection, unit after
/// unit.
impl DenseIndex for Dodgem {
    fn position_count(&self) -> u64 {
        self.unit_index().count()
    }

    fn index(&self, pos: &Position) -> u64 {
        let (unit, idx) = Units::locate(self, pos);
        self.unit_index().start(unit) + idx
    }

    fn unindex(&self, idx: u64) -> Position {
        let unit = self.unit_index().unit_at(idx);
        self.unindex_in_unit(unit, idx - self.unit_index().start(unit))
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

/// A key for [`SiblingMemo`]: a position by its cars as stored (Blue to
/// move, see [`EveryPosition`]) and its side to move.
fn stored_key(stored: ByPlayer<u64>, turn: Player) -> u128 {
    u128::from(stored.blue) | u128::from(stored.red) << 64 | u128::from(turn as u8) << 127
}

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
        2 * self.0.position_count()
    }

    fn index(&self, pos: &Position) -> u64 {
        2 * self.0.index(pos) + pos.turn as u64
    }

    fn unindex(&self, idx: u64) -> Position {
        let pos = self.0.unindex(idx / 2);
        if idx.is_multiple_of(2) { pos } else { self.0.mirror(&pos) }
    }
}

/// Both sides to move, unit by unit: position `2i` of a unit is its stored
/// position `i` (Blue to move), `2i + 1` that position's mirror image, as
/// for the whole board.
impl ForwardUnits for EveryPosition<'_> {
    fn units(&self) -> Vec<Unit> {
        let units = self.0.unit_index().units().iter();
        units.map(|u| Unit { len: 2 * u.len, depends_on: u.depends_on.clone() }).collect()
    }

    fn locate(&self, pos: &Position) -> (usize, u64) {
        let (unit, idx) = Units::locate(self.0, pos);
        (unit, 2 * idx + pos.turn as u64)
    }

    fn locate_siblings(
        &self,
        parent: &Position,
        siblings: &[Position],
        memo: &mut SiblingMemo,
        located: &mut Vec<(usize, u64)>,
    ) {
        let game = self.0;
        let first = located.len();
        // The audit takes a stored position, then its mirror image, whose
        // children (by its own moves) are as a rule the mirror images of
        // the first's: stored alike, the other side to move, numbered
        // alike but for the last bit. Those found are not numbered again.
        let twins = siblings.iter().all(|child| match (child.turn, memo.find(stored_key(child.cars, Player::Red))) {
            (Player::Blue, Some((unit, at))) => {
                located.push((unit, at ^ 1));
                true
            }
            _ => false,
        });
        if twins {
            return;
        }
        located.truncate(first);
        let mut keys = [0; SiblingMemo::MOST];
        for_size!(usize::from(game.size), N => {
            // The children of one position share the cars of the side that
            // did not move, which a Red-to-move child's mirror image (as
            // it is stored) has as its Blue cars: reflected once for all.
            let mut reflected = None;
            let mut as_stored = |cars: ByPlayer<u64>, turn: Player| match turn {
                Player::Blue => cars,
                Player::Red => {
                    if reflected.is_none_or(|(before, _)| before != cars.red) {
                        reflected = Some((cars.red, game.transpose.apply_on::<N>(cars.red)));
                    }
                    let (_, blue) = reflected.expect("reflected above");
                    ByPlayer { blue, red: game.transpose.apply_on::<N>(cars.blue) }
                }
            };
            // The parent's cars as its children are stored: each child is
            // them with one car moved, or gone.
            let turn = parent.turn.other();
            let base = as_stored(parent.cars, turn);
            let stored = siblings.iter().enumerate().map(|(i, child)| {
                let cars = as_stored(child.cars, child.turn);
                if let Some(key) = keys.get_mut(i) {
                    *key = stored_key(cars, child.turn);
                }
                cars
            });
            let mut turns = siblings.iter().map(|child| child.turn as u64);
            game.unit_index().of_size::<N>().locate_around(base, stored, |unit, idx| {
                located.push((unit, 2 * idx + turns.next().expect("a turn for each sibling")));
            });
        });
        memo.keep(&keys[..siblings.len().min(SiblingMemo::MOST)], &located[first..]);
    }

    fn for_each_in_unit(&self, unit: usize, range: Range<u64>, mut f: impl FnMut(u64, Position)) {
        self.0.for_each_in_unit(unit, range.start / 2..range.end.div_ceil(2), |idx, pos| {
            if range.contains(&(2 * idx)) {
                f(2 * idx, pos);
            }
            if range.contains(&(2 * idx + 1)) {
                f(2 * idx + 1, self.0.mirror(&pos));
            }
        });
    }

    fn for_each_child_located(&self, pos: &Position, mut f: impl FnMut(usize, u64)) {
        // The children of a Red-to-move position are the mirror images of
        // those of its mirror image: the same stored positions, other side.
        let (stored, turn) = match pos.turn {
            Player::Blue => (*pos, Player::Red),
            Player::Red => (self.0.mirror(pos), Player::Blue),
        };
        let steps = self.0.steps(&stored, Player::Blue);
        self.0.for_each_stored_child(&stored, &steps, true, |unit, idx| f(unit, 2 * idx + turn as u64));
    }

    fn for_each_child_of_marked(&self, unit: usize, base: u64, marked: u64, mut f: impl FnMut(usize, u64, u64)) {
        // Positions 2i and 2i + 1 are a stored position and its mirror
        // image with the other side to move, whose children are the
        // mirror images of the first's: the same stored children, other
        // side. A pair both marked has its children found once, and marks
        // both of each child's pair at once.
        let first = (base + u64::from(marked.trailing_zeros())) / 2;
        let end = (base + 64 - u64::from(marked.leading_zeros())).div_ceil(2);
        let game = self.0;
        for_size!(usize::from(game.size), N => {
            game.unit_index().for_each_on::<N>(unit, first..end, |idx, cars, reflection| {
                let pair = marked >> (2 * idx - base) & 0b11;
                let stored = Position { size: game.size, cars, turn: Player::Blue };
                if pair == 0 || game.terminal_value(&stored).is_some() {
                    return;
                }
                let steps = game.steps(&stored, Player::Blue);
                // Blue to move (the even one) leaves Red to move: odd.
                let children = (pair & 0b01) << 1 | pair >> 1;
                game.for_each_stored_child_on::<N>(&stored, reflection, &steps, true, |to, at| {
                    f(to, at / 32, children << (2 * at % 64));
                });
            });
        });
    }
}

impl Units for Dodgem {
    fn units(&self) -> Vec<Unit> {
        self.unit_index().units().to_vec()
    }

    fn locate(&self, pos: &Position) -> (usize, u64) {
        let cars = match pos.turn {
            Player::Blue => pos.cars,
            Player::Red => self.mirror(pos).cars,
        };
        self.unit_index().locate(cars)
    }

    fn unindex_in_unit(&self, unit: usize, idx: u64) -> Position {
        Position { size: self.size, cars: self.unit_index().unindex(unit, idx), turn: Player::Blue }
    }

    fn for_each_in_unit(&self, unit: usize, range: Range<u64>, mut f: impl FnMut(u64, Position)) {
        self.unit_index()
            .for_each(unit, range, |idx, cars| f(idx, Position { size: self.size, cars, turn: Player::Blue }));
    }

    fn unindex_ascending_in_unit(
        &self,
        unit: usize,
        indices: impl Iterator<Item = u64>,
        mut f: impl FnMut(u64, Position),
    ) {
        self.unit_index().unindex_ascending(unit, indices, |idx, cars| {
            f(idx, Position { size: self.size, cars, turn: Player::Blue });
        });
    }

    fn max_in_unit_moves(&self) -> u8 {
        2 * (self.size - 1)
    }

    fn expand(&self, _: usize, pos: &Position, mut earlier_child: impl FnMut(usize, u64)) -> Expansion {
        if let Some(value) = self.terminal_value(pos) {
            return Expansion::Terminal(value);
        }
        debug_assert_eq!(pos.turn, Player::Blue, "units hold Blue-to-move positions");
        let steps = self.steps(pos, Player::Blue);
        let [_, up, down] = steps.targets;
        self.for_each_stored_child(pos, &steps, false, &mut earlier_child);
        Expansion::Moves { in_unit: (up.count_ones() + down.count_ones()) as u8 }
    }

    fn expand_range(
        &self,
        unit: usize,
        range: Range<u64>,
        children: &mut Vec<u64>,
        first_number: impl Fn(usize) -> u64,
        f: impl FnMut(u64, Expansion, usize),
    ) {
        for_size!(usize::from(self.size), N => self.expand_range_on::<N>(unit, range, children, first_number, f));
    }

    fn unit_facts(&self, unit: usize, values: &Solution) -> Vec<(&'static str, u64)> {
        vec![(super::summary::ZUGZWANGS, self.unit_zugzwangs(unit, values))]
    }

    fn for_each_parent(&self, _: usize, pos: &Position, f: impl FnMut(u64, Position)) {
        for_size!(usize::from(self.size), N => {
            let shared = self.shared_by_parents::<N>(pos);
            self.for_each_parent_on::<N>(&shared, pos, f);
        });
    }

    fn for_each_parent_of_each<T: Copy>(
        &self,
        _: usize,
        positions: impl Iterator<Item = (T, Position)>,
        f: impl FnMut(T, u64, Position),
    ) {
        for_size!(usize::from(self.size), N => self.for_each_parent_of_each_on::<T, N>(positions, f));
    }

    fn parts(&self, unit: usize) -> Option<impl UnitParts + '_> {
        self.unit_index().parts(unit).map(|parts| DodgemParts { game: self, parts })
    }
}

/// A unit's [`Parts`] with the game that expands their positions.
struct DodgemParts<'a> {
    game: &'a Dodgem,
    parts: Parts<'a>,
}

impl UnitParts for DodgemParts<'_> {
    fn slot_counts(&self) -> Vec<u32> {
        self.parts.slot_counts()
    }

    fn expand(&self, part: usize, first_number: impl Fn(usize) -> u64, f: impl FnMut(u32, u64, Expansion, &[u64])) {
        let game = self.game;
        let terminal = |cars| game.terminal_value(&Position { size: game.size, cars, turn: Player::Blue });
        // `f` moves into its size's arm rather than being lent: called
        // through a `&mut`, the solver's callback would not be inlined.
        for_size!(usize::from(game.size), N => self.parts.expand_on::<N>(part, &first_number, terminal, f));
    }

    #[inline]
    fn for_each_parent(&self, part: usize, slot: u32, f: impl FnMut(u32)) {
        self.parts.for_each_parent(part, slot, f);
    }
}

/// What the parents of positions with the same Blue cars share. Parents
/// have Red to move, so they are stored as their mirror images: Blue's cars
/// reflected are every parent's Red cars, and the parents' half and Red
/// group follow from them.
struct SharedByParents<'a> {
    blue: u64,
    /// Every parent's Red cars.
    red: u64,
    group: usize,
    /// `None` when there are no parents: with no Red cars (Blue's, reflected),
    /// every parent would be over already, Red having just got its last car
    /// off.
    half: Option<InHalf<'a>>,
}

impl Dodgem {
    /// [`SharedByParents`] of the positions with `pos`'s Blue cars, in
    /// `pos`'s half.
    #[inline(always)]
    fn shared_by_parents<const N: usize>(&self, pos: &Position) -> SharedByParents<'_> {
        let index = self.unit_index();
        let units = index.of_size::<N>();
        let mirrored = self.transpose.mirror_on::<N>(pos).cars;
        let half = (mirrored.red != 0).then(|| {
            // Moves up and down keep the key: every parent is in this half.
            units.half(index.half_of(units.key(mirrored)).expect("a position's key has its half"))
        });
        SharedByParents { blue: pos.cars.blue, red: mirrored.red, group: units.group(units.code(mirrored.red)), half }
    }

    /// [`Units::for_each_parent_of_each`] on an `N`×`N` board, with what
    /// neighbours share worked out once for each run of the same Blue cars.
    #[inline(always)]
    fn for_each_parent_of_each_on<T: Copy, const N: usize>(
        &self,
        positions: impl Iterator<Item = (T, Position)>,
        mut f: impl FnMut(T, u64, Position),
    ) {
        let mut shared = None;
        for (tag, pos) in positions {
            let shared = match &shared {
                Some(s @ SharedByParents { blue, .. }) if *blue == pos.cars.blue => s,
                _ => shared.insert(self.shared_by_parents::<N>(&pos)),
            };
            self.for_each_parent_on::<N>(shared, &pos, |idx, parent| f(tag, idx, parent));
        }
    }

    /// [`Units::for_each_parent`] on an `N`×`N` board, given what the
    /// positions with its Blue cars share.
    #[inline(always)]
    fn for_each_parent_on<const N: usize>(
        &self,
        shared: &SharedByParents,
        pos: &Position,
        mut f: impl FnMut(u64, Position),
    ) {
        debug_assert_eq!(shared.blue, pos.cars.blue);
        let Some(half) = &shared.half else { return };
        // The parents are the Blue-to-move positions that reach this
        // position's mirror image by a move of Blue's. Only moves up and
        // down stay in the unit.
        let n = N as u32;
        let cars = self.transpose.apply_on::<N>(pos.cars.red);
        let empty = self.board & !(cars | shared.red);
        let origins: [(u64, i32); 2] = [((cars >> n) & empty, n as i32), ((cars << n) & empty, -(n as i32))];
        if origins[0].0 | origins[1].0 == 0 {
            return;
        }
        let units = self.unit_index().of_size::<N>();
        let blue_code = units.code(cars);
        // A parent's Blue car moved down or up its file: in the reflection
        // of its Blue cars, this position's Red cars, a car moved between
        // two neighbouring squares of one rank.
        let rows = units.blue_rows(pos.cars.red);
        for (sources, step) in origins {
            for source in bits(sources) {
                let target = source.wrapping_add_signed(step);
                let blue_cars = (cars & !(1 << target)) | 1 << source;
                let code = blue_code + units.weight(source) - units.weight(target);
                let (file, below) = (source as usize % N, source.min(target) as usize / N);
                let moved = (pos.cars.red >> (file * N)) ^ 0b11 << below;
                let blue = units.blue_part(blue_cars, code, units.rank_blue_with(&rows, file, moved));
                let (_, idx) = units.locate_from(half.first_with(&blue), &blue, shared.group, shared.red);
                let parent = Position {
                    size: self.size,
                    cars: ByPlayer { blue: blue_cars, red: shared.red },
                    turn: Player::Blue,
                };
                f(idx, parent);
            }
        }
    }
}

/// A move of Blue's into an earlier unit, as the positions with the same
/// Blue cars share it: see [`BlueMoves`].
#[derive(Copy, Clone, Default)]
struct EarlierMove {
    /// The square the car moves to, which Red must leave free; none when
    /// the car leaves.
    target: u64,
    /// Where the child is stored: 0 for a forward move, 1 for a car leaving.
    kind: usize,
    /// The child's Red cars (Blue's after the move, reflected).
    red: u64,
    /// The group of the child's Red cars.
    group: usize,
}

/// What the positions of a half with the same Blue cars share when they
/// are expanded: the moves of those cars and the children's Red cars, which
/// differ from position to position only in whether Red blocks a target.
/// A unit's positions come Blue set by Blue set, so this is worked out once
/// for a run of Red placements.
struct BlueMoves<'a> {
    blue: u64,
    /// Targets of moves up and down (off Blue's own cars): they stay in
    /// the unit, and are only counted.
    sideways: [u64; 2],
    earlier: [EarlierMove; 2 * MAX_CARS],
    moves: usize,
    /// Where forward moves and cars leaving are stored, as in
    /// [`EarlierMove::kind`].
    halves: [Option<InHalf<'a>>; 2],
    /// The number the solver knows the first position of each half's
    /// unit by (see [`Units::expand_range`]).
    first_numbers: [u64; 2],
}

/// The most cars a side has.
const MAX_CARS: usize = super::MAX_SIZE as usize - 1;

impl Dodgem {
    /// [`Units::expand_range`] on an `N`×`N` board: as [`Units::expand`]
    /// position by position, with what a Blue set's positions share worked
    /// out once for them (see [`BlueMoves`]).
    #[inline(always)]
    fn expand_range_on<const N: usize>(
        &self,
        unit: usize,
        range: Range<u64>,
        children: &mut Vec<u64>,
        first_number: impl Fn(usize) -> u64,
        mut f: impl FnMut(u64, Expansion, usize),
    ) {
        let index = self.unit_index();
        let units = index.of_size::<N>();
        let mut shared: Option<BlueMoves> = None;
        index.for_each_on::<N>(unit, range, |idx, cars, reflection| {
            let moves = match &shared {
                Some(moves) if moves.blue == cars.blue => moves,
                _ => shared.insert(self.blue_moves::<N>(cars, &first_number)),
            };
            let in_unit = (moves.sideways[0] & !cars.red).count_ones() + (moves.sideways[1] & !cars.red).count_ones();
            let legal = moves.earlier[..moves.moves].iter().filter(|m| m.target & cars.red == 0);
            if cars.red == 0 || in_unit == 0 && legal.clone().next().is_none() {
                let pos = Position { size: self.size, cars, turn: Player::Blue };
                if let Some(value) = self.terminal_value(&pos) {
                    f(idx, Expansion::Terminal(value), children.len());
                    return;
                }
            }
            // Every child's Blue cars are Red's, reflected.
            debug_assert_eq!(*reflection, units.reflection(cars.red));
            let blue = units.blue_part(reflection.cars, reflection.code, reflection.rank);
            let firsts = moves.halves.each_ref().map(|half| half.as_ref().map(|h| h.first_with(&blue)));
            for m in legal {
                let first = firsts[m.kind].expect("a move's kind has its half");
                let (_, at) = units.locate_from(first, &blue, m.group, m.red);
                children.push(moves.first_numbers[m.kind] + at);
            }
            f(idx, Expansion::Moves { in_unit: in_unit as u8 }, children.len());
        });
    }

    /// The moves of `cars`'s Blue cars and what their children share (see
    /// [`BlueMoves`]); Red's cars only give the half. `first_number` is
    /// as for [`Units::expand_range`].
    #[inline(always)]
    fn blue_moves<const N: usize>(&self, cars: ByPlayer<u64>, first_number: &impl Fn(usize) -> u64) -> BlueMoves<'_> {
        let index = self.unit_index();
        let units = index.of_size::<N>();
        let n = N as u32;
        let blue = cars.blue;
        let free = self.board & !blue;
        let half_moves = index.moves(index.half_of(units.key(cars)).expect("a position's key has its half"));
        let half = |half: u32| (half != NO_HALF).then(|| units.half(half as usize));
        let red = self.transpose.apply_on::<N>(blue);
        let red_code = units.code(red);
        let halves = [half(half_moves.forward), half(half_moves.leaving)];
        let mut moves = BlueMoves {
            blue,
            first_numbers: halves.each_ref().map(|h| h.as_ref().map_or(0, |h| first_number(h.unit()))),
            sideways: [(blue << n) & free, (blue >> n) & free],
            earlier: [EarlierMove::default(); 2 * MAX_CARS],
            moves: 0,
            halves,
        };
        let right = ((blue & !self.last_file) << 1) & free;
        let steps = bits(right).map(|t| (t - 1, Some(t))).chain(bits(blue & self.last_file).map(|e| (e, None)));
        for (source, target) in steps {
            let (red, group) = self.child_red::<N>(red, red_code, source, target);
            moves.earlier[moves.moves] =
                EarlierMove { target: target.map_or(0, |t| 1 << t), kind: usize::from(target.is_none()), red, group };
            moves.moves += 1;
        }
        moves
    }

    /// A child's Red cars and their group, when Blue's car moves from
    /// `source` to `target` (`None` when it leaves): the child is stored as
    /// its mirror image, so the move changes the reflection of Blue's cars,
    /// `red`, whose count vector code is `red_code`.
    #[inline(always)]
    fn child_red<const N: usize>(&self, red: u64, red_code: usize, source: u32, target: Option<u32>) -> (u64, usize) {
        let units = self.unit_index().of_size::<N>();
        let (from, to) = (self.transpose.square(source), target.map_or(0, |t| self.transpose.square(t)));
        let weight = |mask: u64| if mask == 0 { 0 } else { units.weight(mask.trailing_zeros()) };
        (red & !from | to, units.group(red_code + weight(to) - weight(from)))
    }

    /// Calls `f(unit, idx)` for every child of the Blue-to-move `pos` by a
    /// forward move or a car leaving, and if `sideways` by a move up or down
    /// too, each child found as its stored mirror image.
    ///
    /// A child has Red to move, so it is found as its mirror image: Red's
    /// cars reflected (the same for every child) become Blue's, and the
    /// moved car's reflection changes Red's.
    fn for_each_stored_child(&self, pos: &Position, steps: &Steps, sideways: bool, f: impl FnMut(usize, u64)) {
        for_size!(usize::from(self.size), N => {
            let reflection = self.unit_index().of_size::<N>().reflection(pos.cars.red);
            self.for_each_stored_child_on::<N>(pos, &reflection, steps, sideways, f);
        });
    }

    /// [`for_each_stored_child`](Self::for_each_stored_child) on an
    /// `N`×`N` board, given the [`Reflection`] of `pos`'s Red cars (which
    /// a walk through a unit keeps as it goes).
    #[inline(always)]
    fn for_each_stored_child_on<const N: usize>(
        &self,
        pos: &Position,
        reflection: &Reflection,
        steps: &Steps,
        sideways: bool,
        mut f: impl FnMut(usize, u64),
    ) {
        let [right, up, down] = steps.targets;
        let index = self.unit_index();
        let units = index.of_size::<N>();
        let key = units.key(pos.cars);
        let blue = units.blue_part(reflection.cars, reflection.code, reflection.rank);
        let red = self.transpose.apply_on::<N>(pos.cars.blue);
        let red_code = units.code(red);
        // The children of one kind of move share their half and Blue's
        // cars, and so where their numbers start.
        let first_in = |half| units.half(half).first_with(&blue);
        let mut child = |first, source: u32, target: Option<u32>| {
            let (moved, group) = self.child_red::<N>(red, red_code, source, target);
            let (unit, idx) = units.locate_from(first, &blue, group, moved);
            f(unit, idx);
        };
        let moves = index.moves(index.half_of(key).expect("a position's key has its half"));
        if right != 0 {
            debug_assert_ne!(moves.forward, NO_HALF, "a forward move has a unit to go to");
            let first = first_in(moves.forward as usize);
            for target in bits(right) {
                child(first, target - 1, Some(target));
            }
        }
        if steps.exits != 0 {
            debug_assert_ne!(moves.leaving, NO_HALF, "a car leaving has a unit to go to");
            let first = first_in(moves.leaving as usize);
            for exit in bits(steps.exits) {
                child(first, exit, None);
            }
        }
        if sideways && up | down != 0 {
            // Moves up and down keep the sums: the child's mirror image is
            // in the mirror half.
            let first = first_in(moves.sideways as usize);
            let n = u32::from(self.size);
            for target in bits(up) {
                child(first, target - n, Some(target));
            }
            for target in bits(down) {
                child(first, target + n, Some(target));
            }
        }
    }
}

/// Stored positions a second, solving 6×6's units from nothing.
const UNITS_SOLVED_A_SECOND: f64 = 23.3e6;

/// Positions a second, either side to move, walking 6×6 from the start.
const POSITIONS_WALKED_A_SECOND: f64 = 24.7e6;

/// Stored positions a second, counting 6×6's units by distance.
const UNITS_COUNTED_A_SECOND: f64 = 465e6;

/// The stages of a solve to unit files, in seconds: as
/// [`Dodgem::units_stages`] expects them, or as a run took them.
#[derive(Copy, Clone, Debug, serde::Serialize)]
pub struct UnitStages {
    /// Solving the units.
    pub units: f64,
    /// Counting every position by result and distance.
    pub distances: f64,
    /// The walk from the start that counts the reachable positions.
    pub reachable: f64,
}

/// Finished units kept for the units that read them, in a solve in
/// memory: beyond it, a dependency is copied out of the table being made.
const KEPT_IN_MEMORY: u64 = 16 << 20;

impl Dodgem {
    /// The mutual zugzwangs of `unit` (see
    /// [`mutual_zugzwangs`](Self::mutual_zugzwangs)), part by part: a
    /// position and its other side to move are mirror images in one part.
    fn unit_zugzwangs(&self, unit: usize, values: &Solution) -> u64 {
        use rayon::prelude::*;
        let parts = self.unit_index().parts(unit).expect("every unit up to 6x6 has parts small enough");
        let lost = |idx| matches!(values.value(idx), Value::Loss(_));
        for_size!(usize::from(self.size), N => {
            (0..parts.slot_counts().len()).into_par_iter().map(|part| parts.mutual_losses_on::<N>(part, lost)).sum()
        })
    }

    /// How long each stage of a solve to unit files takes on two cores, at
    /// the rates 6×6's solve from nothing ran at here
    /// (`docs/performance/solve-dodgem-6x6.json`, to which a test holds
    /// them).
    pub fn units_stages(&self) -> UnitStages {
        let stored = self.position_count() as f64;
        UnitStages {
            units: stored / UNITS_SOLVED_A_SECOND,
            distances: stored / UNITS_COUNTED_A_SECOND,
            reachable: 2.0 * stored / POSITIONS_WALKED_A_SECOND,
        }
    }

    /// What a solve to unit files takes: its [stages](Self::units_stages),
    /// and the memory 6×6's took (its largest unit and the units it reads,
    /// the parts being solved, and the finished units kept).
    pub fn units_cost(&self) -> Cost {
        let UnitStages { units, distances, reachable } = self.units_stages();
        Cost { seconds: units + distances + reachable, bytes: 6_800_000_000 }
    }

    /// What a full audit of the unit files takes, at the rate 6×6's ran at
    /// here alone (15 million positions a second, either side to move, on
    /// two cores; `docs/notes/benchmarks.md`).
    pub fn audit_cost(&self) -> Cost {
        Cost { seconds: 2.0 * self.position_count() as f64 / 15e6, bytes: 8_000_000_000 }
    }

    /// Solves every unit in memory and puts them one after another: the
    /// table of a board up to [`MAX_FLAT_SIZE`].
    ///
    /// # Errors
    ///
    /// As for [`UnitSolver::solve`].
    pub fn solve_by_units(&self, progress: &dyn Progress) -> Result<Solution, ObtainError> {
        if self.size > MAX_FLAT_SIZE {
            return Err(ObtainError::KeptAsUnits(format!("Dodgem {0}x{0}", self.size)));
        }
        let lens: Vec<u64> = self.unit_index().units().iter().map(|u| u.len).collect();
        let store = UnitsInMemory::new(&lens);
        UnitSolver::new(KEPT_IN_MEMORY).solve(self, &store, progress)?;
        Ok(store.into_solution())
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
            positions: self.position_count(),
        }
    }

    /// Up to [`MAX_FLAT_SIZE`], the solve, then the reachable positions and
    /// the mutual zugzwangs the table's facts keep, at the rate
    /// `docs/performance.md` measured on 5×5 (a test holds it there). Past
    /// it, the solve by unit files and what follows it: see
    /// [`units_stages`](Self::units_stages).
    fn cost(&self) -> Cost {
        if self.size > MAX_FLAT_SIZE {
            return self.units_cost();
        }
        let positions = self.position_count();
        Cost { seconds: positions as f64 * 2.8e-7, bytes: 8 * positions / 7 }
    }

    fn solve(&self, progress: &dyn Progress) -> Result<Solution, ObtainError> {
        self.solve_by_units(progress)
    }

    fn facts(&self, solution: &Solution, progress: &dyn Progress) -> Result<Vec<(&'static str, u64)>, Interrupted> {
        Dodgem::facts(self, solution, progress)
    }

    fn play_facts(&self, solution: &Solution, _: &dyn Progress) -> Result<Vec<(&'static str, u64)>, Interrupted> {
        Ok(Dodgem::play_facts(self, solution))
    }
}
