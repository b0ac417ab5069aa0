//! Tic-Tac-Chec's commands: census, solve, probe, audit, report.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Context;
use solved_engine::compact::CompactBuilder;
use solved_engine::{DenseIndex, Table, audit as audit_values};
use solved_games::registry::Game;
use solved_games::tables::Provenance;
use solved_games::tic_tac_chec::{
    OPENING_POSITIONS, PawnRule, PhaseTally, Position, Reference, TicTacChec, census as count, compare_variants,
};

use super::bench::peak_memory_bytes;
use super::{open_table, provenance_words, verify_report};
use crate::args::ReportSection;
use crate::config::Config;
use crate::json::{
    AuditJson, CensusJson, ChecSolveJson, CompactJson, DrawingLineJson, HistogramJson, LineMoveJson, MoveJson,
    PhaseJson, PlyJson, ProbeJson, ReplyCountJson, ReportJson, ThreatJson, VariantExampleJson, VariantsJson,
};
use crate::progress::Bar;
use crate::text::{columns, thousands};

pub fn census(game: &TicTacChec, json: bool) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    let census = count(game, &Bar::new())?;
    let seconds = began.elapsed().as_secs_f64();
    if json {
        let report = CensusJson {
            game: "tic-tac-chec",
            pawn: game.rule().id(),
            positions: census.positions,
            edges: census.edges,
            terminal: census.terminal,
            no_move: census.stuck,
            max_moves: census.max_moves,
            opening_positions: OPENING_POSITIONS,
            seconds,
        };
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("Tic-Tac-Chec, pawn rule {}: the post-opening domain (White to move)", game.rule().id());
    println!("positions: {}", thousands(census.positions));
    println!("successor edges: {}", thousands(census.edges));
    println!("terminal positions (a line complete): {}", thousands(census.terminal));
    println!("non-terminal positions with no legal move: {}", thousands(census.stuck));
    println!("most legal moves in one position: {}", census.max_moves);
    println!("opening positions (plies 0 to 5): {}", thousands(OPENING_POSITIONS));
    println!("time: {seconds:.1} s");
    Ok(ExitCode::SUCCESS)
}

fn phase(tally: &PhaseTally) -> PhaseJson {
    PhaseJson {
        positions: tally.positions,
        wins: tally.wins,
        losses: tally.losses,
        draws: tally.draws,
        max_win_distance: tally.max_win,
        max_loss_distance: tally.max_loss,
    }
}

