//! Dodgem's units: the positions split by how far each side's cars have
//! come, so that a board too large for one table is solved a piece at a
//! time (see [`solved_engine::units`]).
//!
//! # Units
//!
//! As in [`DodgemIndex`](super::DodgemIndex), only Blue-to-move positions
//! are stored, a Red-to-move one standing for its mirror image. A stored
//! position has a *key* `(b, r, sx, sy)`: Blue's and Red's cars, the sum of
//! Blue's files and the sum of Red's ranks. Blue cars never move left and
//! Red cars never move down, so
//!
//! - a sideways move (Blue up or down) keeps both sums: the child, mirrored,
//!   has the key `(r, b, sy, sx)`;
//! - a forward move (Blue right) leads to `(r, b, sy, sx + 1)`;
//! - a car leaving leads to `(r, b − 1, sy, sx − (n − 1))`.
//!
//! A unit is a key with its mirror key, its two *halves* (one, if the key is
//! its own mirror). Only sideways moves stay in a unit; forward moves raise
//! `sx + sy` and cars leaving lower `b + r`, so solving units by `b + r`
//! upwards and then by `sx + sy` downwards finds every other unit a move
//! leads to solved.
//!
//! # Numbering within a half
//!
//! Positions of a half are numbered densely: Blue's cars, then for each
//! Blue set, Red's cars among the squares left free (see
//! [`reds`](super::reds)). A half keeps, for each of its Blue sets, where
//! that set's positions start.
//!
//! Blue's cars are numbered as their reflection in the diagonal, whose
//! rank sum is Blue's file sum, is among Red's placements on an empty
//! board: grouped by how many cars each file holds, then a digit per file.
//! A move up or down, the only move within a unit, keeps a car in its
//! file: a parent's Blue set is in the group of its position's, one digit
//! apart (see [`ByRows`]).

mod parts;

use std::ops::Range;
use std::sync::{Arc, OnceLock};

use solved_engine::Unit;

use self::parts::ClassTables;
pub(super) use self::parts::Parts;
use super::mirror::Transpose;
use super::red_placements::{ByRows, Reds, Reflection};
use super::{ByPlayer, MAX_SIZE};

/// The most cars a side has.
const MAX_CARS: usize = MAX_SIZE as usize - 1;

/// A key `(b, r, sx, sy)`: cars of each side, Blue's file sum, Red's rank sum.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct Key {
    blue: u8,
    red: u8,
    blue_files: u8,
    red_ranks: u8,
}

impl Key {
    /// The key of the mirror images.
    pub(super) fn mirror(self) -> Key {
        Key { blue: self.red, red: self.blue, blue_files: self.red_ranks, red_ranks: self.blue_files }
    }

    /// The key of the mirror images of this key's positions after a
    /// forward move: what they are stored as.
    pub(super) fn after_forward_move(self) -> Key {
        Key { blue_files: self.blue_files + 1, ..self }.mirror()
    }

    /// The same after a car on file `last` leaves, if there is one.
    pub(super) fn after_leaving(self, last: u8) -> Option<Key> {
        (self.blue > 0 && self.blue_files >= last)
            .then(|| Key { blue: self.blue - 1, blue_files: self.blue_files - last, ..self }.mirror())
    }
}

/// What the numbers of positions with the same Blue cars share.
#[derive(Copy, Clone, Debug)]
pub(super) struct BluePart {
    blue: u64,
    rank: u32,
    profile: usize,
}

/// What [`OfSize::locate`] works out from the Blue cars alone.
#[derive(Copy, Clone, Debug)]
pub(super) struct BlueNumbering {
    part: BluePart,
    /// The key's Blue half.
    key: Key,
}

/// One half of a unit: the positions of one key.
#[derive(Debug)]
struct Half {
    key: Key,
    unit: u32,
    /// Where the half starts in its unit.
    start: u64,
    len: u64,
    /// For each Blue set of the half's class, where its positions start;
    /// one more entry for the end. Made on first use.
    offsets: OnceLock<Box<[u32]>>,
    /// The halves that hold the stored (mirrored) children of its
    /// positions, by kind of move: looked up once, for every position's
    /// children, rather than from keys each time.
    moves: HalfMoves,
}

/// The halves a half's positions move to, as stored: `NO_HALF` where no
/// such move exists.
#[derive(Copy, Clone, Debug)]
pub(super) struct HalfMoves {
    pub(super) forward: u32,
    pub(super) leaving: u32,
    pub(super) sideways: u32,
}

