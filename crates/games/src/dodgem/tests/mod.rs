//! Dodgem's own tests, by what they hold to account: the positions and
//! their notation, the moves and parents the solvers find, the solutions,
//! and the files on disk.

use solved_engine::{DenseIndex, Silent, Value};

use super::*;

mod moves;
mod on_disk;
mod positions;
mod solutions;

fn game(size: u32, objective: Objective) -> Dodgem {
    Dodgem::new(size, objective).unwrap()
}

fn all_games() -> Vec<Dodgem> {
    [2, 3, 4].into_iter().flat_map(|n| [Objective::Normal, Objective::Misere].map(|o| game(n, o))).collect()
}

/// The solved value of every position, by its index in [`EveryPosition`].
fn solved(game: &Dodgem) -> Vec<Value> {
    let solution = game.solve_by_units(&Silent).unwrap();
    let every = EveryPosition(game);
    (0..every.position_count()).map(|idx| solution.value(game.index(&every.unindex(idx)))).collect()
}
