//! Opponents below perfect, and marks for a player's moves: both read the
//! same thing, what each move is worth to its mover by the game's table,
//! which a game gives as a [`Contest`].
//!
//! A level is a policy over those worths, stated in one sentence that the
//! pages and `solved play` show; `solved match` measures how the levels
//! fare against each other (see [`contest`](crate::contest)).

use std::cmp::Ordering;
use std::collections::HashMap;
use std::fmt;
use std::hash::Hash;
use std::str::FromStr;

use rand::rngs::StdRng;
use rand::{Rng, RngExt};
use serde::Serialize;
use solved_engine::{Plies, Value};

use crate::params::Field;

/// The computer's level (`play`, and a probe's `choice`).
pub const LEVEL: Field =
    Field::value("level", "LEVEL", "The computer's level: random, casual, strong or perfect").with_default("perfect");

/// The result a move keeps for its mover, worst first.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The mover loses with best play after it.
    Loss,
    /// Neither side can force a win (or, with scores, a tie).
    Draw,
    /// The mover wins.
    Win,
}

/// What a move is worth to its mover: its result, then how good within
/// it (a shorter win, a longer loss, a larger margin). Ordered worst first.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct Worth {
    /// The result.
    pub result: Outcome,
    /// Higher is better: minus the plies of a win, the plies of a loss, or
    /// the final margin of boxes.
    pub margin: i32,
    /// Whether the move ends the game, won for its mover.
    pub wins_at_once: bool,
}

impl Worth {
    /// The worth of a move of value `value` to its mover.
    pub fn of_value(value: Value) -> Worth {
        let (result, margin) = match value {
            Value::Win(Plies(d)) => (Outcome::Win, -i32::from(d)),
            Value::Draw => (Outcome::Draw, 0),
            Value::Loss(Plies(d)) => (Outcome::Loss, i32::from(d)),
        };
        Worth { result, margin, wins_at_once: value == Value::Win(Plies(1)) }
    }

    /// The worth of a move after which the game ends `margin` ahead for its
    /// mover with best play, `over` if it ends the game.
    pub fn of_score(margin: i32, over: bool) -> Worth {
        let result = match margin.cmp(&0) {
            Ordering::Less => Outcome::Loss,
            Ordering::Equal => Outcome::Draw,
            Ordering::Greater => Outcome::Win,
        };
        Worth { result, margin, wins_at_once: over && margin > 0 }
    }
}

/// A computer opponent, weakest first.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// Any move at random, but a win at once.
    Random,
    /// A move at random, the better ones likelier.
    Casual,
    /// Mostly a best move, else the next best.
    Strong,
    /// Always a best move.
    Perfect,
}

/// How much likelier `Casual` picks a winning move than a drawing one, and
/// a drawing one than a losing one.
const CASUAL_ODDS: u32 = 4;

