//! Red's cars given Blue's, numbered rank by rank: the inner part of the
//! numbering of a unit's half (see [`UnitIndex`](super::UnitIndex)).
//!
//! A half fixes Red's number of cars `r` and the sum of their ranks `sy`.
//! For a Blue set, Red's placements are grouped by how many Red cars each
//! rank has (a *count vector* `ρ` with `Σ ρ = r` and `Σ y·ρ_y = sy`); within a
//! group, each rank chooses its `ρ_y` cars among the squares Blue leaves
//! free there, independently, so the group is a mixed-radix number with one
//! digit per rank. How many placements a group holds depends only on Blue's
//! count vector (its *profile*), which is what the tables are indexed by.
//!
//! Every step is a fixed loop over the ranks with lookups in tables of a
//! few hundred kilobytes at most, so numbering a position costs no search.

use solved_engine::divide_by_radix;

use super::MAX_SIZE;

const MAX_N: usize = MAX_SIZE as usize;

/// Ways to choose `k` of `f` squares, `f, k ≤ MAX_N`, in a table of
/// eight by eight so that an index masked to three bits needs no check.
const BINOMIALS: [[u32; 8]; 8] = {
    let mut table = [[0; 8]; 8];
    let mut f = 0;
    while f <= MAX_N {
        table[f][0] = 1;
        let mut k = 1;
        while k <= f {
            table[f][k] = table[f - 1][k - 1] + if k < f { table[f - 1][k] } else { 0 };
            k += 1;
        }
        f += 1;
    }
    table
};

/// The numbering of Red placements, for one board size.
#[derive(Debug)]
pub(super) struct Reds {
    n: usize,
    /// The number of each count vector code `Σ ρ_y n^y` with at most
    /// `n − 1` cars, else `u16::MAX`.
    numbers: Vec<u16>,
    /// `n^y` for each square of rank `y`: what a car there adds to a code.
    rank_weights: [u16; 64],
    /// Each numbered count vector.
    vectors: Vec<[u8; MAX_N]>,
    /// For each (profile, count vector): where its group starts among the
    /// groups with its `(r, sy)`, and how many placements it holds.
    groups: Vec<(u32, u32)>,
    /// For each (profile, r, sy): the placements of all its groups.
    totals: Vec<u32>,
    /// For each `(r, sy)`: its count vectors, in order.
    lists: Vec<Vec<u16>>,
    /// A rank's part of a Red placement's number, at `free << n | red`:
    /// the colex rank of its Red cars among its free squares, and above it
    /// (`<< 8`) how many such patterns there are, the radix of its digit.
    /// One load rather than two, and no count of the free squares. Sized
    /// for the largest board, so that an index masked to its bits needs no
    /// check.
    row_terms: Box<[u16; PATTERN_RANKS]>,
    /// The Red cars of each rank, at [`pattern_at`]`(free, k, rank)`.
    patterns: Box<[u8; PATTERNS]>,
    /// For each rank `y` and pattern of cars in it, that rank reflected in
    /// the diagonal: the cars on file `y`.
    reflected_ranks: [[u64; 1 << MAX_N]; MAX_N],
    /// For each pattern of cars in a rank, what its cars add to the code
    /// of the reflection's count vector: `n^x` for a car on file `x`.
    file_weights: [u16; 1 << MAX_N],
    max_sum: usize,
}

/// The most `k`-subsets of at most six squares: `C(6, 3)`.
const MOST_PATTERNS: usize = 20;

/// Entries of [`Reds::patterns`], a power of two above the most indices.
const PATTERNS: usize = 1 << 14;

/// Where [`Reds::patterns`] keeps the `digit`-th pattern of `k` cars among
/// the `free` squares of a rank: strides for the largest board, an index
/// masked to the table, which so needs no check.
#[inline(always)]
const fn pattern_at(free: u64, k: usize, digit: u32) -> usize {
    ((free as usize * (MAX_N + 1) + k) * MOST_PATTERNS + digit as usize) & (PATTERNS - 1)
}

/// The profile of a board without Blue cars: its count vector, all
/// zeros, has code 0 and so the first number.
const EMPTY_BOARD: usize = 0;

/// A placement on an empty board taken apart by ranks (see
/// [`Reds::by_rows_on`]). Moving one of its cars within its rank keeps
/// the count vector, and so the group, and changes one digit: the new
/// number is a step from this one.
#[derive(Copy, Clone, Debug)]
pub(super) struct ByRows<const N: usize> {
    number: u32,
    digits: [u32; N],
    places: [u32; N],
}

