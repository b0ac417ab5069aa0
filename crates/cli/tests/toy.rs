//! A game the registry does not know, defined here and nowhere else, driven
//! through the real command line and the real web router: what a new game
//! needs is its own folder and a line in `GAMES`, and nothing in `cli` or
//! `web`.
//!
//! The game is take-away: a pile of counters, each move takes one, two or
//! three, and whoever takes the last one wins. A pile of a multiple of four
//! is lost for the side to move.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use serde::Serialize;
use serde_json::Value as Json;
use solved_engine::table::Packed;
use solved_engine::{
    DenseIndex, Expansion, Plies, Progress, Rules, Solution, Table, TableKey, TableStore, Unit, Units, Value,
};
use solved_games::contest::{GAMES_PLAYED, LEVELS, match_params, play_match};
use solved_games::front::{self, Answer, Game, Host, Opponent, Playable};
use solved_games::info::{GameInfo, Operation, Supported};
use solved_games::levels::{Contest, LEVEL, Worth};
use solved_games::params::{Field, ParamError, Params, Rendered, SEED};
use solved_games::tables::{Cost, ObtainError, Solvable};
use tower::ServiceExt;

/// A pile of at most this many counters.
#[derive(Clone, Debug)]
struct Pile {
    counters: u64,
}

impl Rules for Pile {
    type Position = u64;

    fn terminal_value(&self, left: &u64) -> Option<Value> {
        (*left == 0).then_some(Value::Loss(Plies(0)))
    }

    fn for_each_child(&self, left: &u64, mut f: impl FnMut(u64)) {
        (1..=3.min(*left)).for_each(|take| f(left - take));
    }
}

impl DenseIndex for Pile {
    fn position_count(&self) -> u64 {
        self.counters + 1
    }

    fn index(&self, left: &u64) -> u64 {
        *left
    }

    fn unindex(&self, idx: u64) -> u64 {
        idx
    }
}

impl Units for Pile {
    fn units(&self) -> Vec<Unit> {
        // One unit: every move stays in it.
        vec![Unit { len: self.position_count(), depends_on: Vec::new() }]
    }

    fn locate(&self, left: &u64) -> (usize, u64) {
        (0, *left)
    }

    fn unindex_in_unit(&self, _: usize, idx: u64) -> u64 {
        idx
    }

    fn max_in_unit_moves(&self) -> u8 {
        3
    }

    fn expand(&self, _: usize, left: &u64, _: impl FnMut(usize, u64)) -> Expansion {
        match self.terminal_value(left) {
            Some(value) => Expansion::Terminal(value),
            None => Expansion::Moves { in_unit: 3.min(*left) as u8 },
        }
    }

    fn for_each_parent(&self, _: usize, left: &u64, mut f: impl FnMut(u64, u64)) {
        (1..=3).map(|take| left + take).filter(|&parent| parent <= self.counters).for_each(|p| f(p, p));
    }
}

impl Solvable for Pile {
    type Encoding = Packed;
    type Solution = Solution;

    fn table_key(&self) -> TableKey {
        TableKey {
            game: "take-away".into(),
            variant: "normal".into(),
            size: self.counters.to_string(),
            index_version: 1,
            positions: self.position_count(),
        }
    }

    fn cost(&self) -> Cost {
        Cost { seconds: 0.0, bytes: self.position_count() }
    }

    fn solve(&self, progress: &dyn Progress) -> Result<Solution, ObtainError> {
        Ok(solved_engine::retrograde::solve(self, progress)?)
    }
}

const COUNTERS: Field = Field::value("counters", "N", "Counters in the pile (1 to 40)").required();
const LEFT: Field = Field::value("left", "N", "Counters left [default: the whole pile]");
const PILE: [Field; 1] = [COUNTERS];

