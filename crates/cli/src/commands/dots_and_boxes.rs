//! Dots and Boxes' commands: solve, probe, verify, play, bench.

use std::fmt::Write;
use std::process::ExitCode;
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::StdRng;
use solved_engine::Table;
use solved_engine::table::Margin;
use solved_games::dots_and_boxes::{self, Board, Line, Player, Position};
use solved_games::registry::{Game, Kind, Operation, command_line};
use solved_games::tables::{Provenance, Solvable};

use super::play::{self, Playable};
use super::{Request, bench, open_table, provenance_words, unsupported, verify_report};
use crate::json::{BoxesFirstMoveJson, BoxesLineJson, BoxesProbeJson, BoxesSolveJson};
use crate::output;
use crate::text::thousands;

pub(super) fn run(request: &Request) -> anyhow::Result<ExitCode> {
    match request.operation {
        Operation::Solve => solve(request, &Board::from_params(request.params)?),
        Operation::Probe => probe(request),
        Operation::Verify => verify(request),
        Operation::Play => play(request),
        Operation::Bench => bench::bench(&Game::DotsAndBoxes(Board::from_params(request.params)?), request),
        _ => unsupported(request, Kind::DotsAndBoxes),
    }
}

fn table(request: &Request, board: &Board) -> anyhow::Result<(Table<Margin>, Provenance)> {
    open_table(
        request.config,
        dots_and_boxes::INFO.name,
        board,
        command_line(Operation::Solve, &Game::DotsAndBoxes(board.clone())),
    )
}

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

fn solve(request: &Request, board: &Board) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    let (table, provenance) = table(request, board)?;
    let summary = board.summary(&table);
    let seconds = began.elapsed().as_secs_f64();
    let path = request.config.store.path::<Margin>(&board.table_key()).display().to_string();
    let best: Vec<String> = summary.best_first_moves().iter().map(Line::to_string).collect();
    if request.json {
        output::json(&BoxesSolveJson {
            game: dots_and_boxes::INFO.id,
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
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    let how = provenance_words(provenance);
    writeln!(text, "{}, {how} {path}", describe(board))?;
    writeln!(text, "{} undrawn lines, {} positions", summary.lines, thousands(summary.positions))?;
    writeln!(text, "with best play from the start: {}", outcome(summary.value))?;
    text.push_str(&board.diagram(&board.start(), &board.line_scores(&table, &board.start()), &[]));
    writeln!(text, "best first lines ({}): {}", best.len(), best.join(", "))?;
    writeln!(text, "time: {seconds:.2} s")?;
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn probe(request: &Request) -> anyhow::Result<ExitCode> {
    let dots_and_boxes::ProbeRequest { board, position: pos, loony } = dots_and_boxes::probe_request(request.params)?;
    let (table, _) = table(request, &board)?;
    let scores = board.line_scores(&table, &pos);
    let value = board.value(&table, &pos);
    if request.json {
        output::json(&BoxesProbeJson {
            to_move: pos.turn().to_string(),
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
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    writeln!(text, "{} (scores are the final A - B if the line is drawn now; * marks the best)", describe(&board))?;
    text.push_str(&board.diagram(&pos, &scores, &loony));
    writeln!(text, "{} to move; score so far {:+}", pos.turn(), pos.score_so_far())?;
    if board.is_over(&pos) {
        writeln!(text, "the game is over: {}", outcome(value))?;
    } else {
        let best: Vec<String> = scores.iter().filter(|s| s.best).map(|s| s.line.to_string()).collect();
        writeln!(text, "with best play: {}; best lines: {}", outcome(value), best.join(", "))?;
    }
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn verify(request: &Request) -> anyhow::Result<ExitCode> {
    let claims = dots_and_boxes::verify(|board| table(request, board).map(|(t, _)| t))?;
    verify_report(request, Kind::DotsAndBoxes, &claims, String::new(), Vec::new())
}

fn play(request: &Request) -> anyhow::Result<ExitCode> {
    let params = request.params;
    let board = Board::from_params(params)?;
    let human = params.required("as", params.parsed::<Player>("as")?)?;
    let seed = params.number::<u64>("seed")?;
    let (table, _) = table(request, &board)?;
    let rng = StdRng::seed_from_u64(seed.unwrap_or_else(rand::random));
    let mut session = Session { board, table, human, rng };
    play::run(&mut session, params.flag("hints")?, std::io::stdin().lock())
}

/// A game against the perfect player.
struct Session {
    board: Board,
    table: Table<Margin>,
    human: Player,
    rng: StdRng,
}

impl Playable for Session {
    type Position = Position;

    fn intro(&self) -> String {
        format!(
            "{}. You are {}; A moves first. Draw a line by its name in Wilson's notation \
             (row letter then column letter of the text grid, a at the top left: ab is the top-left \
             horizontal line, ba the top-left vertical one). Completing a box takes it and you move again. \
             Type 'hint' for the scores of every line, or 'quit'.",
            describe(&self.board),
            self.human
        )
    }

    fn start(&self) -> Position {
        self.board.start()
    }

    fn show(&self, pos: &Position, hints: bool, _: u32) -> String {
        let scores = if hints { self.board.line_scores(&self.table, pos) } else { Vec::new() };
        format!("{}score {:+}\n", self.board.diagram(pos, &scores, &[]), pos.score_so_far())
    }

    fn result(&self, pos: &Position) -> Option<String> {
        if !self.board.is_over(pos) {
            return None;
        }
        let result = match self.board.winner(pos) {
            Some(player) => format!("{player} wins"),
            None => "a tie".into(),
        };
        Some(format!("Game over: {result}, {}.", outcome(pos.score_so_far())))
    }

    fn is_players_turn(&self, pos: &Position) -> bool {
        pos.turn() == self.human
    }

    fn computer(&mut self, pos: &Position) -> (Position, String) {
        let line = self.board.choose(&self.table, pos, &mut self.rng);
        let takes = self.board.completed_by(pos.drawn(), line).len();
        let note = if takes > 0 { format!(", taking {takes}") } else { String::new() };
        let child = self.board.play(pos, line).expect("the computer draws an undrawn line");
        (child, format!("{} draws {line}{note}", pos.turn()))
    }

    fn hints(&self, pos: &Position) -> String {
        let all: Vec<String> = self
            .board
            .line_scores(&self.table, pos)
            .iter()
            .map(|s| format!("{} {:+}{}", s.line, s.score, if s.best { "*" } else { "" }))
            .collect();
        format!("final score A - B for each line (* best): {}", all.join(", "))
    }

    fn prompt(&self, pos: &Position) -> String {
        format!("{} to move> ", pos.turn())
    }

    fn play(&self, pos: &Position, text: &str) -> Result<Position, String> {
        let line = self.board.line_named(text).map_err(|e| e.to_string())?;
        self.board.play(pos, line).map_err(|e| e.to_string())
    }
}