/// One time in this many, `Strong` plays the next best move.
const STRONG_SLIPS: u32 = 10;

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 4] = [Level::Random, Level::Casual, Level::Strong, Level::Perfect];

    /// Its name on the command line, in URLs and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Level::Random => "random",
            Level::Casual => "casual",
            Level::Strong => "strong",
            Level::Perfect => "perfect",
        }
    }

    /// What it does, in one sentence.
    pub fn policy(self) -> &'static str {
        match self {
            Level::Random => "Plays any legal move at random, but never misses a move that wins at once.",
            Level::Casual => {
                "Picks a move at random, a winning move four times as likely as a drawing one and a drawing one four times as likely as a losing one; never misses a move that wins at once."
            }
            Level::Strong => {
                "Plays a best move nine times in ten, otherwise the next best move there is; never misses a move that wins at once."
            }
            Level::Perfect => "Always plays a best move: the shortest win, the longest loss, the largest margin.",
        }
    }

    /// The move it picks among moves worth `worths` (an index into them),
    /// or `None` if there is none. Every level takes a win at once.
    pub fn pick(self, worths: &[Worth], rng: &mut impl Rng) -> Option<usize> {
        let best = *worths.iter().max()?;
        let among = |keep: &dyn Fn(&Worth) -> bool, rng: &mut dyn FnMut(usize) -> usize| {
            let kept: Vec<usize> = (0..worths.len()).filter(|&i| keep(&worths[i])).collect();
            kept[rng(kept.len())]
        };
        let mut uniform = |n: usize| rng.random_range(0..n);
        if best.wins_at_once {
            return Some(among(&|w| w.wins_at_once, &mut uniform));
        }
        Some(match self {
            Level::Perfect => among(&|w| *w == best, &mut uniform),
            Level::Strong => {
                let next = worths.iter().filter(|&&w| w < best).max().copied();
                match next {
                    Some(next) if uniform(STRONG_SLIPS as usize) == 0 => among(&|w| *w == next, &mut uniform),
                    _ => among(&|w| *w == best, &mut uniform),
                }
            }
            Level::Casual => {
                let weight = |w: &Worth| CASUAL_ODDS.pow(w.result as u32);
                let total: u32 = worths.iter().map(weight).sum();
                let mut ticket = uniform(total as usize) as u32;
                worths
                    .iter()
                    .position(|w| match ticket.checked_sub(weight(w)) {
                        Some(rest) => {
                            ticket = rest;
                            false
                        }
                        None => true,
                    })
                    .expect("a ticket below the total falls on a move")
            }
            Level::Random => uniform(worths.len()),
        })
    }
}

impl Level {
    /// The position after the move it picks among `moves` (each with its
    /// worth), or `None` if there is none.
    pub fn pick_move<P>(self, mut moves: Vec<(Worth, P)>, rng: &mut impl Rng) -> Option<P> {
        let worths: Vec<Worth> = moves.iter().map(|m| m.0).collect();
        self.pick(&worths, rng).map(|i| moves.swap_remove(i).1)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A level's name that is not one.
#[derive(Debug, thiserror::Error)]
#[error("unknown level {0:?}: the levels are random, casual, strong and perfect")]
pub struct UnknownLevel(String);

impl FromStr for Level {
    type Err = UnknownLevel;

    fn from_str(text: &str) -> Result<Level, UnknownLevel> {
        Level::ALL.into_iter().find(|l| l.name() == text).ok_or_else(|| UnknownLevel(text.to_string()))
    }
}

/// How good a move a player made was, as GamesmanUni's scorecard marks it.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Grade {
    /// A best move.
    Best,
    /// Keeps the result, at most a move slower (or a box worse).
    Good,
    /// Keeps the result, but slower or by a smaller margin than that.
    Inaccuracy,
    /// Changes the result.
    Mistake,
}

/// How far below the best a good move may fall: two plies (a move by each
/// side) or two on a margin of boxes (one box gone to the other side).
const GOOD_WITHIN: i32 = 2;

impl Grade {
    /// Every grade, best first.
    pub const ALL: [Grade; 4] = [Grade::Best, Grade::Good, Grade::Inaccuracy, Grade::Mistake];

    /// The grade of a move worth `played` where the best move is worth
    /// `best`.
    pub fn of(played: Worth, best: Worth) -> Grade {
        if played >= best {
            Grade::Best
        } else if played.result != best.result {
            Grade::Mistake
        } else if best.margin - played.margin <= GOOD_WITHIN {
            Grade::Good
        } else {
            Grade::Inaccuracy
        }
    }

    /// Its name, as JSON has it.
    pub fn name(self) -> &'static str {
        match self {
            Grade::Best => "best",
            Grade::Good => "good",
            Grade::Inaccuracy => "inaccuracy",
            Grade::Mistake => "mistake",
        }
    }

