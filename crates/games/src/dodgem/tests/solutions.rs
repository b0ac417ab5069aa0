//! The solutions: the solvers against each other and the naive solver,
//! the minimax equation, the perfect player, and the published claims.

use solved_engine::{Plies, audit, solve_naive};

use crate::levels::{Level, Worth};

use super::*;

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
