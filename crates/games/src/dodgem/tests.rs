use std::collections::HashMap;

use solved_engine::{AuditReport, DenseIndex, Expansion, Plies, Silent, UnitParts, Units, Value, audit, solve_naive};

use super::*;
use crate::levels::{Level, Worth};

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

#[test]
fn position_counts_match_the_spec() {
    for (size, count) in [(3, 2_846), (4, 555_986), (5, 240_060_402)] {
        let game = game(size, Objective::Normal);
        assert_eq!(EveryPosition(&game).position_count(), count);
        assert_eq!(game.position_count(), count / 2, "one index per mirror pair");
        assert_eq!(ByTiers::new(&game).unwrap().position_count(), count / 2);
    }
}

#[test]
fn starting_positions_are_written_as_in_the_spec() {
    assert_eq!(game(3, Objective::Normal).start().to_string(), "B../B../.RR B");
    assert_eq!(game(4, Objective::Normal).start().to_string(), "B.../B.../B.../.RRR B");
}

/// The reflection, square by square, as the spec defines it.
fn transposed(pos: &Position) -> Position {
    let transpose = |squares: Vec<Square>| squares.into_iter().map(|s| Square::new(s.rank(), s.file())).collect();
    let blue: Vec<Square> = transpose(pos.cars(Player::Red).collect());
    let red: Vec<Square> = transpose(pos.cars(Player::Blue).collect());
    let n = pos.size();
    let mut text = String::new();
    for rank in (0..n).rev() {
        for file in 0..n {
            let square = Square::new(file, rank);
            text.push(if blue.contains(&square) {
                'B'
            } else if red.contains(&square) {
                'R'
            } else {
                '.'
            });
        }
        text.push(if rank > 0 { '/' } else { ' ' });
    }
    text.push(if pos.turn() == Player::Blue { 'R' } else { 'B' });
    text.parse().unwrap()
}

#[test]
fn indices_notation_and_mirror_images_round_trip_on_every_small_position() {
    for game in all_games() {
        let every = EveryPosition(&game);
        for idx in 0..every.position_count() {
            let pos = every.unindex(idx);
            assert_eq!(every.index(&pos), idx);
            let text = pos.to_string();
            assert_eq!(text.parse::<Position>().unwrap(), pos, "{text}");
            let mirror = game.mirror(&pos);
            assert_eq!(mirror, transposed(&pos), "{pos}");
            assert_eq!(game.mirror(&mirror), pos);
            assert_eq!(game.index(&pos), game.index(&mirror), "a position and its mirror share an index");
        }
        for idx in 0..game.position_count() {
            let pos = game.unindex(idx);
            assert_eq!(pos.turn(), Player::Blue);
            assert_eq!(game.index(&pos), idx);
        }
    }
}

#[test]
fn unit_counts_match_the_issue() {
    // Issue 13's table: units with their mirror, and the largest unit.
    for (size, units, largest) in [(5, 1_035, 2_985_738), (6, 3_321, 1_452_392_472)] {
        let game = Dodgem::new(size, Objective::Normal).unwrap();
        let index = game.unit_index();
        assert_eq!(index.units().len(), units);
        assert_eq!(index.units().iter().map(|u| u.len).max(), Some(largest));
    }
    assert_eq!(Dodgem::new(6, Objective::Normal).unwrap().unit_index().count(), 94_355_345_353);
}

#[test]
fn indices_round_trip_on_sampled_5x5_positions_and_tier_edges() {
    let game = game(5, Objective::Normal);
    let mut samples: Vec<u64> = (0..200_000u64).map(|i| i * 1_200_301 % game.position_count()).collect();
    for unit in 0..game.unit_index().units().len() {
        let (start, end) = (game.unit_index().start(unit), game.unit_index().start(unit + 1));
        samples.extend(
            [start, start + 1, end.saturating_sub(2), end - 1].into_iter().filter(|i| (start..end).contains(i)),
        );
    }
    let tiers = ByTiers::new(&game).unwrap();
    let index = game.positions().unwrap();
    for tier in index.tiers() {
        samples.extend(
            [tier.start, tier.start + 1, tier.end.saturating_sub(2), tier.end - 1]
                .into_iter()
                .filter(|i| tier.contains(i)),
        );
    }
    for (tier_number, tier) in index.tiers().into_iter().enumerate() {
        for idx in [tier.start, tier.end - 1] {
            assert_eq!(index.unindex_in_tier(tier_number, idx), tiers.unindex(idx));
            assert_eq!(tiers.unindex_in_unit(tier_number, idx - tier.start), tiers.unindex(idx));
            assert_eq!(tiers.locate(&tiers.unindex(idx)), (tier_number, idx - tier.start));
        }
    }
    let every = EveryPosition(&game);
    for idx in samples {
        let pos = game.unindex(idx);
        assert_eq!(game.index(&pos), idx);
        assert_eq!(game.index(&game.mirror(&pos)), idx);
        assert_eq!(every.unindex(every.index(&pos)), pos);
        let old = tiers.index(&pos);
        assert_eq!(tiers.unindex(old), pos);
    }
}