const INFO: GameInfo = GameInfo {
    id: "take-away",
    name: "Take-away",
    about: "take one, two or three counters; the last one wins",
    pitch: "A pile of counters: take one, two or three, and take the last to win.",
    fields: &PILE,
    operations: &[
        Supported { operation: Operation::Solve, about: "Take-away", fields: &PILE, served: Some("summary") },
        Supported { operation: Operation::Probe, about: "Take-away", fields: &[COUNTERS, LEFT], served: Some("probe") },
        Supported { operation: Operation::Play, about: "Take-away", fields: &[COUNTERS, LEVEL], served: None },
        Supported {
            operation: Operation::Match,
            about: "Take-away",
            fields: &[COUNTERS, LEVELS, GAMES_PLAYED, SEED],
            served: None,
        },
    ],
};

fn pile(params: &Params) -> Result<Pile, ParamError> {
    let counters = params.required("counters", params.number::<u64>("counters")?)?;
    if !(1..=40).contains(&counters) {
        return Err(ParamError::Combination("a pile has 1 to 40 counters"));
    }
    Ok(Pile { counters })
}

fn table(pile: &Pile, host: &dyn Host) -> anyhow::Result<Arc<Table<Packed>>> {
    let command = INFO.command_line(Operation::Solve, &TakeAway.board_of(pile));
    Ok(host.table(INFO.name, pile, command)?.0)
}

/// Every move from `left`, best first, with its value for the mover.
fn ranked(table: &Table<Packed>, left: u64) -> Vec<(u64, Value)> {
    let mut moves: Vec<(u64, Value)> =
        (1..=3.min(left)).map(|take| (take, Value::of_move_into(table.probe(left - take)))).collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.1));
    moves
}

#[derive(Serialize)]
struct Solved {
    counters: u64,
    positions: u64,
    wins: u64,
    losses: u64,
    start: Value,
}

impl Answer for Solved {
    fn text(&self) -> String {
        format!("{} counters: {} positions, the start {}\n", self.counters, self.positions, self.start)
    }
}

#[derive(Serialize)]
struct Probed {
    left: u64,
    #[serde(flatten)]
    value: Value,
    moves: BTreeMap<String, Value>,
}

impl Answer for Probed {
    fn text(&self) -> String {
        format!("{} left: {}\n", self.left, self.value)
    }
}

/// Take-away as the computer's levels see it: the counters left, and
/// whether the side that moved first is to move.
struct Judge {
    table: Arc<Table<Packed>>,
    counters: u64,
}

impl Contest for Judge {
    type Position = (u64, bool);

    fn start(&self) -> (u64, bool) {
        (self.counters, true)
    }

    fn first_to_move(&self, pos: &(u64, bool)) -> bool {
        pos.1
    }

    fn moves(&self, &(left, first): &(u64, bool)) -> anyhow::Result<Vec<(Worth, (u64, bool))>> {
        Ok(ranked(&self.table, left).into_iter().map(|(take, v)| (Worth::of_value(v), (left - take, !first))).collect())
    }

    /// Whoever is to move at an empty pile has lost.
    fn final_score(&self, &(_, first): &(u64, bool)) -> i32 {
        if first { -1 } else { 1 }
    }
}

/// A game of take-away against the computer, who moves second.
struct Match {
    judge: Judge,
}

impl Playable for Match {
    type Judge = Judge;

    fn judge(&self) -> &Judge {
        &self.judge
    }

    fn intro(&self) -> String {
        format!("{} counters; take 1, 2 or 3", self.judge.counters)
    }

    fn hinted(&self) -> bool {
        false
    }

    fn show(&self, &(left, _): &(u64, bool), _: bool, _: u32) -> anyhow::Result<String> {
        Ok(format!("{left} left\n"))
    }

    fn result(&self, &(left, player): &(u64, bool)) -> Option<String> {
        (left == 0).then(|| if player { "The computer wins.".into() } else { "You win.".into() })
    }

    fn is_players_turn(&self, pos: &(u64, bool)) -> bool {
        pos.1
    }

