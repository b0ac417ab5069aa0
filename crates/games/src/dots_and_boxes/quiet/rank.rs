//! A dense rank of the quiet positions of a board: sets of lines in which
//! no box has exactly three sides.
//!
//! Whether a box is quiet depends on the lines of its own strip only: its
//! top and bottom boundaries and its cross lines. So a position is read as
//! *segments*: the first is the top boundary of the first strip, and
//! segment `i` (from 1) the cross lines of strip `i - 1` with the boundary
//! below it. Which segments may follow depends only on the boundary before
//! them, so counting the quiet completions of every boundary, strip by
//! strip from the bottom, ranks the quiet positions in lexicographic order
//! of their segments, densely, with one table entry read per segment.
//!
//! The same tables, with the number of lines drawn counted too, walk the
//! quiet positions of one layer (lines drawn) in rank order.

use std::ops::Range;

use super::layout::Layout;

/// The quiet positions of a board, ranked.
#[derive(Clone, Debug)]
pub struct QuietRank {
    width: u32,
    strips: u32,
    /// Bits of a segment after the first: `2 * width + 1`.
    segment_bits: u32,
    /// For segment `i` from 1, boundary before it `b` and segment `s`: the
    /// quiet positions whose first `i` segments are the same and whose
    /// segment `i` is below `s`, at `((i - 1) << width | b) << segment_bits | s`.
    /// Unused for segments that would not be quiet.
    below: Vec<u64>,
    /// The same for the first segment.
    below_first: Vec<u64>,
    /// For segment `i` from 1 and boundary `b`, the quiet segments that may
    /// follow, in increasing order.
    next: Vec<Vec<u32>>,
    /// The quiet first segments, in increasing order.
    first: Vec<u32>,
    /// For segment `i` (from 0), the boundary it ends with `b` and a number
    /// of lines `k`: the quiet completions with exactly `k` more lines, at
    /// `(i << width | b) * (lines + 1) + k`.
    completions: Vec<u64>,
    /// For segment `i` and the boundary it ends with, the quiet
    /// completions with any number of lines, at `i << width | b`.
    totals: Vec<u64>,
    lines: u32,
    count: u64,
}

impl QuietRank {
    /// The ranking tables of `layout`.
    pub fn new(layout: &Layout) -> QuietRank {
        let (width, strips) = (layout.width(), layout.strips());
        let segment_bits = 2 * width + 1;
        let lines = layout.line_count();
        let forced = layout.forced();
        let boundaries = 1usize << width;
        let first_forced = (forced & ((1 << width) - 1)) as u32;
        let forced_in = |i: u32| (forced >> segment_offset(width, i) & ((1 << segment_bits) - 1)) as u32;
        let quiet_after = |boundary: u32, segment: u32| {
            let (cross, below) = (segment & ((1 << (width + 1)) - 1), segment >> (width + 1));
            (0..width).all(|j| {
                let sides = (boundary >> j & 1) + (below >> j & 1) + (cross >> j & 1) + (cross >> (j + 1) & 1);
                sides != 3
            })
        };
        let mut next = Vec::with_capacity(strips as usize * boundaries);
        for i in 1..=strips {
            let forced = forced_in(i);
            for boundary in 0..boundaries as u32 {
                next.push(
                    (0..1u32 << segment_bits)
                        .filter(|&s| s & forced == forced && quiet_after(boundary, s))
                        .collect::<Vec<u32>>(),
                );
            }
        }
        let first: Vec<u32> = (0..1u32 << width).filter(|&s| s & first_forced == first_forced).collect();
        // Completions, from the last segment up.
        let stride = lines as usize + 1;
        let mut completions = vec![0u64; (strips as usize + 1) * boundaries * stride];
        for boundary in 0..boundaries {
            completions[(strips as usize * boundaries + boundary) * stride] = 1;
        }
        for i in (0..strips).rev() {
            for boundary in 0..boundaries {
                let at = (i as usize * boundaries + boundary) * stride;
                for &s in &next[i as usize * boundaries + boundary] {
                    let after = ((i as usize + 1) * boundaries + (s >> (width + 1)) as usize) * stride;
                    let drawn = s.count_ones() as usize;
                    for k in drawn..stride {
                        completions[at + k] += completions[after + k - drawn];
                    }
                }
            }
        }
        let totals: Vec<u64> = completions.chunks(stride).map(|counts| counts.iter().sum()).collect();
        let all = |i: u32, boundary: u32| totals[i as usize * boundaries + boundary as usize];
        let mut below = vec![0u64; (strips as usize * boundaries) << segment_bits];
        for i in 1..=strips {
            for boundary in 0..boundaries as u32 {
                let mut sum = 0;
                for &s in &next[(i as usize - 1) * boundaries + boundary as usize] {
                    below[(((i as usize - 1) << width) | boundary as usize) << segment_bits | s as usize] = sum;
                    sum += all(i, s >> (width + 1));
                }
            }
        }
        let mut below_first = vec![0u64; boundaries];
        let mut count = 0;
        for &s in &first {
            below_first[s as usize] = count;
            count += all(0, s);
        }
        QuietRank { width, strips, segment_bits, below, below_first, next, first, completions, totals, lines, count }
    }

