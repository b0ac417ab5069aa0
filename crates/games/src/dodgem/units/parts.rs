//! A unit split into parts that moves within it never leave, for the
//! solver to solve one at a time (see [`UnitParts`]).
//!
//! The only move within a unit is a Blue car stepping up or down its file.
//! It keeps how many cars Blue has on each file, and it keeps Red's cars,
//! so how many Red has on each rank. A half's positions therefore split by
//! these two count vectors into *components*: the Blue sets of one vector
//! by the Red sets of the other. A move's child, stored as its mirror
//! image, lies in the *mirror component*: the mirror half, with the two
//! vectors swapped. A part is a component with its mirror, or one
//! component that is its own mirror.
//!
//! A component numbers its slots Blue set by Red set, row by row; a slot
//! whose cars share a square holds no position. A position's parents
//! step a car of its Red set, which is Blue's in the parents, within the
//! list of Blue sets, so finding them ranks nothing. Neither do its
//! positions' numbers in the unit: within a row they follow one another,
//! since Red's sets given Blue's are numbered by vector, then by the cars
//! of each rank among its free squares, in the order of all its squares.
//! For the same reason a child in an earlier unit is numbered by counting
//! the sets before its own that go with its Blue cars (see
//! [`EarlierNumbers`]).

use std::ops::Range;

#[cfg(doc)]
use solved_engine::UnitParts;

use solved_engine::{Expansion, Value};

use super::{ByPlayer, Key, NO_HALF, UnitIndex};

/// Parts of more slots than this are not offered, and their unit is
/// solved whole: a part's cells take two bytes a slot, or four, and the
/// solver lists each position's slot and each decision in four bytes more
/// while it is solved, a part on each thread (up to about a gigabyte for
/// 6×6's largest part, which `--memory` counts). The largest 5×5 part has
/// 781,250 slots and the largest 6×6 part 120,932,352, so every unit up to
/// 6×6 is solved by parts (a test holds it): a 6×6 unit of 279 million
/// positions whose parts reach 20 million slots took half the time it
/// took whole (`docs/notes/benchmarks.md`).
const MAX_PART_SLOTS: u32 = 1 << 27;

/// What the parts read of each class of Blue sets (the sets of one
/// `(b, sx)`, in the order of their ranks).
#[derive(Debug)]
pub(super) struct ClassTables {
    /// Each set reflected: Red's sets of a class are its sets reflected.
    reflected: Vec<Vec<u64>>,
    /// Where each run of sets with the same count per file starts, and one
    /// more entry for the end.
    components: Vec<Vec<u32>>,
    /// Each set's sets one car step up or down away: those of set `i`
    /// are `steps[i]..steps[i + 1]` of `stepped`.
    steps: Vec<Vec<u32>>,
    stepped: Vec<Vec<Step>>,
    /// For each run of sets with the same counts per file, where its bits
    /// start in `missing`, in words: each run starts a word.
    run_words: Vec<Vec<u32>>,
    /// For each square, a bit for each set that misses it, run after run:
    /// square `s`'s words are `s * words..(s + 1) * words`.
    missing: Vec<Vec<u64>>,
}

/// A set one car step away from another: its place in their class, and
/// the one square it has that the other does not.
#[derive(Copy, Clone, Debug)]
struct Step {
    set: u32,
    square: u32,
}