#[test]
fn moves_round_trip_through_notation() {
    for text in ["a3-b3", "c2-off", "e5-e4"] {
        assert_eq!(text.parse::<Move>().unwrap().to_string(), text);
    }
    for bad in ["", "a3", "a3-", "a3-b", "A3-b3", "a0-a1", "a3_b3", "a3-offf"] {
        assert!(bad.parse::<Move>().is_err(), "{bad:?}");
    }
}

#[test]
fn malformed_positions_are_refused_with_a_reason() {
    let cases = [
        ("B../B../.RR", "expected the ranks"),
        ("B../B../.RR X", "side to move must be B or R"),
        ("B../B.. B", "2 ranks"),
        ("./././././. B", "6 ranks"),
        ("B../B.../.RR B", "rank 2 has 4 squares"),
        ("B../Bx./.RR B", "unexpected 'x'"),
        ("BB./B../.RR B", "Blue has 3 cars"),
        ("B/B B", "2 ranks"),
    ];
    for (text, reason) in cases {
        let error = text.parse::<Position>().unwrap_err().to_string();
        assert!(error.contains(reason), "{text:?}: {error}");
    }
}

#[test]
fn illegal_moves_are_refused_with_a_reason() {
    let game = game(3, Objective::Normal);
    let start = game.start();
    let cases = [
        ("b2-b3", "no car"),
        ("b1-b2", "side not on move"),
        ("a2-a3", "occupied"),
        ("a2-b3", "right, up or down"),
        ("a3-off", "rightmost file"),
        ("d1-d2", "not on the board"),
    ];
    for (m, reason) in cases {
        let error = game.play(&start, m.parse().unwrap()).unwrap_err();
        assert!(error.to_string().contains(reason), "{m}: {error}");
    }
    assert!(game.play(&start, "a3-b3".parse().unwrap()).is_ok());
}

#[test]
fn expand_by_tiers_counts_every_move_once() {
    for game in all_games() {
        let tiers = ByTiers::new(&game).unwrap();
        let index = game.positions().unwrap();
        for idx in 0..tiers.position_count() {
            let pos = tiers.unindex(idx);
            let mut earlier = Vec::new();
            let (tier, _) = tiers.locate(&pos);
            let expansion = tiers.expand(tier, &pos, |to, at| earlier.push(index.tier_start(to) + at));
            let moves = game.legal_moves(&pos);
            match expansion {
                Expansion::Terminal(value) => {
                    assert_eq!(Some(value), game.terminal_value(&pos));
                    assert!(moves.is_empty() && earlier.is_empty());
                }
                Expansion::Moves { in_unit } => {
                    let off = moves.iter().filter(|m| m.to == Destination::Off).count();
                    assert_eq!(usize::from(in_unit) + off, moves.len(), "{pos}");
                    assert_eq!(earlier.len(), off);
                    assert!(earlier.iter().all(|&child| child < idx));
                    assert!(in_unit <= tiers.max_in_unit_moves());
                }
            }
        }
    }
}

#[test]
fn expand_by_units_reports_every_move_that_leaves_the_unit_once() {
    for game in all_games() {
        let units = game.unit_index().units();
        for (unit, info) in units.iter().enumerate() {
            game.for_each_in_unit(unit, 0..info.len, |_, pos| {
                let mut earlier = Vec::new();
                let expansion = Units::expand(&game, unit, &pos, |u, idx| earlier.push((u, idx)));
                let moves = game.legal_moves(&pos);
                let mut leaving: Vec<(usize, u64)> = moves
                    .iter()
                    .map(|&m| game.locate(&game.play_unchecked(&pos, m)))
                    .filter(|&(u, _)| u != unit)
                    .collect();
                match expansion {
                    Expansion::Terminal(value) => {
                        assert_eq!(Some(value), game.terminal_value(&pos));
                        assert!(moves.is_empty() && earlier.is_empty());
                    }
                    Expansion::Moves { in_unit } => {
                        assert_eq!(usize::from(in_unit) + leaving.len(), moves.len(), "{pos}");
                        assert!(in_unit <= game.max_in_unit_moves());
                        earlier.sort_unstable();
                        leaving.sort_unstable();
                        assert_eq!(earlier, leaving, "{pos}");
                        assert!(earlier.iter().all(|(u, _)| info.depends_on.contains(u)), "{pos}");
                    }
                }
            });
        }
    }
}

/// Expanding a range a Blue set at a time gives each position what
/// expanding it alone does: the same expansion and the same children, in
/// the same order. Windows start and end inside Blue sets, and 5×5 is
/// sampled for its own compiled loops.
#[test]
fn expanding_a_range_matches_expanding_each_position() {
    for_each_sampled_unit(|game, unit, info| {
        let len = info.len.min(5000);
        for range in [0..len, len / 3..len - len / 4, 1..2.min(len)] {
            let first = |to: usize| (to as u64) << 40;
            let mut each = Vec::new();
            game.for_each_in_unit(unit, range.clone(), |idx, pos| {
                let mut children = Vec::new();
                let expansion = Units::expand(game, unit, &pos, |to, at| children.push(first(to) + at));
                each.push((idx, expansion, children));
            });
            let (mut ends, mut children) = (Vec::new(), Vec::new());
            game.expand_range(unit, range.clone(), &mut children, first, |idx, expansion, end| {
                ends.push((idx, expansion, end));
            });
            let starts = std::iter::once(0).chain(ends.iter().map(|e| e.2));
            let together: Vec<_> = ends
                .iter()
                .zip(starts)
                .map(|(&(idx, e, end), start)| (idx, e, children[start..end].to_vec()))
                .collect();
            assert_eq!(together, each, "{}x{} unit {unit}, {range:?}", game.size(), game.size());
        }
    });
}

