//! The retrograde solver against the naive one on random graphs of units
//! in a line, with cycles, draws and terminal positions of every kind.

use std::ops::Range;
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use solved_engine::{DenseIndex, Expansion, Plies, Rules, Silent, Unit, Units, Value, audit, retrograde, solve_naive};

/// A game given by its graph: `children[i]` lists the moves of position `i`.
/// Its units are tiers: runs of the index, in solving order, each of which
/// moves leave only towards tiers listed earlier.
#[derive(Debug)]
struct Graph {
    tiers: Vec<Range<u64>>,
    tier_of: Vec<usize>,
    terminal: Vec<Option<Value>>,
    children: Vec<Vec<u64>>,
    parents: Vec<Vec<u64>>,
    max_in_tier: u8,
}

impl Graph {
    fn random(rng: &mut StdRng) -> Graph {
        let tier_count = rng.random_range(1..5);
        let mut tiers = Vec::new();
        let mut start = 0;
        for _ in 0..tier_count {
            let len = rng.random_range(1..60);
            tiers.push(start..start + len);
            start += len;
        }
        let count = start as usize;
        let tier_of: Vec<usize> =
            (0..count as u64).map(|i| tiers.iter().position(|t| t.contains(&i)).unwrap()).collect();
        let mut terminal = vec![None; count];
        let mut children = vec![Vec::new(); count];
        for idx in 0..count {
            if rng.random_bool(0.15) {
                terminal[idx] = Some(match rng.random_range(0..3) {
                    0 => Value::Win(Plies(0)),
                    1 => Value::Loss(Plies(0)),
                    _ => Value::Draw,
                });
                continue;
            }
            let moves = rng.random_range(1..6);
            let tier = &tiers[tier_of[idx]];
            for _ in 0..moves {
                // Mostly in-tier (cycles), sometimes into any earlier tier;
                // repeated children exercise move multiplicity.
                let child = if tier_of[idx] > 0 && rng.random_bool(0.3) {
                    rng.random_range(0..tier.start)
                } else {
                    rng.random_range(tier.clone())
                };
                children[idx].push(child);
            }
        }
        let mut parents = vec![Vec::new(); count];
        let mut max_in_tier = 0;
        for (idx, kids) in children.iter().enumerate() {
            let in_tier = kids.iter().filter(|&&c| tier_of[c as usize] == tier_of[idx]).count();
            max_in_tier = max_in_tier.max(in_tier as u8);
            for &c in kids.iter().filter(|&&c| tier_of[c as usize] == tier_of[idx]) {
                parents[c as usize].push(idx as u64);
            }
        }
        let graph = Graph { tiers, tier_of, terminal, children, parents, max_in_tier };
        if rng.random_bool(0.5) { graph.reversed() } else { graph }
    }

    /// The same game with its index reversed, so that the tiers solved
    /// first lie last in the index.
    fn reversed(self) -> Graph {
        let last = self.terminal.len() as u64 - 1;
        let flip = |idx: u64| last - idx;
        let flip_all = |list: &Vec<Vec<u64>>| -> Vec<Vec<u64>> {
            (0..=last).map(|idx| list[flip(idx) as usize].iter().map(|&c| flip(c)).collect()).collect()
        };
        Graph {
            tiers: self.tiers.iter().map(|t| flip(t.end - 1)..flip(t.start) + 1).collect(),
            tier_of: (0..=last).map(|idx| self.tier_of[flip(idx) as usize]).collect(),
            terminal: (0..=last).map(|idx| self.terminal[flip(idx) as usize]).collect(),
            children: flip_all(&self.children),
            parents: flip_all(&self.parents),
            max_in_tier: self.max_in_tier,
        }
    }

    /// The tier of `idx` and its number there.
    fn locate(&self, idx: u64) -> (usize, u64) {
        let tier = self.tier_of[idx as usize];
        (tier, idx - self.tiers[tier].start)
    }
}

impl Rules for Graph {
    type Position = u64;

