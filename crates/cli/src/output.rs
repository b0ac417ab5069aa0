//! Results on the output: written whole, a closed pipe ending the command
//! quietly and any other failure to write being an error.

use std::io::{self, Write};

use anyhow::Context;
use serde::Serialize;

/// Writes `text` to `output` and flushes it.
///
/// # Errors
///
/// The write's error, with context; [`is_closed_pipe`] tells a reader that
/// went away (`solved … | head`) from a real failure.
pub fn print(output: &mut dyn Write, text: &str) -> anyhow::Result<()> {
    output.write_all(text.as_bytes()).and_then(|()| output.flush()).context("cannot write the output")
}

/// Writes `value` to `output` as pretty JSON, on a line of its own.
///
/// # Errors
///
/// As for [`print()`].
pub fn json(output: &mut dyn Write, value: &(impl Serialize + ?Sized)) -> anyhow::Result<()> {
    let mut text = serde_json::to_string_pretty(value).context("cannot write the output as JSON")?;
    text.push('\n');
    print(output, &text)
}

/// Whether `err` comes from writing to a pipe whose reader has gone: the
/// command then ends quietly, as `rg` and `ls` do.
pub fn is_closed_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| cause.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe))
}
