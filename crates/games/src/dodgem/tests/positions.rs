//! Positions: their counts, indices, notation and mirror images, and the
//! moves the rules refuse.

use solved_engine::Units;

use super::*;

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