    fn said(&self, &(left, _): &(u64, bool), &(next, _): &(u64, bool)) -> anyhow::Result<String> {
        Ok(format!("the computer takes {}", left - next))
    }

    fn hints(&self, &(left, _): &(u64, bool)) -> anyhow::Result<String> {
        Ok(format!("{:?}", ranked(&self.judge.table, left)))
    }

    fn prompt(&self, _: &(u64, bool)) -> String {
        "take> ".into()
    }

    fn play(&self, &(left, _): &(u64, bool), text: &str) -> Result<(u64, bool), String> {
        match text.parse::<u64>() {
            Ok(take) if (1..=3.min(left)).contains(&take) => Ok((left - take, false)),
            _ => Err(format!("take 1 to {}", 3.min(left))),
        }
    }
}

#[derive(Debug)]
struct TakeAway;

impl TakeAway {
    fn board_of(&self, pile: &Pile) -> Rendered {
        vec![("counters", pile.counters.to_string())]
    }
}

impl Game for TakeAway {
    fn info(&self) -> &'static GameInfo {
        &INFO
    }

    fn board(&self, params: &Params) -> Result<Rendered, ParamError> {
        Ok(self.board_of(&pile(params)?))
    }

    fn answer(&self, operation: Operation, params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn Answer>> {
        let pile = pile(params)?;
        let table = table(&pile, host)?;
        Ok(match operation {
            Operation::Solve => {
                let tally = table.header().tally;
                let start = table.probe(pile.counters);
                Box::new(Solved {
                    counters: pile.counters,
                    positions: tally.positions(),
                    wins: tally.wins,
                    losses: tally.losses,
                    start,
                })
            }
            Operation::Probe => {
                let left = params.number::<u64>("left")?.unwrap_or(pile.counters).min(pile.counters);
                let moves = ranked(&table, left).into_iter().map(|(take, v)| (format!("take {take}"), v)).collect();
                Box::new(Probed { left, value: table.probe(left), moves })
            }
            Operation::Match => {
                let (levels, games, seed) = match_params(params)?;
                let judge = Judge { table, counters: pile.counters };
                Box::new(play_match(&judge, format!("{} counters", pile.counters), levels, games, seed)?)
            }
            _ => anyhow::bail!("take-away has no {} command", operation.name()),
        })
    }

    fn session(&self, params: &Params, host: &dyn Host) -> anyhow::Result<Box<dyn front::Session>> {
        let pile = pile(params)?;
        let judge = Judge { table: table(&pile, host)?, counters: pile.counters };
        Ok(front::session(Match { judge }, Opponent::from_params(params)?))
    }
}

static GAMES: [&dyn Game; 1] = [&TakeAway];

/// What `solved ARGS` prints, given `input`, with its exit status.
fn solved(dir: &std::path::Path, args: &[&str], input: &str) -> (String, std::process::ExitCode) {
    let mut line = vec!["solved".into(), "--data-dir".into(), dir.as_os_str().to_owned()];
    line.extend(args.iter().map(Into::into));
    let mut output = Vec::new();
    let code = solved_cli::main(line, &GAMES, &mut input.as_bytes(), &mut output);
    (String::from_utf8(output).unwrap(), code)
}

fn json(dir: &std::path::Path, args: &[&str]) -> Json {
    let (text, code) = solved(dir, args, "");
    assert_eq!(code, std::process::ExitCode::SUCCESS, "{args:?}: {text}");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{args:?} printed {text:?}: {e}"))
}