/// The units of one board size, and the numbering of positions in them.
#[derive(Debug)]
pub struct UnitIndex {
    size: u8,
    squares: u32,
    max_sum: usize,
    /// Red's placements given Blue's, and Blue's reflected on an empty board.
    reds: Reds,
    /// The reflection that numbers Blue's cars.
    transpose: Arc<Transpose>,
    /// The Blue sets of each `(b, sx)`, in the order of their ranks.
    classes: Vec<Vec<u64>>,
    halves: Vec<Half>,
    /// The half of each key, or `u32::MAX` for a key without positions.
    half_of_key: Vec<u32>,
    /// Each unit's halves.
    unit_halves: Vec<[u32; 2]>,
    units: Vec<Unit>,
    /// Where each unit starts when the units are put one after another,
    /// and one more entry for the end.
    starts: Vec<u64>,
    /// What splitting units into parts reads: made on first use.
    class_tables: OnceLock<ClassTables>,
}

/// A half that does not exist: a key without positions, or a move that a
/// half's positions do not have.
pub(super) const NO_HALF: u32 = u32::MAX;

/// For each bit of a file (`by_rank` false) or a rank number, the squares
/// of an `N`×`N` board where it is set.
const fn squares_by_bit<const N: usize>(by_rank: bool) -> [u64; 3] {
    let mut masks = [0; 3];
    let mut square = 0;
    while square < N * N {
        let number = if by_rank { square / N } else { square % N };
        let mut bit = 0;
        while bit < 3 {
            if number >> bit & 1 == 1 {
                masks[bit] |= 1 << square;
            }
            bit += 1;
        }
        square += 1;
    }
    masks
}

/// The sum over `cars` of their files (or ranks), as a count per bit of
/// the file rather than a count per file: three counts, not `N − 1`.
#[inline(always)]
fn weighted_count<const N: usize>(cars: u64, by_rank: bool) -> usize {
    let masks = if by_rank { const { squares_by_bit::<N>(true) } } else { const { squares_by_bit::<N>(false) } };
    masks.iter().enumerate().map(|(bit, &mask)| ((cars & mask).count_ones() as usize) << bit).sum()
}

impl UnitIndex {
    /// The units of the `size`×`size` board, whose diagonal reflection is
    /// `transpose`.
    pub(super) fn new(size: u8, transpose: Arc<Transpose>) -> UnitIndex {
        let n = usize::from(size);
        let squares = (n * n) as u32;
        let max_sum = (n - 1) * (n - 1);
        let mut index = UnitIndex {
            size,
            squares,
            max_sum,
            reds: Reds::new(size),
            transpose,
            classes: Vec::new(),
            halves: Vec::new(),
            half_of_key: Vec::new(),
            unit_halves: Vec::new(),
            units: Vec::new(),
            starts: Vec::new(),
            class_tables: OnceLock::new(),
        };
        index.list_classes();
        index.make_units();
        index
    }

    fn n(&self) -> usize {
        usize::from(self.size)
    }

    fn class_number(&self, blue: usize, blue_files: usize) -> usize {
        blue * (self.max_sum + 1) + blue_files
    }

    fn file_sum(&self, cars: u64) -> usize {
        for_size!(self.n(), N => weighted_count::<N>(cars, false))
    }

    fn list_classes(&mut self) {
        let most = self.n() - 1;
        let mut classes = vec![Vec::new(); (MAX_CARS + 1) * (self.max_sum + 1)];
        for b in 0..=most {
            for set in solved_engine::Subsets::new(self.squares, b as u32).iter() {
                classes[self.class_number(b, self.file_sum(set))].push(set);
            }
        }
        for class in &mut classes {
            class.sort_by_cached_key(|&set| self.rank_blue(set));
            // The ranks number each class densely.
            debug_assert!(class.iter().enumerate().all(|(i, &set)| self.rank_blue(set) == i as u32));
        }
        self.classes = classes;
    }

    /// The rank of the Blue set `blue` in its class.
    fn rank_blue(&self, blue: u64) -> u32 {
        for_size!(self.n(), N => self.of_size::<N>().rank_blue(self.transpose.apply_on::<N>(blue)))
    }