impl ClassTables {
    pub(super) fn new(index: &UnitIndex) -> ClassTables {
        let n = index.n() as u32;
        let files: Vec<u64> = (0..n).map(|file| (0..n).fold(0, |mask, rank| mask | 1 << (rank * n + file))).collect();
        let counts =
            |set: u64| files.iter().fold(0u64, |vector, &file| vector << 4 | u64::from((set & file).count_ones()));
        let mut tables = ClassTables {
            reflected: Vec::new(),
            components: Vec::new(),
            steps: Vec::new(),
            stepped: Vec::new(),
            run_words: Vec::new(),
            missing: Vec::new(),
        };
        for class in &index.classes {
            tables.reflected.push(class.iter().map(|&set| index.transpose.apply(set)).collect());
            let mut starts: Vec<u32> = (0..class.len() as u32)
                .filter(|&i| i == 0 || counts(class[i as usize]) != counts(class[i as usize - 1]))
                .collect();
            starts.push(class.len() as u32);
            debug_assert!(
                starts
                    .windows(2)
                    .all(|w| (w[0]..w[1]).all(|i| counts(class[i as usize]) == counts(class[w[0] as usize]))),
                "a class's sets come grouped by their counts per file"
            );
            let mut run_words = vec![0];
            for run in starts.windows(2) {
                run_words.push(run_words[run_words.len() - 1] + (run[1] - run[0]).div_ceil(64));
            }
            let words = run_words[run_words.len() - 1] as usize;
            let mut missing = vec![0; (n * n) as usize * words];
            for (run, bounds) in starts.windows(2).enumerate() {
                for at in bounds[0]..bounds[1] {
                    let (local, set) = (at - bounds[0], class[at as usize]);
                    let word = (run_words[run] + local / 64) as usize;
                    for square in (0..n * n).filter(|&square| set >> square & 1 == 0) {
                        missing[square as usize * words + word] |= 1 << (local % 64);
                    }
                }
            }
            tables.run_words.push(run_words);
            tables.missing.push(missing);
            tables.components.push(starts);
            let (mut steps, mut stepped) = (vec![0], Vec::new());
            for &set in class {
                for car in solved_engine::bits(set) {
                    let targets = [car.checked_sub(n), Some(car + n).filter(|&t| t < n * n)];
                    for target in targets.into_iter().flatten().filter(|&t| set & 1 << t == 0) {
                        let other = set & !(1 << car) | 1 << target;
                        stepped.push(Step { set: index.rank_blue(other), square: target });
                    }
                }
                steps.push(stepped.len() as u32);
            }
            tables.steps.push(steps);
            tables.stepped.push(stepped);
        }
        tables
    }
}

/// A component within a part: its Blue sets are the `rows` of class
/// `row_class`, its Red sets the `columns` of class `column_class`,
/// reflected.
#[derive(Clone, Debug)]
struct Component {
    row_class: usize,
    rows: Range<u32>,
    column_class: usize,
    columns: Range<u32>,
    /// Its first slot in the part.
    first: u32,
    /// The first slot of its mirror component, whose rows are its columns
    /// and whose columns its rows.
    mirror_first: u32,
    /// What a slot's offset is multiplied by, for its row, rather than
    /// divided (see [`Component::row_and_column`]).
    by_columns: u64,
}

impl Component {
    fn new(row_class: usize, rows: Range<u32>, column_class: usize, columns: Range<u32>) -> Component {
        // m = ⌊2⁶³ / d⌋ + 1 is 2⁶³ / d plus e / d with 0 < e ≤ d, so x m / 2⁶³
        // is x / d plus x e / (d 2⁶³). For x and d below 2³¹ that is less
        // than 1 / d, too little to reach the next whole number: the floor
        // is ⌊x / d⌋.
        let by_columns = (1 << 63) / columns.len() as u64 + 1;
        Component { row_class, rows, column_class, columns, first: 0, mirror_first: 0, by_columns }
    }

    fn slots(&self) -> u32 {
        self.rows.len() as u32 * self.columns.len() as u32
    }

    /// The row and column of `slot`, a slot of this component: found by a
    /// multiplication, since a division takes several times longer and
    /// every parent told in a layer asks it.
    #[inline(always)]
    fn row_and_column(&self, slot: u32) -> (u32, u32) {
        let offset = slot - self.first;
        let row = ((u128::from(offset) * u128::from(self.by_columns)) >> 63) as u32;
        (row, offset - row * self.columns.len() as u32)
    }
}

/// How a component's children by one kind of move into an earlier unit
/// are numbered there. For each column of the component (a Red set, which
/// is the children's Blue set reflected), a bit for each set of the run the
/// moved Blue sets fall in that can go with it, a word at a time, with the
/// number of the children whose sets come before the word. A child is
/// numbered by a popcount of that column's bits below its set: its Red
/// cars given its Blue cars are numbered, within their run, in the order
/// of the sets that miss Blue's squares, so no Horner step is needed.
struct EarlierNumbers {
    /// The run of the moved sets, as places in their class.
    run: Range<u32>,
    columns: usize,
    /// Word by word, then column by column: a row's positions, read in
    /// the order of their columns, read each kind's words in a row.
    words: Vec<NumberedWord>,
}

