//! Units split over ranks, here threads of one process.

use super::*;

/// Ranks that are threads of this process, for tests: what MPI's ranks
/// do, through a board each posts its words on.
struct ThreadRanks<'a> {
    rank: usize,
    board: &'a Board,
}

struct Board {
    barrier: std::sync::Barrier,
    /// `posted[to][from]`.
    posted: std::sync::Mutex<Vec<Vec<Vec<u64>>>>,
}

impl Board {
    fn new(ranks: usize) -> Board {
        Board {
            barrier: std::sync::Barrier::new(ranks),
            posted: std::sync::Mutex::new(vec![vec![Vec::new(); ranks]; ranks]),
        }
    }
}

impl Ranks for ThreadRanks<'_> {
    fn rank(&self) -> usize {
        self.rank
    }

    fn count(&self) -> usize {
        self.board.posted.lock().unwrap().len()
    }

    fn exchange(&self, outgoing: Vec<Vec<u64>>) -> Vec<u64> {
        for (to, words) in outgoing.into_iter().enumerate() {
            self.board.posted.lock().unwrap()[to][self.rank] = words;
        }
        self.board.barrier.wait();
        let received = std::mem::take(&mut self.board.posted.lock().unwrap()[self.rank]);
        self.board.posted.lock().unwrap()[self.rank] = vec![Vec::new(); received.len()];
        self.board.barrier.wait();
        received.concat()
    }

    fn max(&self, words: &[u64]) -> Vec<u64> {
        let all = self.exchange(vec![words.to_vec(); self.count()]);
        (0..words.len()).map(|i| all.iter().skip(i).step_by(words.len()).copied().max().unwrap()).collect()
    }

    fn or_to_first(&self, words: Vec<u64>) -> Option<Vec<u64>> {
        let len = words.len();
        let mut outgoing = vec![Vec::new(); self.count()];
        outgoing[0] = words;
        let all = self.exchange(outgoing);
        (self.rank == 0).then(|| (0..len).map(|i| all.iter().skip(i).step_by(len).fold(0, |or, w| or | w)).collect())
    }
}

/// Every unit split over three ranks, each seeding its slice and telling
/// the parents it owns: the same files as one process writes, a byte and
/// two bytes wide (every rank widening when one overflows), whatever the
/// slices (some empty on the smaller units).
#[test]
fn units_split_over_three_ranks_are_the_bytes_one_process_writes() {
    let wide = Toy { heaps: 10, phases: 20_000, stride: 1, long: false, parted: false };
    for game in [toy(), wide, long_toy()] {
        let lens = vec![game.phases; game.heaps as usize];
        let dir = tempfile::tempdir().unwrap();
        let one = UnitFiles::new(dir.path().join("one"), key(), lens.clone());
        UnitSolver::new(0).solve(&game, &one, &Silent).unwrap();
        let split = UnitFiles::new(dir.path().join("split"), key(), lens.clone());
        let board = Board::new(3);
        std::thread::scope(|scope| {
            for rank in 0..3 {
                let (game, split, board) = (&game, &split, &board);
                scope.spawn(move || solve_split(game, split, &ThreadRanks { rank, board }, &Silent).unwrap());
            }
        });
        for unit in 0..lens.len() {
            let (a, b) = (std::fs::read(one.path(unit)).unwrap(), std::fs::read(split.path(unit)).unwrap());
            assert!(a == b, "{} phases: unit {unit}", game.phases);
        }
    }
}
