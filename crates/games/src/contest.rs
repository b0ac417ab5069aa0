//! Games between two levels, played out from a game's table (`solved
//! match`), and the computer's move a page asks a probe for.

use rand::SeedableRng;
use rand::rngs::StdRng;
use rayon::prelude::*;
use serde::Serialize;

use crate::front::{Answer, Host};
use crate::levels::{Contest, LEVEL, Level, Outcome, UnknownLevel, play_out};
use crate::params::{Field, ParamError, Params, SEED};
use crate::text::columns;

/// The position after the computer's move at `pos` for a probe, at the
/// level `params` ask for (`perfect` by default): for a page, which asks
/// the web app, or when the level is given; `None` otherwise, and when the
/// game is over.
///
/// # Errors
///
/// [`ParamError`] for a level that does not read; if the table cannot be
/// read.
pub fn computer_move<C: Contest>(
    judge: &C,
    pos: &C::Position,
    params: &Params,
    host: &dyn Host,
) -> anyhow::Result<Option<C::Position>> {
    if !host.serves_requests() && !params.is_given(LEVEL.name) {
        return Ok(None);
    }
    let level = params.parsed::<Level>(LEVEL.name)?.unwrap_or(Level::Perfect);
    judge.choose(level, pos, &mut StdRng::seed_from_u64(rand::random()))
}

/// Which levels play, how many games, from what seed (`solved match`).
pub const LEVELS: Field = Field::value("levels", "A,B", "The two levels that play, e.g. strong,perfect").required();
/// How many games a match has.
pub const GAMES_PLAYED: Field =
    Field::value("games", "N", "Games to play, each level first in every other one").with_default("400");

/// The two levels of a match, as `A,B`.
struct Pair([Level; 2]);

/// Why `--levels` does not read.
#[derive(Debug, thiserror::Error)]
enum PairError {
    #[error("name two levels, as A,B")]
    NotTwo,
    #[error(transparent)]
    Level(#[from] UnknownLevel),
}

impl std::str::FromStr for Pair {
    type Err = PairError;

    fn from_str(text: &str) -> Result<Pair, PairError> {
        let names: Vec<&str> = text.split(',').map(str::trim).collect();
        let [a, b] = names[..] else { return Err(PairError::NotTwo) };
        Ok(Pair([a.parse()?, b.parse()?]))
    }
}

/// The levels, games and seed `params` ask for.
///
/// # Errors
///
/// [`ParamError`] for levels, a count or a seed that does not read.
pub fn match_params(params: &Params) -> Result<([Level; 2], u32, u64), ParamError> {
    let Pair(levels) = params.required(LEVELS.name, params.parsed::<Pair>(LEVELS.name)?)?;
    let games = params.number::<u32>(GAMES_PLAYED.name)?.unwrap_or(400);
    if games == 0 {
        return Err(ParamError::Rejected { name: GAMES_PLAYED.name, source: "a match has at least one game".into() });
    }
    Ok((levels, games, params.number::<u64>(SEED.name)?.unwrap_or(0)))
}

/// How a level fared in a match.
#[derive(Debug, Serialize)]
pub struct Record {
    /// The level.
    pub level: Level,
    /// Games it won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games it lost.
    pub losses: u32,
    /// Its mean final margin, in a game with scores.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub average_score: Option<f64>,
    /// The same, in the games it moved first.
    pub moving_first: Tally,
    /// The same, in the games it moved second.
    pub moving_second: Tally,
}

/// Wins, draws and losses.
#[derive(Debug, Default, Serialize)]
pub struct Tally {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

impl Tally {
    fn add(&mut self, score: i32) {
        match score.signum() {
            1 => self.wins += 1,
            0 => self.draws += 1,
            _ => self.losses += 1,
        }
    }
}

/// A match between two levels (`solved match --json`).
#[derive(Debug, Serialize)]
pub struct Match {
    /// The game and board, as a command line names them.
    pub board: String,
    /// Every level there is, weakest first, with what it does.
    pub levels_available: Vec<&'static str>,
    /// Each level's policy, in the order of `levels_available`.
    pub policies: Vec<&'static str>,
    /// The result of the start for the side that moves first, with best
    /// play: what the perfect level keeps whichever side it has.
    pub start: Outcome,
    /// Games played.
    pub games: u32,
    /// The seed they were played from.
    pub seed: u64,
    /// How the first level named fared.
    pub first: Record,
    /// How the second fared.
    pub second: Record,
}

/// Plays `games` games of `contest` between `levels` from its start, the
/// first level moving first in the even-numbered games, each game's choices
/// seeded from `seed` and its number (the same answer at any thread count).
///
/// # Errors
///
/// If the table cannot be read.
pub fn play_match<C: Contest>(
    contest: &C,
    board: String,
    levels: [Level; 2],
    games: u32,
    seed: u64,
) -> anyhow::Result<Match> {
    let scores: Vec<(bool, i32)> = (0..games)
        .into_par_iter()
        .map(|game| {
            let mut rng = StdRng::seed_from_u64(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ u64::from(game));
            let a_first = game % 2 == 0;
            let order = if a_first { levels } else { [levels[1], levels[0]] };
            let score = play_out(contest, contest.start(), order, &mut rng)?;
            Ok((a_first, if a_first { score } else { -score }))
        })
        .collect::<anyhow::Result<_>>()?;
    let record = |level: Level, sign: i32| {
        let mut record = Record {
            level,
            wins: 0,
            draws: 0,
            losses: 0,
            average_score: None,
            moving_first: Tally::default(),
            moving_second: Tally::default(),
        };
        for &(a_first, score) in &scores {
            let score = sign * score;
            let (mut all, first) = (Tally::default(), a_first == (sign == 1));
            all.add(score);
            record.wins += all.wins;
            record.draws += all.draws;
            record.losses += all.losses;
            if first { record.moving_first.add(score) } else { record.moving_second.add(score) }
        }
        if contest.has_scores() {
            let total: i64 = scores.iter().map(|s| i64::from(sign * s.1)).sum();
            record.average_score = Some(total as f64 / f64::from(games));
        }
        record
    };
    let start = contest.moves(&contest.start())?.iter().map(|m| m.0.result).max().unwrap_or(Outcome::Draw);
    Ok(Match {
        board,
        start,
        levels_available: Level::ALL.iter().map(|l| l.name()).collect(),
        policies: Level::ALL.iter().map(|l| l.policy()).collect(),
        games,
        seed,
        first: record(levels[0], 1),
        second: record(levels[1], -1),
    })
}

impl Answer for Match {
    fn text(&self) -> String {
        let mut rows = vec![
            ["level", "wins", "draws", "losses", "moving first (w-d-l)", "moving second (w-d-l)", "average score"]
                .map(String::from)
                .to_vec(),
        ];
        for r in [&self.first, &self.second] {
            let tally = |t: &Tally| format!("{}-{}-{}", t.wins, t.draws, t.losses);
            rows.push(vec![
                r.level.to_string(),
                r.wins.to_string(),
                r.draws.to_string(),
                r.losses.to_string(),
                tally(&r.moving_first),
                tally(&r.moving_second),
                r.average_score.map_or("-".into(), |s| format!("{s:+.2}")),
            ]);
        }
        let start = match self.start {
            Outcome::Win => "won for the side that moves first",
            Outcome::Draw => "drawn",
            Outcome::Loss => "lost for the side that moves first",
        };
        format!("{}, the start {start}: {} games, seed {}\n{}", self.board, self.games, self.seed, columns(&rows))
    }
}
