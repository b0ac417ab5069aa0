//! The web app: a page for each game and the JSON API behind them.
//!
//! # Brief overview
//!
//! [`router`] builds the axum app around an [`AppState`], which holds the
//! table store, the tables loaded so far and the ones being built. Handlers
//! in `api` parse the query, run the game code on a blocking thread and
//! answer JSON; `pages` serves the HTML, CSS and JavaScript compiled into
//! the binary. Every error, the framework's own refusals included, is
//! answered as an [`ApiError`]: a status and `{"error": "…"}`.
//!
//! # Examples
//!
//! ```no_run
//! # async fn run() -> std::io::Result<()> {
//! let state = solved_web::AppState::new(solved_engine::TableStore::new("tables"));
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! solved_web::serve(listener, state, solved_web::Limits::default(), std::future::pending()).await
//! # }
//! ```

#![warn(missing_docs)]
#![warn(missing_debug_implementations)]
#![forbid(unsafe_code)]

mod api;
mod budget;
mod docs;
mod error;
mod guard;
mod host;
mod pages;
mod server;
mod state;

use std::sync::Arc;

use axum::Router;
use axum::extract::Request;
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use solved_games::params::quote;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

pub use crate::budget::{AT_ONCE_SECONDS, Budget, DEADLINE};
pub use crate::error::ApiError;
use crate::guard::MAX_BODY;
pub use crate::server::Limits;
pub use crate::state::AppState;

/// The longest query string accepted.
const MAX_QUERY: usize = 4096;

/// The whole app.
pub fn router(state: AppState) -> Router {
    let deadline = state.deadline();
    Router::new()
        .merge(pages::routes(state.games()))
        .merge(docs::routes())
        .nest("/api", api::routes(state.games()))
        .fallback(pages::not_found)
        // Served, the gate refuses a larger body first; this bounds the
        // router called on its own.
        .layer(RequestBodyLimitLayer::new(MAX_BODY as usize))
        .layer(TimeoutLayer::with_status_code(StatusCode::GATEWAY_TIMEOUT, deadline))
        .layer(middleware::from_fn(limits))
        .with_state(Arc::new(state))
}

/// Refuses long query strings, and gives the refusals axum and tower-http
/// write themselves (a method no route takes, a body too large) the same
/// JSON body as every other error.
async fn limits(request: Request, next: Next) -> Response {
    let length = request.uri().query().map_or(0, str::len);
    if length > MAX_QUERY {
        return ApiError::bad_request(format!("query string of {length} bytes, at most {MAX_QUERY} allowed"))
            .into_response();
    }
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let response = next.run(request).await;
    let status = response.status();
    if status.is_server_error() {
        tracing::warn!(%method, path = %quote(&path), %status, "request failed");
    } else if status.is_client_error() {
        tracing::info!(%method, path = %quote(&path), %status, "request refused");
    }
    let message = match status {
        StatusCode::METHOD_NOT_ALLOWED => "this path answers GET only".to_string(),
        StatusCode::PAYLOAD_TOO_LARGE => format!("request body over {MAX_BODY} bytes"),
        // The work goes on, and keeps what it made: asked again, the answer
        // may be ready.
        StatusCode::GATEWAY_TIMEOUT if response.headers().get(header::CONTENT_TYPE).is_none() => {
            "no answer in the time a request may take; try again in a moment".to_string()
        }
        _ => return response,
    };
    let mut refusal = ApiError::new(status, message).into_response();
    if let Some(allow) = response.headers().get(header::ALLOW) {
        refusal.headers_mut().insert(header::ALLOW, allow.clone());
    }
    refusal
}

/// Serves the app on `listener` until `stop` completes, then lets the
/// requests in flight finish. Connections are bounded by `limits` in number
/// and in how long they may take to send a request, and every refusal,
/// down to a request hyper could not read, is answered as JSON.
///
/// # Errors
///
/// If accepting connections fails for good.
pub async fn serve(
    listener: tokio::net::TcpListener,
    state: AppState,
    limits: Limits,
    stop: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    server::serve(listener, router(state), limits, stop).await
}
