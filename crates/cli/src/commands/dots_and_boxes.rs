//! Dots and Boxes' commands: solve, probe, verify, play, bench.

use std::fmt::Write;
use std::process::ExitCode;
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::StdRng;
use solved_engine::Table;
use solved_games::dots_and_boxes::quiet::{QuietOutcomes, QuietTable};
use solved_games::dots_and_boxes::wilson::Loony;
use solved_games::dots_and_boxes::{self, Board, Line, LineScore, Player, Position, Scorer};
use solved_games::registry::{Game, Kind, Operation, command_line};
use solved_games::tables::{Provenance, Solvable};

use super::play::{self, Playable};
use super::{Request, bench, open_table, provenance_words, unsupported, verify_report};
use crate::json::{BoxesFirstMoveJson, BoxesLineJson, BoxesProbeJson, BoxesSolveJson};
use crate::output;
use crate::progress::Bar;
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

/// The quiet table of `board`, which every probe reads.
fn table(request: &Request, board: &Board) -> anyhow::Result<(QuietTable, Table<QuietOutcomes>, Provenance)> {
    let quiet = QuietTable::new(board);
    let (table, provenance) =
        open_table(request.config, dots_and_boxes::INFO.name, &quiet, solve_command(request, board))?;
    Ok((quiet, table, provenance))
}

