//! Tic-Tac-Chec through the command line: what can be checked without its
//! 2.4 GB table (the full solve is a benchmark, not a test).

use crate::util::Solved;

#[test]
fn bad_positions_and_rules_are_refused_before_any_solving() {
    let solved = Solved::new();
    solved.run(&["probe", "tic-tac-chec", "..../..../..../...."]).fails_with("invalid position");
    solved.run(&["probe", "tic-tac-chec", "..../..../..../.P.. w d- post"]).fails_with("cannot face down");
    solved.run(&["probe", "tic-tac-chec", "NN../..../..../.... w -- post"]).fails_with("twice");
    solved.run(&["census", "tic-tac-chec", "--pawn", "sideways"]).fails_with("unknown pawn rule \"sideways\"");
    solved.run(&["solve", "tic-tac-chec", "--pawn", "x"]).fails_with("unknown pawn rule");
    solved.run(&["report", "tic-tac-chec", "--sections", "gossip"]).fails_with("invalid value 'gossip'");
    assert!(std::fs::read_dir(solved.data_dir()).map_or(true, |mut d| d.next().is_none()), "nothing was solved");
}