/// Calls `f(game, unit, info)` for every unit of the small boards and a
/// sample of 5×5's (whose loops are compiled for its size), under both
/// objectives.
fn for_each_sampled_unit(mut f: impl FnMut(&Dodgem, usize, &solved_engine::Unit)) {
    let mut games = all_games();
    games.extend([game(5, Objective::Normal), game(5, Objective::Misere)]);
    for game in games {
        let step = if game.size() == 5 { 29 } else { 1 };
        for (unit, info) in game.unit_index().units().iter().enumerate().step_by(step) {
            f(&game, unit, info);
        }
    }
}

/// Parents found for a run of ascending positions, sharing what
/// positions with the same Blue cars share, are those each position has
/// alone, in the same order.
#[test]
fn parents_found_together_match_each_positions_own() {
    for_each_sampled_unit(|game, unit, info| {
        // Every position, and every third one: runs of the same Blue cars
        // both whole and with gaps.
        for stride in [1, 3] {
            let mut positions = Vec::new();
            game.for_each_in_unit(unit, 0..info.len.min(5000), |idx, pos| {
                if idx % stride == 0 && game.terminal_value(&pos).is_none() {
                    positions.push(pos);
                }
            });
            let mut each = Vec::new();
            for (i, pos) in positions.iter().enumerate() {
                Units::for_each_parent(game, unit, pos, |idx, parent| each.push((i, idx, parent)));
            }
            let mut together = Vec::new();
            game.for_each_parent_of_each(unit, positions.iter().copied().enumerate(), |i, idx, parent| {
                together.push((i, idx, parent));
            });
            assert_eq!(together, each, "{}x{} unit {unit}", game.size(), game.size());
        }
    });
}

#[test]
fn parents_by_tiers_are_exactly_the_in_tier_predecessors() {
    for game in all_games() {
        let tiers = ByTiers::new(&game).unwrap();
        let index = game.positions().unwrap();
        let tier_list = index.tiers();
        let tier_of = |idx: u64| tier_list.iter().position(|t| t.contains(&idx)).unwrap();
        let mut forward: HashMap<u64, Vec<u64>> = HashMap::new();
        for idx in 0..tiers.position_count() {
            let pos = tiers.unindex(idx);
            for m in game.legal_moves(&pos) {
                let child = tiers.index(&game.play_unchecked(&pos, m));
                if tier_of(child) == tier_of(idx) {
                    forward.entry(child).or_default().push(idx);
                }
            }
        }
        for idx in 0..tiers.position_count() {
            let mut parents = Vec::new();
            let tier = tier_of(idx);
            let start = tier_list[tier].start;
            tiers.for_each_parent(tier, &tiers.unindex(idx), |p, pos| {
                assert_eq!(tiers.index(&pos), start + p);
                parents.push(start + p)
            });
            parents.sort();
            let mut expected = forward.remove(&idx).unwrap_or_default();
            expected.sort();
            assert_eq!(parents, expected, "{}", tiers.unindex(idx));
        }
    }
}

#[test]
fn parents_by_units_are_exactly_the_in_unit_predecessors() {
    for game in all_games() {
        let mut forward: HashMap<(usize, u64), Vec<u64>> = HashMap::new();
        let units = game.unit_index().units();
        for (unit, info) in units.iter().enumerate() {
            game.for_each_in_unit(unit, 0..info.len, |idx, pos| {
                for m in game.legal_moves(&pos) {
                    let child = game.locate(&game.play_unchecked(&pos, m));
                    if child.0 == unit {
                        forward.entry(child).or_default().push(idx);
                    }
                }
            });
        }
        for (unit, info) in units.iter().enumerate() {
            game.for_each_in_unit(unit, 0..info.len, |idx, pos| {
                let mut parents = Vec::new();
                Units::for_each_parent(&game, unit, &pos, |p, parent| {
                    assert_eq!(game.locate(&parent), (unit, p));
                    parents.push(p)
                });
                parents.sort();
                let mut expected = forward.remove(&(unit, idx)).unwrap_or_default();
                expected.sort();
                assert_eq!(parents, expected, "{pos}");
            });
        }
    }
}

/// A unit's parts hold each of its positions once, expand it as it is
/// expanded alone, and find exactly its parents within the unit: on the
/// sampled units, and on 6×6 units small enough to check whole.
#[test]
fn parts_expand_each_position_of_a_unit_once_and_find_its_in_unit_parents() {
    for_each_sampled_unit(|game, unit, info| {
        let parts = Units::parts(game, unit).expect("up to 5x5, parts are small");
        check_parts(game, unit, info, parts);
    });
    let game = game(6, Objective::Normal);
    let small = game.unit_index().units().iter().enumerate().filter(|(_, info)| info.len <= 50_000);
    let mut checked = 0;
    for (unit, info) in small.step_by(97) {
        check_parts(&game, unit, info, Units::parts(&game, unit).expect("a small unit's parts are small"));
        checked += 1;
    }
    assert!(checked >= 10, "{checked} 6x6 units checked");
}

