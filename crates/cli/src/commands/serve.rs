//! `solved serve`: the web app on a local address.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use solved_games::front::Game;
use tracing_subscriber::EnvFilter;

use crate::config::Config;
use crate::progress;

/// How often the server looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(100);

pub fn serve(
    config: &Config,
    games: &[&'static dyn Game],
    addr: SocketAddr,
    budget: solved_web::Budget,
    log: Option<&str>,
) -> anyhow::Result<ExitCode> {
    let filter = match log {
        Some(filter) => EnvFilter::try_new(filter).with_context(|| format!("--log {filter:?} is not a filter"))?,
        None => EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
    };
    let colours = std::io::stderr().is_terminal();
    tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(colours).init();
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let state = solved_web::AppState::new(config.store.clone()).with_budget(budget).with_games(games);
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
        let local = listener.local_addr()?;
        eprintln!("solved: serving http://{local} (Ctrl-C to stop)");
        tracing::info!(address = %local, tables = %config.store.dir().display(), ?budget, "serving");
        let stop = async {
            while !progress::interrupted() {
                tokio::time::sleep(POLL).await;
            }
        };
        solved_web::serve(listener, state, solved_web::Limits::default(), stop).await.context("the server failed")
    })?;
    Ok(ExitCode::SUCCESS)
}