pub fn solve(config: &Config, game: &TicTacChec, json: bool) -> anyhow::Result<ExitCode> {
    let began = Instant::now();
    let (table, provenance) = open_table(config, Game::TicTacChec(game.clone()))?;
    let summary = game.summary(&table);
    let seconds = began.elapsed().as_secs_f64();
    let path = config.store.path(&game.table_key()).display().to_string();
    if json {
        let mut histogram = Vec::new();
        for (distance, counts) in summary.histogram.iter().enumerate() {
            for (result, post, opening) in [("win", counts[0], counts[2]), ("loss", counts[1], counts[3])] {
                if post + opening > 0 {
                    histogram.push(HistogramJson { distance, result, post_opening: post, opening });
                }
            }
        }
        let report = ChecSolveJson {
            game: "tic-tac-chec",
            pawn: game.rule().id(),
            post_opening: phase(&summary.post_opening),
            opening: phase(&summary.opening),
            opening_plies: summary
                .opening_plies
                .iter()
                .enumerate()
                .map(|(ply, t)| PlyJson { ply, positions: t.positions, wins: t.wins, losses: t.losses, draws: t.draws })
                .collect(),
            distance_histogram: histogram,
            start: summary.start,
            seconds,
            peak_memory_bytes: peak_memory_bytes(),
            table: path,
            cached: provenance == Provenance::Cached,
        };
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    let how = provenance_words(provenance);
    println!("Tic-Tac-Chec ({} pawns), {how} {path}", game.rule().id());
    let mut rows =
        vec![["", "positions", "wins", "losses", "draws", "longest win", "longest loss"].map(String::from).to_vec()];
    let longest = |d: Option<u16>| d.map_or("-".into(), |d| d.to_string());
    let mut row = |name: String, t: &PhaseTally| {
        rows.push(vec![
            name,
            thousands(t.positions),
            thousands(t.wins),
            thousands(t.losses),
            thousands(t.draws),
            longest(t.max_win),
            longest(t.max_loss),
        ])
    };
    row("after the opening (White to move)".into(), &summary.post_opening);
    row("the opening (plies 0-5)".into(), &summary.opening);
    for (ply, t) in summary.opening_plies.iter().enumerate() {
        row(format!("  ply {ply}"), t);
    }
    print!("{}", columns(&rows));
    println!("empty board: {}", summary.start);
    println!("time: {seconds:.1} s");
    Ok(ExitCode::SUCCESS)
}

/// The compact copy if it has been made, else the full table (solved if
/// need be).
fn open_for_probing(config: &Config, game: &TicTacChec) -> anyhow::Result<Table> {
    match config.store.open(&game.compact_key())? {
        Some(compact) => Ok(compact),
        None => Ok(open_table(config, Game::TicTacChec(game.clone()))?.0),
    }
}

pub fn probe(config: &Config, game: &TicTacChec, text: &str, json: bool) -> anyhow::Result<ExitCode> {
    let pos: Position = text.parse().with_context(|| format!("invalid position {text:?}"))?;
    let table = open_for_probing(config, game)?;
    let value = table.probe(game.positions().index(&pos));
    let moves = game.ranked_moves(&pos, &table);
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
    println!("{pos}  (Tic-Tac-Chec, {} pawns)", game.rule().id());
    println!("{} to move: {value}", pos.turn());
    let mut rows = vec![["move", "value", "position after"].map(String::from).to_vec()];
    rows.extend(moves.iter().map(|(m, v, child)| vec![m.to_string(), v.to_string(), child.to_string()]));
    if moves.is_empty() {
        println!("the game is over");
    } else {
        print!("{}", columns(&rows));
    }
    Ok(ExitCode::SUCCESS)
}

pub fn audit(config: &Config, game: &TicTacChec, json: bool) -> anyhow::Result<ExitCode> {
    let (table, _) = open_table(config, Game::TicTacChec(game.clone()))?;
    let began = Instant::now();
    let reference = Reference(game);
    let report = audit_values(&reference, &table, |pos| game.positions().index(pos), &Bar::new())?;
    let seconds = began.elapsed().as_secs_f64();
    let examples: Vec<String> = report
        .examples
        .iter()
        .map(|d| format!("{}: stored {}, children say {}", reference.unindex(d.idx), d.stored, d.implied))
        .collect();
    if json {
        let out = AuditJson {
            game: "tic-tac-chec",
            pawn: game.rule().id(),
            checked: report.checked,
            disagreements: report.disagreements,
            examples,
            seconds,
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!(
            "Tic-Tac-Chec ({} pawns): {} positions checked against their children (plain rules), {} disagree; {seconds:.0} s",
            game.rule().id(),
            thousands(report.checked),
            thousands(report.disagreements)
        );
        for example in &examples {
            println!("  {example}");
        }
    }
    Ok(if report.disagreements == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

pub fn compact(config: &Config, game: &TicTacChec, json: bool) -> anyhow::Result<ExitCode> {
    let (table, _) = open_table(config, Game::TicTacChec(game.clone()))?;
    let began = Instant::now();
    let compact = CompactBuilder::new(&table).context("cannot make the compact copy")?;
    compact.verify(&table).context("the compact copy does not match the table")?;
    let key = game.compact_key();
    let path = config.store.save(&key, &[], &compact)?;
    // Read back through the file, as probe will.
    let saved = config.store.open(&key)?.context("the compact copy vanished")?;
    compact.verify(&saved).context("the saved compact copy does not match the table")?;
    let seconds = began.elapsed().as_secs_f64();
    let counts = saved.header().counts;
    let table_bytes = std::fs::metadata(config.store.path(&game.table_key()))?.len();
    let compact_bytes = std::fs::metadata(&path)?.len();
    if json {
        let report = CompactJson {
            game: "tic-tac-chec",
            pawn: game.rule().id(),
            positions: saved.len(),
            decisive: counts.wins + counts.losses,
            table_bytes,
            compact_bytes,
            verified: true,
            seconds,
            path: path.display().to_string(),
        };
        println!("{}", serde_json::to_string_pretty(&report)?);
    } else {
        println!(
            "compact copy: {} ({:.0} MiB, from {:.0} MiB), {} decisive positions, every entry checked against the table; {seconds:.1} s",
            path.display(),
            compact_bytes as f64 / (1 << 20) as f64,
            table_bytes as f64 / (1 << 20) as f64,
            thousands(counts.wins + counts.losses)
        );
    }
    Ok(ExitCode::SUCCESS)
}

pub fn report(config: &Config, game: &TicTacChec, sections: &[ReportSection], json: bool) -> anyhow::Result<ExitCode> {
    let table = open_for_probing(config, game)?;
    let mut report =
        ReportJson { game: "tic-tac-chec", pawn: game.rule().id(), drawing_line: None, threats: None, variants: None };
    if sections.contains(&ReportSection::Line) {
        let line = game.drawing_line(&table)?;
        report.drawing_line = Some(DrawingLineJson {
            moves: line
                .moves
                .iter()
                .enumerate()
                .map(|(i, (m, pos))| LineMoveJson { ply: i + 1, m: m.to_string(), position: pos.to_string() })
                .collect(),
            cycle_start: line.cycle_start,
        });
    }
    if sections.contains(&ReportSection::Threats) {
        let census = game.threat_census(&table, &Bar::new())?;
        report.threats = Some(ThreatJson {
            positions: census.positions,
            mover_can_win_at_once: census.mover_threat,
            opponent_could_win_at_once: census.opponent_threat,
            drawing_replies: census
                .drawing_replies
                .iter()
                .enumerate()
                .filter(|(_, n)| **n > 0)
                .map(|(replies, &positions)| ReplyCountJson { replies, positions })
                .collect(),
        });
    }
    if sections.contains(&ReportSection::Variants) {
        let other_rule = match game.rule() {
            PawnRule::Travel => PawnRule::Outbound,
            PawnRule::Outbound => PawnRule::Travel,
        };
        let other = TicTacChec::new(other_rule);
        let other_table = open_for_probing(config, &other)?;
        let (travel, outbound) = match game.rule() {
            PawnRule::Travel => ((game, &table), (&other, &other_table)),
            PawnRule::Outbound => ((&other, &other_table), (game, &table)),
        };
        let comparison = compare_variants(travel, outbound, &Bar::new())?;
        report.variants = Some(VariantsJson {
            positions: comparison.positions,
            positions_with_more_moves_under_travel: comparison.positions_with_more_moves,
            extra_moves_under_travel: comparison.extra_moves,
            positions_with_different_values: comparison.different_values,
            examples: comparison
                .examples
                .iter()
                .map(|(pos, a, b)| VariantExampleJson { position: pos.to_string(), travel: *a, outbound: *b })
                .collect(),
        });
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&report)?);
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(line) = &report.drawing_line {
        println!("A drawing line from the empty board (always the first drawing move), until a position comes round:");
        for m in &line.moves {
            println!("  {:>3}. {:<6} {}", m.ply, m.m, m.position);
        }
        println!("  the position after ply {} comes round again", line.cycle_start);
    }
    if let Some(t) = &report.threats {
        println!("Threats, over {} positions after the opening without a complete line:", thousands(t.positions));
        println!("  the side to move can complete a line at once: {}", thousands(t.mover_can_win_at_once));
        println!("  the other side could, were it its turn: {}", thousands(t.opponent_could_win_at_once));
        for r in &t.drawing_replies {
            println!("  drawn, threatened, with {} drawing replies: {}", r.replies, thousands(r.positions));
        }
    }
    if let Some(v) = &report.variants {
        println!("Travel against outbound pawns, over {} positions:", thousands(v.positions));
        println!(
            "  {} positions have more moves under travel ({} extra moves); {} have another value",
            thousands(v.positions_with_more_moves_under_travel),
            thousands(v.extra_moves_under_travel),
            thousands(v.positions_with_different_values)
        );
        for e in &v.examples {
            println!("  {}: travel {}, outbound {}", e.position, e.travel, e.outbound);
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub fn verify(config: &Config, json: bool) -> anyhow::Result<ExitCode> {
    let game = TicTacChec::new(PawnRule::Travel);
    let table = open_for_probing(config, &game)?;
    let claims = solved_games::tic_tac_chec::verify(&game, &table, &Bar::new())?;
    verify_report("tic-tac-chec", &claims, Vec::new(), json)
}
