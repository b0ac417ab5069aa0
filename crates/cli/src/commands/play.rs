//! A game in the terminal against the perfect player: one loop for every
//! game, each game saying how its positions look and how moves are typed.

use std::collections::HashMap;
use std::hash::Hash;
use std::io::{BufRead, Read};
use std::process::ExitCode;

use anyhow::{Context, bail};

use crate::{output, progress};

/// The longest line a player may type; what is longer is refused.
const MAX_LINE: u64 = 1024;

/// What the loop needs to know about a game.
pub trait Playable {
    /// A position, with whose turn it is.
    type Position: Clone + Eq + Hash;

    /// What the game is and how moves are typed, shown once.
    fn intro(&self) -> String;

    /// The starting position.
    fn start(&self) -> Self::Position;

    /// The position as the player sees it, with every move's value when
    /// `hints` is set and it is the player's turn; `repeated` is how many
    /// times the position has stood on the board.
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

/// Plays `game` with lines read from `input` until the game ends, the
/// player quits or the input does.
///
/// # Errors
///
/// If the input cannot be read, the output written or the table read.
pub fn run<G: Playable>(game: &mut G, hints: bool, mut input: impl BufRead) -> anyhow::Result<ExitCode> {
    progress::at_prompt();
    output::print(&format!("{}\n", game.intro()))?;
    let mut pos = game.start();
    let mut seen: HashMap<G::Position, u32> = HashMap::new();
    loop {
        let repeated = {
            let count = seen.entry(pos.clone()).or_insert(0);
            *count += 1;
            *count
        };
        output::print(&format!("\n{}", game.show(&pos, hints && game.is_players_turn(&pos), repeated)?))?;
        if let Some(result) = game.result(&pos) {
            output::print(&format!("{result}\n"))?;
            return Ok(ExitCode::SUCCESS);
        }
        if !game.is_players_turn(&pos) {
            let (child, said) = game.computer(&pos)?;
            output::print(&format!("{said}\n"))?;
            pos = child;
            continue;
        }
        pos = loop {
            output::print(&game.prompt(&pos))?;
            let Some(line) = read_line(&mut input)? else {
                output::print("\n")?;
                return Ok(ExitCode::SUCCESS);
            };
            match line.trim() {
                "" => continue,
                "quit" | "q" | "exit" => return Ok(ExitCode::SUCCESS),
                "hint" | "hints" | "?" => output::print(&format!("{}\n", game.hints(&pos)?))?,
                text => match game.play(&pos, text) {
                    Ok(child) => break child,
                    Err(error) => output::print(&format!("{error}\n"))?,
                },
            }
        };
    }
}

/// The next line of `input`, or `None` at its end.
///
/// # Errors
///
/// A line longer than [`MAX_LINE`] ends the game: no move is that long, and
/// input without line breaks (`< /dev/zero`) would otherwise be read for
/// ever.
fn read_line(input: &mut impl BufRead) -> anyhow::Result<Option<String>> {
    let mut bytes = Vec::new();
    let read = input.by_ref().take(MAX_LINE + 1).read_until(b'\n', &mut bytes).context("cannot read the input")?;
    if read == 0 {
        return Ok(None);
    }
    if bytes.len() as u64 > MAX_LINE && !bytes.ends_with(b"\n") {
        bail!("an input line of over {MAX_LINE} bytes: no move is that long");
    }
    Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_too_long_for_a_move_is_refused() {
        let text = format!("a3-b3\n{}\nquit\n", "x".repeat(5000));
        let mut input = text.as_bytes();
        assert_eq!(read_line(&mut input).unwrap().as_deref(), Some("a3-b3\n"));
        let error = read_line(&mut input).unwrap_err().to_string();
        assert!(error.contains("over 1024 bytes"), "{error}");
        let mut end = "quit".as_bytes();
        assert_eq!(read_line(&mut end).unwrap().as_deref(), Some("quit"));
        assert_eq!(read_line(&mut end).unwrap(), None);
    }
}