    fn terminal_value(&self, pos: &u64) -> Option<Value> {
        self.terminal[*pos as usize]
    }

    fn for_each_child(&self, pos: &u64, f: impl FnMut(u64)) {
        self.children[*pos as usize].iter().copied().for_each(f);
    }
}

impl DenseIndex for Graph {
    fn position_count(&self) -> u64 {
        self.terminal.len() as u64
    }

    fn index(&self, pos: &u64) -> u64 {
        *pos
    }

    fn unindex(&self, idx: u64) -> u64 {
        idx
    }
}

impl Units for Graph {
    fn units(&self) -> Vec<Unit> {
        let unit = |(number, tier): (usize, &Range<u64>)| Unit {
            len: tier.end - tier.start,
            depends_on: (0..number).collect(),
        };
        self.tiers.iter().enumerate().map(unit).collect()
    }

    fn locate(&self, pos: &u64) -> (usize, u64) {
        self.locate(*pos)
    }

    fn unindex_in_unit(&self, unit: usize, idx: u64) -> u64 {
        self.tiers[unit].start + idx
    }

    fn max_in_unit_moves(&self) -> u8 {
        self.max_in_tier
    }

    fn expand(&self, unit: usize, pos: &u64, mut earlier_child: impl FnMut(usize, u64)) -> Expansion {
        let idx = *pos as usize;
        if let Some(value) = self.terminal[idx] {
            return Expansion::Terminal(value);
        }
        let mut in_unit = 0;
        for &c in &self.children[idx] {
            match self.locate(c) {
                (tier, _) if tier == unit => in_unit += 1,
                (tier, at) => earlier_child(tier, at),
            }
        }
        Expansion::Moves { in_unit }
    }

    fn for_each_parent(&self, unit: usize, pos: &u64, mut f: impl FnMut(u64, u64)) {
        let start = self.tiers[unit].start;
        self.parents[*pos as usize].iter().for_each(|&p| f(p - start, p));
    }
}

/// The solution's values with `threads` threads, each task taking `chunk`
/// positions: small chunks put several tasks on every tier, racing for the
/// same words.
fn solve_with_threads(graph: &Graph, threads: usize, chunk: u64) -> Vec<Value> {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
    let solver = retrograde::Solver::new().with_chunk_size(chunk);
    let solution = pool.install(|| solver.solve(graph, &Silent)).unwrap();
    (0..solution.len()).map(|i| solution.value(i)).collect()
}

#[test]
fn retrograde_agrees_with_naive_on_random_graphs() {
    let mut rng = StdRng::seed_from_u64(0x5eed);
    let mut decisive = 0;
    for case in 0..400 {
        let graph = Graph::random(&mut rng);
        let naive = solve_naive(&graph);
        let solution = retrograde::solve(&graph, &Silent).unwrap();
        for (idx, expected) in naive.iter().enumerate() {
            let got = solution.value(idx as u64);
            assert_eq!(got, *expected, "case {case}, position {idx}: {graph:?}");
        }
        let report = audit(&graph, &solution, |&pos| pos, &Silent).unwrap();
        assert_eq!(report.disagreements, 0, "case {case}: {report:?}");
        decisive += naive.iter().filter(|v| **v != Value::Draw).count();
    }
    assert!(decisive > 1000, "the random graphs should not be all draws");
}

#[test]
fn solutions_are_identical_at_any_thread_count() {
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..50 {
        let graph = Graph::random(&mut rng);
        let alone = solve_with_threads(&graph, 1, 1 << 15);
        for chunk in [8, 16, 64] {
            assert_eq!(solve_with_threads(&graph, 4, chunk), alone, "chunks of {chunk}");
        }
    }
}