    /// The number of quiet positions.
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The number of quiet positions that start with `prefix` and have
    /// `lines` lines drawn (any number for `None`).
    pub fn count_from(&self, prefix: &Prefix, lines: Option<u32>) -> u64 {
        let i = prefix.segments - 1;
        match lines {
            Some(k) => self.completions_after(i, prefix.boundary, k.checked_sub(prefix.mask.count_ones())),
            None => (0..=self.lines).map(|k| self.completions_after(i, prefix.boundary, Some(k))).sum(),
        }
    }

    /// Completions after segment `i` ended with boundary `boundary`, with
    /// exactly `k` more lines (none for `None`).
    fn completions_after(&self, i: u32, boundary: u32, k: Option<u32>) -> u64 {
        let Some(k) = k.filter(|&k| k <= self.lines) else { return 0 };
        self.completions[((i as usize) << self.width | boundary as usize) * (self.lines as usize + 1) + k as usize]
    }

    /// The rank of the quiet position `mask`.
    ///
    /// A mask that is not quiet gets a meaningless rank; callers know
    /// which positions are quiet.
    #[inline]
    pub fn rank(&self, mask: u64) -> u64 {
        let width = self.width;
        let first = (mask & ((1 << width) - 1)) as usize;
        let mut rank = self.below_first[first];
        let mut boundary = first;
        let segment_mask = (1u64 << self.segment_bits) - 1;
        for i in 1..=self.strips {
            let s = (mask >> segment_offset(width, i) & segment_mask) as usize;
            rank += self.below[(((i as usize - 1) << width) | boundary) << self.segment_bits | s];
            boundary = s >> (width + 1);
        }
        rank
    }

    /// Calls `visit` with the rank and mask of every quiet position that
    /// starts with `prefix` and has `lines` lines drawn (any number for
    /// `None`), in rank order.
    pub fn walk(&self, prefix: &Prefix, lines: Option<u32>, visit: &mut impl FnMut(u64, u64)) {
        let left = match lines {
            Some(k) => match k.checked_sub(prefix.mask.count_ones()) {
                Some(left) => Some(left),
                None => return,
            },
            None => None,
        };
        self.walk_from(prefix.segments, prefix.boundary, prefix.mask, prefix.rank, left, visit);
    }

