use std::collections::HashMap;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use solved_engine::{DenseIndex, Expansion, Rules, Silent, Unit, Units, Value, retrograde};

use super::*;

const RULES: [PawnRule; 2] = [PawnRule::Travel, PawnRule::Outbound];

fn index() -> &'static TicTacChecIndex {
    static INDEX: std::sync::OnceLock<TicTacChecIndex> = std::sync::OnceLock::new();
    INDEX.get_or_init(TicTacChecIndex::new)
}

/// Random post-opening positions (White to move) and opening positions.
fn samples(count: usize, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    let index = index();
    (0..count)
        .map(|i| {
            if i % 5 == 0 {
                index.unindex(rng.random_range(index.post_opening().end..index.count()))
            } else {
                index.unindex_post(rng.random_range(0..POST_OPENING_POSITIONS))
            }
        })
        .collect()
}

#[test]
fn the_domain_has_the_published_sizes() {
    let index = index();
    assert_eq!(index.post_opening().end, 2_462_360_745);
    let plies: Vec<u64> = (0..6).map(|p| index.opening_ply(p).end - index.opening_ply(p).start).collect();
    assert_eq!(plies, [1, 64, 3_840, 80_640, 1_572_480, 12_579_840]);
    assert_eq!(index.count(), 2_462_360_745 + 14_236_865);
}

#[test]
fn the_first_opening_plies_index_exhaustively() {
    let index = index();
    let empty = Position::empty();
    assert_eq!(index.unindex(index.opening_ply(0).start), empty);
    let mut layer = vec![empty];
    for ply in 0..3 {
        let mut next = Vec::new();
        for pos in &layer {
            assert_eq!(index.unindex(index.index(pos)), *pos);
            pos.for_each_move(PawnRule::Travel, |_, child| next.push(child));
        }
        next.sort_by_key(|p| index.index(p));
        next.dedup();
        let range = index.opening_ply(ply + 1);
        assert_eq!(next.len() as u64, range.end - range.start, "ply {}", ply + 1);
        assert!(next.iter().all(|p| range.contains(&index.index(p))));
        layer = next;
    }
}

#[test]
fn indices_round_trip_on_samples_and_block_edges() {
    let index = index();
    let mut rng = StdRng::seed_from_u64(1);
    let mut indices: Vec<u64> = (0..200_000).map(|_| rng.random_range(0..index.count())).collect();
    // Both ends of each post-opening block, and of each opening ply.
    let mut edge = 0;
    while edge < POST_OPENING_POSITIONS {
        indices.extend([edge, edge.saturating_sub(1)]);
        let pos = index.unindex_post(edge);
        // Jump to the next block: step until the pieces on the board change.
        let mut probe = edge + 1;
        while probe < POST_OPENING_POSITIONS && same_block(&index.unindex_post(probe), &pos) {
            probe = (probe * 2 - edge).min(POST_OPENING_POSITIONS);
        }
        edge = find_block_end(edge, probe, &pos);
    }
    for ply in 0..6 {
        let range = index.opening_ply(ply);
        indices.extend([range.start, range.end - 1]);
    }
    for idx in indices {
        let pos = index.unindex(idx);
        assert_eq!(index.index(&pos), idx, "{pos}");
        assert_eq!(pos.to_string().parse::<Position>().unwrap(), pos);
        if !pos.is_opening() {
            assert_eq!(index.index(&pos.flipped()), idx, "a position and its flipped twin share an index");
        }
    }
}

fn same_block(a: &Position, b: &Position) -> bool {
    (0..8).all(|slot| (a.squares[slot] == HAND) == (b.squares[slot] == HAND))
}

/// The first index after `start` whose position is in another block, given
/// one (`beyond`) that is (or the end).
fn find_block_end(start: u64, beyond: u64, pos: &Position) -> u64 {
    let (mut low, mut high) = (start, beyond);
    while high - low > 1 {
        let middle = low + (high - low) / 2;
        if same_block(&index().unindex_post(middle), pos) { low = middle } else { high = middle }
    }
    high
}

#[test]
fn stepping_through_a_range_matches_unindexing() {
    let index = index();
    let mut rng = StdRng::seed_from_u64(2);
    for _ in 0..300 {
        let start = rng.random_range(0..POST_OPENING_POSITIONS - 5_000);
        let range = start..start + rng.random_range(1..5_000);
        let mut expected = range.start;
        index.for_each_post(range.clone(), |idx, pos| {
            assert_eq!(idx, expected);
            assert_eq!(pos, index.unindex_post(idx));
            expected += 1;
        });
        assert_eq!(expected, range.end);
    }
}

