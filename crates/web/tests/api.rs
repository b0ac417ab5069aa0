//! The JSON API: every endpoint's answers, checked against the games
//! themselves, and every kind of bad request.

use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::http::{Method, Request, StatusCode, header};
use http_body_util::BodyExt;
use serde_json::Value as Json;
use solved_engine::{Silent, TableStore};
use solved_games::dodgem::{Dodgem, Objective};
use solved_games::dots_and_boxes::quiet::QuietTable;
use solved_games::dots_and_boxes::{Board, Scorer, Variant};
use solved_games::registry::GAMES;
use solved_games::snakes;
use solved_games::tables::obtain;
use solved_web::{AppState, Budget};
use tower::ServiceExt;

struct Server {
    _dir: tempfile::TempDir,
    store: TableStore,
    app: Router,
}

fn server() -> Server {
    let dir = tempfile::tempdir().unwrap();
    let store = TableStore::new(dir.path());
    let app = solved_web::router(AppState::new(store.clone()));
    Server { _dir: dir, store, app }
}

impl Server {
    async fn request(&self, method: Method, uri: &str, body: Body) -> (StatusCode, String) {
        let (status, _, bytes) = self.bytes(method, uri, body).await;
        (status, String::from_utf8(bytes).unwrap())
    }

    /// The answer as it comes: its status, its content type and its bytes.
    async fn bytes(&self, method: Method, uri: &str, body: Body) -> (StatusCode, String, Vec<u8>) {
        let request = Request::builder().method(method).uri(uri).body(body).unwrap();
        let response = self.app.clone().oneshot(request).await.unwrap();
        let status = response.status();
        let content_type = response.headers().get("content-type").map_or("", |v| v.to_str().unwrap()).to_owned();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        (status, content_type, bytes.to_vec())
    }

    async fn get(&self, uri: &str) -> (StatusCode, Json) {
        let (status, text) = self.request(Method::GET, uri, Body::empty()).await;
        (status, serde_json::from_str(&text).unwrap_or_else(|e| panic!("{uri} answered {text:?}: {e}")))
    }

    async fn ok(&self, uri: &str) -> Json {
        let (status, body) = self.get(uri).await;
        assert_eq!(status, StatusCode::OK, "{uri}: {body}");
        body
    }

    /// Asserts a 400 whose message contains `words`.
    async fn refused(&self, uri: &str, words: &str) {
        let (status, body) = self.get(uri).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{uri}: {body}");
        let message = body["error"].as_str().unwrap_or_else(|| panic!("{uri}: no error in {body}"));
        assert!(message.contains(words), "{uri}: {message:?} does not say {words:?}");
    }
}

fn label(value: &Json) -> String {
    match value["value"].as_str().unwrap() {
        "win" => format!("W{}", value["distance"]),
        "loss" => format!("L{}", value["distance"]),
        _ => "=".into(),
    }
}

