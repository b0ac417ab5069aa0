//! Dots and Boxes' commands: solve, probe, verify, play.

use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use rand::SeedableRng;
use rand::rngs::StdRng;
use solved_games::dots_and_boxes::wilson::{Diagram, Loony};
use solved_games::dots_and_boxes::{Board, Line, Player, Position, parse_moves};
use solved_games::registry::Game;
use solved_games::tables::Provenance;

use super::{open_table, provenance_words, verify_report};
use crate::config::Config;
use crate::json::{BoxesFirstMoveJson, BoxesLineJson, BoxesProbeJson, BoxesSolveJson};
use crate::text::thousands;

fn describe(board: &Board) -> String {
    format!("Dots and Boxes {}x{} boxes ({})", board.rows(), board.cols(), board.variant().id())
}

/// `+3 (A wins by 3)`, `0 (a tie)`, `-2 (B wins by 2)`.
fn outcome(score: i32) -> String {
    match score.signum() {
        1 => format!("{score:+} (A wins by {score})"),
        -1 => format!("{score:+} (B wins by {})", -score),
        _ => "0 (a tie)".into(),
    }
}

pub fn solve(config: &Config, board: &Board, json: bool) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    let (table, provenance) = open_table(config, Game::DotsAndBoxes(board.clone()))?;
    let summary = board.summary(&table);
    let seconds = began.elapsed().as_secs_f64();
    let path = config.store.path(&board.table_key()).display().to_string();
    let best: Vec<String> = summary.best_first_moves().iter().map(Line::to_string).collect();
    if json {
        let report = BoxesSolveJson {
            game: "dots-and-boxes",
            rows: board.rows(),
            cols: board.cols(),
            variant: board.variant().id(),
            lines: summary.lines,
            positions: summary.positions,
            value: summary.value,
            first_moves: summary
                .first_moves
                .iter()
                .map(|m| BoxesFirstMoveJson { m: m.line.to_string(), score: m.score, best_replies: m.best_replies })
                .collect(),
            best_first_moves: best,
            seconds,
            table: path,
            cached: provenance == Provenance::Cached,
        };
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    let how = provenance_words(provenance);
    println!("{}, {how} {path}", describe(board));
    println!("{} undrawn lines, {} positions", summary.lines, thousands(summary.positions));
    println!("with best play from the start: {}", outcome(summary.value));
    print!("{}", board.diagram(&board.start(), &board.line_scores(&table, &board.start()), &[]));
    println!("best first lines ({}): {}", best.len(), best.join(", "));
    println!("time: {seconds:.2} s");
    Ok(ExitCode::SUCCESS)
}

/// The position to probe, with any loony marks its diagram carries.
pub fn position(
    board: &Board,
    moves: Option<&str>,
    diagram: Option<&Path>,
    to_move: Option<Player>,
) -> anyhow::Result<(Position, Vec<(Line, Loony)>)> {
    match diagram {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).with_context(|| format!("cannot read diagram {}", path.display()))?;
            let diagram: Diagram = text.parse().with_context(|| format!("invalid diagram {}", path.display()))?;
            let pos = board.position_from(&diagram, to_move).with_context(|| format!("diagram {}", path.display()))?;
            Ok((pos, diagram.loony))
        }
        None => Ok((parse_moves(board, moves.unwrap_or_default()).context("invalid move list")?, Vec::new())),
    }
}

pub fn probe(
    config: &Config,
    board: &Board,
    pos: &Position,
    loony: &[(Line, Loony)],
    json: bool,
) -> anyhow::Result<ExitCode> {
    let (table, _) = open_table(config, Game::DotsAndBoxes(board.clone()))?;
    let scores = board.line_scores(&table, pos);
    let value = board.value(&table, pos);
    if json {
        let report = BoxesProbeJson {
            to_move: pos.to_move().to_string(),
            score_so_far: pos.score_so_far(),
            value,
            moves: scores
                .iter()
                .map(|s| BoxesLineJson {
                    m: s.line.to_string(),
                    score: s.score,
                    best: s.best,
                    loony: loony.iter().find(|l| l.0 == s.line).map(|l| l.1.symbol()),
                })
                .collect(),
        };
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("{} (scores are the final A - B if the line is drawn now; * marks the best)", describe(board));
    print!("{}", board.diagram(pos, &scores, loony));
    println!("{} to move; score so far {:+}", pos.to_move(), pos.score_so_far());
    if board.is_over(pos) {
        println!("the game is over: {}", outcome(value));
    } else {
        let best: Vec<String> = scores.iter().filter(|s| s.best).map(|s| s.line.to_string()).collect();
        println!("with best play: {}; best lines: {}", outcome(value), best.join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

pub fn verify(config: &Config, json: bool) -> anyhow::Result<ExitCode> {
    let claims = solved_games::dots_and_boxes::verify(|board| {
        open_table(config, Game::DotsAndBoxes(board.clone())).map(|(t, _)| t)
    })?;
    verify_report("dots-and-boxes", &claims, Vec::new(), json)
}

pub fn play(config: &Config, board: &Board, human: Player, hints: bool, seed: Option<u64>) -> anyhow::Result<ExitCode> {
    let (table, _) = open_table(config, Game::DotsAndBoxes(board.clone()))?;
    let mut rng = StdRng::seed_from_u64(seed.unwrap_or_else(rand::random));
    let mut pos = board.start();
    let mut input = std::io::stdin().lock();
    println!(
        "{}. You are {human}; A moves first. Draw a line by its name in Wilson's notation \
         (row letter then column letter of the text grid, a at the top left: ab is the top-left \
         horizontal line, ba the top-left vertical one). Completing a box takes it and you move again. \
         Type 'hint' for the scores of every line, or 'quit'.",
        describe(board)
    );
    loop {
        let scores = board.line_scores(&table, &pos);
        let shown = if hints && pos.to_move() == human { scores.as_slice() } else { &[] };
        print!("\n{}", board.diagram(&pos, shown, &[]));
        println!("score {:+}", pos.score_so_far());
        if board.is_over(&pos) {
            let result = match board.winner(&pos) {
                Some(player) => format!("{player} wins"),
                None => "a tie".into(),
            };
            println!("Game over: {result}, {}.", outcome(pos.score_so_far()));
            return Ok(ExitCode::SUCCESS);
        }
        if pos.to_move() != human {
            let line = board.choose(&table, &pos, &mut rng);
            let takes = board.completed_by(pos.drawn(), line).len();
            let note = if takes > 0 { format!(", taking {takes}") } else { String::new() };
            println!("{} draws {line}{note}", pos.to_move());
            pos = board.play(&pos, line).expect("the computer draws an undrawn line");
            continue;
        }
        pos = loop {
            print!("{} to move> ", pos.to_move());
            std::io::stdout().flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                println!();
                return Ok(ExitCode::SUCCESS);
            }
            match line.trim() {
                "" => continue,
                "quit" | "q" | "exit" => return Ok(ExitCode::SUCCESS),
                "hint" | "hints" | "?" => {
                    let all: Vec<String> = scores
                        .iter()
                        .map(|s| format!("{} {:+}{}", s.line, s.score, if s.best { "*" } else { "" }))
                        .collect();
                    println!("final score A - B for each line (* best): {}", all.join(", "));
                }
                text => match text
                    .parse::<Line>()
                    .map_err(|e| e.to_string())
                    .and_then(|l| board.play(&pos, l).map_err(|e| e.to_string()))
                {
                    Ok(child) => break child,
                    Err(error) => println!("{error}"),
                },
            }
        };
    }
}