#[test]
fn unindexing_ascending_indices_matches_unindexing_each() {
    let index = index();
    let mut rng = StdRng::seed_from_u64(5);
    // Clusters, as a layer's decided positions in a chunk come: across
    // every block's start, and at random (a few across a pawn state's end).
    let mut indices: Vec<u64> = index.block_starts().flat_map(|start| start.saturating_sub(40)..start + 40).collect();
    for _ in 0..200 {
        let centre = rng.random_range(0..POST_OPENING_POSITIONS - 100_000);
        indices.extend((0..50).map(|_| centre + rng.random_range(0..100_000)));
    }
    indices.retain(|&idx| idx < POST_OPENING_POSITIONS);
    indices.sort_unstable();
    indices.dedup();
    let mut seen = 0;
    index.unindex_ascending_post(indices.iter().copied(), |idx, pos| {
        assert_eq!(idx, indices[seen]);
        assert_eq!(pos, index.unindex_post(idx), "{idx}");
        assert_eq!(index.index(&pos), idx);
        seen += 1;
    });
    assert_eq!(seen, indices.len());
}

/// Seeding classifies a run of positions at a time; each must come out as
/// `expand` finds it alone. Ranges across every block's start, where runs
/// are short and the moving piece may be the mover's, and at random, where
/// they end mid-run.
#[test]
fn runs_of_positions_are_classified_as_each_alone() {
    let index = index();
    let mut rng = StdRng::seed_from_u64(4);
    let mut ranges: Vec<_> = index
        .block_starts()
        .map(|start| start.saturating_sub(700)..(start + 700).min(POST_OPENING_POSITIONS))
        .collect();
    ranges.extend((0..100).map(|_| {
        let start = rng.random_range(0..POST_OPENING_POSITIONS - 3_000);
        start..start + rng.random_range(1..3_000)
    }));
    for rule in RULES {
        let game = TicTacChec::new(rule);
        for range in &ranges {
            let mut alone = Vec::new();
            index.for_each_post(range.clone(), |idx, pos| {
                alone.push((idx, game.expand(0, &pos, |_, _| panic!("a post-opening move left its unit"))));
            });
            let mut runs = Vec::new();
            let nowhere = |_| panic!("a post-opening move left its unit");
            game.expand_range(0, range.clone(), &mut Vec::new(), nowhere, |idx, expansion, children| {
                assert_eq!(children, 0, "a post-opening move left its unit");
                runs.push((idx, expansion));
            });
            assert_eq!(runs, alone, "{range:?} under {rule:?}");
        }
    }
}

#[test]
fn fast_move_generation_agrees_with_the_reference() {
    for rule in RULES {
        for pos in samples(40_000, 3) {
            for pos in [pos, pos.flipped()] {
                let reference: Vec<(Move, Position)> =
                    pos.legal_moves(rule).into_iter().map(|m| (m, pos.play_unchecked(m))).collect();
                let mut fast = Vec::new();
                pos.for_each_move(rule, |m, child| fast.push((m, child)));
                let mut sorted = reference.clone();
                sorted.sort_by_key(|x| x.0);
                fast.sort_by_key(|x| x.0);
                assert_eq!(fast, sorted, "{pos} {rule:?}");
                assert_eq!(pos.count_moves(rule) as usize, reference.len(), "{pos} {rule:?}");
            }
        }
    }
}

#[test]
fn the_variants_differ_only_for_returning_pawns() {
    let pos: Position = "...n/..P./..../.... w u- post".parse().unwrap();
    // White's pawn on c3 travels up: both rules let it take d4.
    assert!(pos.legal_moves(PawnRule::Outbound).contains(&"c3-d4".parse().unwrap()));
    let back: Position = "..../..../.P../n... w d- post".parse().unwrap();
    // Travelling back down, it may take a1 only under the travel rule.
    assert!(back.legal_moves(PawnRule::Travel).contains(&"b2-a1".parse().unwrap()));
    assert!(!back.legal_moves(PawnRule::Outbound).contains(&"b2-a1".parse().unwrap()));
}