/// Checks `parts`, those of `unit` (see the test above).
fn check_parts(game: &Dodgem, unit: usize, info: &solved_engine::Unit, parts: impl UnitParts) {
    let mut part_of = vec![None; info.len as usize];
    let mut position_in: Vec<Vec<Option<u64>>> =
        parts.slot_counts().into_iter().map(|slots| vec![None; slots as usize]).collect();
    for (part, positions) in position_in.iter_mut().enumerate() {
        let mut expanded = Vec::new();
        parts.expand(
            part,
            |to| (to as u64) << 40,
            |slot, idx, expansion, children| {
                expanded.push((slot, idx, expansion, children.to_vec()));
            },
        );
        for (slot, idx, expansion, mut found) in expanded {
            assert_eq!(part_of[idx as usize].replace((part, slot)), None, "position {idx} twice");
            assert_eq!(positions[slot as usize].replace(idx), None, "slot {slot} twice");
            let pos = game.unindex_in_unit(unit, idx);
            let mut alone = Vec::new();
            assert_eq!(Units::expand(game, unit, &pos, |to, at| alone.push(((to as u64) << 40) + at)), expansion);
            alone.sort_unstable();
            found.sort_unstable();
            assert_eq!(found, alone, "{pos}");
        }
    }
    let mut expected: HashMap<u64, Vec<u64>> = HashMap::new();
    game.for_each_in_unit(unit, 0..info.len, |idx, pos| {
        for m in game.legal_moves(&pos) {
            let (to, child) = game.locate(&game.play_unchecked(&pos, m));
            if to == unit {
                expected.entry(child).or_default().push(idx);
            }
        }
    });
    game.for_each_in_unit(unit, 0..info.len, |idx, pos| {
        let (part, slot) = part_of[idx as usize].unwrap_or_else(|| panic!("{pos} is in no part"));
        let mut parents = Vec::new();
        parts.for_each_parent(part, slot, |parent| {
            let at = position_in[part][parent as usize].unwrap_or_else(|| panic!("{pos}: an empty slot"));
            // Terminal parents may be listed: their values are final.
            if game.terminal_value(&game.unindex_in_unit(unit, at)).is_none() {
                parents.push(at);
            }
        });
        parents.sort_unstable();
        let mut expected = expected.remove(&idx).unwrap_or_default();
        expected.sort_unstable();
        assert_eq!(parents, expected, "{pos}");
    });
}

#[test]
fn units_and_tiers_give_every_position_the_same_value_and_distance() {
    for game in all_games() {
        let by_tiers = ByTiers::new(&game).unwrap().solve(&Silent).unwrap();
        let by_units = game.solve_by_units(&Silent).unwrap();
        assert_eq!(same_values(&game, &by_units, &by_tiers), Ok(by_units.len()));
    }
}

#[test]
fn retrograde_agrees_with_the_naive_solver_on_every_position() {
    for game in all_games() {
        // The naive solver sees every position on its own: no symmetry.
        let naive = solve_naive(&EveryPosition(&game));
        let fast = solved(&game);
        let every = EveryPosition(&game);
        for (idx, (fast, naive)) in fast.iter().zip(&naive).enumerate() {
            assert_eq!(fast, naive, "{} {:?}", every.unindex(idx as u64), game.objective());
        }
    }
}

#[test]
fn reflection_preserves_value_and_distance_in_the_naive_solution() {
    for game in all_games() {
        let every = EveryPosition(&game);
        let naive = solve_naive(&every);
        for idx in 0..every.position_count() {
            let pos = every.unindex(idx);
            assert_eq!(naive[every.index(&game.mirror(&pos)) as usize], naive[idx as usize], "{pos}");
        }
    }
}

#[test]
fn solutions_obey_the_minimax_equation_at_every_position() {
    for game in all_games() {
        let values = solved(&game);
        let every = EveryPosition(&game);
        let report = audit(&every, values.as_slice(), |pos| every.index(pos), &Silent).unwrap();
        assert_eq!(report.checked, every.position_count());
        assert_eq!(report.disagreements, 0, "{report:?}");
    }
}