impl EarlierNumbers {
    /// The move to `target` (a bit, or none) whose moved set is at `at` in
    /// the run.
    fn earlier_move(&self, target: u64, at: u32) -> EarlierMove<'_> {
        let first = at as usize / 64 * self.columns;
        EarlierMove { target, words: &self.words[first..first + self.columns], below: (1 << (at % 64)) - 1 }
    }
}

/// A word of a column's bits in [`EarlierNumbers`], with the number of the
/// child its lowest bit would give.
#[derive(Copy, Clone)]
struct NumberedWord {
    bits: u64,
    first: u64,
}

/// A move of a row's Blue set into an earlier unit.
#[derive(Copy, Clone)]
struct EarlierMove<'a> {
    /// The square the car moves to, which Red must leave free; none when
    /// the car leaves.
    target: u64,
    /// The words of the moved set's bit, one a column, in
    /// [`EarlierNumbers`]: the row's children by this move are all
    /// numbered from them.
    words: &'a [NumberedWord],
    /// The bits below the moved set's in its word.
    below: u64,
}

impl EarlierMove<'_> {
    /// The number of the child by this move of the position in `column`.
    #[inline(always)]
    fn number(&self, column: usize) -> u64 {
        let word = self.words[column];
        word.first + u64::from((word.bits & self.below).count_ones())
    }
}

/// What finding the parents of a component's positions reads: the class
/// tables cut to the component once, rather than looked up through them
/// for every position decided.
#[derive(Copy, Clone, Debug)]
struct ParentTables<'a> {
    /// Each row's Blue set reflected: the Red cars of its positions'
    /// parents.
    parent_reds: &'a [u64],
    /// Where each column's steps start in `stepped`, and where the last
    /// one's end.
    steps: &'a [u32],
    stepped: &'a [Step],
}

impl<'a> ParentTables<'a> {
    fn new(tables: &'a ClassTables, component: &Component) -> ParentTables<'a> {
        let Component { row_class, column_class, .. } = *component;
        let (rows, columns) = (&component.rows, &component.columns);
        ParentTables {
            parent_reds: &tables.reflected[row_class][rows.start as usize..rows.end as usize],
            steps: &tables.steps[column_class][columns.start as usize..=columns.end as usize],
            stepped: &tables.stepped[column_class],
        }
    }
}

/// A unit's parts: see the [module docs](self).
pub(in super::super) struct Parts<'a> {
    index: &'a UnitIndex,
    tables: &'a ClassTables,
    /// Each part's one or two components.
    parts: Vec<Vec<Component>>,
    /// The [`ParentTables`] of each part's components.
    parent_tables: Vec<Vec<ParentTables<'a>>>,
}

impl UnitIndex {
    /// The parts of `unit`, unless one is too large to propagate in (see
    /// [`MAX_PART_SLOTS`]).
    pub(in super::super) fn parts(&self, unit: usize) -> Option<Parts<'_>> {
        let tables = self.class_tables.get_or_init(|| ClassTables::new(self));
        let [first, second] = self.unit_halves[unit];
        let key = self.halves[first as usize].key;
        let blue_class = self.class_number(key.blue.into(), key.blue_files.into());
        let red_class = self.class_number(key.red.into(), key.red_ranks.into());
        let runs = |class: usize| tables.components[class].windows(2).map(|w| w[0]..w[1]).enumerate();
        let mut parts = Vec::new();
        for (i, rows) in runs(blue_class) {
            for (j, columns) in runs(red_class) {
                // A unit of one half is its own mirror: component (i, j)
                // mirrors (j, i), found once.
                if second == NO_HALF && j < i {
                    continue;
                }
                let component = Component::new(blue_class, rows.clone(), red_class, columns.clone());
                if second == NO_HALF && i == j {
                    parts.push(vec![component]);
                    continue;
                }
                let slots = component.slots();
                let mirror = Component { first: slots, ..Component::new(red_class, columns, blue_class, rows.clone()) };
                parts.push(vec![Component { mirror_first: slots, ..component }, mirror]);
            }
        }
        if parts.iter().any(|part| part.iter().map(Component::slots).sum::<u32>() > MAX_PART_SLOTS) {
            return None;
        }
        let parent_tables = parts
            .iter()
            .map(|part| part.iter().map(|component| ParentTables::new(tables, component)).collect())
            .collect();
        Some(Parts { index: self, tables, parts, parent_tables })
    }
}

