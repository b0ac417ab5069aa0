//! Dodgem's commands: solve, probe, verify, play.

use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::StdRng;
use solved_engine::{DenseIndex, Value};
use solved_games::dodgem::{Dodgem, Move, Objective, Player, Position, RecordMove, Square};
use solved_games::player::choose;
use solved_games::registry::Game;
use solved_games::tables::Provenance;

use super::{open_table, provenance_words, verify_report};
use crate::args::Side;
use crate::config::Config;
use crate::json::{DodgemSolveJson, MoveJson, ProbeJson, RecordMoveJson, TallyJson};
use crate::progress::Bar;
use crate::text::{columns, thousands};

pub fn solve(config: &Config, game: &Dodgem, json: bool) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    let (table, provenance) = open_table(config, Game::Dodgem(game.clone()))?;
    let summary = game.summary(&table)?;
    let seconds = began.elapsed().as_secs_f64();
    let path = config.store.path(&game.table_key()).display().to_string();
    if json {
        let r = summary.reachable;
        let report = DodgemSolveJson {
            game: "dodgem",
            size: game.size(),
            variant: game.objective().id(),
            positions: summary.all.positions,
            wins: summary.all.wins,
            losses: summary.all.losses,
            draws: summary.all.draws,
            reachable: TallyJson { positions: r.positions, wins: r.wins, losses: r.losses, draws: r.draws },
            start: summary.start,
            max_win_distance: summary.max_win.map(|p| p.0),
            max_loss_distance: summary.max_loss.map(|p| p.0),
            mutual_zugzwang: summary.mutual_zugzwang,
            seconds,
            table: path,
            cached: provenance == Provenance::Cached,
        };
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    let how = provenance_words(provenance);
    println!("Dodgem {0}x{0} ({1}), {how} {path}", game.size(), game.objective().id());
    let tally = |t: solved_games::dodgem::Tally| {
        vec![thousands(t.positions), thousands(t.wins), thousands(t.losses), thousands(t.draws)]
    };
    let mut rows = vec![vec!["".into(), "positions".into(), "wins".into(), "losses".into(), "draws".into()]];
    rows.push([vec!["all (either side to move)".into()], tally(summary.all)].concat());
    rows.push([vec!["reachable from the start".into()], tally(summary.reachable)].concat());
    print!("{}", columns(&rows));
    println!("start position: {} ({})", summary.start, describe(summary.start));
    let longest = |p: Option<solved_engine::Plies>| p.map_or("none".into(), |p| format!("{p} plies"));
    println!("longest win: {}, longest loss: {}", longest(summary.max_win), longest(summary.max_loss));
    println!("placements lost for either side to move: {}", summary.mutual_zugzwang);
    println!("time: {seconds:.2} s");
    Ok(ExitCode::SUCCESS)
}

