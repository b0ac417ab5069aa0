//! `solved serve`: the web app on a local address.

use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;

use crate::config::Config;
use crate::progress;

/// How often the server looks for Ctrl-C.
const POLL: Duration = Duration::from_millis(100);

pub fn serve(config: &Config, addr: SocketAddr) -> anyhow::Result<ExitCode> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    let state = solved_web::AppState::new(config.store.clone());
    runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(addr).await.with_context(|| format!("cannot listen on {addr}"))?;
        eprintln!("solved: serving http://{} (Ctrl-C to stop)", listener.local_addr()?);
        let stop = async {
            while !progress::interrupted() {
                tokio::time::sleep(POLL).await;
            }
        };
        solved_web::serve(listener, state, stop).await.context("the server failed")
    })?;
    Ok(ExitCode::SUCCESS)
}
