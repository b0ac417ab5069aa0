//! The units solver on toys small enough for the naive solver: the values,
//! the order and resumption of a solve on disk, walks and audits, and ranks.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use super::schedule::SMALL_UNIT;
use super::*;
use crate::game::{DenseIndex, Expansion, Rules, UnitParts};
use crate::naive::solve_naive;
use crate::progress::Silent;
use crate::table::TableKey;
use crate::value::{Plies, Value};

mod on_disk;
mod ranks;
mod solve;
mod walk_and_audit;

/// A toy with cycles inside units: a heap `h` and a phase `p`; the mover
/// at a heap below `stride` has lost, and the heap shrinks by one or two
/// strides from some phases. Unit `h` is heap `h`.
struct Toy {
    heaps: u64,
    phases: u64,
    /// By how much a heap shrinks: past 1, units `stride` apart read each
    /// other and the ones between are independent.
    stride: u64,
    /// Whether phases follow each other in one long line, which makes
    /// games longer than one byte can count, rather than turn in a cycle.
    long: bool,
    /// Whether a unit is offered as one part (see [`ToyPart`]).
    parted: bool,
}

impl Toy {
    /// The phases of a heap's line (in a long toy).
    fn line(&self) -> u64 {
        self.phases - 2
    }

    fn moves(&self, (h, p): (u64, u64), mut f: impl FnMut((u64, u64))) {
        if self.long {
            // Two phases past the line turn in a cycle of their own (draws).
            if p >= self.line() {
                f((h, 2 * self.line() + 1 - p));
                return;
            }
            // Along the line, the last phase dropping to the next heap, and
            // skipping a phase now and then (a choice of who moves last).
            if p + 1 < self.line() {
                f((h, p + 1));
            } else {
                f((h - self.stride, 0));
            }
            if p % 16 == 5 && p + 2 < self.line() {
                f((h, p + 2));
            }
            return;
        }
        f((h, (p + 1) % self.phases));
        if p % 2 == 1 {
            f((h, (2 * p + 1) % self.phases));
        }
        if p % 3 == 0 {
            f((h - self.stride, (p + h) % self.phases));
        }
        if p % 5 == 0 && h >= 2 * self.stride {
            f((h - 2 * self.stride, p));
        }
    }
}

impl Rules for Toy {
    type Position = (u64, u64);

    fn terminal_value(&self, pos: &(u64, u64)) -> Option<Value> {
        (pos.0 < self.stride).then_some(Value::Loss(Plies(0)))
    }

    fn for_each_child(&self, pos: &(u64, u64), f: impl FnMut((u64, u64))) {
        if pos.0 >= self.stride {
            self.moves(*pos, f);
        }
    }
}

impl DenseIndex for Toy {
    fn position_count(&self) -> u64 {
        self.heaps * self.phases
    }

    fn index(&self, pos: &(u64, u64)) -> u64 {
        pos.0 * self.phases + pos.1
    }

    fn unindex(&self, idx: u64) -> (u64, u64) {
        (idx / self.phases, idx % self.phases)
    }
}

impl Units for Toy {
    fn units(&self) -> Vec<Unit> {
        (0..self.heaps)
            .map(|h| {
                let depends_on = [2, 1].iter().filter_map(|k| h.checked_sub(k * self.stride)).map(|d| d as usize);
                Unit { len: self.phases, depends_on: depends_on.collect() }
            })
            .collect()
    }

    fn locate(&self, pos: &(u64, u64)) -> (usize, u64) {
        (pos.0 as usize, pos.1)
    }

    fn unindex_in_unit(&self, unit: usize, idx: u64) -> (u64, u64) {
        (unit as u64, idx)
    }

    fn max_in_unit_moves(&self) -> u8 {
        // A bound, not the most there are: the long toy claims more, which
        // takes counter codes from its byte and brings the byte's longest
        // distance (123) below that of its unit 2.
        if self.long { 6 } else { 2 }
    }

    fn expand(&self, unit: usize, pos: &(u64, u64), mut earlier_child: impl FnMut(usize, u64)) -> Expansion {
        if let Some(value) = self.terminal_value(pos) {
            return Expansion::Terminal(value);
        }
        let mut in_unit = 0;
        self.moves(*pos, |child| {
            if child.0 as usize == unit {
                in_unit += 1;
            } else {
                earlier_child(child.0 as usize, child.1);
            }
        });
        Expansion::Moves { in_unit }
    }

    fn for_each_parent(&self, unit: usize, pos: &(u64, u64), mut f: impl FnMut(u64, (u64, u64))) {
        if (unit as u64) < self.stride {
            return;
        }
        for p in 0..self.phases {
            self.moves((pos.0, p), |child| {
                if child == *pos {
                    f(p, (pos.0, p));
                }
            });
        }
    }

    fn parts(&self, unit: usize) -> Option<impl UnitParts + '_> {
        self.parted.then_some(ToyPart { toy: self, unit })
    }
}

/// A toy's unit as one part, phase `p` in slot `2p + 1`: the even slots
/// hold no position.
struct ToyPart<'a> {
    toy: &'a Toy,
    unit: usize,
}

impl UnitParts for ToyPart<'_> {
    fn slot_counts(&self) -> Vec<u32> {
        vec![2 * self.toy.phases as u32]
    }

    fn expand(&self, _: usize, first_number: impl Fn(usize) -> u64, mut f: impl FnMut(u32, u64, Expansion, &[u64])) {
        let mut children = Vec::new();
        for p in 0..self.toy.phases {
            children.clear();
            let expansion =
                self.toy.expand(self.unit, &(self.unit as u64, p), |to, at| children.push(first_number(to) + at));
            f(2 * p as u32 + 1, p, expansion, &children);
        }
    }

    fn for_each_parent(&self, _: usize, slot: u32, mut f: impl FnMut(u32)) {
        let pos = (self.unit as u64, u64::from(slot / 2));
        self.toy.for_each_parent(self.unit, &pos, |p, _| f(2 * p as u32 + 1));
    }
}

fn toy() -> Toy {
    Toy { heaps: 40, phases: 3000, stride: 1, long: false, parted: false }
}

/// Games of up to 310 plies: the first units fit a byte, the next
/// overflow the solver's byte but not the stored one, the last need two.
fn long_toy() -> Toy {
    Toy { heaps: 6, phases: 64, stride: 1, long: true, parted: false }
}

fn key() -> TableKey {
    TableKey { game: "toy".into(), variant: "v".into(), size: "40".into(), index_version: 1, positions: 0 }
}

fn every_value(units: &[Solution]) -> Vec<Value> {
    units.iter().flat_map(|u| (0..u.len()).map(|i| u.value(i))).collect()
}

/// Stops the solve once it has seen `after` units of progress.
struct StopAfter {
    after: u64,
    seen: AtomicU64,
}

impl Progress for StopAfter {
    fn advance(&self, units: u64) {
        self.seen.fetch_add(units, Relaxed);
    }

    fn should_stop(&self) -> bool {
        self.seen.load(Relaxed) >= self.after
    }
}