    fn walk_from(
        &self,
        i: u32,
        boundary: u32,
        mask: u64,
        rank: u64,
        left: Option<u32>,
        visit: &mut impl FnMut(u64, u64),
    ) {
        if i > self.strips {
            if left.is_none_or(|k| k == 0) {
                visit(rank, mask);
            }
            return;
        }
        let boundaries = 1usize << self.width;
        let offset = segment_offset(self.width, i);
        let table = (((i as usize - 1) << self.width) | boundary as usize) << self.segment_bits;
        for &s in &self.next[(i as usize - 1) * boundaries + boundary as usize] {
            let after = s >> (self.width + 1);
            let left = match left {
                Some(k) => {
                    let Some(k) = k.checked_sub(s.count_ones()) else { continue };
                    if self.completions_after(i, after, Some(k)) == 0 {
                        continue;
                    }
                    Some(k)
                }
                None => None,
            };
            let rank = rank + self.below[table | s as usize];
            self.walk_from(i + 1, after, mask | u64::from(s) << offset, rank, left, visit);
        }
    }

    /// Calls `visit` with the rank and mask of every quiet position whose
    /// rank is in `range`, in rank order.
    pub fn walk_range(&self, range: Range<u64>, visit: &mut impl FnMut(u64, u64)) {
        for &s in &self.first {
            let rank = self.below_first[s as usize];
            if rank >= range.end {
                return;
            }
            if rank + self.totals[s as usize] > range.start {
                self.range_from(1, s, u64::from(s), rank, &range, visit);
            }
        }
    }

    fn range_from(
        &self,
        i: u32,
        boundary: u32,
        mask: u64,
        rank: u64,
        range: &Range<u64>,
        visit: &mut impl FnMut(u64, u64),
    ) {
        if i > self.strips {
            if range.contains(&rank) {
                visit(rank, mask);
            }
            return;
        }
        let offset = segment_offset(self.width, i);
        let table = (((i as usize - 1) << self.width) | boundary as usize) << self.segment_bits;
        for &s in &self.next[(i as usize - 1) * (1 << self.width) + boundary as usize] {
            let after = s >> (self.width + 1);
            let start = rank + self.below[table | s as usize];
            if start >= range.end {
                return;
            }
            if start + self.totals[((i as usize) << self.width) | after as usize] > range.start {
                self.range_from(i + 1, after, mask | u64::from(s) << offset, start, range, visit);
            }
        }
    }

    /// The prefixes of `segments` segments (at least 1) of the quiet
    /// positions with `lines` lines (any number for `None`), in rank order:
    /// pieces of work that walk the positions between them.
    pub fn prefixes(&self, segments: u32, lines: Option<u32>) -> Vec<Prefix> {
        let segments = segments.clamp(1, self.strips + 1);
        let mut out = Vec::new();
        for &s in &self.first {
            let start = Prefix { segments: 1, boundary: s, mask: u64::from(s), rank: self.below_first[s as usize] };
            self.extend(start, segments, lines, &mut out);
        }
        out
    }

    fn extend(&self, prefix: Prefix, segments: u32, lines: Option<u32>, out: &mut Vec<Prefix>) {
        let drawn = prefix.mask.count_ones();
        if let Some(k) = lines
            && self.completions_after(prefix.segments - 1, prefix.boundary, k.checked_sub(drawn)) == 0
        {
            return;
        }
        if prefix.segments == segments {
            out.push(prefix);
            return;
        }
        let i = prefix.segments;
        let table = (((i as usize - 1) << self.width) | prefix.boundary as usize) << self.segment_bits;
        for &s in &self.next[(i as usize - 1) * (1 << self.width) + prefix.boundary as usize] {
            let next = Prefix {
                segments: i + 1,
                boundary: s >> (self.width + 1),
                mask: prefix.mask | u64::from(s) << segment_offset(self.width, i),
                rank: prefix.rank + self.below[table | s as usize],
            };
            self.extend(next, segments, lines, out);
        }
    }
}

/// The first segments of some quiet positions: what [`QuietRank::walk`]
/// starts from.
#[derive(Copy, Clone, Debug)]
pub struct Prefix {
    segments: u32,
    boundary: u32,
    mask: u64,
    rank: u64,
}

/// The first bit of segment `i`: the first takes `width` bits, the others
/// `2 * width + 1`.
fn segment_offset(width: u32, i: u32) -> u32 {
    if i == 0 { 0 } else { width + (i - 1) * (2 * width + 1) }
}
