//! The moves and parents the solvers find, by tiers, by units and by parts,
//! against the plain rules.

use std::collections::HashMap;

use solved_engine::{Expansion, UnitParts, Units};

use super::*;

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