    /// What it means, for the player who made such a move.
    pub fn verdict(self) -> &'static str {
        match self {
            Grade::Best => "A best move.",
            Grade::Good => "Good: it keeps the result, at most a move slower or a box worse than the best.",
            Grade::Inaccuracy => "An inaccuracy: it keeps the result, but slower or by a smaller margin.",
            Grade::Mistake => "A mistake: it changes the result.",
        }
    }

    /// The grades of moves worth `worths` at one position.
    pub fn all_of(worths: &[Worth]) -> Vec<Grade> {
        let Some(&best) = worths.iter().max() else { return Vec::new() };
        worths.iter().map(|&w| Grade::of(w, best)).collect()
    }
}

/// How many moves of each grade a player made, for the end of a game.
pub fn scorecard(grades: &[Grade]) -> String {
    let counts: Vec<String> = Grade::ALL
        .iter()
        .map(|&g| (g, grades.iter().filter(|&&x| x == g).count()))
        .filter(|&(_, n)| n > 0)
        .map(|(g, n)| match (g, n) {
            (Grade::Inaccuracy, n) if n > 1 => format!("{n} inaccuracies"),
            (Grade::Mistake, n) if n > 1 => format!("{n} mistakes"),
            (g, n) => format!("{n} {}", g.name()),
        })
        .collect();
    match counts.is_empty() {
        true => "You made no move.".into(),
        false => format!("Your moves: {}.", counts.join(", ")),
    }
}

/// A game as two levels play it: its moves, what each is worth to its
/// mover, and how it ends.
pub trait Contest: Sync {
    /// A position, with whose turn it is.
    type Position: Clone + Eq + Hash + Send;

    /// The starting position.
    fn start(&self) -> Self::Position;

    /// Whether the side that moved first is to move.
    fn first_to_move(&self, pos: &Self::Position) -> bool;

    /// Every legal move, as the position it leads to and its worth to its
    /// mover; none when the game is over.
    ///
    /// # Errors
    ///
    /// If the table cannot be read.
    fn moves(&self, pos: &Self::Position) -> anyhow::Result<Vec<(Worth, Self::Position)>>;

    /// How a game over at `pos` ended for the side that moved first: `+1`
    /// won, `0` drawn, `-1` lost, or the margin of a game with scores.
    fn final_score(&self, pos: &Self::Position) -> i32;

    /// Whether the game is scored by a margin (`average_score`) rather
    /// than won or lost.
    fn has_scores(&self) -> bool {
        false
    }

    /// The move `level` plays at `pos`, or `None` if the game is over. A
    /// game may prefer some best moves to others for the perfect player.
    ///
    /// # Errors
    ///
    /// If the table cannot be read.
    fn choose(&self, level: Level, pos: &Self::Position, rng: &mut StdRng) -> anyhow::Result<Option<Self::Position>> {
        Ok(level.pick_move(self.moves(pos)?, rng))
    }

    /// The grade of the move from `pos` to `next`, if `next` follows it.
    ///
    /// # Errors
    ///
    /// If the table cannot be read.
    fn grade(&self, pos: &Self::Position, next: &Self::Position) -> anyhow::Result<Option<Grade>> {
        let moves = self.moves(pos)?;
        let best = moves.iter().map(|m| m.0).max();
        Ok(moves.iter().find(|m| m.1 == *next).zip(best).map(|(m, best)| Grade::of(m.0, best)))
    }
}

/// A game that has not ended after this many plies is counted a draw (as
/// is one whose position stands for the third time): perfect play never
/// needs as many.
pub const MOST_PLIES: usize = 1000;