    fn key_number(&self, key: Key) -> usize {
        let sums = self.max_sum + 1;
        ((usize::from(key.blue) * self.n() + usize::from(key.red)) * sums + usize::from(key.blue_files)) * sums
            + usize::from(key.red_ranks)
    }

    /// Red placements that go with the Blue set `blue`, with `red` cars and
    /// rank sum `red_ranks`.
    fn red_count(&self, blue: u64, red: usize, red_ranks: usize) -> u32 {
        self.reds.total(self.reds.vector_number(blue), red, red_ranks)
    }

    fn make_units(&mut self) {
        let (n, sums) = (self.n(), self.max_sum + 1);
        let most = n - 1;
        let mut keys = Vec::new();
        for b in 0..=most {
            for r in 0..=most {
                for sx in 0..sums {
                    for sy in 0..sums {
                        let class = &self.classes[self.class_number(b, sx)];
                        let len: u64 = class.iter().map(|&set| u64::from(self.red_count(set, r, sy))).sum();
                        if len > 0 {
                            let key = Key { blue: b as u8, red: r as u8, blue_files: sx as u8, red_ranks: sy as u8 };
                            keys.push((key, len));
                        }
                    }
                }
            }
        }
        let len_of: std::collections::BTreeMap<Key, u64> = keys.iter().copied().collect();
        let mut canonical: Vec<Key> = keys.iter().map(|&(k, _)| k.min(k.mirror())).collect();
        canonical.sort_by_key(|k| (k.blue + k.red, std::cmp::Reverse(k.blue_files + k.red_ranks), *k));
        canonical.dedup();
        self.half_of_key = vec![NO_HALF; n * n * sums * sums];
        for (unit, &key) in canonical.iter().enumerate() {
            let mut halves = [NO_HALF; 2];
            let mut start = 0;
            let both = [key, key.mirror()];
            for (slot, &half_key) in both.iter().enumerate().take(if key == key.mirror() { 1 } else { 2 }) {
                let len = len_of[&half_key];
                let number = self.halves.len() as u32;
                let key_number = self.key_number(half_key);
                self.half_of_key[key_number] = number;
                halves[slot] = number;
                let moves = HalfMoves { forward: NO_HALF, leaving: NO_HALF, sideways: NO_HALF };
                self.halves.push(Half {
                    key: half_key,
                    unit: unit as u32,
                    start,
                    len,
                    offsets: OnceLock::new(),
                    moves,
                });
                start += len;
            }
            self.unit_halves.push(halves);
            self.units.push(Unit { len: start, depends_on: Vec::new() });
        }
        for half in 0..self.halves.len() {
            let key = self.halves[half].key;
            let half_of = |key: Option<Key>| key.and_then(|k| self.half_of(k)).map_or(NO_HALF, |h| h as u32);
            self.halves[half].moves = HalfMoves {
                forward: half_of(Some(key.after_forward_move())),
                leaving: half_of(key.after_leaving(most as u8)),
                sideways: half_of(Some(key.mirror())),
            };
        }
        for unit in 0..self.units.len() {
            let mut depends_on = Vec::new();
            for half in self.unit_halves[unit].into_iter().filter(|&h| h != NO_HALF) {
                let HalfMoves { forward, leaving, .. } = self.halves[half as usize].moves;
                for child in [forward, leaving].into_iter().filter(|&h| h != NO_HALF) {
                    depends_on.push(self.halves[child as usize].unit as usize);
                }
            }
            depends_on.sort_unstable();
            depends_on.dedup();
            debug_assert!(depends_on.iter().all(|&d| d < unit), "units are listed after what they depend on");
            self.units[unit].depends_on = depends_on;
        }
        self.starts = std::iter::once(0)
            .chain(self.units.iter().scan(0, |end, unit| {
                *end += unit.len;
                Some(*end)
            }))
            .collect();
    }

    /// The half holding the positions of `key`, if any.
    pub(super) fn half_of(&self, key: Key) -> Option<usize> {
        let sums = self.max_sum + 1;
        if usize::from(key.blue_files) >= sums || usize::from(key.red_ranks) >= sums {
            return None;
        }
        let half = *self.half_of_key.get(self.key_number(key))?;
        (half != NO_HALF).then_some(half as usize)
    }