#[test]
fn wins_have_a_losing_child_one_shorter_and_losses_only_winning_children() {
    for game in all_games() {
        let every = EveryPosition(&game);
        let values = solved(&game);
        for idx in 0..every.position_count() {
            let pos = every.unindex(idx);
            let children: Vec<Value> = game
                .legal_moves(&pos)
                .into_iter()
                .map(|m| values[every.index(&game.play_unchecked(&pos, m)) as usize])
                .collect();
            match values[idx as usize] {
                Value::Win(Plies(0)) | Value::Loss(Plies(0)) => assert!(game.outcome(&pos).is_some()),
                Value::Win(Plies(d)) => {
                    assert!(children.contains(&Value::Loss(Plies(d - 1))));
                    assert!(children.iter().all(|c| !matches!(c, Value::Loss(Plies(e)) if *e < d - 1)));
                }
                Value::Loss(Plies(d)) => {
                    assert!(children.iter().all(|c| matches!(c, Value::Win(_))));
                    assert!(children.contains(&Value::Win(Plies(d - 1))));
                    assert!(children.iter().all(|c| c.plies().unwrap().0 < d));
                }
                Value::Draw => {
                    assert!(children.contains(&Value::Draw));
                    assert!(children.iter().all(|c| !matches!(c, Value::Loss(_))));
                }
            }
        }
    }
}

#[test]
fn solves_are_identical_at_any_thread_count() {
    let game = game(4, Objective::Normal);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    assert_eq!(pool.install(|| solved(&game)), solved(&game));
}

/// Plays the perfect player as Blue against every sequence of Red replies
/// and returns the length of the longest game, in plies.
fn blue_beats_every_defence(game: &Dodgem, values: &[Value], pos: Position) -> u16 {
    if let Some(outcome) = game.outcome(&pos) {
        let blue_won = outcome.winner == Player::Blue;
        assert!(blue_won, "Blue lost at {pos}");
        return 0;
    }
    let every = EveryPosition(game);
    let child_value = |m: Move| Value::of_move_into(values[every.index(&game.play_unchecked(&pos, m)) as usize]);
    let replies: Vec<Move> = match pos.turn() {
        Player::Blue => {
            let mut moves: Vec<(Move, Value)> =
                game.legal_moves(&pos).into_iter().map(|m| (m, child_value(m))).collect();
            moves.sort_by_key(|m| std::cmp::Reverse(m.1));
            let worths: Vec<Worth> = moves.iter().map(|m| Worth::of_value(m.1)).collect();
            vec![moves[Level::Perfect.pick(&worths, &mut rand::rng()).unwrap()].0]
        }
        Player::Red => game.legal_moves(&pos),
    };
    replies.into_iter().map(|m| 1 + blue_beats_every_defence(game, values, game.play_unchecked(&pos, m))).max().unwrap()
}

#[test]
fn the_perfect_player_as_blue_beats_every_red_defence_on_3x3() {
    let game = game(3, Objective::Normal);
    let values = solved(&game);
    assert_eq!(
        blue_beats_every_defence(&game, &values, game.start()),
        19,
        "the best defence lasts the start's distance"
    );
}

#[test]
fn stepping_through_a_range_matches_unindexing() {
    let mut games = all_games();
    games.push(game(5, Objective::Normal));
    for game in games {
        let index = game.positions().unwrap();
        for (tier_number, tier) in index.tiers().into_iter().enumerate() {
            let len = tier.end - tier.start;
            let ranges = [tier.clone(), tier.start + len / 3..tier.end - len / 5, tier.end - 1..tier.end];
            for range in ranges.into_iter().filter(|r| r.end - r.start < 3_000_000) {
                let mut expected = range.start;
                index.for_each_in_range(tier_number, range.clone(), |idx, pos| {
                    assert_eq!(idx, expected);
                    assert_eq!(pos, index.unindex_in_tier(tier_number, idx), "tier {tier_number} index {idx}");
                    expected += 1;
                });
                assert_eq!(expected, range.end);
            }
        }
        for (unit, info) in game.unit_index().units().iter().enumerate().step_by(7) {
            let len = info.len;
            for range in [0..len, len / 3..len - len / 5, len - 1..len] {
                let mut expected = range.start;
                game.for_each_in_unit(unit, range.clone(), |idx, pos| {
                    assert_eq!(idx, expected);
                    assert_eq!(pos, game.unindex_in_unit(unit, idx), "unit {unit} index {idx}");
                    expected += 1;
                });
                assert_eq!(expected, range.end.max(range.start));
            }
        }
    }
}

/// The claims about one size, checked on a freshly solved table.
fn claims(size: u32) -> (Vec<crate::claims::ClaimCheck>, Vec<RecordMove>) {
    let game = game(size, Objective::Normal);
    let dir = tempfile::tempdir().unwrap();
    let store = solved_engine::TableStore::new(dir.path());
    let (table, _) = crate::tables::obtain(&game, &store, &Silent).unwrap();
    check_size(&game, &table, &Silent).unwrap()
}

#[test]
fn published_3x3_claims_hold_and_the_misprinted_diagram_is_named() {
    use crate::claims::Verdict;
    let (claims, record) = claims(3);
    assert!(record.is_empty());
    let ids: Vec<&str> = claims.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(ids, ["1", "2", "3", "4", "5", "5", "5", "5", "9", "units"]);
    for claim in &claims {
        match claim.claim.as_str() {
            c if c.starts_with("Erickson diagram 3") => {
                let Verdict::Erratum(note) = &claim.verdict else { panic!("{claim:?}") };
                assert!(note.contains(".../.BR/.BR and BB./RR./..."), "{note}");
                assert_eq!(claim.ours, "Blue to move W13, Red to move W13");
            }
            _ => assert_eq!(claim.verdict, Verdict::Agrees, "{claim:?}"),
        }
    }
}