/// Plays one game from `start` between `first` (to move at `start`) and
/// `second`, and returns its final score for `first`.
///
/// # Errors
///
/// If the table cannot be read.
pub fn play_out<C: Contest>(
    contest: &C,
    start: C::Position,
    [first, second]: [Level; 2],
    rng: &mut StdRng,
) -> anyhow::Result<i32> {
    let starter = contest.first_to_move(&start);
    let mut pos = start;
    let mut seen: HashMap<C::Position, u32> = HashMap::new();
    for _ in 0..MOST_PLIES {
        let stood = seen.entry(pos.clone()).or_insert(0);
        *stood += 1;
        if *stood == 3 {
            return Ok(0);
        }
        let level = if contest.first_to_move(&pos) == starter { first } else { second };
        match contest.choose(level, &pos, rng)? {
            Some(next) => pos = next,
            None => {
                let score = contest.final_score(&pos);
                return Ok(if starter { score } else { -score });
            }
        }
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;

    fn win(d: u16) -> Worth {
        Worth::of_value(Value::Win(Plies(d)))
    }

    fn loss(d: u16) -> Worth {
        Worth::of_value(Value::Loss(Plies(d)))
    }

    const DRAW: Worth = Worth { result: Outcome::Draw, margin: 0, wins_at_once: false };

    #[test]
    fn worth_orders_as_value_does() {
        let values =
            [Value::Win(Plies(1)), Value::Win(Plies(9)), Value::Draw, Value::Loss(Plies(30)), Value::Loss(Plies(2))];
        for a in values {
            for b in values {
                assert_eq!(Worth::of_value(a).cmp(&Worth::of_value(b)), a.cmp(&b), "{a} {b}");
            }
        }
        assert!(Worth::of_score(3, false) > Worth::of_score(1, true));
        assert!(Worth::of_score(0, false) > Worth::of_score(-1, false));
        assert!(Worth::of_score(1, true).wins_at_once && !Worth::of_score(-1, true).wins_at_once);
    }

    #[test]
    fn grades_follow_the_scorecard() {
        assert_eq!(Grade::of(win(5), win(5)), Grade::Best);
        assert_eq!(Grade::of(win(7), win(5)), Grade::Good);
        assert_eq!(Grade::of(win(9), win(5)), Grade::Inaccuracy);
        assert_eq!(Grade::of(DRAW, win(5)), Grade::Mistake);
        assert_eq!(Grade::of(loss(4), loss(20)), Grade::Inaccuracy);
        assert_eq!(Grade::of(Worth::of_score(1, false), Worth::of_score(3, false)), Grade::Good);
        assert_eq!(Grade::of(Worth::of_score(-1, false), Worth::of_score(1, false)), Grade::Mistake);
        assert_eq!(
            scorecard(&[Grade::Best, Grade::Mistake, Grade::Best, Grade::Mistake]),
            "Your moves: 2 best, 2 mistakes."
        );
    }

    fn picks(level: Level, worths: &[Worth]) -> Vec<usize> {
        let mut rng = StdRng::seed_from_u64(7);
        let mut counts = vec![0; worths.len()];
        for _ in 0..4000 {
            counts[level.pick(worths, &mut rng).unwrap()] += 1;
        }
        counts
    }

    #[test]
    fn each_level_picks_as_its_sentence_says() {
        let worths = [loss(2), win(3), DRAW, win(7), loss(8)];
        assert_eq!(picks(Level::Perfect, &worths), [0, 4000, 0, 0, 0]);
        let strong = picks(Level::Strong, &worths);
        assert_eq!(strong[0] + strong[2] + strong[4], 0);
        assert!((320..480).contains(&strong[3]), "{strong:?}");
        let casual = picks(Level::Casual, &worths);
        // Weights 1, 16, 4, 16, 1 of 38.
        assert!((1500..1850).contains(&casual[1]) && (330..520).contains(&casual[2]), "{casual:?}");
        assert!((40..180).contains(&casual[0]), "{casual:?}");
        let random = picks(Level::Random, &worths);
        assert!(random.iter().all(|&n| (650..950).contains(&n)), "{random:?}");
        let at_once = [loss(2), win(1), DRAW];
        for level in Level::ALL {
            assert_eq!(picks(level, &at_once), [0, 4000, 0], "{level}");
        }
        assert_eq!(Level::Random.pick(&[], &mut rand::rng()), None);
        assert_eq!("strong".parse::<Level>().unwrap(), Level::Strong);
        assert!("expert".parse::<Level>().unwrap_err().to_string().contains("random, casual, strong and perfect"));
    }
}
