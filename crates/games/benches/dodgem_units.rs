//! The cost of two bytes a position: Dodgem solved by units in memory, one
//! byte a position and then two (as the units whose distances outgrow a
//! byte are solved), alternately, each three times.
//!
//! `cargo bench -p solved-games --bench dodgem_units -- [SIZE]` (5 by
//! default; at most 5, whose units fit one table in memory).

use std::time::Instant;

use solved_engine::Silent;
use solved_engine::Units;
use solved_engine::units::{UnitSolver, UnitsInMemory};
use solved_games::dodgem::{Dodgem, Objective};

fn main() {
    let size = std::env::args().skip(1).find_map(|a| a.parse::<u32>().ok()).unwrap_or(5);
    let game = Dodgem::new(size, Objective::Normal).expect("a board size from 2 to 6");
    let lens: Vec<u64> = game.units().iter().map(|u| u.len).collect();
    let positions: u64 = lens.iter().sum();
    println!("Dodgem {size}x{size} by units, {positions} positions, {} threads", rayon::current_num_threads());
    for round in 1..=3 {
        for (name, solver) in
            [("one byte", UnitSolver::new(16 << 20)), ("two bytes", UnitSolver::new(16 << 20).two_bytes_wide())]
        {
            let store = UnitsInMemory::new(&lens);
            let started = Instant::now();
            solver.solve(&game, &store, &Silent).expect("the units fit a byte, so the table in memory takes them");
            let seconds = started.elapsed().as_secs_f64();
            println!(
                "round {round}, {name:>9}: {seconds:6.2} s, {:.2} M positions/s",
                positions as f64 / seconds / 1e6
            );
        }
    }
}