#[test]
fn published_4x4_claims_hold_and_the_record_is_checked_move_by_move() {
    use crate::claims::Verdict;
    let (claims, record) = claims(4);
    assert!(claims.iter().all(|c| c.verdict == Verdict::Agrees), "{claims:?}");
    assert_eq!(claims.iter().map(|c| c.id.as_str()).collect::<Vec<_>>(), ["6", "7", "9", "units"]);
    assert_eq!(record.len(), 24);
    let troubled: Vec<usize> = record.iter().filter(|m| !m.problems.is_empty()).map(|m| m.ply).collect();
    assert_eq!(troubled, [2, 3, 23]);
    assert_eq!(record[1].value_after, Some(Value::Loss(Plies(38))), "Red's reply d1-d2 loses");
    assert_eq!(record[2].value_before, Some(Value::Win(Plies(37))), "and Blue missed the win");
    assert!(!record[22].legal_as_written);
    assert_eq!(record[22].ours, "d3-off", "read untransposed, the move is legal");
    assert!(record.iter().filter(|m| m.written.ends_with('!')).all(|m| m.drawing_moves == 1));
    assert!(record.iter().all(|m| m.value_after.is_some()), "the replay reaches the end");
}

proptest::proptest! {
    #[test]
    fn any_position_indexes_writes_and_mirrors_back(size in 2u32..=5, misere: bool, choice: u64) {
        let game = game(size, if misere { Objective::Misere } else { Objective::Normal });
        let every = EveryPosition(&game);
        let idx = choice % every.position_count();
        let pos = every.unindex(idx);
        proptest::prop_assert_eq!(every.index(&pos), idx);
        proptest::prop_assert_eq!(pos.to_string().parse::<Position>(), Ok(pos));
        proptest::prop_assert_eq!(game.mirror(&game.mirror(&pos)), pos);
        proptest::prop_assert_eq!(game.index(&game.mirror(&pos)), game.index(&pos));
        for m in game.legal_moves(&pos) {
            proptest::prop_assert_eq!(m.to_string().parse::<Move>(), Ok(m));
        }
    }
}

/// Keeps what a computation says for the person waiting.
#[derive(Default)]
struct Notes(std::sync::Mutex<Vec<String>>);

impl solved_engine::Progress for Notes {
    fn note(&self, message: &str) {
        self.0.lock().unwrap().push(message.to_string());
    }
}