#[tokio::test]
async fn games_lists_every_game_and_every_page_is_served() {
    let server = server();
    let games = server.ok("/api/games").await;
    let ids: Vec<&str> = games.as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    let registered: Vec<&str> = GAMES.iter().map(|g| g.info().id).collect();
    assert_eq!(ids, registered);
    let pages = registered.iter().map(|id| format!("/{id}"));
    for page in std::iter::once("/".to_string()).chain(pages) {
        let page = page.as_str();
        let (status, html) = server.request(Method::GET, page, Body::empty()).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert!(html.starts_with("<!doctype html>"), "{page}");
        // The page's own game is marked in the navigation, and only it.
        let marked: Vec<&str> = html.match_indices(r#" aria-current="page""#).map(|(at, _)| &html[..at]).collect();
        match page.strip_prefix('/').filter(|id| !id.is_empty()) {
            Some(id) => assert!(marked.len() == 1 && marked[0].ends_with(&format!(r#"href="/{id}""#)), "{page}"),
            None => assert!(marked.is_empty(), "{page}"),
        }
    }
    // The index speaks to people: no solver's jargon on its cards.
    let (_, index) = server.request(Method::GET, "/", Body::empty()).await;
    for jargon in ["retrograde", "descending sweep", "tiered"] {
        assert!(!index.contains(jargon), "the index says {jargon:?}");
    }
    let shared = ["style.css", "palette.js", "common.js", "record.js", "controller.js"].map(String::from);
    for asset in shared.into_iter().chain(registered.iter().map(|id| format!("{id}.js"))) {
        let (status, text) = server.request(Method::GET, &format!("/assets/{asset}"), Body::empty()).await;
        assert_eq!(status, StatusCode::OK, "{asset}");
        assert!(!text.is_empty());
    }
}

#[tokio::test]
async fn dodgem_probe_ranks_every_move_as_the_table_does() {
    let server = server();
    let body = server.ok("/api/dodgem/probe?size=3").await;
    assert_eq!(body["position"], "B../B../.RR B");
    assert_eq!((body["value"].as_str(), body["distance"].as_u64()), (Some("win"), Some(19)));
    let game = Dodgem::new(3, Objective::Normal).unwrap();
    let (table, _) = obtain(&game, &server.store, &Silent).unwrap();
    let ranked = game.ranked_moves(&game.start(), &table);
    let moves = body["moves"].as_array().unwrap();
    assert_eq!(moves.len(), ranked.len());
    for (shown, (m, value, child)) in moves.iter().zip(&ranked) {
        assert_eq!(shown["move"], m.to_string());
        assert_eq!(shown["position"], child.to_string());
        assert_eq!(label(shown), value.to_string());
    }
    // The computer picks a best move.
    let choice = body["choice"].as_str().unwrap();
    let chosen = moves.iter().find(|m| m["move"] == choice).unwrap();
    assert_eq!(label(chosen), label(&moves[0]));

    let misere = server.ok("/api/dodgem/probe?size=3&misere=true").await;
    assert_ne!(misere["moves"], body["moves"], "misère has other values");
    let later = server.ok("/api/dodgem/probe?position=.B./B../.RR%20R").await;
    assert_eq!(later["to_move"], "Red");
    assert_eq!(later["size"], 3);
}

#[tokio::test]
async fn dodgem_from_a_position_is_as_from_the_moves_that_reach_it() {
    let server = server();
    let without_choice = |mut probe: Json| {
        probe.as_object_mut().unwrap().remove("choice");
        probe
    };
    let after_moves = server.ok("/api/dodgem/probe?size=3&moves=a3-b3,c1-c2,a2-a3").await;
    let position = after_moves["position"].as_str().unwrap().replace(' ', "%20");
    let from_position = server.ok(&format!("/api/dodgem/probe?size=3&position={position}")).await;
    assert_eq!(without_choice(from_position), without_choice(after_moves));
    let line = server.ok(&format!("/api/dodgem/line?position={position}")).await;
    assert_eq!(line, server.ok("/api/dodgem/line?size=3&moves=a3-b3,c1-c2,a2-a3").await);
    // Moves played on from the position.
    let on = server.ok(&format!("/api/dodgem/probe?position={position}&moves=b1-b2")).await;
    let further = server.ok("/api/dodgem/probe?size=3&moves=a3-b3,c1-c2,a2-a3,b1-b2").await;
    assert_eq!(without_choice(on), without_choice(further));
}

#[tokio::test]
async fn dodgem_summary_matches_the_solver() {
    let server = server();
    let body = server.ok("/api/dodgem/summary?size=3").await;
    let game = Dodgem::new(3, Objective::Normal).unwrap();
    let (table, _) = obtain(&game, &server.store, &Silent).unwrap();
    let summary = game.summary(&table).unwrap();
    assert_eq!(body["positions"], summary.all.positions());
    assert_eq!(body["wins"], summary.all.wins);
    assert_eq!(body["losses"], summary.all.losses);
    assert_eq!(body["draws"], summary.all.draws);
    assert_eq!(body["start"]["value"], "win");
    assert_eq!(body["variant"], "normal");
}

#[tokio::test]
async fn dodgem_bad_requests_say_what_is_wrong() {
    let server = server();
    server.refused("/api/dodgem/probe", "size").await;
    server.refused("/api/dodgem/probe?size=9", "size").await;
    server.refused("/api/dodgem/probe?size=three", "size").await;
    server.refused("/api/dodgem/probe?size=3&misere=maybe", "misere").await;
    server.refused("/api/dodgem/probe?position=B../B../.RX%20B", "unexpected").await;
    server.refused("/api/dodgem/probe?position=B..", "expected the ranks").await;
    server.refused("/api/dodgem/probe?size=4&position=B../B../.RR%20B", "not 4x4").await;
    server.refused("/api/dodgem/probe?position=B../B../.RR%20X", "side to move must be B or R").await;
    server.refused("/api/dodgem/probe?position=BB./B../.RR%20B", "at most 2 fit").await;
    server.refused("/api/dodgem/probe?position=.../.../...%20B", "no car on the board").await;
    server.refused("/api/dodgem/probe?position=.B./B../.RR%20R&moves=c1-c2,a3-a2", "move 2").await;
    server.refused("/api/dodgem/line?position=B../B../.R%20B", "rank 1 has 2 squares").await;
    server.refused("/api/dodgem/probe?size=3&colour=blue", "unknown parameter \"colour\"").await;
    server.refused("/api/dodgem/summary?size=1", "size").await;
}

#[tokio::test]
async fn dots_and_boxes_probe_scores_every_line_and_plays_a_best_one() {
    let server = server();
    let body = server.ok("/api/dots-and-boxes/probe?rows=2&cols=2").await;
    assert_eq!(body["value"], 2);
    assert_eq!(body["to_move"], "A");
    assert_eq!(body["moves"].as_array().unwrap().len(), 12);
    // A, B and A draw three sides of the top-left box: B takes it and moves again.
    let taken = server.ok("/api/dots-and-boxes/probe?rows=2&cols=2&moves=ab,ba,bc").await;
    assert_eq!(taken["to_move"], "B");
    let take = taken["moves"].as_array().unwrap().iter().find(|m| m["move"] == "cb").unwrap();
    assert_eq!(take["takes"], 1);
    let owned = server.ok("/api/dots-and-boxes/probe?rows=2&cols=2&moves=ab,ba,bc,cb").await;
    assert_eq!(owned["owners"][0], "B");
    assert_eq!(owned["score_so_far"], -1);
    assert_eq!(owned["to_move"], "B");
    let board = Board::new(2, 2, Variant::American).unwrap();
    let quiet = QuietTable::new(&board);
    let (table, _) = obtain(&quiet, &server.store, &Silent).unwrap();
    let pos = solved_games::dots_and_boxes::parse_moves(&board, "ab,ba,bc,cb").unwrap();
    assert_eq!(owned["value"], Scorer::new(&quiet, &table).value(&pos).unwrap());
    let choice = owned["choice"].as_str().unwrap();
    let best = owned["moves"].as_array().unwrap().iter().find(|m| m["move"] == choice).unwrap();
    assert_eq!(best["best"], true);
    // The variant's lines are drawn from the start.
    let swedish = server.ok("/api/dots-and-boxes/probe?rows=1&cols=2&variant=swedish").await;
    assert_eq!(swedish["drawn"].as_array().unwrap().len(), 6);
    assert_eq!(swedish["moves"].as_array().unwrap().len(), 1);
}

#[tokio::test]
async fn dots_and_boxes_summary_matches_the_solver() {
    let server = server();
    let body = server.ok("/api/dots-and-boxes/summary?rows=2&cols=3&variant=american").await;
    let board = Board::new(2, 3, Variant::American).unwrap();
    let quiet = QuietTable::new(&board);
    let (table, _) = obtain(&quiet, &server.store, &Silent).unwrap();
    let summary = Scorer::new(&quiet, &table).summary().unwrap();
    assert_eq!(body["lines"], 17);
    assert_eq!(body["positions"], 1u64 << 17);
    assert_eq!(body["value"], summary.value);
    let first: Vec<(String, i64)> = body["first_moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["move"].as_str().unwrap().to_string(), m["score"].as_i64().unwrap()))
        .collect();
    let expected: Vec<(String, i64)> =
        summary.first_moves.iter().map(|m| (m.line.to_string(), i64::from(m.score))).collect();
    assert_eq!(first, expected);
    let best: Vec<&str> = body["best_first_moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    assert!(!best.is_empty());
    for line in best {
        let m = summary.first_moves.iter().find(|m| m.line.to_string() == line).unwrap();
        assert_eq!(m.score, summary.value);
    }
    server.refused("/api/dots-and-boxes/summary?rows=2&cols=3&moves=ab", "unknown parameter \"moves\"").await;
    server.refused("/api/dots-and-boxes/summary?rows=2", "cols").await;
}

#[tokio::test]
async fn dots_and_boxes_searches_a_position_of_seconds_in_the_background() {
    let server = server();
    // 4×5 with four rows of horizontal lines drawn: 29 lines left, a search
    // estimated past a second.
    let drawn: Vec<String> =
        ["a", "c", "e", "g"].iter().flat_map(|row| "bdfhj".chars().map(move |col| format!("{row}{col}"))).collect();
    let uri = format!("/api/dots-and-boxes/probe?rows=4&cols=5&moves={}", drawn.join(","));
    let (status, body) = server.get(&uri).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    assert_eq!((body["work"].as_str(), body["lines"].as_u64()), (Some("search"), Some(29)), "{body}");
    assert!(body["what"].as_str().unwrap().contains("29 lines"), "{body}");
    for _ in 0..600 {
        let (status, body) = server.get(&uri).await;
        if status == StatusCode::OK {
            assert_eq!((body["method"].as_str(), body["moves"].as_array().map(Vec::len)), (Some("search"), Some(29)));
            return;
        }
        assert_eq!(status, StatusCode::ACCEPTED, "{body}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("the search was not done in two minutes");
}

#[tokio::test]
async fn dots_and_boxes_builds_a_large_table_in_the_background() {
    let server = server();
    let uri = "/api/dots-and-boxes/probe?rows=1&cols=9";
    let (status, body) = server.get(uri).await;
    assert_eq!(status, StatusCode::ACCEPTED, "{body}");
    assert_eq!(body["lines"], 28);
    // One large table at a time: another waits until this one is done.
    let (status, body) = server.get("/api/dots-and-boxes/summary?rows=9&cols=1").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
    assert!(body["error"].as_str().unwrap().contains("another large table"), "{body}");
    for _ in 0..600 {
        let (status, body) = server.get(uri).await;
        if status == StatusCode::OK {
            assert_eq!(body["moves"].as_array().unwrap().len(), 28);
            return;
        }
        assert_eq!(status, StatusCode::ACCEPTED);
        assert!((0.0..=1.0).contains(&body["done"].as_f64().unwrap()));
        // Which phase it is in, counted from 1 once the build has begun one.
        assert!(body["step"].as_u64().is_some_and(|step| step <= 3), "{body}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("the 1x9 table was not built in two minutes");
}

#[tokio::test]
async fn dots_and_boxes_bad_requests_say_what_is_wrong() {
    let server = server();
    server.refused("/api/dots-and-boxes/probe?cols=2", "rows").await;
    server.refused("/api/dots-and-boxes/probe?rows=0&cols=2", "1 to 12").await;
    server.refused("/api/dots-and-boxes/probe?rows=300&cols=2", "rows").await;
    // A board too large to table is scored by search, on a page only within
    // the server's budget: 4×5's start is refused, saying how long it takes
    // and what runs it; 2×8 with its 24 horizontal lines drawn is searched.
    server
        .refused("/api/dots-and-boxes/probe?rows=4&cols=5", "hours, where this server searches for at most 2 min")
        .await;
    // The command it names is this position's, to be run as it stands.
    server.refused("/api/dots-and-boxes/probe?rows=4&cols=5&moves=ab,cd", "--rows 4 --cols 5 ab,cd` runs it").await;
    let horizontals: Vec<String> =
        ["a", "c", "e"].iter().flat_map(|row| "bdfhjlnp".chars().map(move |col| format!("{row}{col}"))).collect();
    let late = server.ok(&format!("/api/dots-and-boxes/probe?rows=2&cols=8&moves={}", horizontals.join(","))).await;
    assert_eq!((late["method"].as_str(), late["moves"].as_array().map(Vec::len)), (Some("search"), Some(18)));
    server.refused("/api/dots-and-boxes/probe?rows=5&cols=5", "undrawn lines").await;
    server.refused("/api/dots-and-boxes/probe?rows=2&cols=2&variant=danish", "danish").await;
    server.refused("/api/dots-and-boxes/probe?rows=2&cols=2&moves=ab,zz", "move 2").await;
    server.refused("/api/dots-and-boxes/probe?rows=2&cols=2&moves=ab,ab", "drawn already").await;
    server.refused("/api/dots-and-boxes/probe?rows=2&cols=2&moves=aa", "dot").await;
    server.refused("/api/dots-and-boxes/probe?rows=2&cols=2&position=ab", "unknown parameter \"position\"").await;
}

#[tokio::test]
async fn snakes_analyse_gives_the_exact_figures() {
    let server = server();
    let names = server.ok("/api/snakes/boards").await;
    assert_eq!(names.as_array().unwrap().len(), snakes::BUILT_IN.len());
    let body = server.ok("/api/snakes/analyse?board=milton-bradley").await;
    assert_eq!(body["min_throws"], 7);
    let board = snakes::built_in("milton-bradley", snakes::Overshoot::Stay).unwrap();
    let expected = snakes::expected_turns(&board).from_start.unwrap();
    assert_eq!(body["expected_turns"]["exact"], format!("{}/{}", expected.numer(), expected.denom()));
    assert_eq!(body["per_square"].as_array().unwrap().len(), 101);
    assert_eq!(body["jumps"].as_array().unwrap().len(), 19);
    let pmf: f64 = body["distribution"]["pmf"].as_array().unwrap().iter().map(|p| p.as_f64().unwrap()).sum();
    assert!((0.999..=1.0 + 1e-9).contains(&pmf), "the plotted distribution covers {pmf}");

    let custom = server.ok("/api/snakes/analyse?goal=10&jumps=2:9&overshoot=pass").await;
    assert_eq!(custom["min_throws"], 2, "a 2 up the ladder to 9, then any roll finishes");
    assert_eq!(custom["overshoot"], "pass");
    let stuck = server.ok("/api/snakes/analyse?goal=12&numbering=cells&jumps=").await;
    assert_eq!(stuck["numbering"], "cells");
    assert_eq!(stuck["min_throws"], 2);
}

#[tokio::test]
async fn snakes_bad_requests_say_what_is_wrong() {
    let server = server();
    server.refused("/api/snakes/analyse", "board").await;
    server.refused("/api/snakes/analyse?board=ludo", "ludo").await;
    server.refused("/api/snakes/analyse?board=milton-bradley&goal=100", "not both").await;
    server.refused("/api/snakes/analyse?goal=5000&jumps=", "up to 400").await;
    server.refused("/api/snakes/analyse?goal=100&jumps=3-50", "FROM:TO").await;
    server.refused("/api/snakes/analyse?goal=100&jumps=3:50,50:3", "circle").await;
    server.refused("/api/snakes/analyse?goal=100&jumps=3:500", "leaves the board").await;
    server.refused("/api/snakes/analyse?goal=100&numbering=rows&jumps=", "numbering").await;
    server.refused("/api/snakes/analyse?board=milton-bradley&overshoot=wrap", "wrap").await;
}

#[tokio::test]
async fn the_documentation_is_served_with_its_screenshots_and_every_page_links_to_it() {
    let server = server();
    let (status, index) = server.request(Method::GET, "/", Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    assert!(index.contains(r#"<a href="/docs">Documentation</a>"#), "{index}");
    let (status, docs) = server.request(Method::GET, "/docs", Body::empty()).await;
    assert_eq!(status, StatusCode::OK);
    // The server's own limits, as it applies them.
    assert!(docs.contains("within 2 min and 3.0 GB of memory") && docs.contains("answered within 30 s"), "{docs}");
    // The README's links land here, not on a 404 or on another machine.
    let (_, readme) = server.request(Method::GET, "/docs/readme", Body::empty()).await;
    assert!(readme.contains(r#"href="/docs/dodgem-6x6""#) && !readme.contains(r#"href="http://127.0.0.1"#), "{readme}");
    // A document's summary is its prose, never a comment that would hide what follows it.
    assert!(!docs.contains("<!--"), "{docs}");
    for slug in ["readme", "architecture", "dodgem-6x6", "ladders", "performance"] {
        assert!(docs.contains(&format!(r#"href="/docs/{slug}""#)), "{docs}");
        let (status, page) = server.request(Method::GET, &format!("/docs/{slug}"), Body::empty()).await;
        assert_eq!(status, StatusCode::OK, "{slug}");
        assert!(page.contains("<h1 id=") || page.contains("<h2 id="), "{slug} is rendered, its headings with anchors");
    }
    // The README's links go to what this server serves.
    let (_, readme) = server.request(Method::GET, "/docs/readme", Body::empty()).await;
    assert!(readme.contains(r#"href="/docs/performance""#));
    assert!(readme.contains(r#"<table tabindex="0">"#), "a table that scrolls takes the focus");
    let (status, content_type, png) = server.bytes(Method::GET, "/docs/screenshots/dodgem.png", Body::empty()).await;
    assert_eq!((status, content_type.as_str()), (StatusCode::OK, "image/png"));
    assert!(png.starts_with(b"\x89PNG"));
    // The working notes are for developers, in the repository only.
    for missing in ["/docs/nothing", "/docs/benchmarks", "/docs/screenshots/nothing.png", "/docs/screenshots/%ff"] {
        let (status, page) = server.request(Method::GET, missing, Body::empty()).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{missing}");
        assert!(page.contains("Not found"), "{missing}");
    }
}

#[tokio::test]
async fn tic_tac_chec_without_a_table_lists_moves_and_the_command() {
    let server = server();
    let body = server.ok("/api/tic-tac-chec/probe").await;
    assert_eq!(body["position"], "..../..../..../.... w -- open");
    assert_eq!(body["moves"].as_array().unwrap().len(), 64);
    assert!(body.get("value").is_none());
    assert!(body["missing"]["command"].as_str().unwrap().starts_with("solved solve tic-tac-chec"));
    let outbound =
        server.ok("/api/tic-tac-chec/probe?pawn=outbound&position=..../..r./.N../....%20w%20--%20open").await;
    assert!(outbound["missing"]["command"].as_str().unwrap().contains("--pawn outbound"));
    assert_eq!(outbound["to_move"], "White");
    // A won position has no moves.
    let over = server.ok("/api/tic-tac-chec/probe?position=PNBR/..../nbr./...p%20b%20du%20post").await;
    assert_eq!(over["over"], true);
    assert_eq!(over["moves"].as_array().unwrap().len(), 0);
    // No summary without a table: the command that builds it instead.
    let (status, summary) = server.get("/api/tic-tac-chec/summary?pawn=outbound").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{summary}");
    assert!(summary["command"].as_str().unwrap().contains("--pawn outbound"), "{summary}");
    // Nor a perfect line.
    let (status, line) = server.get("/api/tic-tac-chec/line?pawn=outbound").await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{line}");
    assert!(line["command"].as_str().unwrap().contains("--pawn outbound"), "{line}");
}

#[tokio::test]
async fn tic_tac_chec_bad_requests_say_what_is_wrong() {
    let server = server();
    server.refused("/api/tic-tac-chec/probe?position=nonsense", "position").await;
    server.refused("/api/tic-tac-chec/probe?pawn=sideways", "sideways").await;
    server.refused("/api/tic-tac-chec/summary?pawn=sideways", "sideways").await;
    server.refused("/api/tic-tac-chec/summary?position=x", "unknown parameter").await;
    server.refused("/api/tic-tac-chec/line?position=nonsense", "position").await;
    server.refused("/api/tic-tac-chec/probe?position=..../..../..../....%20x%20--%20open", "position").await;
}

#[tokio::test]
async fn unknown_paths_methods_and_oversized_requests_are_refused() {
    let server = server();
    let (status, body) = server.get("/api/chess/probe").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].is_string());
    let (status, _) = server.get("/assets/missing.js").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let long = format!("/api/dodgem/probe?size=3&position={}", "B".repeat(5000));
    let (status, body) = server.get(&long).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().unwrap().contains("query string"));
    let large = Request::post("/api/games")
        .header(header::CONTENT_LENGTH, 100_000)
        .body(Body::from(vec![b'x'; 100_000]))
        .unwrap();
    let response = server.app.clone().oneshot(large).await.unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let body: Json = serde_json::from_slice(&bytes).unwrap();
    assert!(body["error"].as_str().unwrap().contains("body"), "{body}");
    let (status, text) = server.request(Method::POST, "/api/games", Body::empty()).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED);
    let body: Json = serde_json::from_str(&text).unwrap();
    assert!(body["error"].as_str().unwrap().contains("GET"), "{body}");
    server.refused("/api/dodgem/probe?size=3&size=4", "given twice").await;
}

#[tokio::test]
async fn a_person_gets_a_page_and_a_program_gets_json() {
    let server = server();
    for page in ["/nope", "/dodgem/"] {
        let (status, html) = server.request(Method::GET, page, Body::empty()).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{page}");
        assert!(html.starts_with("<!doctype html>") && html.contains("Not found"), "{page}: {html}");
    }
    let (status, body) = server.get("/api/nope").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body["error"].is_string());
    let (status, body) = server.get("/assets/%ff%fe").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(body["error"].as_str().unwrap().contains("asset"), "{body}");
}

#[tokio::test]
async fn a_table_that_cannot_be_used_says_why_and_holds_up_no_other() {
    let server = server();
    let dir = server.store.dir().to_path_buf();
    std::fs::create_dir_all(&dir).unwrap();
    // A pipe in a table's place would make a reader wait for a writer.
    let pipe = dir.join("dodgem-normal-4x4.tbl");
    assert!(std::process::Command::new("mkfifo").arg(&pipe).status().unwrap().success());
    let (status, body) = tokio::time::timeout(Duration::from_secs(10), server.get("/api/dodgem/probe?size=4"))
        .await
        .expect("no request waits on a pipe");
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");
    assert!(body["error"].as_str().unwrap().contains("not a regular file"), "{body}");
    server.ok("/api/dodgem/probe?size=3").await;
    // A corrupt table: the answer names what is wrong.
    let table = dir.join("dodgem-normal-3x3.tbl");
    let mut bytes = std::fs::read(&table).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&table, &bytes).unwrap();
    let fresh = Server { app: solved_web::router(AppState::new(server.store.clone())), ..server };
    let (status, body) = fresh.get("/api/dodgem/probe?size=3").await;
    assert_eq!(status, StatusCode::INTERNAL_SERVER_ERROR, "{body}");
    assert!(body["error"].as_str().unwrap().contains("checksum mismatch"), "{body}");
}

#[tokio::test]
async fn a_server_builds_on_request_only_within_its_budget() {
    let limits = [
        (Budget { positions: 0, ..Budget::default() }, "where this server builds at most 0"),
        (Budget { seconds: 0.0, ..Budget::default() }, "where this server builds for at most"),
        (Budget { bytes: 1000, ..Budget::default() }, "where this server gives a build at most 1 kB"),
    ];
    for (budget, said) in limits {
        let dir = tempfile::tempdir().unwrap();
        let store = TableStore::new(dir.path());
        let app = solved_web::router(AppState::new(store.clone()).with_budget(budget));
        let server = Server { _dir: dir, store, app };
        let (status, body) = server.get("/api/dodgem/probe?size=3").await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(body["command"], "solved solve dodgem --size 3");
        assert!(body["error"].as_str().unwrap().contains(said), "{body}");
        // Snakes needs no table.
        server.ok("/api/snakes/analyse?board=example-30").await;
        assert!(std::fs::read_dir(server.store.dir()).unwrap().next().is_none(), "nothing was written");
    }
}

#[tokio::test]
async fn a_request_past_its_deadline_is_answered_504_in_json() {
    let dir = tempfile::tempdir().unwrap();
    let store = TableStore::new(dir.path());
    let app = solved_web::router(AppState::new(store.clone()).with_deadline(Duration::ZERO));
    let server = Server { _dir: dir, store, app };
    let (status, body) = server.get("/api/snakes/analyse?board=milton-bradley").await;
    assert_eq!(status, StatusCode::GATEWAY_TIMEOUT, "{body}");
    assert!(body["error"].as_str().unwrap().contains("try again"), "{body}");
}

#[tokio::test]
async fn tables_that_take_hours_are_left_to_the_command_line() {
    let server = server();
    for (query, command) in [
        ("rows=4&cols=4", "solved solve dots-and-boxes --rows 4 --cols 4"),
        ("rows=3&cols=5", "solved solve dots-and-boxes --rows 3 --cols 5"),
    ] {
        let (status, body) = server.get(&format!("/api/dots-and-boxes/probe?{query}")).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(body["command"], command);
        assert!(body["error"].as_str().unwrap().contains("where this server builds for at most 2 min"), "{body}");
    }
    assert!(std::fs::read_dir(server.store.dir()).unwrap().next().is_none(), "nothing was written");
}

#[tokio::test]
async fn dodgem_6x6_is_left_to_the_command_line_until_its_units_are_solved() {
    let server = server();
    // The time the units take, as the command line estimates it.
    let units = Dodgem::new(6, Objective::Normal).unwrap().units_stages().units;
    let estimate = format!("in about {} on two cores", solved_games::text::duration(units));
    for path in ["probe", "summary"] {
        let (status, body) = server.get(&format!("/api/dodgem/{path}?size=6")).await;
        assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{body}");
        assert_eq!(body["command"], "solved solve dodgem --size 6");
        let message = body["error"].as_str().unwrap();
        assert!(message.contains("3321 of its 3321 units are missing") && message.contains(&estimate), "{message}");
    }
    assert!(std::fs::read_dir(server.store.dir()).unwrap().next().is_none(), "nothing was written");
}

#[tokio::test]
async fn dodgem_solved_by_units_is_probed_from_its_unit_files() {
    let server = server();
    let game = Dodgem::new(4, Objective::Normal).unwrap();
    game.solve_to_files(&game.unit_files(&server.store), 0, &Silent).unwrap();
    let from_units = server.ok("/api/dodgem/probe?size=4&moves=a2-b2").await;
    let summary = server.ok("/api/dodgem/summary?size=4").await;
    assert!(!server.store.dir().join("dodgem-normal-4x4.tbl").exists(), "the units were read, not a table built");
    let fresh = self::server();
    let from_table = fresh.ok("/api/dodgem/probe?size=4&moves=a2-b2").await;
    let strip = |mut body: Json| {
        body.as_object_mut().unwrap().remove("choice");
        body
    };
    assert_eq!(strip(from_units), strip(from_table));
    assert_eq!(summary, fresh.ok("/api/dodgem/summary?size=4").await);
}

#[tokio::test]
async fn dodgem_line_is_perfect_play_to_the_end() {
    let server = server();
    // Blue wins the 3x3 game in 19 plies: the line is 19 moves, each as fast as it can.
    let line = server.ok("/api/dodgem/line?size=3").await;
    let moves = line["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 19);
    assert_eq!(line["repeats"], false);
    for (ply, m) in moves.iter().enumerate() {
        let left = 19 - ply as u64;
        let expected = if ply % 2 == 0 { "win" } else { "loss" };
        assert_eq!((m["value"].as_str(), m["distance"].as_u64()), (Some(expected), Some(left)), "ply {ply}: {m}");
    }
    assert_eq!(moves[0]["move"], "a3-b3");
    // A drawn 4x4 game goes round: the line stops where a position comes back.
    let drawn = server.ok("/api/dodgem/line?size=4").await;
    assert_eq!(drawn["repeats"], true);
    assert!(drawn["moves"].as_array().unwrap().iter().all(|m| m["value"] == "draw"));
    server.refused("/api/dodgem/line?size=3&moves=a1-a2", "move 1").await;
}

#[tokio::test]
async fn dodgem_with_units_not_all_there_is_probed_from_its_table() {
    let server = server();
    let game = Dodgem::new(3, Objective::Normal).unwrap();
    // A solve by units that has written nothing yet: the table is built as usual.
    std::fs::create_dir_all(game.unit_files(&server.store).dir()).unwrap();
    let body = server.ok("/api/dodgem/probe?size=3").await;
    assert_eq!((body["value"].as_str(), body["distance"].as_u64()), (Some("win"), Some(19)));
    assert!(server.store.dir().join("dodgem-normal-3x3.tbl").exists());
}

/// A Dodgem table the web app builds for a page keeps what play needs and
/// not the reachable counts, which take ten times the solve on 5×5: the
/// page plays as soon as the values exist. The command line's solve of the
/// same table still gives them.
#[tokio::test]
async fn a_dodgem_table_built_for_a_page_leaves_the_reachable_walk_for_later() {
    let server = server();
    let probe = server.ok("/api/dodgem/probe?size=4").await;
    assert_eq!(probe["value"], "draw");
    let game = Dodgem::new(4, Objective::Normal).unwrap();
    let table = server.store.open::<solved_engine::table::Packed>(&solved_games::tables::Solvable::table_key(&game));
    let table = table.unwrap().expect("the page's request built the table");
    assert_eq!(table.header().fact("reachable"), None);
    assert!(table.header().fact("zugzwangs").is_some());
    let summary = server.ok("/api/dodgem/summary?size=4").await;
    assert_eq!(summary["mutual_zugzwang"], game.summary(&table).unwrap().mutual_zugzwang);
    let dir = tempfile::tempdir().unwrap();
    let full = obtain(&game, &TableStore::new(dir.path()), &Silent).unwrap().0;
    assert_eq!(game.summary(&full).unwrap().reachable, Some(game.reachable_in(&table, &Silent).unwrap()));
}
