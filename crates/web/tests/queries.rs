//! Query strings at random, to every endpoint of every game: each is
//! answered (or refused with a reason), never with a server error. The
//! server builds no table here, so that a fuzzed board size costs nothing.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use proptest::prelude::*;
use solved_engine::TableStore;
use solved_games::registry::GAMES;
use solved_web::AppState;
use tower::ServiceExt;

/// Every endpoint a game serves.
fn endpoints() -> Vec<String> {
    GAMES
        .iter()
        .flat_map(|g| {
            g.info().operations.iter().filter_map(|op| op.served).map(|path| format!("/api/{}/{path}", g.info().id))
        })
        .collect()
}

/// A query string: pairs made of the parameters' names and plausible
/// values, or any text.
fn query() -> impl Strategy<Value = String> {
    let names =
        ["size", "misere", "position", "moves", "rows", "cols", "variant", "board", "goal", "jumps", "pawn", "x"];
    let pair = (proptest::sample::select(names.to_vec()), "[0-9a-zA-Z.,:/ %&=+-]{0,16}");
    prop_oneof![
        proptest::collection::vec(pair, 0..4).prop_map(|pairs| pairs
            .iter()
            .map(|(n, v)| format!("{n}={v}"))
            .collect::<Vec<_>>()
            .join("&")),
        "[ -~]{0,64}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_query_string_makes_a_server_error(at in 0usize..64, query in query()) {
        let dir = tempfile::tempdir().unwrap();
        let app = solved_web::router(AppState::new(TableStore::new(dir.path())).with_budget(solved_web::Budget { positions: 0, ..Default::default() }));
        let endpoints = endpoints();
        let uri = format!("{}?{}", endpoints[at % endpoints.len()], query.replace(' ', "%20"));
        let Ok(request) = Request::builder().uri(&uri).body(Body::empty()) else { return Ok(()) };
        let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
        let (status, body) = runtime.block_on(async {
            let response = app.oneshot(request).await.unwrap();
            let status = response.status();
            (status, response.into_body().collect().await.unwrap().to_bytes())
        });
        prop_assert!(!status.is_server_error() || status == StatusCode::SERVICE_UNAVAILABLE, "{uri}: {status}");
        let json: serde_json::Value = serde_json::from_slice(&body).unwrap_or_else(|e| panic!("{uri}: {e}"));
        prop_assert!(status.is_success() || json["error"].is_string(), "{uri}: {json}");
    }
}
