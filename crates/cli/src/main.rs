//! The `solved` command line: parse, run, report.

#![forbid(unsafe_code)]

mod args;
mod commands;
mod config;
mod json;
mod progress;
mod text;

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match args::Cli::try_parse() {
        Ok(cli) => cli,
        Err(err) => return config::report_usage_error(err),
    };
    match commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("solved: {err:#}");
            config::exit_code_for(&err)
        }
    }
}
