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

use std::ops::Range;

#[cfg(doc)]
use solved_engine::units::UnitParts;

use super::{ByPlayer, NO_HALF, Reflection, UnitIndex};

/// Parts of more slots than this are not offered: a part's cells take
/// two bytes a slot, or four, and its positions some thirty bytes each
/// while it is solved. The largest 5×5 part has
/// 781,250 slots; some 6×6 units have parts of a hundred million.
const MAX_PART_SLOTS: u32 = 1 << 22;

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
        let mut tables =
            ClassTables { reflected: Vec::new(), components: Vec::new(), steps: Vec::new(), stepped: Vec::new() };
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
}

impl Component {
    fn slots(&self) -> u32 {
        self.rows.len() as u32 * self.columns.len() as u32
    }
}

/// A unit's parts: see the [module docs](self).
pub(in super::super) struct Parts<'a> {
    index: &'a UnitIndex,
    tables: &'a ClassTables,
    /// Each part's one or two components.
    parts: Vec<Vec<Component>>,
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
                let component = Component {
                    row_class: blue_class,
                    rows: rows.clone(),
                    column_class: red_class,
                    columns: columns.clone(),
                    first: 0,
                    mirror_first: 0,
                };
                if second == NO_HALF && i == j {
                    parts.push(vec![component]);
                    continue;
                }
                let slots = component.slots();
                let mirror = Component {
                    row_class: red_class,
                    rows: columns,
                    column_class: blue_class,
                    columns: rows.clone(),
                    first: slots,
                    mirror_first: 0,
                };
                parts.push(vec![Component { mirror_first: slots, ..component }, mirror]);
            }
        }
        let fits = parts.iter().all(|part| part.iter().map(Component::slots).sum::<u32>() <= MAX_PART_SLOTS);
        fits.then_some(Parts { index: self, tables, parts })
    }
}

impl Parts<'_> {
    /// How many slots each part has.
    pub(in super::super) fn slot_counts(&self) -> Vec<u32> {
        self.parts.iter().map(|part| part.iter().map(Component::slots).sum()).collect()
    }

    /// Calls `f(slot, idx, cars, reflection)` for every position of `part`
    /// on an `N`×`N` board, with its number in the unit and the
    /// [`Reflection`] of its Red cars, in order of their numbers within a
    /// row, Blue set after Blue set.
    #[inline(always)]
    pub(in super::super) fn for_each_position_on<const N: usize>(
        &self,
        part: usize,
        mut f: impl FnMut(u32, u64, ByPlayer<u64>, &Reflection),
    ) {
        let units = self.index.of_size::<N>();
        for component in &self.parts[part] {
            let rows = component.rows.start as usize..component.rows.end as usize;
            let columns = component.columns.start as usize..component.columns.end as usize;
            let blues = &self.index.classes[component.row_class][rows];
            let reflected_reds = &self.index.classes[component.column_class][columns.clone()];
            let reds = &self.tables.reflected[component.column_class][columns];
            let mut slot = component.first;
            for &blue in blues {
                let mut next = None;
                for ((&red, &reflected), rank) in reds.iter().zip(reflected_reds).zip(component.columns.clone()) {
                    if blue & red == 0 {
                        let cars = ByPlayer { blue, red };
                        let idx = next.unwrap_or_else(|| units.locate(cars).1);
                        f(slot, idx, cars, &Reflection { cars: reflected, code: units.code(reflected), rank });
                        next = Some(idx + 1);
                    }
                    slot += 1;
                }
            }
        }
    }

    /// Calls `f(parent)` with the slot of every position of `part` with a
    /// move to the position in `slot`, once per move.
    #[inline(always)]
    pub(in super::super) fn for_each_parent(&self, part: usize, slot: u32, mut f: impl FnMut(u32)) {
        let part = &self.parts[part];
        let component = if slot < part[0].first + part[0].slots() { &part[0] } else { &part[1] };
        let (rows, columns) = (component.rows.len() as u32, component.columns.len() as u32);
        let (row, column) = ((slot - component.first) / columns, (slot - component.first) % columns);
        // The parents' Red cars: this position's Blue cars, reflected.
        let red = self.tables.reflected[component.row_class][(component.rows.start + row) as usize];
        let class = component.column_class;
        let at = (component.columns.start + column) as usize;
        let stepped = &self.tables.stepped[class];
        for step in &stepped[self.tables.steps[class][at] as usize..self.tables.steps[class][at + 1] as usize] {
            // The parent's Blue cars are this position's Red cars with one
            // stepped back: Red's cars, which miss the others, must miss it.
            if red >> step.square & 1 == 0 {
                f(component.mirror_first + (step.set - component.columns.start) * rows + row);
            }
        }
    }
}