impl<const N: usize> ByRows<N> {
    /// The number of the placement with the cars of rank `y` replaced by
    /// `cars`, as many, in its low bits.
    #[inline(always)]
    pub(super) fn with_rank(&self, reds: &Reds, y: usize, cars: u64) -> u32 {
        let digit = reds.empty_row_term::<N>(cars) & 0xff;
        // The step may be down: modular arithmetic, the result in range.
        self.number.wrapping_add(digit.wrapping_sub(self.digits[y % N]).wrapping_mul(self.places[y % N]))
    }
}

/// A Red placement's number among those that go with a Blue set, taken
/// apart by ranks: moving one of its cars within its rank keeps its group
/// and changes one digit, so the new number is a step from the old.
/// ([`ByRows`] is the same for an empty board, where every rank is free.)
#[derive(Copy, Clone, Debug)]
pub(super) struct AmongRows<const N: usize> {
    free: [u64; N],
    digits: [u32; N],
    places: [u32; N],
}

impl<const N: usize> AmongRows<N> {
    /// The number of the placement with the cars of rank `y` replaced by
    /// `cars` (in its low bits, as many), this placement's being `number`.
    #[inline(always)]
    pub(super) fn with_rank(&self, reds: &Reds, number: u64, y: usize, cars: u64) -> u64 {
        let y = y % N;
        let digit = reds.row_term::<N>(self.free[y], cars) & 0xff;
        let step = i64::from(digit) - i64::from(self.digits[y]);
        number.wrapping_add_signed(step * i64::from(self.places[y]))
    }
}

/// What every child of a Blue-to-move position shares from its Red cars,
/// which, reflected, are the children's Blue cars: those cars, their
/// count vector's code and their rank in their class (the number of the
/// Red cars among the placements on an empty board, see
/// [`UnitIndex`](super::UnitIndex)).
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
pub(super) struct Reflection {
    pub(super) cars: u64,
    pub(super) code: usize,
    pub(super) rank: u32,
}

impl Reflection {
    /// The cars of rank `y` changed from `old` to `new` (both in the low
    /// bits, as many), the rank's digit on an empty board worth `place`.
    #[inline(always)]
    fn change_rank<const N: usize>(&mut self, reds: &Reds, y: usize, old: u64, new: u64, place: u32) {
        let row = (1 << N) - 1;
        self.cars ^= reds.reflected_ranks[y % MAX_N][((old ^ new) & row) as usize];
        self.code = self.code + usize::from(reds.file_weights[(new & row) as usize])
            - usize::from(reds.file_weights[(old & row) as usize]);
        let step = (reds.empty_row_term::<N>(new) & 0xff).wrapping_sub(reds.empty_row_term::<N>(old) & 0xff);
        self.rank = self.rank.wrapping_add(step.wrapping_mul(place));
    }
}

/// Entries of the pattern ranks: the free squares and the Red cars of a
/// rank of the largest board.
const PATTERN_RANKS: usize = 1 << (2 * MAX_N);

