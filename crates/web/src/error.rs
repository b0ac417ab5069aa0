//! The one error type of the web app, and how it becomes a response.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// An error answered as `{"error": "…"}` with a status.
#[derive(Debug, thiserror::Error)]
#[error("{message}")]
pub struct ApiError {
    status: StatusCode,
    message: String,
    /// For a table that is not built: the command that builds it.
    command: Option<String>,
}

impl ApiError {
    /// Any status, with what went wrong.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError { status, message: message.into(), command: None }
    }

    /// 400: the request names something impossible.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::BAD_REQUEST, message: message.into(), command: None }
    }

    /// 404.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::NOT_FOUND, message: message.into(), command: None }
    }

    /// 503: a table not ready (being built, or one the server leaves to the
    /// command line), and the command that builds it.
    pub fn not_built(message: impl Into<String>, command: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::SERVICE_UNAVAILABLE, message: message.into(), command: Some(command.into()) }
    }

    /// 503: the server is busy with something that will end; try again.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError { status: StatusCode::SERVICE_UNAVAILABLE, message: message.into(), command: None }
    }

    /// 500: something failed on the server's side (a table on disk, say).
    pub fn internal(error: impl std::fmt::Display) -> ApiError {
        ApiError { status: StatusCode::INTERNAL_SERVER_ERROR, message: error.to_string(), command: None }
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