#[test]
fn a_game_defined_outside_the_tool_is_solved_probed_and_played_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let solve = json(dir.path(), &["solve", "take-away", "--counters", "21", "--json"]);
    assert_eq!(solve["positions"], 22);
    assert_eq!((solve["wins"].as_u64(), solve["losses"].as_u64()), (Some(16), Some(6)));
    assert_eq!(solve["start"], serde_json::json!({"value": "win", "distance": 11}));
    let probe = json(dir.path(), &["probe", "take-away", "--counters", "21", "--left", "6", "--json"]);
    assert_eq!(probe["value"], "win");
    assert_eq!(probe["moves"]["take 2"]["value"], "win", "6 - 2 leaves a multiple of four: {probe}");
    assert_eq!(probe["moves"]["take 1"]["value"], "loss");
    let (text, _) = solved(dir.path(), &["probe", "take-away", "--counters", "21", "--left", "6"], "");
    assert_eq!(text, "6 left: W3\n");
    // 21 counters: the player takes 1, leaving 20, and the computer can
    // only lose; one more move each, and a bad move is refused.
    let (text, code) = solved(dir.path(), &["play", "take-away", "--counters", "21"], "1\n4\n2\nquit\n");
    assert_eq!(code, std::process::ExitCode::SUCCESS);
    assert!(text.contains("21 left\n") && text.contains("\n20 left\nthe computer takes"), "{text}");
    assert!(text.contains("take 1 to 3"), "the move 4 is refused: {text}");
    assert!(text.contains("take> A best move.\n"), "the player's move is marked: {text}");
    // A game ends with the marks of every move the player made.
    let (text, _) = solved(dir.path(), &["play", "take-away", "--counters", "1", "--level", "random"], "1\n");
    assert!(text.contains("level random: Plays any legal move at random"), "{text}");
    assert!(text.ends_with("You win.\nYour moves: 1 best.\n"), "{text}");
    // The perfect player wins every game the pile gives it; a random one
    // wins some by luck.
    let matched = json(
        dir.path(),
        &["match", "take-away", "--counters", "21", "--levels", "random,perfect", "--games", "50", "--json"],
    );
    assert_eq!(matched["first"]["level"], "random");
    assert_eq!(matched["second"]["moving_first"], serde_json::json!({"wins": 25, "draws": 0, "losses": 0}));
    assert_eq!(matched["levels_available"], serde_json::json!(["random", "casual", "strong", "perfect"]));
    let again = json(
        dir.path(),
        &["match", "take-away", "--counters", "21", "--levels", "random,perfect", "--games", "50", "--json"],
    );
    assert_eq!(matched, again, "a match is seeded");
    let (_, code) = solved(dir.path(), &["probe", "take-away", "--counters", "99"], "");
    assert_eq!(code, std::process::ExitCode::from(2), "a bad parameter is refused by the game's parser");
}

#[tokio::test]
async fn the_same_game_is_served_with_the_same_answers() {
    let dir = tempfile::tempdir().unwrap();
    let state = solved_web::AppState::new(TableStore::new(dir.path())).with_games(&GAMES);
    let app = solved_web::router(state);
    let get = |uri: &str| {
        let request = Request::builder().uri(uri).body(Body::empty()).unwrap();
        let app = app.clone();
        async move {
            let response = app.oneshot(request).await.unwrap();
            let status = response.status();
            let bytes = response.into_body().collect().await.unwrap().to_bytes();
            (status, serde_json::from_slice::<Json>(&bytes).unwrap_or(Json::Null))
        }
    };
    let (status, games) = get("/api/games").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(games, serde_json::json!([{"id": "take-away", "name": "Take-away", "about": INFO.about}]));
    let (status, probe) = get("/api/take-away/probe?counters=21&left=6").await;
    assert_eq!(status, StatusCode::OK, "{probe}");
    assert_eq!(probe, json(dir.path(), &["probe", "take-away", "--counters", "21", "--left", "6", "--json"]));
    let (status, summary) = get("/api/take-away/summary?counters=8").await;
    assert_eq!(status, StatusCode::OK, "{summary}");
    assert_eq!(summary["start"], serde_json::json!({"value": "loss", "distance": 4}));
    let (status, refused) = get("/api/take-away/probe?counters=99").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(refused["error"].as_str().unwrap().contains("1 to 40"), "{refused}");
    let (status, _) = get("/api/dodgem/probe?size=3").await;
    assert_eq!(status, StatusCode::NOT_FOUND, "only the games given are served");
}
