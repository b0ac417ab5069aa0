//! The layers of Dodgem's parts on bit planes, the candidate next step
//! after the counters the solver propagates them with today: what one
//! distance layer would cost (see "Dodgem 5×5: what the solve does,
//! counted" and "Dodgem 5×5 solved part by part" in `docs/benchmarks.md`).
//!
//! A move within a unit keeps each side's count of cars per line (Blue's
//! per file, Red's per rank), so a unit splits into components whose
//! slots are a Blue set × a Red set, each set a subset of each of its
//! side's lines. A plane holds one bit per slot, a row per set of the
//! side to move. The side to move wins where one move reaches a plane of
//! losses and loses where all of its moves reach a plane of wins: a row's
//! ORs and ANDs over the rows its moves lead to, each move masked by the
//! other side's sets that leave its target square free.
//!
//! The bench runs the largest 5×5 component's shape (625 × 625 slots) on
//! planes of random bits, which cost what real ones do, for as many
//! layers as the 5×5 solve would take: 38 layers (the mean span of a
//! unit's distances) over all 233,356,176 slots of 5×5, both sides to
//! move, on one thread. It runs once with each plane kept in the layout
//! its reader needs, and once with the planes transposed every layer.
//!
//! `cargo bench -p solved-games --bench dodgem_bit_planes`

use std::hint::black_box;
use std::time::Instant;

/// The board's side.
const N: usize = 5;
/// The 5×5 component's sets of either side: one car on each of four lines.
const COUNTS: [usize; N] = [1, 1, 1, 1, 0];
/// Words a row of the largest component takes: 625 sets of the other side.
const WORDS: usize = 10;
/// All slots of 5×5's components, and the mean span of a unit's distances.
const SLOTS: f64 = 233_356_176.0;
const LAYERS: f64 = 38.0;

/// One side's sets in a component: a subset of each line, numbered in
/// mixed radix, and each set's moves.
struct Sets {
    /// Each set as its subset of each line.
    sets: Vec<[u8; N]>,
    /// For each set, its moves: the set after it and the square the car
    /// moves to, as (line, place along the line).
    moves: Vec<Vec<(usize, usize, usize)>>,
}

impl Sets {
    fn new(counts: [usize; N]) -> Sets {
        let mut sets = vec![[0u8; N]];
        for (line, &count) in counts.iter().enumerate() {
            let subsets = (0u8..1 << N).filter(|s| s.count_ones() as usize == count);
            let subsets: Vec<u8> = subsets.collect();
            sets = sets.iter().flat_map(|set| subsets.iter().map(move |&s| with_line(*set, line, s))).collect();
        }
        let number = |set: &[u8; N]| sets.iter().position(|s| s == set).expect("every set is numbered");
        let moves = sets
            .iter()
            .map(|set| {
                let mut moves = vec![];
                for line in 0..N {
                    for from in (0..N).filter(|&p| set[line] >> p & 1 == 1) {
                        for to in [from.wrapping_sub(1), from + 1] {
                            if to < N && set[line] >> to & 1 == 0 {
                                let after = with_line(*set, line, set[line] ^ (1 << from | 1 << to));
                                moves.push((number(&after), line, to));
                            }
                        }
                    }
                }
                moves
            })
            .collect();
        Sets { sets, moves }
    }

    /// For each square, the sets of this side that leave it free. Squares
    /// are numbered as a move of the other side names them: that side's
    /// line times `N` plus the place along it.
    fn free_masks(&self) -> Vec<[u64; WORDS]> {
        let mut masks = vec![[0u64; WORDS]; N * N];
        for (i, set) in self.sets.iter().enumerate() {
            for line in 0..N {
                for place in (0..N).filter(|&p| set[line] >> p & 1 == 0) {
                    // This side's line `line` at `place` is the other side's
                    // line `place` at `line`.
                    masks[place * N + line][i / 64] |= 1 << (i % 64);
                }
            }
        }
        masks
    }
}

fn with_line(mut set: [u8; N], line: usize, subset: u8) -> [u8; N] {
    set[line] = subset;
    set
}