impl Reds {
    pub(super) fn new(size: u8) -> Reds {
        let n = usize::from(size);
        let most = n - 1;
        let max_sum = most * most;
        let mut powers = [0; MAX_N];
        for (y, power) in powers.iter_mut().enumerate().take(n) {
            *power = n.pow(y as u32);
        }
        let codes = n.pow(n as u32);
        let mut numbers = vec![u16::MAX; codes];
        let mut vectors = Vec::new();
        for (code, number) in numbers.iter_mut().enumerate() {
            let mut vector = [0u8; MAX_N];
            for (y, count) in vector.iter_mut().enumerate().take(n) {
                *count = (code / powers[y] % n) as u8;
            }
            if vector.iter().map(|&c| usize::from(c)).sum::<usize>() <= most {
                *number = vectors.len() as u16;
                vectors.push(vector);
            }
        }
        let sums = max_sum + 1;
        let weighted = |v: &[u8; MAX_N]| (0..n).map(|y| y * usize::from(v[y])).sum::<usize>();
        let cars = |v: &[u8; MAX_N]| v.iter().map(|&c| usize::from(c)).sum::<usize>();
        let mut lists = vec![Vec::new(); n * sums];
        for (number, vector) in vectors.iter().enumerate() {
            lists[cars(vector) * sums + weighted(vector)].push(number as u16);
        }
        let count = vectors.len();
        let mut groups = vec![(0, 0); count * count];
        let mut totals = vec![0; count * n * sums];
        for (profile, blue) in vectors.iter().enumerate() {
            for (list_number, list) in lists.iter().enumerate() {
                let mut start = 0u32;
                for &red in list {
                    let red_counts = &vectors[usize::from(red)];
                    let size: u32 =
                        (0..n).map(|y| BINOMIALS[n - usize::from(blue[y])][usize::from(red_counts[y])]).product();
                    groups[profile * count + usize::from(red)] = (start, size);
                    start += size;
                }
                totals[profile * n * sums + list_number] = start;
            }
        }
        let mut row_terms = Box::new([0u16; PATTERN_RANKS]);
        let mut patterns = Box::new([0u8; PATTERNS]);
        for free in 0..1usize << n {
            let bits: Vec<usize> = (0..n).filter(|b| free & 1 << b != 0).collect();
            for k in 0..=bits.len() {
                let subsets = solved_engine::Subsets::new(bits.len() as u32, k as u32);
                for (rank, subset) in subsets.iter().enumerate() {
                    let red =
                        bits.iter().enumerate().filter(|(i, _)| subset & 1 << i != 0).fold(0, |m, (_, b)| m | 1 << b);
                    let radix = BINOMIALS[bits.len()][k] as u16;
                    row_terms[free << n | red] = radix << 8 | rank as u16;
                    patterns[pattern_at(free as u64, k, rank as u32)] = red as u8;
                }
            }
        }
        debug_assert_eq!(numbers[0], EMPTY_BOARD as u16);
        let rank_weights = std::array::from_fn(|square| if square < n * n { powers[square / n] as u16 } else { 0 });
        let files_of = |pattern: usize| (0..n).filter(move |x| pattern & 1 << x != 0);
        let reflected_ranks =
            std::array::from_fn(|y| std::array::from_fn(|p| files_of(p).fold(0, |m, x| m | 1 << (x * n + y))));
        let file_weights = std::array::from_fn(|p| files_of(p).map(|x| powers[x] as u16).sum());
        Reds {
            n,
            numbers,
            rank_weights,
            vectors,
            groups,
            totals,
            lists,
            row_terms,
            patterns,
            reflected_ranks,
            file_weights,
            max_sum,
        }
    }

    /// The number of the count vector of `cars`, Blue's profile included.
    #[inline]
    pub(super) fn vector_number(&self, cars: u64) -> usize {
        for_size!(self.n, N => self.vector_number_on::<N>(cars))
    }

    /// [`vector_number`](Self::vector_number) with the size known when
    /// compiling: the loop over the ranks unrolled, its shifts constant.
    #[inline(always)]
    pub(super) fn vector_number_on<const N: usize>(&self, cars: u64) -> usize {
        self.number_of_code(self.vector_code_on::<N>(cars))
    }

    /// The count vector of `cars` as a code `Σ ρ_y n^y`. A car moved from
    /// square `a` to `b` changes it by `rank_weight(b) − rank_weight(a)`,
    /// which is how a position's children and parents find theirs.
    #[inline(always)]
    pub(super) fn vector_code_on<const N: usize>(&self, cars: u64) -> usize {
        debug_assert_eq!(N, self.n);
        let row = (1 << N) - 1;
        (0..N).map(|y| ((cars >> (y * N)) & row).count_ones() as usize * N.pow(y as u32)).sum()
    }

    /// What a car on `square` adds to the code of its side's count vector.
    #[inline(always)]
    pub(super) fn rank_weight(&self, square: u32) -> usize {
        usize::from(self.rank_weights[square as usize & 63])
    }

    /// The first number of the placements of group `group` given the Blue
    /// cars of `profile`, among those with their cars and rank sum.
    #[inline(always)]
    pub(super) fn group_start(&self, profile: usize, group: usize) -> u32 {
        self.groups[profile * self.vectors.len() + group].0
    }

    /// The number of the count vector with code `code`.
    #[inline(always)]
    pub(super) fn number_of_code(&self, code: usize) -> usize {
        usize::from(self.numbers[code])
    }

    /// How many Red placements with `red` cars and rank sum `red_ranks`
    /// go with a Blue set of this `profile`.
    #[inline]
    pub(super) fn total(&self, profile: usize, red: usize, red_ranks: usize) -> u32 {
        self.totals[(profile * self.n + red) * (self.max_sum + 1) + red_ranks]
    }

