//! A game in the terminal against the perfect player: each game says how
//! its positions look and how moves are typed ([`Playable`]); the command
//! line runs one loop for all of them over a [`Session`].

use std::collections::HashMap;
use std::hash::Hash;
use std::str::FromStr;

use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::params::{HINTS, ParamError, Params, SEED};

/// The person's seat at a game against the perfect player, as `play`'s
/// parameters set it.
#[derive(Debug)]
pub struct Seat<P> {
    /// The side the person plays (`as`).
    pub human: P,
    /// The computer's choices among equally good moves: from `seed`, else
    /// at random.
    pub rng: StdRng,
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
    /// [`ParamError`] for a side, seed or flag that does not read.
    pub fn from_params(params: &Params) -> Result<Seat<P>, ParamError> {
        let human = params.required("as", params.parsed::<P>("as")?)?;
        let seed = params.number::<u64>(SEED.name)?;
        let rng = StdRng::seed_from_u64(seed.unwrap_or_else(rand::random));
        Ok(Seat { human, rng, hints: params.flag(HINTS.name)? })
    }
}

/// What the loop needs to know about a game.
pub trait Playable: Send {
    /// A position, with whose turn it is.
    type Position: Clone + Eq + Hash + Send;

    /// What the game is and how moves are typed, shown once.
    fn intro(&self) -> String;

    /// The starting position.
    fn start(&self) -> Self::Position;

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
    fn show(&self, pos: &Self::Position, hints: bool, repeated: u32) -> anyhow::Result<String>;

    /// How the game ended, if it is over.
    fn result(&self, pos: &Self::Position) -> Option<String>;

    /// Whether the player (not the computer) is to move.
    fn is_players_turn(&self, pos: &Self::Position) -> bool;

    /// The computer's move: the position after it and what to say of it.
    ///
    /// # Errors
    ///
    /// As for [`show`](Self::show).
    fn computer(&mut self, pos: &Self::Position) -> anyhow::Result<(Self::Position, String)>;

    /// Every move's value, asked for with `hint`.
    ///
    /// # Errors
    ///
    /// As for [`show`](Self::show).
    fn hints(&self, pos: &Self::Position) -> anyhow::Result<String>;

    /// The prompt, such as `Blue to move> `.
    fn prompt(&self, pos: &Self::Position) -> String;

    /// The position after the move the player typed, or why it cannot be
    /// played.
    fn play(&self, pos: &Self::Position, text: &str) -> Result<Self::Position, String>;
}

/// A game under way: a [`Playable`] and the position on the board, with
/// how often each position has stood there.
pub trait Session: Send {
    /// What the game is and how moves are typed, shown once.
    fn intro(&self) -> String;

    /// The position now on the board as the player sees it (with hints if
    /// asked and it is the player's turn), counted as having stood there
    /// once more.
    ///
    /// # Errors
    ///
    /// If the table cannot be read.
    fn show(&mut self) -> anyhow::Result<String>;

    /// How the game ended, if it is over.
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

    /// Plays the move the player typed, or says why it cannot be played.
    ///
    /// # Errors
    ///
    /// Why the move cannot be played, for the player to read.
    fn play(&mut self, text: &str) -> Result<(), String>;
}

/// `game` from its starting position, as a [`Session`].
pub fn session<G: Playable + 'static>(game: G) -> Box<dyn Session> {
    let pos = game.start();
    Box::new(UnderWay { game, pos, seen: HashMap::new() })
}

struct UnderWay<G: Playable> {
    game: G,
    pos: G::Position,
    seen: HashMap<G::Position, u32>,
}

impl<G: Playable> Session for UnderWay<G> {
    fn intro(&self) -> String {
        self.game.intro()
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
        self.game.result(&self.pos)
    }

    fn is_players_turn(&self) -> bool {
        self.game.is_players_turn(&self.pos)
    }

    fn computer(&mut self) -> anyhow::Result<String> {
        let (child, said) = self.game.computer(&self.pos)?;
        self.pos = child;
        Ok(said)
    }

    fn hints(&self) -> anyhow::Result<String> {
        self.game.hints(&self.pos)
    }

    fn prompt(&self) -> String {
        self.game.prompt(&self.pos)
    }

    fn play(&mut self, text: &str) -> Result<(), String> {
        self.pos = self.game.play(&self.pos, text)?;
        Ok(())
    }
}