    fn offsets<'a>(&self, half: &'a Half) -> &'a [u32] {
        half.offsets.get_or_init(|| {
            let key = half.key;
            let class = &self.classes[self.class_number(key.blue.into(), key.blue_files.into())];
            let mut offsets = Vec::with_capacity(class.len() + 1);
            let mut at = 0u64;
            offsets.push(0);
            for &set in class {
                at += u64::from(self.red_count(set, key.red.into(), key.red_ranks.into()));
                offsets.push(u32::try_from(at).expect("a half has fewer than 2^32 positions"));
            }
            offsets.into_boxed_slice()
        })
    }

    /// The units, in solving order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The positions of all units.
    pub fn count(&self) -> u64 {
        *self.starts.last().expect("one start more than units")
    }

    /// Where `unit` starts when the units are put one after another.
    pub fn start(&self, unit: usize) -> u64 {
        self.starts[unit]
    }

    /// The unit holding position `idx` of the units one after another.
    pub fn unit_at(&self, idx: u64) -> usize {
        self.starts.partition_point(|&s| s <= idx) - 1
    }

    /// The numbering with the board size known when compiling, for the
    /// solver's loops: see [`OfSize`].
    #[inline(always)]
    pub(super) fn of_size<const N: usize>(&self) -> OfSize<'_, N> {
        debug_assert_eq!(N, self.n());
        OfSize(self)
    }

    /// The key of a Blue-to-move position.
    #[inline]
    pub fn key(&self, cars: ByPlayer<u64>) -> Key {
        for_size!(self.n(), N => self.of_size::<N>().key(cars))
    }

    /// The halves the positions of `half` move to (see [`HalfMoves`]).
    #[inline(always)]
    pub(super) fn moves(&self, half: usize) -> HalfMoves {
        self.halves[half].moves
    }

    /// The unit of a Blue-to-move position and its number there.
    #[inline]
    pub fn locate(&self, cars: ByPlayer<u64>) -> (usize, u64) {
        for_size!(self.n(), N => self.of_size::<N>().locate(cars))
    }

    fn halves_of(&self, unit: usize) -> impl Iterator<Item = &Half> {
        self.unit_halves[unit].into_iter().filter(|&h| h != NO_HALF).map(|h| &self.halves[h as usize])
    }

    /// The Blue-to-move position numbered `idx` in `unit`.
    pub fn unindex(&self, unit: usize, idx: u64) -> ByPlayer<u64> {
        let mut found = None;
        self.unindex_ascending(unit, std::iter::once(idx), |_, cars| found = Some(cars));
        found.expect("every index is unindexed")
    }

    /// Calls `f(idx, cars)` for each of `indices`, ascending positions of
    /// `unit`, in order: a position with the Blue cars of the one before
    /// reuses what unindexing that one found.
    pub fn unindex_ascending(
        &self,
        unit: usize,
        indices: impl Iterator<Item = u64>,
        f: impl FnMut(u64, ByPlayer<u64>),
    ) {
        for_size!(self.n(), N => self.unindex_ascending_on::<N>(unit, indices, f));
    }

    /// [`unindex_ascending`](Self::unindex_ascending) on an `N`×`N` board:
    /// each position's Red cars are unranked inline, not by a call that
    /// picks the size again.
    fn unindex_ascending_on<const N: usize>(
        &self,
        unit: usize,
        indices: impl Iterator<Item = u64>,
        mut f: impl FnMut(u64, ByPlayer<u64>),
    ) {
        /// The Blue set of the last position, the numbers of its
        /// positions in its half, and the group its Red cars were in.
        struct Found<'a> {
            half: &'a Half,
            offsets: &'a [u32],
            set: usize,
            blue: u64,
            profile: usize,
            group: usize,
        }
        let mut found: Option<Found> = None;
        for idx in indices {
            let within = |at: &Found| {
                let local = idx.wrapping_sub(at.half.start);
                local < at.half.len && local < u64::from(at.offsets[at.set + 1])
            };
            let mut at = match found.take() {
                Some(at) if within(&at) => at,
                last => {
                    let half =
                        self.halves_of(unit).find(|h| idx < h.start + h.len).expect("position number within its unit");
                    let offsets = self.offsets(half);
                    let local = (idx - half.start) as u32;
                    // Ascending: in the same half, the set is this one or later.
                    let first = last.filter(|l| std::ptr::eq(l.half, half)).map_or(0, |l| l.set);
                    let set = first + offsets[first..].partition_point(|&o| o <= local) - 1;
                    let key = half.key;
                    let blue = self.classes[self.class_number(key.blue.into(), key.blue_files.into())][set];
                    Found { half, offsets, set, blue, profile: self.reds.vector_number_on::<N>(blue), group: 0 }
                }
            };
            let key = at.half.key;
            let rank = (idx - at.half.start) as u32 - at.offsets[at.set];
            let counts = (key.red.into(), key.red_ranks.into());
            let red = self.reds.unrank_on::<N>(at.profile, at.blue, counts, rank, &mut at.group);
            f(idx, ByPlayer { blue: at.blue, red });
            found = Some(at);
        }
    }

    /// Calls `f(idx, cars)` for each position of `unit` numbered in
    /// `range`, in order.
    pub fn for_each(&self, unit: usize, range: Range<u64>, mut f: impl FnMut(u64, ByPlayer<u64>)) {
        for_size!(self.n(), N => self.for_each_on::<N>(unit, range, |idx, cars, _| f(idx, cars)));
    }

    /// [`for_each`](Self::for_each) on an `N`×`N` board, each position
    /// with the [`Reflection`] of its Red cars. A caller that knows `N`
    /// calls this, so that `f` is called from one place and inlined there:
    /// called from the loops of every size, a large `f` (the solver's
    /// expansion of a position) stayed a function, called for every
    /// position.
    #[inline]
    pub(super) fn for_each_on<const N: usize>(
        &self,
        unit: usize,
        range: Range<u64>,
        mut f: impl FnMut(u64, ByPlayer<u64>, &Reflection),
    ) {
        for half in self.halves_of(unit) {
            let (start, end) = (range.start.max(half.start), range.end.min(half.start + half.len));
            if start >= end {
                continue;
            }
            let (lo, hi) = ((start - half.start) as u32, (end - half.start) as u32);
            let offsets = self.offsets(half);
            let key = half.key;
            let class = &self.classes[self.class_number(key.blue.into(), key.blue_files.into())];
            let first = offsets.partition_point(|&o| o <= lo) - 1;
            for (i, &blue) in class.iter().enumerate().skip(first) {
                if offsets[i] >= hi {
                    break;
                }
                let profile = self.reds.vector_number_on::<N>(blue);
                let window = lo.saturating_sub(offsets[i])..hi - offsets[i];
                self.reds.for_each_on::<N>(
                    profile,
                    blue,
                    (key.red.into(), key.red_ranks.into()),
                    window,
                    |rank, red, reflection| {
                        f(half.start + u64::from(offsets[i] + rank), ByPlayer { blue, red }, reflection);
                    },
                );
            }
        }
    }
}

