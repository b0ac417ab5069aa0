//! The built-in boards, and random boards for benchmarks.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::{Board, Numbering, Overshoot};

/// The names of the built-in boards.
pub const BUILT_IN: [&str; 3] = ["example-30", "milton-bradley", "milton-bradley-47"];

const EXAMPLE_30: [(u64, u64); 8] = [(26, 0), (20, 8), (16, 3), (18, 6), (2, 21), (4, 7), (10, 25), (19, 28)];

const MILTON_BRADLEY_LADDERS: [(u64, u64); 9] =
    [(1, 38), (4, 14), (9, 31), (21, 42), (28, 84), (36, 44), (51, 67), (71, 91), (80, 100)];

/// The chutes, without the one printings disagree on (48→26 or 47→26).
const MILTON_BRADLEY_CHUTES: [(u64, u64); 9] =
    [(16, 6), (49, 11), (56, 53), (62, 19), (64, 60), (87, 24), (93, 73), (95, 75), (98, 78)];

/// A built-in board under the `overshoot` rule:
///
/// - `example-30`: cells 0 to 29 (start on 0, goal 29), the seed problem's
///   four snakes and four ladders;
/// - `milton-bradley`: Chutes and Ladders, squares 1 to 100 (start off the
///   board on 0), with the chute 48→26;
/// - `milton-bradley-47`: the same with the chute at 47→26, as some
///   printings have it.
pub fn built_in(name: &str, overshoot: Overshoot) -> Option<Board> {
    let milton_bradley = |variable_chute: (u64, u64)| {
        let mut jumps = MILTON_BRADLEY_LADDERS.to_vec();
        jumps.extend(MILTON_BRADLEY_CHUTES);
        jumps.push(variable_chute);
        jumps
    };
    let board = match name {
        "example-30" => Board::new(name, 29, Numbering::Cells, &EXAMPLE_30, overshoot),
        "milton-bradley" => Board::new(name, 100, Numbering::Squares, &milton_bradley((48, 26)), overshoot),
        "milton-bradley-47" => Board::new(name, 100, Numbering::Squares, &milton_bradley((47, 26)), overshoot),
        _ => return None,
    };
    Some(board.expect("built-in boards are valid"))
}

/// A random valid board of `goal` squares with `jumps` jumps, half ladders
/// and half snakes, the same for the same `seed`.
///
/// # Panics
///
/// Panics if the board is too small for that many jumps (more than a third
/// of its squares).
pub fn generate(goal: u32, jumps: usize, seed: u64, overshoot: Overshoot) -> Board {
    assert!(jumps <= goal as usize / 3, "too many jumps for the board");
    let mut rng = StdRng::seed_from_u64(seed);
    let mut chosen: Vec<(u64, u64)> = Vec::new();
    while chosen.len() < jumps {
        let from = rng.random_range(1..goal);
        let to =
            if chosen.len().is_multiple_of(2) { rng.random_range(from + 1..=goal) } else { rng.random_range(0..from) };
        let taken = |square: u32| chosen.iter().any(|&(f, t)| f == u64::from(square) || t == u64::from(square));
        // No square both ends a jump and starts one: no chains, so no cycles.
        if !taken(from) && !taken(to) && to != 0 {
            chosen.push((u64::from(from), u64::from(to)));
        }
    }
    Board::new(&format!("generated-{goal}-{jumps}-{seed}"), u64::from(goal), Numbering::Squares, &chosen, overshoot)
        .expect("generated boards are valid")
}
