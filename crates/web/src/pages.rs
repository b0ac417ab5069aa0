//! The pages and their assets, compiled into the binary.

use axum::Router;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, Uri, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use solved_games::front::Game;
use solved_games::params::quote;

use crate::api::Shared;
use crate::error::ApiError;

/// Each asset: its name under `/assets/`, its content type and its text;
/// every file of `assets/` (see `build.rs`).
const ASSETS: &[(&str, &str, &str)] = include!(concat!(env!("OUT_DIR"), "/assets.rs"));

pub(crate) fn routes(games: &[&'static dyn Game]) -> Router<Shared> {
    let mut router =
        Router::new().route("/", get(index)).route("/puzzles", get(puzzles)).route("/assets/{name}", get(asset));
    for game in games.iter().map(|g| g.info()) {
        let page = move |State(state): State<Shared>| async move { game_page(state.games(), game.id, game.name) };
        router = router.route(&format!("/{}", game.id), get(page));
    }
    router
}

/// A page of the app serving `games`: `current` is the game whose page it
/// is, marked in the navigation.
pub(crate) fn shell(games: &[&'static dyn Game], title: &str, current: Option<&str>, body: &str) -> Html<String> {
    let nav: String = games
        .iter()
        .map(|g| g.info())
        .map(|g| {
            let here = if current == Some(g.id) { r#" aria-current="page""# } else { "" };
            format!(r#"<a href="/{}"{here}>{}</a>"#, g.id, g.name)
        })
        .chain(std::iter::once({
            let here = if current == Some("puzzles") { r#" aria-current="page""# } else { "" };
            format!(r#"<a href="/puzzles"{here}>Puzzles</a>"#)
        }))
        .collect();
    let version = env!("CARGO_PKG_VERSION");
    // A keyboard reaches the board without a Tab for every link and control above it.
    let game_page = current.is_some_and(|id| games.iter().any(|g| g.info().id == id));
    let skip = if game_page {
        r##"<a class="skip" href="#board">Skip to the board</a>"##
    } else {
        r##"<a class="skip" href="#main">Skip to the content</a>"##
    };
    Html(format!(
        r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · solved</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/assets/style.css">
<script src="/assets/palette.js"></script>
</head>
<body>
{skip}
<header><a class="brand" href="/">solved</a><nav>{nav}</nav><button id="palette" class="palette" type="button" aria-pressed="false">Colour-blind palette</button></header>
<main id="main" tabindex="-1">
{body}
</main>
<footer><a href="/docs">Documentation</a> · <a href="/docs/architecture">Where the source lives</a> · solved {version}</footer>
</body>
</html>
"#
    ))
}

async fn index(State(state): State<Shared>) -> Html<String> {
    let cards: String = state
        .games()
        .iter()
        .map(|g| g.info())
        .map(|g| format!(r#"<a class="card" href="/{}"><h2>{}</h2><p>{}</p></a>"#, g.id, g.name, g.pitch))
        .collect();
    shell(
        state.games(),
        "Games",
        None,
        &format!(
            "<h1>Small games, strongly solved</h1>\n<p>Every position of each game has been solved: play against \
             the perfect player, ask for hints, and see the value of every move.</p>\n<div class=\"cards\">{cards}</div>"
        ),
    )
}

/// The puzzle of the day of every game that draws puzzles (`puzzles.js`).
async fn puzzles(State(state): State<Shared>) -> Html<String> {
    shell(
        state.games(),
        "Puzzles",
        Some("puzzles"),
        "<h1>Puzzles</h1>\n<p>Positions from the solved tables where exactly one move keeps the win, the draw or the \
         best score: a new one every day for each game, the same for everyone.</p>\n<div id=\"app\"></div>\n\
         <script src=\"/assets/common.js\"></script>\n<script src=\"/assets/puzzles.js\"></script>",
    )
}

fn game_page(games: &[&'static dyn Game], id: &str, name: &str) -> Html<String> {
    shell(
        games,
        name,
        Some(id),
        &format!(
            "<h1>{name}</h1>\n<div id=\"app\" data-game=\"{id}\"></div>\n<script src=\"/assets/common.js\"></script>\n\
             <script src=\"/assets/record.js\"></script>\n<script src=\"/assets/controller.js\"></script>\n\
             <script src=\"/assets/{id}.js\"></script>"
        ),
    )
}

async fn asset(name: Result<Path<String>, PathRejection>) -> Response {
    let name = match name {
        Ok(Path(name)) => name,
        Err(rejection) => {
            return ApiError::bad_request(format!("no such asset: {}", rejection.body_text())).into_response();
        }
    };
    match ASSETS.iter().find(|(asset, _, _)| *asset == name) {
        Some(&(_, content_type, text)) => ([(header::CONTENT_TYPE, content_type)], text).into_response(),
        None => ApiError::not_found(format!("no asset {:?}", quote(&name))).into_response(),
    }
}

/// What an unknown path gets: JSON under `/api/`, where programs ask, and a
/// page a person can read elsewhere.
pub(crate) async fn not_found(State(state): State<Shared>, uri: Uri) -> Response {
    if uri.path() == "/api" || uri.path().starts_with("/api/") {
        return ApiError::not_found("no such endpoint (see GET /api/games)").into_response();
    }
    let body = shell(
        state.games(),
        "Not found",
        None,
        "<h1>Not found</h1>\n<p>There is no such page here. <a href=\"/\">See every game.</a></p>",
    );
    (StatusCode::NOT_FOUND, body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    use solved_games::registry::GAMES;

    #[test]
    fn every_game_has_a_page_script() {
        for game in GAMES.iter().map(|g| g.info()) {
            let script = format!("{}.js", game.id);
            assert!(ASSETS.iter().any(|(name, _, _)| *name == script), "no {script} in assets/");
        }
        // The scripts every page loads, beside its game's own, and the puzzles page's.
        let shared = ["common.js", "controller.js", "palette.js", "puzzles.js", "record.js"];
        let pages = ASSETS.iter().filter(|(name, _, _)| name.ends_with(".js") && !shared.contains(name)).count();
        assert_eq!(pages, GAMES.len(), "a page script for a game the registry does not list");
    }
}