pub fn probe(config: &Config, game: &Dodgem, pos: &Position, json: bool) -> anyhow::Result<ExitCode> {
    let objective = game.objective();
    let (table, _) = open_table(config, Game::Dodgem(game.clone()))?;
    let value = game.probe(&table, pos);
    let moves = game.ranked_moves(pos, &table);
    if json {
        let report = ProbeJson {
            position: pos.to_string(),
            value,
            moves: moves
                .iter()
                .map(|(m, v, child)| MoveJson { m: m.to_string(), value: *v, position: child.to_string() })
                .collect(),
        };
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("{pos}  (Dodgem {0}x{0}, {1})", game.size(), objective.id());
    print!("{}", board(pos));
    println!("{} to move: {} ({})", pos.turn(), value, describe(value));
    if !moves.is_empty() {
        let mut rows = vec![vec!["move".into(), "value".into(), "position after".into()]];
        rows.extend(moves.iter().map(|(m, v, child)| vec![m.to_string(), v.to_string(), child.to_string()]));
        print!("{}", columns(&rows));
    }
    Ok(ExitCode::SUCCESS)
}

pub fn verify(config: &Config, json: bool) -> anyhow::Result<ExitCode> {
    let bar = Bar::new();
    let (claims, record) =
        solved_games::dodgem::verify(|game| open_table(config, Game::Dodgem(game.clone())).map(|(t, _)| t), &bar)?;
    drop(bar);
    if !json {
        print_record(&record);
    }
    verify_report("dodgem", &claims, record_json(&record), json)
}

fn record_json(record: &[RecordMove]) -> Vec<RecordMoveJson> {
    record
        .iter()
        .map(|m| RecordMoveJson {
            ply: m.ply,
            written: m.written.clone(),
            ours: m.ours.clone(),
            before: m.before.map(|p| p.to_string()),
            legal: m.before.map(|_| m.legal_as_written),
            value_before: m.value_before,
            value_after: m.value_after,
            drawing_moves: m.drawing_moves,
            problems: m.problems.clone(),
        })
        .collect()
}

fn print_record(record: &[RecordMove]) {
    println!("desJardins' 4x4 record (his transposed notation, then ours), replayed:");
    let mut rows = vec![
        ["ply", "his", "ours", "value before", "move value", "drawing moves", "problems"].map(String::from).to_vec(),
    ];
    for m in record {
        let show = |v: Option<Value>| v.map_or("-".into(), |v| v.to_string());
        let problems = if m.problems.is_empty() { "none".into() } else { m.problems.join("; ") };
        rows.push(vec![
            m.ply.to_string(),
            m.written.clone(),
            m.ours.clone(),
            show(m.value_before),
            show(m.value_after),
            m.drawing_moves.to_string(),
            problems,
        ]);
    }
    print!("{}", columns(&rows));
}

fn describe(value: Value) -> String {
    match value {
        Value::Win(d) => format!("the side to move wins in {d} plies"),
        Value::Loss(d) => format!("the side to move loses in {d} plies"),
        Value::Draw => "a draw with best play".into(),
    }
}

/// The board with coordinates, top rank first.
fn board(pos: &Position) -> String {
    let mut out = String::new();
    for rank in (0..pos.size()).rev() {
        out.push_str(&format!("  {} |", rank + 1));
        for file in 0..pos.size() {
            out.push_str(match pos.car_on(Square::new(file, rank)) {
                Some(Player::Blue) => " B",
                Some(Player::Red) => " R",
                None => " .",
            });
        }
        out.push('\n');
    }
    out.push_str("     ");
    for file in 0..pos.size() {
        out.push(' ');
        out.push(char::from(b'a' + file));
    }
    out.push('\n');
    out
}

pub fn play(config: &Config, game: &Dodgem, side: Side, hints: bool, seed: Option<u64>) -> anyhow::Result<ExitCode> {
    let (table, _) = open_table(config, Game::Dodgem(game.clone()))?;
    let human = match side {
        Side::Blue => Player::Blue,
        Side::Red => Player::Red,
    };
    let mut rng = StdRng::seed_from_u64(seed.unwrap_or_else(rand::random));
    let mut pos = game.start();
    let mut seen: HashMap<Position, u32> = HashMap::new();
    let mut input = std::io::stdin().lock();
    println!(
        "Dodgem {0}x{0} ({1}). You are {human}; Blue moves first. Blue moves right, up or down and leaves off the right edge; \
         Red moves up, left or right and leaves off the top. Type a move like a3-b3 or c3-off, 'hint', or 'quit'.",
        game.size(),
        game.objective().id()
    );
    loop {
        print!("\n{}", board(&pos));
        if let Some(outcome) = game.outcome(&pos) {
            announce(game, &pos, outcome);
            return Ok(ExitCode::SUCCESS);
        }
        let count = seen.entry(pos).or_insert(0);
        *count += 1;
        if *count == 3 {
            println!(
                "This position has now occurred three times: with best play from here the game is {}.",
                describe(table.probe(game.index(&pos)))
            );
        }
        let ranked = game.ranked_moves(&pos, &table);
        if pos.turn() != human {
            let values: Vec<Value> = ranked.iter().map(|r| r.1).collect();
            let (m, value, child) = ranked[choose(&values, &mut rng).expect("the game is not over")];
            println!("{} plays {m} ({value})", pos.turn());
            pos = child;
            continue;
        }
        if hints {
            show_hints(&ranked);
        }
        let chosen = loop {
            print!("{} to move> ", pos.turn());
            std::io::stdout().flush()?;
            let mut line = String::new();
            if input.read_line(&mut line)? == 0 {
                println!();
                return Ok(ExitCode::SUCCESS);
            }
            match line.trim() {
                "" => continue,
                "quit" | "q" | "exit" => return Ok(ExitCode::SUCCESS),
                "hint" | "hints" | "?" => show_hints(&ranked),
                text => match text
                    .parse::<Move>()
                    .map_err(|e| e.to_string())
                    .and_then(|m| game.play(&pos, m).map_err(|e| e.to_string()))
                {
                    Ok(child) => break child,
                    Err(error) => println!("{error}"),
                },
            }
        };
        pos = chosen;
    }
}

fn show_hints(ranked: &[(Move, Value, Position)]) {
    let hints: Vec<String> = ranked.iter().map(|(m, v, _)| format!("{m} {v}")).collect();
    println!("moves (best first): {}", hints.join(", "));
}

fn announce(game: &Dodgem, pos: &Position, outcome: Value) {
    let mover = pos.turn();
    let last = mover.other();
    let reason = if pos.cars(last).next().is_none() {
        format!("{last} has no cars left on the board")
    } else {
        format!("{mover} has no legal move")
    };
    let winner = if matches!(outcome, Value::Win(_)) { mover } else { last };
    let rules = match game.objective() {
        Objective::Normal => "",
        Objective::Misere => " (misère)",
    };
    println!("{reason}: {winner} wins{rules}.");
}
