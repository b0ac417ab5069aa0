//! The resolved configuration: what the global options mean, validated,
//! and how an error ends the process.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, bail};
use solved_engine::dispatch::{self, Level};
use solved_engine::{Interrupted, TableStore};
use solved_games::params::quote;

use crate::args::Invocation;
use crate::output::is_closed_pipe;

/// The most worker threads: far more than any machine this runs on has
/// cores, and few enough that their stacks fit in memory.
const MAX_THREADS: usize = 256;

/// The environment variable that caps the instruction set of the kernels.
pub const KERNELS_VAR: &str = "SOLVED_KERNELS";

/// Settings every command shares.
#[derive(Debug)]
pub struct Config {
    /// The table cache.
    pub store: TableStore,
}

impl Config {
    pub fn resolve(invocation: &Invocation) -> anyhow::Result<Config> {
        limit_kernels()?;
        if let Some(threads) = invocation.threads {
            if !(1..=MAX_THREADS).contains(&threads) {
                bail!("--threads must be at least 1 and at most {MAX_THREADS}, not {threads}");
            }
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build_global()
                .context("cannot start the worker threads")?;
        }
        Ok(Config { store: TableStore::new(data_dir(invocation.data_dir.clone())?) })
    }
}

/// Keeps the kernels at or below the instruction set `SOLVED_KERNELS`
/// names, so that the portable ones can be timed on a machine that has
/// wider ones.
fn limit_kernels() -> anyhow::Result<()> {
    let Some(name) = std::env::var_os(KERNELS_VAR).filter(|v| !v.is_empty()) else { return Ok(()) };
    let level = name.to_str().and_then(Level::from_name).with_context(|| {
        let names: Vec<&str> = Level::ALL.iter().map(|l| l.name()).collect();
        format!("{KERNELS_VAR} must be one of {}, not {:?}", names.join(", "), quote(&name.to_string_lossy()))
    })?;
    dispatch::limit_to(level);
    Ok(())
}

fn data_dir(flag: Option<PathBuf>) -> anyhow::Result<PathBuf> {
    let from_env = |name| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = flag.or_else(|| from_env("SOLVED_DATA_DIR")) {
        return Ok(dir);
    }
    if let Some(dir) = from_env("XDG_DATA_HOME") {
        return Ok(dir.join("solved"));
    }
    match from_env("HOME") {
        // A home that is not there is a setting gone wrong, not a place to
        // make.
        Some(home) if !home.is_dir() => {
            bail!("no data directory: HOME ({}) is not a directory; set --data-dir or SOLVED_DATA_DIR", home.display())
        }
        Some(home) => Ok(home.join(".local/share/solved")),
        None => bail!("no data directory: set --data-dir or SOLVED_DATA_DIR"),
    }
}

/// Prints a clap error on one line (help and version as they are), keeping
/// the names it gives and its suggestions.
pub fn report_usage_error(err: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = err.print();
            if err.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            }
        }
        _ => {
            eprintln!("solved: {} (see --help)", one_line(&err.render().to_string()));
            ExitCode::from(2)
        }
    }
}

/// clap's message up to its usage line, on one line: the first line, the
/// names listed under it, and any tip in parentheses.
fn one_line(rendered: &str) -> String {
    let mut line = String::new();
    let mut listed = Vec::new();
    let mut tips = Vec::new();
    for text in rendered.lines().take_while(|l| !l.starts_with("Usage:")) {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            continue;
        }
        if line.is_empty() {
            line = trimmed.trim_start_matches("error: ").trim_end_matches(':').to_string();
        } else if let Some(tip) = trimmed.strip_prefix("tip: ") {
            tips.push(tip.to_string());
        } else {
            listed.push(trimmed.to_string());
        }
    }
    if !listed.is_empty() {
        line = format!("{line}: {}", listed.join(", "));
    }
    if !tips.is_empty() {
        line = format!("{line} ({})", tips.join("; "));
    }
    if line.is_empty() { "invalid arguments".into() } else { line }
}

/// How an error ends the process: quietly with 0 when the reader of the
/// output has gone, 130 when interrupted (as for a shell job killed by
/// Ctrl-C), 2 otherwise, with one line on stderr.
pub fn exit(err: &anyhow::Error) -> ExitCode {
    if is_closed_pipe(err) {
        return ExitCode::SUCCESS;
    }
    eprintln!("solved: {err:#}");
    let interrupted = err.chain().any(|cause| cause.is::<Interrupted>());
    ExitCode::from(if interrupted { 130 } else { 2 })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clap_errors_keep_their_names_and_tips() {
        let missing = "error: the following required arguments were not provided:\n  --size <N>\n\nUsage: solved solve dodgem --size <N>\n\nFor more information, try '--help'.\n";
        assert_eq!(one_line(missing), "the following required arguments were not provided: --size <N>");
        let typo = "error: unrecognized subcommand 'dodgen'\n\n  tip: a similar subcommand exists: 'dodgem'\n\nUsage: solved solve <COMMAND>\n";
        assert_eq!(one_line(typo), "unrecognized subcommand 'dodgen' (a similar subcommand exists: 'dodgem')");
    }
}
