//! Puzzles from a solved game: positions where exactly one move keeps the
//! win (or the draw, or with scores the best final score), found along
//! games the casual level plays from the start, seeded, and graded by the
//! distance to the end and by how many tempting moves change the result.

use std::collections::{BTreeMap, HashSet};

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use serde::Serialize;

use crate::front::Answer;
use crate::levels::{Contest, Level, Outcome, Worth};
use crate::params::{Field, ParamError, Params, Rendered};
use crate::text::columns;

/// How a game's positions and moves are written, for a puzzle to be
/// probed, linked and answered.
pub trait Notation: Contest {
    /// The position reached by `line` (moves in the game's notation from
    /// the start), as `solved probe` takes it.
    fn position_text(&self, line: &[String], pos: &Self::Position) -> String;

    /// The move from `pos` to `next`, in the game's notation.
    ///
    /// # Errors
    ///
    /// If the table cannot be read.
    fn move_text(&self, pos: &Self::Position, next: &Self::Position) -> anyhow::Result<String>;
}

/// Which puzzles: the same seed draws the same ones (the puzzle of the
/// day is the day's number), on the command line and in a query.
pub const PUZZLE_SEED: Field =
    Field::value("seed", "SEED", "Seed of the games the puzzles are drawn from").with_default("0");
/// How many puzzles (`solved puzzle`).
pub const COUNT: Field = Field::value("count", "N", "How many puzzles (1 to 50)").with_default("1");
/// The most puzzles one request makes.
const MOST: u32 = 50;
/// Games played looking for each puzzle before giving up on finding more.
const TRIES: u32 = 400;

/// One puzzle.
#[derive(Debug, Serialize)]
pub struct Puzzle {
    /// The position, as `solved probe` takes it.
    pub position: String,
    /// The moves from the start that reach it, for a link.
    pub line: Vec<String>,
    /// The one move that keeps the result.
    pub answer: String,
    /// The result it keeps for the side to move: `win`, `draw` (or, with
    /// scores, `loss` where the best is to lose by least).
    pub value: Outcome,
    /// Plies to the end of a win with best play; none for a draw or a
    /// game with scores.
    pub distance: Option<u32>,
    /// The final margin for the side to move with best play, in a game
    /// with scores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<i32>,
    /// Legal moves.
    pub moves: usize,
    /// Moves that change the result (all but the answer, with scores).
    pub tempting: usize,
    /// `easy`, `medium` or `hard`, from the distance and the tempting moves.
    pub difficulty: &'static str,
}

/// Puzzles (`solved puzzle --json`, `GET /api/GAME/puzzle`).
#[derive(Debug, Serialize)]
pub struct Puzzles {
    /// The game and board.
    pub board: String,
    /// The board's parameters, as a query (and a page's link) gives them.
    pub settings: BTreeMap<&'static str, String>,
    /// The seed they were drawn from.
    pub seed: u64,
    /// The puzzles, as many as asked where the games played found them.
    pub puzzles: Vec<Puzzle>,
}

impl Answer for Puzzles {
    fn text(&self) -> String {
        let mut rows = vec![
            ["position", "to play", "answer", "distance", "moves", "tempting", "difficulty"].map(String::from).to_vec(),
        ];
        for p in &self.puzzles {
            let goal = match (p.value, p.score) {
                (_, Some(score)) => format!("best score {score:+}"),
                (Outcome::Win, _) => "win".into(),
                (Outcome::Draw, _) => "draw".into(),
                (Outcome::Loss, _) => "loss".into(),
            };
            rows.push(vec![
                p.position.clone(),
                goal,
                p.answer.clone(),
                p.distance.map_or("-".into(), |d| d.to_string()),
                p.moves.to_string(),
                p.tempting.to_string(),
                p.difficulty.into(),
            ]);
        }
        format!("{}: {} puzzles, seed {}\n{}", self.board, self.puzzles.len(), self.seed, columns(&rows))
    }
}