#[test]
fn parents_are_complete_and_sound() {
    let index = index();
    for rule in RULES {
        let positions: Vec<Position> =
            samples(3_000, 4).into_iter().filter(|p| !p.is_opening() && p.turn() == Color::White).collect();
        for x in &positions {
            if x.is_over() {
                continue;
            }
            // Every move of x leads to a position that lists x as a parent,
            // as often as there are such moves.
            let mut moves_to: HashMap<u64, usize> = HashMap::new();
            x.for_each_move(rule, |_, child| *moves_to.entry(index.index(&child)).or_default() += 1);
            for (&y, &count) in &moves_to {
                let child = index.unindex_post(y);
                let mut found = 0;
                child.for_each_parent(rule, |parent| found += usize::from(parent == *x));
                assert_eq!(found, count, "{x} -> {child} {rule:?}");
            }
        }
        for y in &positions {
            // Every parent listed has a move to y.
            y.for_each_parent(rule, |parent| {
                assert!(!parent.is_opening() && parent.turn() == Color::White && !parent.is_over());
                let mut leads = false;
                parent.for_each_move(rule, |_, child| leads |= index.index(&child) == index.index(y));
                assert!(leads, "{parent} is no parent of {y} {rule:?}");
            });
        }
    }
}

#[test]
fn notation_reads_and_writes_positions_and_moves() {
    assert_eq!(Position::empty().to_string(), "..../..../..../.... w -- open");
    for (text, written) in [("N@c2", "N@c2"), ("p@a4", "P@a4"), ("a1-b2", "a1-b2"), ("d4-a1", "d4-a1")] {
        assert_eq!(text.parse::<Move>().unwrap().to_string(), written);
    }
    let cases = [
        ("..../..../..../....", "expected the board"),
        ("..../..../.../.... w -- open", "four ranks"),
        ("..../..../..../...x w -- open", "unexpected 'x'"),
        ("N.N./..../..../.... b -- post", "twice"),
        ("..../..../..../.... x -- post", "side to move"),
        ("..../..../..../.P.. w d- post", "rank 1 cannot face down"),
        ("..../..../..../.... w u- post", "in hand but its direction"),
        ("..../..../..../.... w -- later", "phase"),
        ("NBR./..../..../nbr. w -- open", "opening is over"),
        ("N.../..../..../.... w -- open", "other side's turn"),
    ];
    for (text, reason) in cases {
        let error = text.parse::<Position>().unwrap_err().to_string();
        assert!(error.contains(reason), "{text:?}: {error}");
    }
    assert!("Q@a1".parse::<Move>().is_err() && "a1-e5".parse::<Move>().is_err());
}

#[test]
fn a_table_of_the_other_pawn_rule_is_refused() {
    use solved_engine::compact::Compact;
    use solved_engine::table::{Header, Packed};
    use solved_engine::{FormatError, Table, TableError, TableStore, Tally};

    use crate::tables::Solvable;
    let travel = TicTacChec::new(PawnRule::Travel);
    let outbound = TicTacChec::new(PawnRule::Outbound);
    assert_eq!((travel.table_key().variant.as_str(), outbound.table_key().variant.as_str()), ("travel", "outbound"));
    // The header is checked field by field before the length or the
    // checksum, so a header alone shows the refusal.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("travel.tbl");
    let header = Header { key: travel.table_key(), encoding: 1, tally: Tally::default(), facts: Vec::new() };
    std::fs::write(&path, header.to_bytes()).unwrap();
    match Table::<Packed>::open(&path, &outbound.table_key()) {
        Err(TableError::Invalid { source: FormatError::Mismatch { field: "variant", .. }, .. }) => {}
        other => panic!("expected a variant mismatch, got {other:?}"),
    }
    match Table::<Packed>::open(&path, &travel.table_key()) {
        Err(TableError::Invalid { source: FormatError::Length { .. }, .. }) => {}
        other => panic!("the right key gets as far as the length, got {other:?}"),
    }
    let store = TableStore::new(dir.path());
    assert_ne!(store.path::<Compact>(&travel.table_key()), store.path::<Packed>(&travel.table_key()));
}

#[test]
fn winning_at_once_agrees_with_trying_every_move() {
    for rule in RULES {
        let mut wins = 0;
        for pos in samples(60_000, 6) {
            for pos in [pos, pos.flipped()] {
                let mover = pos.turn();
                let mut by_moves = false;
                pos.for_each_move(rule, |_, child| by_moves |= child.has_line(mover));
                assert_eq!(pos.can_win_at_once(rule), by_moves, "{pos} {rule:?}");
                wins += usize::from(by_moves);
            }
        }
        assert!(wins > 1000, "the samples include positions with a winning move");
    }
}

