//! The one error type of the web app, and how it becomes a response.

use std::error::Error;
use std::fmt::Write;

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use solved_games::front::{Busy, NotBuilt, Refused};
use solved_games::params::ParamError;

/// An error answered as `{"error": "…"}` with a status.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    status: StatusCode,
    message: String,
    /// For a table that is not built: the command that builds it.
    command: Option<String>,
}

/// An error and every cause under it, as one line: `a: b: c`, the way the
/// command line prints it, so that the user sees why.
pub(crate) fn chain(error: &(dyn Error + 'static)) -> String {
    let mut text = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        let _ = write!(text, ": {inner}");
        cause = inner.source();
    }
    text
}

impl ApiError {
    /// Any status, with what went wrong.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into(), command: None }
    }

    /// 400: the request names something impossible.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 404.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// 503: a table the server leaves to the command line is not built,
    /// and the command that builds it.
    pub fn not_built(message: impl Into<String>, command: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::SERVICE_UNAVAILABLE, message: message.into(), command: Some(command.into()) }
    }

    /// 503: the server is busy with something that will end; try again.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// 500: something failed on the server's side (a table on disk, say),
    /// with every cause.
    pub fn internal(error: &(dyn Error + 'static)) -> ApiError {
        ApiError::internal_message(chain(error))
    }

    /// 500, with the causes already said.
    pub fn internal_message(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }
}

/// A game's failure to answer, told apart by what is in its chain: a
/// request it cannot take (400), a table it leaves to the command line or
/// a busy server (503), anything else (500). Every cause is said.
impl From<anyhow::Error> for ApiError {
    fn from(error: anyhow::Error) -> ApiError {
        for cause in error.chain() {
            if cause.is::<ParamError>() || cause.is::<Refused>() {
                return ApiError::bad_request(format!("{error:#}"));
            }
            if let Some(missing) = cause.downcast_ref::<NotBuilt>() {
                return ApiError::not_built(missing.message.clone(), missing.command.clone());
            }
            if let Some(busy) = cause.downcast_ref::<Busy>() {
                return ApiError::busy(busy.0.clone());
            }
        }
        ApiError::internal_message(format!("{error:#}"))
    }
}

/// Parameters the request got wrong: 400, saying why.
impl From<ParamError> for ApiError {
    fn from(error: ParamError) -> ApiError {
        ApiError::bad_request(chain(&error))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut body = serde_json::json!({ "error": self.message });
        if let Some(command) = self.command {
            body["command"] = command.into();
        }
        (self.status, Json(body)).into_response()
    }
}