/// Where a half sits in its unit and where its Blue sets start: looked up
/// once for all the positions of a half that a move leads to.
pub(super) struct InHalf<'a> {
    unit: usize,
    start: u64,
    offsets: &'a [u32],
}

impl InHalf<'_> {
    /// The unit the half is in.
    pub(super) fn unit(&self) -> usize {
        self.unit
    }

    /// The unit of the half and the number there of its first position
    /// with `blue`'s cars: what the positions that differ only in Red's
    /// cars share.
    #[inline(always)]
    pub(super) fn first_with(&self, blue: &BluePart) -> (usize, u64) {
        (self.unit, self.start + u64::from(self.offsets[blue.rank as usize]))
    }
}

/// The numbering of an `N`×`N` board's units, `N` known when compiling:
/// the loops over ranks and files unroll and their strides fold. A caller
/// picks the size once (with `for_size!`) for a whole position's children
/// or parents, and everything they number inlines below.
#[derive(Copy, Clone)]
pub(super) struct OfSize<'a, const N: usize>(&'a UnitIndex);

impl<'a, const N: usize> OfSize<'a, N> {
    /// The key of a Blue-to-move position.
    #[inline(always)]
    pub(super) fn key(self, cars: ByPlayer<u64>) -> Key {
        self.with_red(self.blue_key(cars.blue), cars.red)
    }

    /// The half of a key that the Blue cars give, Red's half left 0.
    #[inline(always)]
    fn blue_key(self, blue: u64) -> Key {
        Key { blue: blue.count_ones() as u8, red: 0, blue_files: weighted_count::<N>(blue, false) as u8, red_ranks: 0 }
    }

    /// `key` with Red's half that of the Red cars `red`.
    #[inline(always)]
    fn with_red(self, key: Key, red: u64) -> Key {
        Key { red: red.count_ones() as u8, red_ranks: weighted_count::<N>(red, true) as u8, ..key }
    }