/// One layer for the side whose sets are `movers`: for each of its rows,
/// the slots with a move to a loss and the slots all of whose moves lead
/// to wins, from the other side's planes (`lost`, `won`, a row per set of
/// the movers after the move).
fn layer(
    movers: &Sets,
    free: &[[u64; WORDS]],
    lost: &[[u64; WORDS]],
    won: &[[u64; WORDS]],
    wins: &mut [[u64; WORDS]],
    losses: &mut [[u64; WORDS]],
) {
    for (row, moves) in movers.moves.iter().enumerate() {
        let (mut win, mut loss) = ([0u64; WORDS], [!0u64; WORDS]);
        for &(after, line, place) in moves {
            let free = &free[line * N + place];
            for k in 0..WORDS {
                win[k] |= lost[after][k] & free[k];
                loss[k] &= won[after][k] | !free[k];
            }
        }
        wins[row] = win;
        losses[row] = loss;
    }
}

/// `src` (a row per set of one side) with rows and columns swapped, in
/// 64 × 64 blocks.
fn transpose(src: &[[u64; WORDS]], dst: &mut [[u64; WORDS]]) {
    for block_row in 0..WORDS {
        for block_col in 0..WORDS {
            let mut block = [0u64; 64];
            for (i, word) in block.iter_mut().enumerate() {
                *word = src.get(block_row * 64 + i).map_or(0, |row| row[block_col]);
            }
            transpose_block(&mut block);
            for (i, &word) in block.iter().enumerate() {
                if let Some(row) = dst.get_mut(block_col * 64 + i) {
                    row[block_row] = word;
                }
            }
        }
    }
}

/// `plane` transposed, through `scratch` (of the same shape: the bench's
/// components are square).
fn turn(plane: &mut Vec<[u64; WORDS]>, scratch: &mut Vec<[u64; WORDS]>) {
    transpose(plane, scratch);
    std::mem::swap(plane, scratch);
}

/// A 64 × 64 bit matrix transposed in place: halves, quarters and so on
/// swapped across the diagonal.
fn transpose_block(block: &mut [u64; 64]) {
    let (mut width, mut mask) = (32, 0x0000_0000_ffff_ffff_u64);
    while width != 0 {
        let mut k = 0;
        while k < 64 {
            let t = ((block[k] >> width) ^ block[k + width]) & mask;
            block[k] ^= t << width;
            block[k + width] ^= t;
            k = (k + width + 1) & !width;
        }
        width >>= 1;
        mask ^= mask << width;
    }
}

fn main() {
    let (blue, red) = (Sets::new(COUNTS), Sets::new(COUNTS));
    let (rows, columns) = (blue.sets.len(), red.sets.len());
    assert!(rows.max(columns) <= WORDS * 64, "a row fits its words");
    let (free_of_red, free_of_blue) = (red.free_masks(), blue.free_masks());
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut random = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut plane = |density: fn(u64, u64) -> u64, len: usize| -> Vec<[u64; WORDS]> {
        (0..len).map(|_| std::array::from_fn(|_| density(random(), random()))).collect()
    };
    let (lost, won) = (plane(|a, b| a & b, columns), plane(|a, b| a | b, columns));
    let (mut wins, mut losses) = (vec![[0; WORDS]; rows], vec![[0; WORDS]; rows]);
    let (mut red_wins, mut red_losses) = (vec![[0; WORDS]; columns], vec![[0; WORDS]; columns]);
    let mut scratch = vec![[0; WORDS]; rows];
    let passes = (SLOTS / (rows * columns) as f64 * LAYERS) as usize;
    println!("{rows} x {columns} slots, {passes} layer passes, one thread");
    for transposed in [false, true] {
        let started = Instant::now();
        let (mut blue_lost, mut blue_won) = (lost.clone(), won.clone());
        for _ in 0..passes {
            if transposed {
                turn(&mut blue_lost, &mut scratch);
                turn(&mut blue_won, &mut scratch);
            }
            layer(&blue, &free_of_red, &blue_lost, &blue_won, &mut wins, &mut losses);
            if transposed {
                turn(&mut wins, &mut scratch);
                turn(&mut losses, &mut scratch);
            }
            // Red moves against Blue's losses and wins, and the other way.
            layer(&red, &free_of_blue, &losses, &wins, &mut red_wins, &mut red_losses);
            std::mem::swap(&mut blue_lost, &mut red_losses);
            std::mem::swap(&mut blue_won, &mut red_wins);
            black_box((&blue_lost, &blue_won));
        }
        let seconds = started.elapsed().as_secs_f64();
        let how = if transposed { "transposed every layer" } else { "kept in both layouts" };
        println!(
            "planes {how:>22}: {seconds:6.2} s, {:.2e} slot-layers/s",
            passes as f64 * (rows * columns) as f64 / seconds
        );
    }
}
