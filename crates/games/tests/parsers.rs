//! Every parser of what a user types, fed text at random (from any
//! characters, and from the characters its notation uses, so that the
//! cases reach past the first check): it answers or refuses, never
//! panics, and what it reads it writes back the same.
//!
//! The fuzzing of a nightly `cargo fuzz`, bounded so that it runs with the
//! tests.

use proptest::prelude::*;
use solved_games::contest::match_params;
use solved_games::dodgem;
use solved_games::dots_and_boxes::wilson::Diagram;
use solved_games::dots_and_boxes::{Board, Variant, parse_moves};
use solved_games::levels::Level;
use solved_games::params::{NoFiles, Params};
use solved_games::registry::GAMES;
use solved_games::snakes::{Overshoot, parse_board, parse_jumps};
use solved_games::tic_tac_chec;

/// Text of up to `len` characters from `alphabet`.
fn text_of(alphabet: &'static str, len: usize) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    proptest::collection::vec(proptest::sample::select(chars), 0..=len).prop_map(|c| c.into_iter().collect())
}

/// Any text, or text from `alphabet`.
fn typed(alphabet: &'static str, len: usize) -> impl Strategy<Value = String> {
    prop_oneof![proptest::string::string_regex(&format!(".{{0,{len}}}")).unwrap(), text_of(alphabet, len)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn dodgem_positions_and_moves(position in typed("BR./ 23456", 48), m in typed("abcdef123456-of ", 10)) {
        if let Ok(pos) = position.parse::<dodgem::Position>() {
            prop_assert_eq!(pos.to_string().parse::<dodgem::Position>().ok(), Some(pos));
        }
        if let Ok(parsed) = m.parse::<dodgem::Move>() {
            prop_assert_eq!(parsed.to_string().parse::<dodgem::Move>().ok(), Some(parsed));
        }
    }

    #[test]
    fn tic_tac_chec_positions_and_moves(
        position in typed("PNBRpnbr./ wbud-openst", 48),
        m in typed("PNBR@abcd1234-", 8),
    ) {
        if let Ok(pos) = position.parse::<tic_tac_chec::Position>() {
            prop_assert_eq!(pos.to_string().parse::<tic_tac_chec::Position>().ok(), Some(pos));
        }
        if let Ok(parsed) = m.parse::<tic_tac_chec::Move>() {
            prop_assert_eq!(parsed.to_string().parse::<tic_tac_chec::Move>().ok(), Some(parsed));
        }
    }

    #[test]
    fn dots_and_boxes_moves_and_diagrams(moves in typed("abcdefg, ", 40), diagram in typed("+-|.AB v^\n", 120)) {
        let board = Board::new(2, 2, Variant::American).unwrap();
        if let Ok(pos) = parse_moves(&board, &moves) {
            prop_assert!(pos.score_so_far().abs() <= 4);
        }
        let _ = board.line_named(&moves);
        if let Ok(diagram) = diagram.parse::<Diagram>() {
            let _ = board.position_from(&diagram, None);
        }
    }

    #[test]
    fn snakes_boards_and_jumps(text in typed("goal numbering squares cells ladder snake jump 0123456789#\n", 120)) {
        let _ = parse_board("fuzzed", &text, Overshoot::Stay);
        let _ = parse_jumps(&text);
    }

    /// A level, and the two levels of a match, as `level=` and `--levels`
    /// give them.
    #[test]
    fn levels(text in typed("randomcasulstrgpefi, ", 24)) {
        if let Ok(level) = text.parse::<Level>() {
            prop_assert_eq!(level.name(), text.as_str());
        }
        let pairs = vec![("levels".to_string(), text.clone())];
        let fields = [solved_games::contest::LEVELS, solved_games::contest::GAMES_PLAYED, solved_games::params::SEED];
        if let Ok(([a, b], _, _)) = match_params(&Params::new(pairs, &fields, &NoFiles).unwrap()) {
            prop_assert_eq!(format!("{a},{b}"), text.split(',').map(str::trim).collect::<Vec<_>>().join(","));
        }
    }

    /// Parameters as a query string gives them, to every operation of every
    /// game: read by the game's parser or refused with a reason.
    #[test]
    fn every_games_parameters(pairs in proptest::collection::vec((typed("abcdefghijklmnoprstuvwxyz-", 12), typed("0123456789truefalsmi-,.:", 12)), 0..4)) {
        for game in GAMES {
            for supported in game.info().operations {
                let Ok(params) = Params::new(pairs.clone(), supported.fields, &NoFiles) else { continue };
                if let Ok(board) = game.board(&params) {
                    prop_assert!(!board.is_empty(), "{}", game.info().id);
                }
            }
        }
    }
}