/// The command that builds `board`'s tables, unless it is the one running.
fn solve_command(request: &Request, board: &Board) -> Option<String> {
    (request.operation != Operation::Solve).then(|| command_line(Operation::Solve, &Game::DotsAndBoxes(board.clone())))
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
    let (quiet, table, provenance) = self::table(request, board)?;
    let scorer = Scorer::new(&quiet, &table);
    let summary = scorer.summary()?;
    let start_scores = scorer.line_scores(&board.start())?;
    let seconds = began.elapsed().as_secs_f64();
    let path = request.config.store.path::<QuietOutcomes>(&quiet.table_key()).display().to_string();
    let best: Vec<String> = summary.best_first_moves().iter().map(Line::to_string).collect();
    let cached = provenance == Provenance::Cached;
    if request.json {
        output::json(&BoxesSolveJson {
            game: dots_and_boxes::INFO.id,
            rows: board.rows(),
            cols: board.cols(),
            variant: board.variant().id(),
            lines: summary.lines,
            positions: 1u64 << summary.lines,
            quiet_positions: summary.quiet_positions,
            representatives: table.header().tally.positions(),
            value: summary.value,
            first_moves: summary
                .first_moves
                .iter()
                .map(|m| BoxesFirstMoveJson {
                    m: m.line.to_string(),
                    score: m.score,
                    loony: mark(m.loony),
                    best_replies: m.best_replies,
                })
                .collect(),
            best_first_moves: best,
            seconds,
            table: path,
            table_bytes: table.stored_len(),
            cached,
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    let how = provenance_words(provenance);
    writeln!(text, "{}, {how} {path}", describe(board))?;
    writeln!(
        text,
        "{} undrawn lines; {} quiet positions, kept as {} classes of symmetric ones in {:.1} MB",
        summary.lines,
        thousands(summary.quiet_positions),
        thousands(table.header().tally.positions()),
        table.stored_len() as f64 / 1e6
    )?;
    writeln!(text, "with best play from the start: {}", outcome(summary.value))?;
    text.push_str(&board.diagram(&board.start(), &start_scores));
    writeln!(text, "best first lines ({}): {}", best.len(), best.join(", "))?;
    writeln!(text, "{LOONY_KEY}")?;
    writeln!(text, "time: {seconds:.2} s")?;
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// What the marks after scores mean.
const LOONY_KEY: &str = "^ after a score: B must make the next loony move; v: A must; no mark: neither can be made to";

/// A loony mark as JSON gives it: `"A"`, `"B"` or null.
fn mark(loony: Option<Loony>) -> Option<&'static str> {
    loony.map(|l| match l {
        Loony::A => "A",
        Loony::B => "B",
    })
}

fn probe(request: &Request) -> anyhow::Result<ExitCode> {
    let dots_and_boxes::ProbeRequest { board, position: pos, loony } = dots_and_boxes::probe_request(request.params)?;
    let (quiet, table, _) = table(request, &board)?;
    let scorer = Scorer::new(&quiet, &table);
    let scores = scorer.line_scores(&pos)?;
    let value = scorer.value(&pos)?;
    // The diagram's own marks, where it has any, against ours.
    let differing: Vec<String> = if loony.is_empty() {
        Vec::new()
    } else {
        scores
            .iter()
            .filter(|s| loony.iter().find(|l| l.0 == s.line).map(|l| l.1) != s.loony)
            .map(describe_mark)
            .collect()
    };
    if request.json {
        output::json(&BoxesProbeJson {
            to_move: pos.turn().to_string(),
            score_so_far: pos.score_so_far(),
            value,
            moves: scores
                .iter()
                .map(|s| BoxesLineJson { m: s.line.to_string(), score: s.score, best: s.best, loony: mark(s.loony) })
                .collect(),
            diagram_marks_agree: (!loony.is_empty()).then_some(differing.is_empty()),
        })?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    writeln!(text, "{} (scores are the final A - B if the line is drawn now; * marks the best)", describe(&board))?;
    text.push_str(&board.diagram(&pos, &scores));
    writeln!(text, "{} to move; score so far {:+}", pos.turn(), pos.score_so_far())?;
    if board.is_over(&pos) {
        writeln!(text, "the game is over: {}", outcome(value))?;
    } else {
        let best: Vec<String> = scores.iter().filter(|s| s.best).map(|s| s.line.to_string()).collect();
        writeln!(text, "with best play: {}; best lines: {}", outcome(value), best.join(", "))?;
        writeln!(text, "{LOONY_KEY}")?;
    }
    if !loony.is_empty() {
        if differing.is_empty() {
            writeln!(text, "the diagram's loony marks agree with ours")?;
        } else {
            writeln!(text, "the diagram's loony marks differ from ours at: {}", differing.join(", "))?;
        }
    }
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// `ab (ours ^)`.
fn describe_mark(score: &LineScore) -> String {
    format!("{} (ours {})", score.line, score.loony.map_or("none", Loony::symbol))
}

fn verify(request: &Request) -> anyhow::Result<ExitCode> {
    let store = &request.config.store;
    let mut claims = dots_and_boxes::verify(
        |quiet| table(request, quiet.board()).map(|(_, t, _)| t),
        // A large table is probed a block at a time; verifying it reads
        // and checks every block first.
        |quiet| {
            let table = store.open::<QuietOutcomes>(&quiet.table_key())?;
            table.as_ref().map(Table::check_all).transpose()?;
            Ok::<_, anyhow::Error>(table)
        },
    )?;
    if request.params.flag("exhaustive")? {
        claims.extend(dots_and_boxes::verify_against_sweep(&Bar::new())?);
    }
    verify_report(request, Kind::DotsAndBoxes, &claims, String::new(), Vec::new())
}

fn play(request: &Request) -> anyhow::Result<ExitCode> {
    let params = request.params;
    let board = Board::from_params(params)?;
    let human = params.required("as", params.parsed::<Player>("as")?)?;
    let seed = params.number::<u64>("seed")?;
    let (quiet, table, _) = table(request, &board)?;
    let rng = StdRng::seed_from_u64(seed.unwrap_or_else(rand::random));
    let mut session = Session { board, quiet, table, human, rng };
    play::run(&mut session, params.flag("hints")?, std::io::stdin().lock())
}

/// A game against the perfect player.
struct Session {
    board: Board,
    quiet: QuietTable,
    table: Table<QuietOutcomes>,
    human: Player,
    rng: StdRng,
}

impl Session {
    fn scorer(&self) -> Scorer<'_> {
        Scorer::new(&self.quiet, &self.table)
    }
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

    fn show(&self, pos: &Position, hints: bool, _: u32) -> anyhow::Result<String> {
        let scores = if hints { self.scorer().line_scores(pos)? } else { Vec::new() };
        Ok(format!("{}score {:+}\n", self.board.diagram(pos, &scores), pos.score_so_far()))
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

    fn computer(&mut self, pos: &Position) -> anyhow::Result<(Position, String)> {
        let line = Scorer::new(&self.quiet, &self.table).choose(pos, &mut self.rng)?;
        let takes = self.board.completed_by(pos.drawn(), line).len();
        let note = if takes > 0 { format!(", taking {takes}") } else { String::new() };
        let child = self.board.play(pos, line).expect("the computer draws an undrawn line");
        Ok((child, format!("{} draws {line}{note}", pos.turn())))
    }

    fn hints(&self, pos: &Position) -> anyhow::Result<String> {
        let all: Vec<String> = self
            .scorer()
            .line_scores(pos)?
            .iter()
            .map(|s| {
                let mark = s.loony.map_or("", Loony::symbol);
                format!("{} {:+}{mark}{}", s.line, s.score, if s.best { "*" } else { "" })
            })
            .collect();
        Ok(format!("final score A - B for each line (* best; {LOONY_KEY}): {}", all.join(", ")))
    }

    fn prompt(&self, pos: &Position) -> String {
        format!("{} to move> ", pos.turn())
    }

    fn play(&self, pos: &Position, text: &str) -> Result<Position, String> {
        let line = self.board.line_named(text).map_err(|e| e.to_string())?;
        self.board.play(pos, line).map_err(|e| e.to_string())
    }
}