#[test]
fn a_threat_is_the_other_sides_win_at_once() {
    // Black has three on rank 4 and its rook in hand; White has nothing on
    // the board, so only Black threatens.
    let pos: Position = "pnb./..../..../.... w -d post".parse().unwrap();
    assert!(!pos.can_win_at_once(PawnRule::Travel));
    assert!(pos.is_threatened(PawnRule::Travel));
    // The flipped twin is the same position seen from the other side.
    assert!(pos.flipped().is_threatened(PawnRule::Travel) && !pos.flipped().can_win_at_once(PawnRule::Travel));
}

/// A position of [`CutOpening`]: one of the opening's first plies, or a
/// stand-in for the positions after them.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Node {
    Real(Position),
    StandIn(u64),
}

/// The opening's first `CUT` plies, solved through the game's own solver
/// glue (its units' positions, `for_each_in_unit`, `expand`, the index),
/// with every position from ply `CUT` on replaced by one of a few terminal
/// stand-ins of fixed values: a solve small enough for a test that takes
/// the same code paths as the opening of the full solve.
struct CutOpening<'a> {
    game: &'a TicTacChec,
    /// The real indices of plies `0..CUT`.
    kept: std::ops::Range<u64>,
}

impl CutOpening<'_> {
    const CUT: usize = 4;
    const STAND_INS: u64 = 1009;

    fn new(game: &TicTacChec) -> CutOpening<'_> {
        let kept = game.index.opening_ply(0).start..game.index.opening_ply(Self::CUT).start;
        CutOpening { game, kept }
    }

    /// The stand-in's value, for the side to move there: mostly a win, so
    /// that a move into it is bad, sometimes a draw, rarely a loss; then the
    /// kept plies hold wins, losses and draws alike.
    fn stand_in(slot: u64) -> Value {
        use solved_engine::Plies;
        match slot % 64 {
            0 => Value::Loss(Plies(0)),
            1..=4 => Value::Draw,
            _ => Value::Win(Plies(0)),
        }
    }

    /// The cut game's index of the real index `real`.
    fn map(&self, real: u64) -> u64 {
        if self.kept.contains(&real) { Self::STAND_INS + real - self.kept.start } else { real % Self::STAND_INS }
    }
}

impl Rules for CutOpening<'_> {
    type Position = Node;

    fn terminal_value(&self, node: &Node) -> Option<Value> {
        match node {
            Node::StandIn(slot) => Some(Self::stand_in(*slot)),
            Node::Real(pos) => Reference(self.game).terminal_value(pos),
        }
    }

    fn for_each_child(&self, node: &Node, mut f: impl FnMut(Node)) {
        if let Node::Real(pos) = node {
            Reference(self.game).for_each_child(pos, |child| f(self.unindex(self.map(self.game.index(&child)))));
        }
    }
}

impl DenseIndex for CutOpening<'_> {
    fn position_count(&self) -> u64 {
        Self::STAND_INS + self.kept.end - self.kept.start
    }

    fn index(&self, node: &Node) -> u64 {
        match node {
            Node::StandIn(slot) => *slot,
            Node::Real(pos) => self.map(self.game.index(pos)),
        }
    }

    fn unindex(&self, idx: u64) -> Node {
        if idx < Self::STAND_INS {
            Node::StandIn(idx)
        } else {
            Node::Real(self.game.unindex(idx - Self::STAND_INS + self.kept.start))
        }
    }
}

impl CutOpening<'_> {
    /// The game's unit of the cut game's `unit` of real positions: the
    /// game's units are the post-opening positions, then the opening's
    /// plies from the sixth back; the cut game's the stand-ins, then plies
    /// from the last kept back.
    fn game_unit(unit: usize) -> usize {
        unit + 6 - Self::CUT
    }
}