impl Parts<'_> {
    /// How many slots each part has.
    pub(in super::super) fn slot_counts(&self) -> Vec<u32> {
        self.parts.iter().map(|part| part.iter().map(Component::slots).sum()).collect()
    }

    /// Expands every position of `part` on an `N`×`N` board, as
    /// [`UnitParts::expand`] does, `terminal` giving the value of a
    /// position whose game is over. Positions come row by row, in the
    /// order of their numbers within a row.
    ///
    /// A child in an earlier unit is numbered by [`EarlierNumbers`]: its
    /// Blue cars are this position's Red cars reflected, the same for a
    /// column of the component, and its Red cars, this position's Blue
    /// cars moved and reflected, fall in one run of sets for each kind of
    /// move.
    pub(in super::super) fn expand_on<const N: usize>(
        &self,
        part: usize,
        first_number: impl Fn(usize) -> u64,
        terminal: impl Fn(ByPlayer<u64>) -> Option<Value>,
        mut f: impl FnMut(u32, u64, Expansion, &[u64]),
    ) {
        let index = self.index;
        let units = index.of_size::<N>();
        let n = N as u32;
        let board = (1u64 << (n * n)) - 1;
        for component in &self.parts[part] {
            let sums = index.max_sum + 1;
            let (b, sx) = (component.row_class / sums, component.row_class % sums);
            let (r, sy) = (component.column_class / sums, component.column_class % sums);
            let key = Key { blue: b as u8, red: r as u8, blue_files: sx as u8, red_ranks: sy as u8 };
            let half_moves = index.moves(index.half_of(key).expect("a component's key has its half"));
            // By kind: a car moving forward from file `f` is kind `f`, a
            // car leaving kind `N - 1`.
            let mut numbers: [Option<EarlierNumbers>; N] = std::array::from_fn(|_| None);
            let rows = component.rows.start as usize..component.rows.end as usize;
            let columns = component.columns.start as usize..component.columns.end as usize;
            let reds = &self.tables.reflected[component.column_class][columns];
            // A row's positions are the columns whose Red cars miss Blue's:
            // the sets of the columns' run that miss Blue's cars reflected,
            // found a word at a time in the class's bits rather than by a
            // test and a branch a slot.
            let column_class = component.column_class;
            let column_runs = &self.tables.components[column_class];
            let run_number = column_runs.partition_point(|&start| start <= component.columns.start) - 1;
            debug_assert_eq!(column_runs[run_number], component.columns.start, "a component's columns are a run");
            let first_word = self.tables.run_words[column_class][run_number] as usize;
            let class_words = *self.tables.run_words[column_class].last().expect("a class has its end") as usize;
            let missing = &self.tables.missing[column_class];
            let column_words = reds.len().div_ceil(64);
            let tail = if reds.len().is_multiple_of(64) { !0 } else { (1u64 << (reds.len() % 64)) - 1 };
            let blues = &index.classes[component.row_class][rows.clone()];
            let blues_reflected = &self.tables.reflected[component.row_class][rows];
            for (row, (&blue, &blue_reflected)) in blues.iter().zip(blues_reflected).enumerate() {
                let row_first = component.first + row as u32 * reds.len() as u32;
                let free = board & !blue;
                let sideways = [(blue << n) & free, (blue >> n) & free];
                // Each of Blue's fewer than `N` cars makes one such move at
                // most: its kind, target and moved set's place in the run.
                let mut found = [(0, 0, 0); N];
                let mut count = 0;
                for car in solved_engine::bits(blue) {
                    let file = car as usize % N;
                    let (kind, target, half, class) = if file == N - 1 {
                        (N - 1, None, half_moves.leaving, index.class_number(b - 1, sx + 1 - N))
                    } else if blue >> (car + 1) & 1 == 0 {
                        (file, Some(car + 1), half_moves.forward, index.class_number(b, sx + 1))
                    } else {
                        continue;
                    };
                    let moved = target.map_or(0, |t| 1 << t) | blue & !(1 << car);
                    let numbers = numbers[kind].get_or_insert_with(|| {
                        self.earlier_numbers::<N>(component, half as usize, class, moved, &first_number)
                    });
                    let at = index.rank_blue(moved) - numbers.run.start;
                    debug_assert!(at < numbers.run.len() as u32, "a kind of move's sets are one run");
                    found[count] = (kind, target.map_or(0, |t| 1 << t), at);
                    count += 1;
                }
                let moves: [EarlierMove; N] = std::array::from_fn(|i| {
                    let (kind, target, at) = found[i];
                    match numbers[kind].as_ref().filter(|_| i < count) {
                        Some(numbers) => numbers.earlier_move(target, at),
                        None => EarlierMove { target: 0, words: &[], below: 0 },
                    }
                });
                let moves = &moves[..count];
                let mut next = None;
                for word in 0..column_words {
                    let mut free = if word + 1 == column_words { tail } else { !0 };
                    for square in solved_engine::bits(blue_reflected) {
                        free &= missing[square as usize * class_words + first_word + word];
                    }
                    for bit in solved_engine::bits(free) {
                        let column = word * 64 + bit as usize;
                        let (red, slot) = (reds[column], row_first + column as u32);
                        debug_assert_eq!(blue & red, 0, "a column found free shares no square with its row");
                        let cars = ByPlayer { blue, red };
                        let idx = next.unwrap_or_else(|| units.locate(cars).1);
                        next = Some(idx + 1);
                        let in_unit = (sideways[0] & !red).count_ones() + (sideways[1] & !red).count_ones();
                        // Every move's number is found, and kept only if Red
                        // leaves its target free: no branch to mispredict.
                        let mut children = [0; N];
                        let mut legal = 0;
                        for m in moves {
                            children[legal] = m.number(column);
                            legal += usize::from(m.target & red == 0);
                        }
                        if (red == 0 || in_unit == 0 && legal == 0)
                            && let Some(value) = terminal(cars)
                        {
                            f(slot, idx, Expansion::Terminal(value), &[]);
                            continue;
                        }
                        f(slot, idx, Expansion::Moves { in_unit: in_unit as u8 }, &children[..legal]);
                    }
                }
            }
        }
    }

    /// The [`EarlierNumbers`] of `component`'s children by one kind of
    /// move, into `half` (of the board's halves), whose Red sets are those
    /// of `class` reflected; `moved` is one child's Red set, unreflected.
    fn earlier_numbers<const N: usize>(
        &self,
        component: &Component,
        half: usize,
        class: usize,
        moved: u64,
        first_number: &impl Fn(usize) -> u64,
    ) -> EarlierNumbers {
        let index = self.index;
        let units = index.of_size::<N>();
        let runs = &self.tables.components[class];
        let at = index.rank_blue(moved);
        let run_number = runs.partition_point(|&start| start <= at) - 1;
        let run = runs[run_number]..runs[run_number + 1];
        let words = run.len().div_ceil(64);
        let first_word = self.tables.run_words[class][run_number] as usize;
        let class_words = *self.tables.run_words[class].last().expect("a class has its end") as usize;
        let missing = &self.tables.missing[class];
        let half = &index.halves[half];
        let (offsets, first) = (index.offsets(half), first_number(half.unit as usize) + half.start);
        // Every child's Red cars have the counts of `moved` reflected.
        let group = units.group(units.code(index.transpose.apply_on::<N>(moved)));
        let tail = if run.len() % 64 == 0 { !0 } else { (1u64 << (run.len() % 64)) - 1 };
        let columns = component.columns.len();
        let empty = NumberedWord { bits: 0, first: 0 };
        let mut numbers = EarlierNumbers { run, columns, words: vec![empty; words * columns] };
        for (at, column) in component.columns.clone().enumerate() {
            // The children's Blue cars, and their reflection, which their
            // Red sets (unreflected) must miss.
            let blue = index.classes[component.column_class][column as usize];
            let reflected = self.tables.reflected[component.column_class][column as usize];
            let profile = units.group(units.code(blue));
            let mut first = first + u64::from(offsets[column as usize] + index.reds.group_start(profile, group));
            for word in 0..words {
                let mut bits = if word + 1 == words { tail } else { !0 };
                for square in solved_engine::bits(reflected) {
                    bits &= missing[square as usize * class_words + first_word + word];
                }
                numbers.words[word * columns + at] = NumberedWord { bits, first };
                first += u64::from(bits.count_ones());
            }
        }
        numbers
    }

    /// How many positions of `part` on an `N`×`N` board, with Blue to
    /// move, lose with either side to move; `lost(idx)` says whether the
    /// position numbered `idx` in the unit loses for Blue to move. With Red
    /// to move a position is stored as its mirror image, which is in the
    /// mirror component, at the slot whose row and column are its column
    /// and row: found by arithmetic, where a position on its own would be
    /// ranked.
    pub(in super::super) fn mutual_losses_on<const N: usize>(&self, part: usize, lost: impl Fn(u64) -> bool) -> u64 {
        let units = self.index.of_size::<N>();
        let components = &self.parts[part];
        let slots: u32 = components.iter().map(Component::slots).sum();
        let mut lost_slots = vec![0u64; slots.div_ceil(64) as usize];
        for component in components {
            let rows = component.rows.start as usize..component.rows.end as usize;
            let columns = component.columns.start as usize..component.columns.end as usize;
            let blues = &self.index.classes[component.row_class][rows];
            let reds = &self.tables.reflected[component.column_class][columns];
            for (row, &blue) in blues.iter().enumerate() {
                let row_first = component.first + row as u32 * reds.len() as u32;
                // A row's positions are numbered one after another.
                let mut next = None;
                for (column, &red) in reds.iter().enumerate().filter(|&(_, &red)| blue & red == 0) {
                    let idx = next.unwrap_or_else(|| units.locate(ByPlayer { blue, red }).1);
                    next = Some(idx + 1);
                    // The empty board, lost for both by the terminal rule, is
                    // not a position of play.
                    if blue | red != 0 && lost(idx) {
                        let slot = row_first + column as u32;
                        lost_slots[slot as usize / 64] |= 1 << (slot % 64);
                    }
                }
            }
        }
        let is_lost = |slot: u32| lost_slots[slot as usize / 64] >> (slot % 64) & 1 == 1;
        let mut count = 0;
        for component in components {
            let (rows, columns) = (component.rows.len() as u32, component.columns.len() as u32);
            for row in 0..rows {
                for column in 0..columns {
                    let slot = component.first + row * columns + column;
                    let mirror = component.mirror_first + column * rows + row;
                    count += u64::from(is_lost(slot) && is_lost(mirror));
                }
            }
        }
        count
    }

    /// Calls `f(parent)` with the slot of every position of `part` with a
    /// move to the position in `slot`, once per move.
    #[inline(always)]
    pub(in super::super) fn for_each_parent(&self, part: usize, slot: u32, mut f: impl FnMut(u32)) {
        let (components, parent_tables) = (&self.parts[part], &self.parent_tables[part]);
        // The second component, if any, starts where the first ends.
        let last = components.len() - 1;
        let which = if slot >= components[last].first { last } else { 0 };
        let (component, tables) = (&components[which], &parent_tables[which]);
        let rows = component.rows.len() as u32;
        let (row, column) = component.row_and_column(slot);
        // The parents' Red cars: this position's Blue cars, reflected.
        let red = tables.parent_reds[row as usize];
        let column = column as usize;
        for step in &tables.stepped[tables.steps[column] as usize..tables.steps[column + 1] as usize] {
            // The parent's Blue cars are this position's Red cars with one
            // stepped back: Red's cars, which miss the others, must miss it.
            if red >> step.square & 1 == 0 {
                f(component.mirror_first + (step.set - component.columns.start) * rows + row);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_splits_into_row_and_column_as_by_division() {
        for columns in (1..=70).chain([625, 4095, 4096, 4097, 1 << 22]) {
            let component = Component { first: 5, ..Component::new(0, 0..1, 0, 0..columns) };
            let offsets = (0..3 * columns).chain([MAX_PART_SLOTS - 1, u32::MAX / 2 - 5]);
            for offset in offsets {
                let slot = component.first + offset;
                assert_eq!(
                    component.row_and_column(slot),
                    (offset / columns, offset % columns),
                    "{offset} / {columns}"
                );
            }
        }
    }
}