    /// The rank of a Blue set in its class, from its reflection
    /// `reflected` (see the [module](self) doc).
    #[inline(always)]
    pub(super) fn rank_blue(self, reflected: u64) -> u32 {
        self.0.reds.rank_on_empty_on::<N>(reflected)
    }

    /// The [`Reflection`] of the Red cars `red`, worked out afresh.
    #[inline(always)]
    pub(super) fn reflection(self, red: u64) -> Reflection {
        let cars = self.0.transpose.apply_on::<N>(red);
        Reflection { cars, code: self.code(cars), rank: self.rank_blue(red) }
    }

    /// What numbers the Blue sets whose reflections differ from
    /// `reflected` within one rank, a car moved up or down in Blue's
    /// file: see [`ByRows::with_rank`].
    #[inline(always)]
    pub(super) fn blue_rows(self, reflected: u64) -> ByRows<N> {
        self.0.reds.by_rows_on::<N>(self.group(self.code(reflected)), reflected)
    }

    /// The rank of the Blue set whose reflection is that of `rows` with
    /// the cars of rank `y` replaced by `cars` (in its low bits).
    #[inline(always)]
    pub(super) fn rank_blue_with(self, rows: &ByRows<N>, y: usize, cars: u64) -> u32 {
        rows.with_rank(&self.0.reds, y, cars)
    }

    /// The unit of a Blue-to-move position and its number there.
    #[inline(always)]
    pub(super) fn locate(self, cars: ByPlayer<u64>) -> (usize, u64) {
        self.locate_with(&self.blue_numbering(cars.blue), cars.red)
    }

    /// [`locate`](Self::locate) for each of `placements`, each `base` with
    /// one car moved or gone (the children of one position, as stored, and
    /// `base` the position itself in their frame): `base` is numbered once,
    /// and a placement whose Red car moved within its rank is a step from it.
    #[inline(always)]
    pub(super) fn locate_around(
        self,
        base: ByPlayer<u64>,
        placements: impl Iterator<Item = ByPlayer<u64>>,
        mut f: impl FnMut(usize, u64),
    ) {
        let blue = self.blue_numbering(base.blue);
        let (unit, number) = self.locate_with(&blue, base.red);
        let rows = self.0.reds.among_rows_on::<N>(base.blue, base.red);
        for cars in placements {
            if cars.blue != base.blue {
                let (unit, idx) = self.locate(cars);
                f(unit, idx);
                continue;
            }
            let moved = cars.red ^ base.red;
            let (from, to) = (moved.trailing_zeros() as usize / N, (63 - moved.leading_zeros()) as usize / N);
            // Two squares of one rank, one car on them before and after:
            // the same count vector, group and half, one digit changed.
            if moved.count_ones() == 2 && from == to && (cars.red & moved).count_ones() == 1 {
                f(unit, rows.with_rank(&self.0.reds, number, from, cars.red >> (from * N)));
            } else {
                let (unit, idx) = self.locate_with(&blue, cars.red);
                f(unit, idx);
            }
        }
    }

    /// What numbers the positions with the Blue cars `blue`.
    #[inline(always)]
    fn blue_numbering(self, blue: u64) -> BlueNumbering {
        let rank = self.rank_blue(self.0.transpose.apply_on::<N>(blue));
        BlueNumbering { part: self.blue_part(blue, self.code(blue), rank), key: self.blue_key(blue) }
    }

    /// The unit and number of the position with `blue`'s cars and `red`.
    #[inline(always)]
    fn locate_with(self, blue: &BlueNumbering, red: u64) -> (usize, u64) {
        let half = self.0.half_of(self.with_red(blue.key, red)).expect("every legal placement has a unit");
        let group = self.group(self.code(red));
        self.locate_from(self.half(half).first_with(&blue.part), &blue.part, group, red)
    }

    /// The code of the count vector of `cars` (see [`Reds`]): a car moved
    /// from `a` to `b` adds `weight(b) − weight(a)`.
    #[inline(always)]
    pub(super) fn code(self, cars: u64) -> usize {
        self.0.reds.vector_code_on::<N>(cars)
    }

    /// What a car on `square` adds to a [`code`](Self::code).
    #[inline(always)]
    pub(super) fn weight(self, square: u32) -> usize {
        self.0.reds.rank_weight(square)
    }