impl Units for CutOpening<'_> {
    fn units(&self) -> Vec<Unit> {
        let stand_ins = std::iter::once(Unit { len: Self::STAND_INS, depends_on: Vec::new() });
        let plies = (1..=Self::CUT).map(|unit| {
            let real = self.game.unit_range(Self::game_unit(unit));
            Unit { len: real.end - real.start, depends_on: (0..unit).collect() }
        });
        stand_ins.chain(plies).collect()
    }

    fn locate(&self, node: &Node) -> (usize, u64) {
        match node {
            Node::StandIn(slot) => (0, *slot),
            Node::Real(pos) => {
                let (unit, idx) = self.game.locate(pos);
                (unit + Self::CUT - 6, idx)
            }
        }
    }

    fn unindex_in_unit(&self, unit: usize, idx: u64) -> Node {
        match unit {
            0 => Node::StandIn(idx),
            unit => Node::Real(self.game.unindex_in_unit(Self::game_unit(unit), idx)),
        }
    }

    fn max_in_unit_moves(&self) -> u8 {
        self.game.max_in_unit_moves()
    }

    fn for_each_in_unit(&self, unit: usize, range: std::ops::Range<u64>, mut f: impl FnMut(u64, Node)) {
        match unit {
            0 => range.for_each(|slot| f(slot, Node::StandIn(slot))),
            unit => self.game.for_each_in_unit(Self::game_unit(unit), range, |idx, pos| f(idx, Node::Real(pos))),
        }
    }

    fn expand(&self, unit: usize, node: &Node, mut earlier_child: impl FnMut(usize, u64)) -> Expansion {
        match node {
            Node::StandIn(slot) => Expansion::Terminal(Self::stand_in(*slot)),
            Node::Real(pos) => self.game.expand(Self::game_unit(unit), pos, |to, at| {
                let real = self.game.unit_range(to).start + at;
                match self.map(real) {
                    slot if slot < Self::STAND_INS => earlier_child(0, slot),
                    _ => earlier_child(to + Self::CUT - 6, at),
                }
            }),
        }
    }

    fn for_each_parent(&self, unit: usize, node: &Node, mut f: impl FnMut(u64, Node)) {
        if let Node::Real(pos) = node {
            self.game.for_each_parent(Self::game_unit(unit), pos, |idx, parent| f(idx, Node::Real(parent)));
        }
    }
}

#[test]
fn the_opening_solved_through_the_solver_glue_agrees_with_the_plain_rules() {
    for rule in RULES {
        let game = TicTacChec::new(rule);
        let cut = CutOpening::new(&game);
        let solution = retrograde::solve(&cut, &Silent).unwrap();
        let mut seen = [0u64; 3];
        for idx in CutOpening::STAND_INS..cut.position_count() {
            let Node::Real(pos) = cut.unindex(idx) else { unreachable!("kept positions are real") };
            // Minimax over the plain rules' moves, no index on the mover's
            // side: children read by their own colour (the opening is
            // never flipped) or as the stand-in their index names.
            let implied = pos
                .legal_moves(rule)
                .into_iter()
                .map(|m| {
                    let child = pos.play_unchecked(m);
                    let real = game.index(&child);
                    let value = if cut.kept.contains(&real) {
                        solution.value(cut.map(real))
                    } else {
                        CutOpening::stand_in(real % CutOpening::STAND_INS)
                    };
                    Value::of_move_into(value)
                })
                .max()
                .expect("no opening position is over");
            let solved = solution.value(idx);
            assert_eq!(solved, implied, "{pos} under {rule:?}");
            seen[match solved {
                Value::Win(_) => 0,
                Value::Loss(_) => 1,
                Value::Draw => 2,
            }] += 1;
        }
        assert!(seen.iter().all(|&n| n > 0), "wins, losses and draws all occur: {seen:?}");
    }
}

proptest::proptest! {
    #[test]
    fn any_position_indexes_writes_and_flips_back(choice: u64) {
        let index = index();
        let idx = choice % index.count();
        let pos = index.unindex(idx);
        proptest::prop_assert_eq!(index.index(&pos), idx);
        proptest::prop_assert_eq!(pos.to_string().parse::<Position>(), Ok(pos));
        proptest::prop_assert_eq!(pos.flipped().flipped(), pos);
        if !pos.is_opening() {
            proptest::prop_assert_eq!(index.index(&pos.flipped()), idx, "a Black-to-move twin shares its index");
        }
        for m in pos.legal_moves(PawnRule::Travel) {
            proptest::prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        }
    }
}

#[test]
fn the_line_table_agrees_with_the_lines_on_every_set_of_squares() {
    let mut holding = 0;
    for occupied in 0..=u16::MAX {
        let expected = LINES.iter().any(|line| line & !occupied == 0);
        assert_eq!(complete_line(occupied), expected, "{occupied:#06x}");
        holding += usize::from(expected);
    }
    // Each line with any of the other twelve squares, less the overlaps.
    assert!(holding > 10 * 4096 / 2 && holding < 10 * 4096, "{holding}");
}