    /// The number of `red`, whose count vector is numbered `group`, among
    /// the placements that go with `blue` (of this profile) and have its
    /// cars and rank sum.
    ///
    /// The solver's hottest arithmetic: every child and parent is numbered
    /// here, so it is compiled for each board size `N`, unrolled. The
    /// callers find the group from a count vector code they update as cars
    /// move, rather than count each rank's cars again.
    #[inline(always)]
    pub(super) fn rank_in_group_on<const N: usize>(&self, profile: usize, group: usize, blue: u64, red: u64) -> u32 {
        debug_assert_eq!(N, self.n);
        debug_assert_eq!(group, self.vector_number_on::<N>(red));
        let row = (1 << N) - 1;
        // Horner's form from the top rank down: one multiplication a rank,
        // where keeping each rank's place value took two.
        let mut rank = 0;
        for y in (0..N).rev() {
            let free = (!blue >> (y * N)) & row;
            let cars = (red >> (y * N)) & row;
            let term = u32::from(self.row_terms[(free << N | cars) as usize & (PATTERN_RANKS - 1)]);
            rank = (term & 0xff) + (term >> 8) * rank;
        }
        self.groups[profile * self.vectors.len() + group].0 + rank
    }

    /// What numbers `red` among the placements that go with `blue`, rank
    /// by rank (see [`AmongRows`]).
    #[inline(always)]
    pub(super) fn among_rows_on<const N: usize>(&self, blue: u64, red: u64) -> AmongRows<N> {
        debug_assert_eq!(N, self.n);
        let row = (1 << N) - 1;
        let (mut free, mut digits, mut places) = ([0; N], [0; N], [0; N]);
        let mut place = 1;
        for y in 0..N {
            free[y] = (!blue >> (y * N)) & row;
            let term = self.row_term::<N>(free[y], red >> (y * N));
            digits[y] = term & 0xff;
            places[y] = place;
            place *= term >> 8;
        }
        AmongRows { free, digits, places }
    }

    /// A rank's part of a placement's number, for the rank's free squares
    /// and its Red cars (in the low bits of `cars`), as in [`row_terms`](Self::row_terms).
    #[inline(always)]
    fn row_term<const N: usize>(&self, free: u64, cars: u64) -> u32 {
        let row = (1 << N) - 1;
        u32::from(self.row_terms[((free & row) << N | cars & row) as usize & (PATTERN_RANKS - 1)])
    }

    /// The number of `cars`, whose count vector is numbered `group`, among
    /// the placements with its cars and rank sum on an empty board; with
    /// each rank's digit and place value, from which the placements that
    /// differ from it within one rank are numbered (see [`ByRows`]).
    #[inline(always)]
    pub(super) fn by_rows_on<const N: usize>(&self, group: usize, cars: u64) -> ByRows<N> {
        debug_assert_eq!(group, self.vector_number_on::<N>(cars));
        let (mut digits, mut places) = ([0; N], [0; N]);
        let (mut rank, mut place) = (0, 1);
        for y in 0..N {
            let term = self.empty_row_term::<N>(cars >> (y * N));
            digits[y] = term & 0xff;
            places[y] = place;
            rank += digits[y] * place;
            place *= term >> 8;
        }
        ByRows { number: self.groups[EMPTY_BOARD * self.vectors.len() + group].0 + rank, digits, places }
    }

    /// The [`Reflection`] of `cars`, whose count vector is numbered
    /// `group`, and each rank's place value on an empty board.
    #[inline(always)]
    fn reflection_on<const N: usize>(&self, group: usize, cars: u64) -> (Reflection, [u32; N]) {
        let row = (1 << N) - 1;
        let rows = self.by_rows_on::<N>(group, cars);
        let (mut reflected, mut code) = (0, 0);
        for y in 0..N {
            let pattern = ((cars >> (y * N)) & row) as usize;
            reflected |= self.reflected_ranks[y % MAX_N][pattern];
            code += usize::from(self.file_weights[pattern]);
        }
        (Reflection { cars: reflected, code, rank: rows.number }, rows.places)
    }

    /// The number of `cars` among the placements with its cars and rank
    /// sum on an empty board: [`by_rows_on`](Self::by_rows_on)'s number alone.
    #[inline(always)]
    pub(super) fn rank_on_empty_on<const N: usize>(&self, cars: u64) -> u32 {
        self.rank_in_group_on::<N>(EMPTY_BOARD, self.vector_number_on::<N>(cars), 0, cars)
    }

    /// A rank's part of a placement's number on an empty board, for the
    /// rank's cars in the low bits of `cars`, as in [`row_terms`](Self::row_terms).
    #[inline(always)]
    fn empty_row_term<const N: usize>(&self, cars: u64) -> u32 {
        let row = (1 << N) - 1;
        u32::from(self.row_terms[(row << N | cars & row) as usize & (PATTERN_RANKS - 1)])
    }

