//! The `solved` command line: parse, run, report.

#![forbid(unsafe_code)]

mod args;
mod commands;
mod config;
#[cfg(feature = "mpi")]
mod distributed;
mod files;
mod json;
mod output;
mod progress;
mod text;

use std::process::ExitCode;

fn main() -> ExitCode {
    let invocation = match args::parse_from(std::env::args_os()) {
        Ok(invocation) => invocation,
        Err(err) => return config::report_usage_error(err),
    };
    match commands::run(invocation) {
        Ok(code) => code,
        Err(err) => config::exit(&err),
    }
}