#[test]
fn audit_catches_a_wrong_value() {
    let mut rng = StdRng::seed_from_u64(11);
    let graph = Graph::random(&mut rng);
    let solution = retrograde::solve(&graph, &Silent).unwrap();
    let victim = (0..solution.len()).find(|&i| solution.value(i) != Value::Draw).unwrap();
    let mut values: Vec<Value> = (0..solution.len()).map(|idx| solution.value(idx)).collect();
    values[victim as usize] = -values[victim as usize];
    let report = audit(&graph, values.as_slice(), |&pos| pos, &Silent).unwrap();
    assert!(report.disagreements >= 1);
    assert!(report.examples.iter().any(|d| d.idx == victim));
}

#[test]
fn a_chain_too_long_for_one_byte_is_refused() {
    // A single tier: position i moves to i - 1, and 0 is a terminal loss.
    let count = 300;
    let graph = Graph {
        tiers: std::iter::once(0..count).collect(),
        tier_of: vec![0; count as usize],
        terminal: (0..count).map(|i| (i == 0).then_some(Value::Loss(Plies(0)))).collect(),
        children: (0..count).map(|i| if i == 0 { vec![] } else { vec![i - 1] }).collect(),
        parents: (0..count).map(|i| if i + 1 < count { vec![i + 1] } else { vec![] }).collect(),
        max_in_tier: 1,
    };
    let error = retrograde::solve(&graph, &Silent).unwrap_err();
    assert!(matches!(error, retrograde::SolveError::DistanceOverflow { .. }), "{error}");
}

/// Stops once it has been asked `budget` times.
struct StopAfter {
    asked: std::sync::atomic::AtomicUsize,
    budget: usize,
}

impl solved_engine::Progress for StopAfter {
    fn should_stop(&self) -> bool {
        self.asked.fetch_add(1, std::sync::atomic::Ordering::Relaxed) >= self.budget
    }
}

#[test]
fn an_interrupted_solve_resumes_from_its_checkpoint() {
    use solved_engine::table::{Checkpoint, TableKey};
    let dir = tempfile::tempdir().unwrap();
    let mut rng = StdRng::seed_from_u64(21);
    let mut resumed_mid_way = 0;
    for case in 0..30 {
        let graph = Graph::random(&mut rng);
        let key = TableKey {
            game: "graph".into(),
            variant: format!("case{case}"),
            size: "random".into(),
            index_version: 1,
            positions: graph.position_count(),
        };
        let checkpoint = Checkpoint::new(dir.path().join(format!("{case}.checkpoint")), key.clone());
        let solver = retrograde::Solver::new().with_chunk_size(8).with_checkpoints(&checkpoint, Duration::ZERO);
        let words = graph.position_count().div_ceil(8);
        let stopper = StopAfter { asked: Default::default(), budget: rng.random_range(1..12) };
        let first = solver.solve(&graph, &stopper);
        if first.is_err() {
            assert!(matches!(first, Err(retrograde::SolveError::Interrupted(_))));
            resumed_mid_way += usize::from(checkpoint.load(words).unwrap().is_some());
        }
        let resumed = solver.solve(&graph, &Silent).unwrap();
        let direct = retrograde::solve(&graph, &Silent).unwrap();
        let values = |s: &solved_engine::Solution| (0..s.len()).map(|i| s.value(i)).collect::<Vec<Value>>();
        assert_eq!(values(&resumed), values(&direct), "case {case}");
        // A checkpoint of another game is refused, not used.
        let mut other = key.clone();
        other.variant = "other".into();
        let foreign = Checkpoint::new(checkpoint.path(), other);
        assert!(checkpoint.path().exists() == foreign.load(words).is_err());
        // So is one of another chunk size, which the solve cannot resume.
        if checkpoint.path().exists() {
            let other_chunks =
                retrograde::Solver::new().with_chunk_size(16).with_checkpoints(&checkpoint, Duration::ZERO);
            let refused = other_chunks.solve(&graph, &Silent);
            assert!(matches!(refused, Err(retrograde::SolveError::ForeignCheckpoint { .. })), "{refused:?}");
        }
        checkpoint.remove().unwrap();
    }
    assert!(resumed_mid_way > 5, "some solves were interrupted with a checkpoint to resume from");
}