    /// The Red cars of a rank, given its free squares, digit and car count.
    #[inline(always)]
    fn pattern(&self, free: u64, k: usize, digit: u32) -> u64 {
        u64::from(self.patterns[pattern_at(free, k, digit)])
    }

    /// Calls `f(rank, red, reflection)` for the placements of `red` cars
    /// with rank sum `red_ranks` that go with `blue` (of this profile),
    /// whose numbers lie in `window`, in order. The board size is known
    /// when compiling: the odometer's loops over the ranks unroll.
    ///
    /// The placement's [`Reflection`] is kept up to date a rank at a
    /// time as the odometer turns, mostly its first rank alone; a caller
    /// that ignores it has its upkeep compiled away.
    #[inline(always)]
    pub(super) fn for_each_on<const N: usize>(
        &self,
        profile: usize,
        blue: u64,
        (red, red_ranks): (usize, usize),
        window: std::ops::Range<u32>,
        mut f: impl FnMut(u32, u64, &Reflection),
    ) {
        let n = N;
        let row = (1 << N) - 1;
        let free: [u64; N] = std::array::from_fn(|y| (!blue >> (y * n)) & row);
        for &group in &self.lists[red * (self.max_sum + 1) + red_ranks] {
            let (start, size) = self.groups[profile * self.vectors.len() + usize::from(group)];
            let (lo, hi) = (window.start.max(start), window.end.min(start + size));
            if lo >= hi {
                continue;
            }
            let counts = &self.vectors[usize::from(group)];
            // The digits of the first placement, row 0 the fastest.
            let mut digits = [0u32; N];
            let mut radixes = [1u32; N];
            let mut rest = lo - start;
            for y in 0..n {
                radixes[y] = BINOMIALS[free[y].count_ones() as usize & 7][usize::from(counts[y]) & 7];
                digits[y] = rest % radixes[y];
                rest /= radixes[y];
            }
            let mut rows: [u64; N] =
                std::array::from_fn(|y| self.pattern(free[y], counts[y].into(), digits[y]) << (y * n));
            let mut cars: u64 = rows.iter().fold(0, |m, r| m | r);
            let (mut reflection, places) = self.reflection_on::<N>(usize::from(group), cars);
            for rank in lo..hi {
                f(rank, cars, &reflection);
                // The next placement: an odometer over the ranks' digits.
                for y in 0..n {
                    digits[y] += 1;
                    let carry = digits[y] == radixes[y];
                    if carry {
                        digits[y] = 0;
                    }
                    cars &= !rows[y];
                    let old = rows[y] >> (y * n);
                    let new = self.pattern(free[y], counts[y].into(), digits[y]);
                    reflection.change_rank::<N>(self, y, old, new, places[y]);
                    rows[y] = new << (y * n);
                    cars |= rows[y];
                    if !carry {
                        break;
                    }
                }
            }
        }
    }

    /// The Red cars numbered `rank` among the placements with `red` cars and
    /// rank sum `red_ranks` that go with `blue` (of this profile). Their
    /// group is sought among the list's groups from `*from` on, bisecting
    /// unless it is that one; `*from` becomes the group found, for a rank
    /// as large or larger next. The board size is known when compiling:
    /// the loop over the ranks unrolls.
    #[inline(always)]
    pub(super) fn unrank_on<const N: usize>(
        &self,
        profile: usize,
        blue: u64,
        (red, red_ranks): (usize, usize),
        rank: u32,
        from: &mut usize,
    ) -> u64 {
        let (n, row) = (N, (1 << N) - 1);
        let groups = &self.groups[profile * self.vectors.len()..][..self.vectors.len()];
        let list = &self.lists[red * (self.max_sum + 1) + red_ranks];
        // Groups without placements (size 0) share their start with the next.
        let past = |g: &u16| {
            let (start, size) = groups[usize::from(*g)];
            start + size <= rank
        };
        if past(&list[*from]) {
            *from += list[*from..].partition_point(past);
        }
        let group = usize::from(list[*from]);
        let counts = &self.vectors[group];
        let mut rest = rank - groups[group].0;
        let mut cars = 0;
        for y in 0..n {
            let free = (!blue >> (y * n)) & row;
            let radix = BINOMIALS[free.count_ones() as usize & 7][usize::from(counts[y]) & 7];
            // A group's placements, at most C(6, 3)^6 < 2^26, and radices
            // of at most C(6, 3): in the exact range of the reciprocals.
            let quotient = divide_by_radix(rest, radix);
            cars |= self.pattern(free, counts[y].into(), rest - quotient * radix) << (y * n);
            rest = quotient;
        }
        cars
    }
}
