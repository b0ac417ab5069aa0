//! A game in the terminal against a computer opponent: each game says how
//! its positions look and how moves are typed ([`Playable`]); the command
//! line runs one loop for all of them over a [`Session`], which plays the
//! computer's moves at the level asked for and marks the player's.

use std::collections::HashMap;
use std::str::FromStr;

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::levels::{Contest, Grade, LEVEL, Level, scorecard};
use crate::params::{HINTS, ParamError, Params, SEED};

/// The person's seat at a game, as `play`'s parameters set it.
#[derive(Debug)]
pub struct Seat<P> {
    /// The side the person plays (`as`).
    pub human: P,
    /// Whether every move's value is shown on the person's turn (`hints`).
    pub hints: bool,
}

impl<P: FromStr> Seat<P>
where
    P::Err: std::error::Error + Send + Sync + 'static,
{
    /// The seat `params` ask for.
    ///
    /// # Errors
    ///
    /// [`ParamError`] for a side or flag that does not read.
    pub fn from_params(params: &Params) -> Result<Seat<P>, ParamError> {
        let human = params.required("as", params.parsed::<P>("as")?)?;
        Ok(Seat { human, hints: params.flag(HINTS.name)? })
    }
}

/// The computer across the board: its level, and its choices among moves
/// it likes as well (from `seed`, else at random).
#[derive(Debug)]
pub struct Opponent {
    level: Level,
    rng: StdRng,
}

impl Opponent {
    /// The opponent `params` ask for (`level`, `seed`).
    ///
    /// # Errors
    ///
    /// [`ParamError`] for a level or seed that does not read.
    pub fn from_params(params: &Params) -> Result<Opponent, ParamError> {
        let level = params.parsed::<Level>(LEVEL.name)?.unwrap_or(Level::Perfect);
        let seed = params.number::<u64>(SEED.name)?;
        Ok(Opponent { level, rng: StdRng::seed_from_u64(seed.unwrap_or_else(rand::random)) })
    }
}

/// A position of the game `G` plays.
pub type PositionOf<G> = <<G as Playable>::Judge as Contest>::Position;

/// What the loop needs to know about a game.
pub trait Playable: Send {
    /// The game's moves and what each is worth.
    type Judge: Contest;

    /// The game's moves and what each is worth.
    fn judge(&self) -> &Self::Judge;

    /// What the game is and how moves are typed, shown once.
    fn intro(&self) -> String;

    /// Whether every move's value is shown with the position when it is
    /// the player's turn (`--hints`).
    fn hinted(&self) -> bool;

    /// The position as the player sees it, with every move's value when
    /// `hints` is set; `repeated` is how many times the position has stood
    /// on the board.
    ///
    /// # Errors
    ///
    /// If the table cannot be read (the games that read theirs as they go).
    fn show(&self, pos: &PositionOf<Self>, hints: bool, repeated: u32) -> anyhow::Result<String>;

    /// How the game ended, if it is over.
    fn result(&self, pos: &PositionOf<Self>) -> Option<String>;

    /// Whether the player (not the computer) is to move.
    fn is_players_turn(&self, pos: &PositionOf<Self>) -> bool;

    /// What to say of the computer's move from `pos` to `next`, such as
    /// `Red plays c1-c2 (L12)`.
    ///
    /// # Errors
    ///
    /// As for [`show`](Self::show).
    fn said(&self, pos: &PositionOf<Self>, next: &PositionOf<Self>) -> anyhow::Result<String>;

    /// Every move's value, asked for with `hint`.
    ///
    /// # Errors
    ///
    /// As for [`show`](Self::show).
    fn hints(&self, pos: &PositionOf<Self>) -> anyhow::Result<String>;

    /// The prompt, such as `Blue to move> `.
    fn prompt(&self, pos: &PositionOf<Self>) -> String;

    /// The position after the move the player typed, or why it cannot be
    /// played.
    fn play(&self, pos: &PositionOf<Self>, text: &str) -> Result<PositionOf<Self>, String>;
}

/// A game under way: a [`Playable`] and the position on the board, with
/// how often each position has stood there.
pub trait Session: Send {
    /// What the game is, how moves are typed and who the computer is,
    /// shown once.
    fn intro(&self) -> String;

    /// The position now on the board as the player sees it (with hints if
    /// asked and it is the player's turn), counted as having stood there
    /// once more.
    ///
    /// # Errors
    ///
    /// If the table cannot be read.
    fn show(&mut self) -> anyhow::Result<String>;

    /// How the game ended, with the marks of the player's moves, if it is
    /// over.
    fn result(&self) -> Option<String>;

    /// Whether the player is to move.
    fn is_players_turn(&self) -> bool;

    /// Plays the computer's move and says what it was.
    ///
    /// # Errors
    ///
    /// If the table cannot be read.
    fn computer(&mut self) -> anyhow::Result<String>;

    /// Every move's value.
    ///
    /// # Errors
    ///
    /// If the table cannot be read.
    fn hints(&self) -> anyhow::Result<String>;

    /// The prompt.
    fn prompt(&self) -> String;

    /// Plays the move the player typed and says how good it was, or says
    /// why it cannot be played.
    ///
    /// # Errors
    ///
    /// Why the move cannot be played, for the player to read.
    fn play(&mut self, text: &str) -> Result<String, String>;
}

/// `game` from its starting position against `opponent`, as a [`Session`].
pub fn session<G: Playable + 'static>(game: G, opponent: Opponent) -> Box<dyn Session> {
    let pos = game.judge().start();
    Box::new(UnderWay { game, opponent, pos, seen: HashMap::new(), grades: Vec::new() })
}

struct UnderWay<G: Playable> {
    game: G,
    opponent: Opponent,
    pos: PositionOf<G>,
    seen: HashMap<PositionOf<G>, u32>,
    grades: Vec<Grade>,
}

impl<G: Playable> Session for UnderWay<G> {
    fn intro(&self) -> String {
        let level = self.opponent.level;
        format!(
            "{}
The computer plays at level {level}: {}",
            self.game.intro(),
            level.policy()
        )
    }

    fn show(&mut self) -> anyhow::Result<String> {
        let repeated = {
            let count = self.seen.entry(self.pos.clone()).or_insert(0);
            *count += 1;
            *count
        };
        let hints = self.game.hinted() && self.game.is_players_turn(&self.pos);
        self.game.show(&self.pos, hints, repeated)
    }

    fn result(&self) -> Option<String> {
        let result = self.game.result(&self.pos)?;
        Some(format!(
            "{result}
{}",
            scorecard(&self.grades)
        ))
    }

    fn is_players_turn(&self) -> bool {
        self.game.is_players_turn(&self.pos)
    }

    fn computer(&mut self) -> anyhow::Result<String> {
        let Opponent { level, rng } = &mut self.opponent;
        let next = self.game.judge().choose(*level, &self.pos, rng)?.expect("the game is not over");
        let said = self.game.said(&self.pos, &next)?;
        self.pos = next;
        Ok(said)
    }

    fn hints(&self) -> anyhow::Result<String> {
        self.game.hints(&self.pos)
    }

    fn prompt(&self) -> String {
        self.game.prompt(&self.pos)
    }

    fn play(&mut self, text: &str) -> Result<String, String> {
        let next = self.game.play(&self.pos, text)?;
        let grade = self.game.judge().grade(&self.pos, &next).map_err(|e| format!("{e:#}"))?;
        self.pos = next;
        Ok(grade.map_or(String::new(), |grade| {
            self.grades.push(grade);
            grade.verdict().to_string()
        }))
    }
}