/// The count and seed `params` ask for.
///
/// # Errors
///
/// [`ParamError`] for a count or seed that does not read, or a count out
/// of range.
pub fn puzzle_params(params: &Params) -> Result<(u32, u64), ParamError> {
    let count = params.number::<u32>(COUNT.name)?.unwrap_or(1);
    if !(1..=MOST).contains(&count) {
        return Err(ParamError::Rejected { name: COUNT.name, source: format!("1 to {MOST} puzzles").into() });
    }
    Ok((count, params.number::<u64>(PUZZLE_SEED.name)?.unwrap_or(0)))
}

/// The puzzle at `pos`, reached by `line`, if exactly one move keeps its
/// best.
fn puzzle_at<C: Notation>(contest: &C, line: &[String], pos: &C::Position) -> anyhow::Result<Option<Puzzle>> {
    let moves = contest.moves(pos)?;
    let Some(best) = moves.iter().map(|m| m.0).max() else { return Ok(None) };
    let keeps = |w: &Worth| if contest.has_scores() { *w == best } else { w.result == best.result };
    let keeping: Vec<&(Worth, C::Position)> = moves.iter().filter(|m| keeps(&m.0)).collect();
    let lost = !contest.has_scores() && best.result == Outcome::Loss;
    if keeping.len() != 1 || moves.len() < 2 || lost {
        return Ok(None);
    }
    let tempting = moves.iter().filter(|m| m.0.result < best.result).count();
    let tempting = if contest.has_scores() { moves.len() - 1 } else { tempting };
    let distance = (!contest.has_scores() && best.result == Outcome::Win).then(|| best.margin.unsigned_abs());
    let depth = distance.unwrap_or(if contest.has_scores() { moves.len() as u32 } else { 12 });
    let share = tempting as f64 / (moves.len() - 1) as f64;
    let difficulty = match (depth, share) {
        (d, s) if d >= 9 && s >= 0.75 => "hard",
        (d, s) if d <= 3 || s < 0.4 => "easy",
        _ => "medium",
    };
    Ok(Some(Puzzle {
        position: contest.position_text(line, pos),
        line: line.to_vec(),
        answer: contest.move_text(pos, &keeping[0].1)?,
        value: best.result,
        distance,
        score: contest.has_scores().then_some(best.margin),
        moves: moves.len(),
        tempting,
        difficulty,
    }))
}

/// `count` puzzles of `contest` (on `board`, named for people and as
/// parameters), each from a game the casual level plays
/// against itself from the start for a number of plies drawn from `seed`;
/// positions already drawn are not drawn again.
///
/// # Errors
///
/// If the table cannot be read.
pub fn puzzles<C: Notation>(
    contest: &C,
    (board, settings): (String, Rendered),
    count: u32,
    seed: u64,
) -> anyhow::Result<Puzzles> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    for _ in 0..count * TRIES {
        if found.len() == count as usize {
            break;
        }
        let plies = rng.random_range(2..40);
        let (mut pos, mut line) = (contest.start(), Vec::new());
        let mut chosen = None;
        for ply in 0..plies {
            if ply >= 2
                && let Some(puzzle) = puzzle_at(contest, &line, &pos)?
                && (puzzle.distance != Some(1) || chosen.as_ref().is_none_or(|c: &Puzzle| c.distance == Some(1)))
            {
                chosen = Some(puzzle);
            }
            let Some(next) = contest.choose(Level::Casual, &pos, &mut rng)? else { break };
            line.push(contest.move_text(&pos, &next)?);
            pos = next;
        }
        // The last puzzle met on the way (the deepest, and the least like
        // the ones before), a win at once only if there is no other.
        if let Some(puzzle) = chosen.filter(|p| seen.insert(p.position.clone())) {
            found.push(puzzle);
        }
    }
    Ok(Puzzles { board, settings: settings.into_iter().collect(), seed, puzzles: found })
}