#[test]
fn a_table_built_by_another_process_meanwhile_is_loaded_not_built_again() {
    use solved_engine::table::Packed;

    use crate::tables::{Provenance, Solvable, obtain};
    let dir = tempfile::tempdir().unwrap();
    let store = solved_engine::TableStore::new(dir.path());
    let game = game(3, Objective::Normal);
    let notes = Notes::default();
    // This thread plays the other process: it holds the lock and saves the
    // table while the obtain below waits.
    let lock = store.lock_for_building::<Packed>(&game.table_key(), || panic!("free")).unwrap();
    std::thread::scope(|scope| {
        let waiting = scope.spawn(|| obtain(&game, &store, &notes));
        while notes.0.lock().unwrap().is_empty() {
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let solution = game.solve_by_units(&Silent).unwrap();
        let facts = game.facts(&solution, &Silent).unwrap();
        store.save::<Packed>(&game.table_key(), &facts, &solution).unwrap();
        drop(lock);
        let (_, provenance) = waiting.join().unwrap().unwrap();
        assert_eq!(provenance, Provenance::Cached);
    });
    let notes = notes.0.into_inner().unwrap();
    assert!(notes[0].starts_with("waiting for another process"), "{notes:?}");
    assert!(notes[1].contains("which the other process built"), "{notes:?}");
}

#[test]
fn reachable_positions_walked_by_units_are_those_of_one_walk_over_the_board() {
    for game in all_games() {
        let values = solved(&game);
        let every = EveryPosition(&game);
        let truth = solved_engine::reachable(&every, &game.start(), &Silent).unwrap();
        let mut expected = solved_engine::Tally::default();
        (0..every.position_count()).filter(|&i| truth.contains(i)).for_each(|i| expected.add(values[i as usize]));
        let dir = tempfile::tempdir().unwrap();
        let files = game.unit_files(&solved_engine::TableStore::new(dir.path()));
        game.solve_to_files(&files, 0, &Silent).unwrap();
        assert_eq!(game.reachable_if_walked(&files).unwrap(), None);
        assert_eq!(game.reachable_by_units(&files, &Silent).unwrap(), expected, "{}x{}", game.size, game.size);
        // The finished walk is read back, not walked again.
        assert!(files.dir().join("reachable.ckpt").is_file());
        assert_eq!(game.reachable_by_units(&files, &Silent).unwrap(), expected);
        assert_eq!(game.reachable_if_walked(&files).unwrap(), Some(expected));
    }
}

/// The solve counts each unit's mutual zugzwangs by its parts.
#[test]
fn every_unit_up_to_6x6_has_parts() {
    for size in 2..=6 {
        let game = game(size, Objective::Normal);
        let index = game.unit_index();
        let without: Vec<usize> = (0..index.units().len()).filter(|&u| index.parts(u).is_none()).collect();
        assert_eq!(without, [0usize; 0], "{size}x{size}: units without parts");
    }
}

#[test]
fn mutual_zugzwangs_counted_part_by_part_are_those_found_position_by_position() {
    for game in all_games() {
        let dir = tempfile::tempdir().unwrap();
        let store = solved_engine::TableStore::new(dir.path());
        game.solve_to_files(&game.unit_files(&store), 0, &Silent).unwrap();
        let by_parts = DodgemUnits::open(&game, &store).unwrap().figures().unwrap().mutual_zugzwang;
        let (table, _) = crate::tables::obtain(&game, &store, &Silent).unwrap();
        let one_by_one = game.mutual_zugzwangs(&table).len() as u64;
        assert_eq!(by_parts, one_by_one, "{0}x{0} {1:?}", game.size, game.objective());
    }
}

#[test]
fn unit_files_are_held_to_the_figures_published_and_a_sample_audit_catches_a_wrong_value() {
    use crate::claims::Verdict;
    let game = game(4, Objective::Normal);
    let dir = tempfile::tempdir().unwrap();
    let store = solved_engine::TableStore::new(dir.path());
    let files = game.unit_files(&store);
    game.solve_to_files(&files, 0, &Silent).unwrap();
    let units = DodgemUnits::open(&game, &store).unwrap();
    // What 4x4 would publish, from its one table (its own numbering and
    // header figures), not from the unit files.
    let (table, _) = crate::tables::obtain(&game, &store, &Silent).unwrap();
    let summary = game.summary(&table).unwrap();
    let first_moves: Vec<String> =
        game.ranked_moves(&game.start(), &table).iter().map(|(m, v, _)| format!("{m} {v}")).collect();
    let published = claims::OwnResult {
        first_moves: first_moves.join(", "),
        all: summary.all,
        reachable: summary.reachable,
        longest: (summary.longest_win.unwrap(), summary.longest_loss.unwrap()),
        longest_positions: summary.longest_examples.map(|pos| pos.unwrap().to_string()),
        mutual_zugzwangs: summary.mutual_zugzwang,
    };
    // The longest win and loss named by example: the same positions from
    // the table and from the unit files, and of the values named.
    let examples = summary.longest_examples;
    assert_eq!(units.longest_examples(&game).unwrap(), examples);
    let [win, loss] = examples.map(|pos| game.probe(&table, &pos.unwrap()));
    assert_eq!((win, loss), (Value::Win(summary.longest_win.unwrap()), Value::Loss(summary.longest_loss.unwrap())));
    let audit_claim =
        "4x4: every position, either side to move, has the value its children give by the plain rules (solved audit)";
    let verdicts = |published: &claims::OwnResult, reachable, audited: Option<AuditReport>| {
        let solved = claims::SolvedUnits { units: &units, reachable, audited: audited.clone() };
        let claims = claims::from_unit_files(&game, Ok(solved), published, 5000, &Silent).unwrap();
        match audited {
            Some(audit) => assert_eq!(claims.last().unwrap().ours, format!("all {} agree", audit.checked)),
            None => assert_eq!(claims.last().unwrap().ours, "all 5000 agree"),
        }
        claims.into_iter().map(|c| (c.claim, c.verdict)).collect::<Vec<_>>()
    };
    let not_walked = verdicts(&published, None, None);
    let unreached: Vec<&str> = not_walked.iter().filter(|c| c.1 != Verdict::Agrees).map(|c| c.0.as_str()).collect();
    assert_eq!(unreached, ["4x4 positions reachable from the start (wins, losses, draws)", audit_claim]);
    assert_eq!(not_walked[3].1, Verdict::NotYetReachable);
    let walked = game.reachable_by_units(&files, &Silent).unwrap();
    let not_audited = verdicts(&published, Some(walked), None);
    assert!(not_audited.iter().all(|c| c.1 == Verdict::Agrees || c.0 == audit_claim));
    // The full audit, once it has run, stands for the sample.
    assert_eq!(game.audited(&files, &Silent).unwrap(), None);
    let audit = game.audit_units(&files, 0, &Silent).unwrap();
    assert_eq!(game.audited(&files, &Silent).unwrap().as_ref(), Some(&audit));
    assert!(verdicts(&published, Some(walked), Some(audit.clone())).iter().all(|c| c.1 == Verdict::Agrees));
    // Each published figure is held to the files: one wrong, one claim fails.
    let mut wrong = published.clone();
    wrong.mutual_zugzwangs += 1;
    let failed: Vec<String> = verdicts(&wrong, Some(walked), Some(audit))
        .into_iter()
        .filter(|c| c.1 != Verdict::Agrees)
        .map(|c| c.0)
        .collect();
    assert_eq!(failed, ["4x4 placements lost for either side to move"]);
    // One stored value changed: the audit finds it where it was sampled.
    let wrong = 2 * game.unit_index().count() / 5;
    let unit = game.unit_index().unit_at(wrong);
    let victim = Units::unindex_in_unit(&game, unit, wrong - game.unit_index().start(unit));
    let lie = |pos: &Position| {
        let truth = units.value(&game, pos)?;
        let same = Units::locate(&game, pos) == Units::locate(&game, &victim);
        Ok(if same { if truth == Value::Draw { Value::Win(Plies(1)) } else { Value::Draw } } else { truth })
    };
    let report = game.audit_sample(0..game.unit_index().count(), 5, &Silent, lie).unwrap();
    assert_eq!(report.checked, 5);
    assert!(report.examples.iter().any(|d| d.idx == wrong), "{report:?}");
    let missing = claims::from_unit_files(&game, Err("not solved".into()), &published, 5, &Silent).unwrap();
    assert_eq!(missing.len(), 1);
    assert_eq!((missing[0].ours.as_str(), &missing[0].verdict), ("not solved", &Verdict::NotYetReachable));
}

#[test]
fn units_solved_two_bytes_wide_leave_the_same_files() {
    for objective in [Objective::Normal, Objective::Misere] {
        let game = game(4, objective);
        let (narrow, wide) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
        let narrow = game.unit_files(&solved_engine::TableStore::new(narrow.path()));
        let wide = game.unit_files(&solved_engine::TableStore::new(wide.path()));
        game.solve_to_files(&narrow, 0, &Silent).unwrap();
        solved_engine::units::UnitSolver::new(0).two_bytes_wide().solve(&game, &wide, &Silent).unwrap();
        for unit in 0..game.unit_index().units().len() {
            let (a, b) = (std::fs::read(narrow.path(unit)).unwrap(), std::fs::read(wide.path(unit)).unwrap());
            assert!(a == b, "unit {unit} of 4x4 {objective:?} differs");
        }
    }
}

/// The walk's children (found by the solver's own moves) and the audit's
/// (the plain rules' children, located together, on their own or after
/// the mirror image's) are where each plain child alone is located.
#[test]
fn children_found_for_the_walk_and_located_for_the_audit_are_where_each_alone_is() {
    use solved_engine::units::{ForwardUnits, SiblingMemo};
    for size in 2..=6 {
        let game = game(size, Objective::Normal);
        let every = EveryPosition(&game);
        let units = game.unit_index().units();
        // Every unit of the small boards; a spread of units and positions
        // of 5x5 and 6x6, each compiled for its size.
        let step = if size <= 4 { 1 } else { 7 };
        for unit in (0..units.len()).step_by(step) {
            let len = units[unit].len;
            let picks = if size <= 4 { 0..len } else { 0..len.min(40) };
            let spread = picks.map(|i| if size <= 4 { i } else { i * len / 40 });
            for idx in spread {
                let stored = Units::unindex_in_unit(&game, unit, idx);
                let mut memo = SiblingMemo::default();
                for pos in [stored, game.mirror(&stored)] {
                    if game.terminal_value(&pos).is_some() {
                        continue;
                    }
                    let children: Vec<Position> =
                        game.legal_moves(&pos).into_iter().map(|m| game.play_unchecked(&pos, m)).collect();
                    let mut plain: Vec<(usize, u64)> =
                        children.iter().map(|child| ForwardUnits::locate(&every, child)).collect();
                    // On their own, and one after the other as the audit
                    // takes them: the second's children found among the first's.
                    for memo in [&mut SiblingMemo::default(), &mut memo] {
                        let mut together = Vec::new();
                        every.locate_siblings(&pos, &children, memo, &mut together);
                        assert_eq!(together, plain, "{size}x{size} unit {unit} position {idx}: {pos}");
                    }
                    let mut found = Vec::new();
                    every.for_each_child_located(&pos, |u, i| found.push((u, i)));
                    found.sort_unstable();
                    plain.sort_unstable();
                    assert_eq!(found, plain, "{size}x{size} {pos}");
                }
            }
        }
    }
}

#[test]
fn a_damaged_block_of_a_unit_file_is_found_and_the_unit_named() {
    use crate::claims::Verdict;
    let game = game(4, Objective::Misere);
    let dir = tempfile::tempdir().unwrap();
    let store = solved_engine::TableStore::new(dir.path());
    let files = game.unit_files(&store);
    game.solve_to_files(&files, 0, &Silent).unwrap();
    let command = "solved solve dodgem --size 4 --misere --units";
    let whole = claims::unit_blocks(&game, &files, command, &Silent).unwrap();
    assert_eq!(whole.verdict, Verdict::Agrees, "{}", whole.ours);
    // The largest unit, one byte flipped inside its blocks, past the header.
    let unit = (0..files.len()).max_by_key(|&u| std::fs::metadata(files.path(u)).unwrap().len()).unwrap();
    let path = files.path(unit);
    let mut bytes = std::fs::read(&path).unwrap();
    let inside = bytes.len() - bytes.len() / 4;
    bytes[inside] ^= 0x10;
    std::fs::write(&path, &bytes).unwrap();
    let damaged = claims::unit_blocks(&game, &files, command, &Silent).unwrap();
    assert_eq!(damaged.verdict, Verdict::Disagrees);
    assert!(damaged.ours.contains(&format!("first unit {unit} ")), "{}", damaged.ours);
    assert!(damaged.ours.contains(command), "{}", damaged.ours);
}
