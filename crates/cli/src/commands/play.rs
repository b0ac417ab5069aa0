//! A game in the terminal against the computer: one loop for every
//! game, each game saying how its positions look and how moves are typed.

use std::io::{BufRead, Read, Write};
use std::process::ExitCode;

use anyhow::{Context, bail};
use solved_games::front::Session;

use crate::{output, progress};

/// The longest line a player may type; what is longer is refused.
const MAX_LINE: u64 = 1024;

/// Plays `session` with lines read from `input` until the game ends, the
/// player quits or the input does.
///
/// # Errors
///
/// If the input cannot be read, the output written or the table read.
pub fn run(mut session: Box<dyn Session>, input: &mut dyn BufRead, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    progress::at_prompt();
    output::print(out, &format!("{}\n", session.intro()))?;
    loop {
        output::print(out, &format!("\n{}", session.show()?))?;
        if let Some(result) = session.result() {
            output::print(out, &format!("{result}\n"))?;
            return Ok(ExitCode::SUCCESS);
        }
        if !session.is_players_turn() {
            let said = session.computer()?;
            output::print(out, &format!("{said}\n"))?;
            continue;
        }
        loop {
            output::print(out, &session.prompt())?;
            let Some(line) = read_line(input)? else {
                output::print(out, "\n")?;
                return Ok(ExitCode::SUCCESS);
            };
            match line.trim() {
                "" => continue,
                "quit" | "q" | "exit" => return Ok(ExitCode::SUCCESS),
                "hint" | "hints" | "?" => output::print(out, &format!("{}\n", session.hints()?))?,
                text => match session.play(text) {
                    Ok(grade) => {
                        output::print(out, &format!("{grade}\n"))?;
                        break;
                    }
                    Err(error) => output::print(out, &format!("{error}\n"))?,
                },
            }
        }
    }
}

/// The next line of `input`, or `None` at its end.
///
/// # Errors
///
/// A line longer than [`MAX_LINE`] ends the game: no move is that long, and
/// input without line breaks (`< /dev/zero`) would otherwise be read for
/// ever.
fn read_line(input: &mut (impl BufRead + ?Sized)) -> anyhow::Result<Option<String>> {
    let mut bytes = Vec::new();
    let read = (&mut *input).take(MAX_LINE + 1).read_until(b'\n', &mut bytes).context("cannot read the input")?;
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