    /// The group of Red placements whose count vector has `code`.
    #[inline(always)]
    pub(super) fn group(self, code: usize) -> usize {
        self.0.reds.number_of_code(code)
    }

    /// What the numbers of positions with these Blue cars, whose count
    /// vector has `code` and whose [rank](Self::rank_blue) is `rank`, share.
    #[inline(always)]
    pub(super) fn blue_part(self, blue: u64, code: usize, rank: u32) -> BluePart {
        BluePart { blue, rank, profile: self.0.reds.number_of_code(code) }
    }

    /// What numbering a position of `half` needs beside its cars.
    #[inline(always)]
    pub(super) fn half(self, half: usize) -> InHalf<'a> {
        let half = &self.0.halves[half];
        InHalf { unit: half.unit as usize, start: half.start, offsets: self.0.offsets(half) }
    }

    /// The unit and number of the position with `blue`'s cars and `red`,
    /// whose count vector is numbered `group`, given where the first with
    /// `blue`'s cars is (see [`InHalf::first_with`]).
    #[inline(always)]
    pub(super) fn locate_from(
        self,
        (unit, first): (usize, u64),
        blue: &BluePart,
        group: usize,
        red: u64,
    ) -> (usize, u64) {
        (unit, first + u64::from(self.0.reds.rank_in_group_on::<N>(blue.profile, group, blue.blue, red)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_number_every_position_once() {
        for size in 2..=4u8 {
            let index = UnitIndex::new(size, Arc::new(Transpose::new(size)));
            let mut seen = std::collections::HashSet::new();
            for (unit, info) in index.units().iter().enumerate() {
                let mut next = 0;
                index.for_each(unit, 0..info.len, |idx, cars| {
                    assert_eq!(idx, next);
                    next += 1;
                    assert_eq!(index.locate(cars), (unit, idx), "{size}: {cars:?}");
                    assert_eq!(index.unindex(unit, idx), cars);
                    assert!(seen.insert((cars.blue, cars.red)));
                });
                assert_eq!(next, info.len);
                // A window from the middle gives the same positions.
                let (a, b) = (info.len / 3, info.len - info.len / 4);
                let mut from = a;
                index.for_each(unit, a..b, |idx, cars| {
                    assert_eq!((idx, cars), (from, index.unindex(unit, idx)));
                    from += 1;
                });
                assert_eq!(from, b.max(a));
                // Ascending indices with gaps of every length up to 7.
                let picked = (0..info.len).filter(|i| i % 8 < (i / 8) % 8);
                let mut listed = 0;
                index.unindex_ascending(unit, picked.clone(), |idx, cars| {
                    assert_eq!(cars, index.unindex(unit, idx), "{size}x{size} unit {unit} at {idx}");
                    listed += 1;
                });
                assert_eq!(listed, picked.count());
            }
            let n = u32::from(size) * u32::from(size);
            let most = u32::from(size) - 1;
            let all: u64 = (0..=most)
                .flat_map(|b| (0..=most).map(move |r| (b, r)))
                .map(|(b, r)| solved_engine::binomial(n, b) * solved_engine::binomial(n - b, r))
                .sum();
            assert_eq!(seen.len() as u64, all, "{size}x{size}");
        }
    }

    /// The larger boards, each compiled with its own size: windows at the
    /// start, middle and end of a spread of units number both ways alike.
    #[test]
    fn larger_boards_number_sampled_positions_both_ways() {
        for size in 5..=6u8 {
            let index = UnitIndex::new(size, Arc::new(Transpose::new(size)));
            let units = index.units();
            for unit in (0..units.len()).step_by(37).chain([units.len() - 1]) {
                let len = units[unit].len;
                for start in [0, len / 2, len.saturating_sub(300)] {
                    let mut next = start;
                    index.for_each(unit, start..(start + 300).min(len), |idx, cars| {
                        assert_eq!(idx, next);
                        next += 1;
                        assert_eq!(index.locate(cars), (unit, idx), "{size}: {cars:?}");
                        assert_eq!(index.unindex(unit, idx), cars);
                    });
                    assert_eq!(next, (start + 300).min(len), "{size}x{size} unit {unit}");
                    let picked = (start..(start + 3000).min(len)).step_by(7);
                    index.unindex_ascending(unit, picked, |idx, cars| {
                        assert_eq!(cars, index.unindex(unit, idx), "{size}x{size} unit {unit} at {idx}");
                    });
                }
            }
        }
    }
}
