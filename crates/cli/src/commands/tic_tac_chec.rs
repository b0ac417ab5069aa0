//! Tic-Tac-Chec's commands: census, solve, probe, verify, bench, audit,
//! compact, report.

use std::fmt::Write;
use std::process::ExitCode;
use std::str::FromStr;
use std::time::Instant;

use anyhow::Context;
use solved_engine::compact::{Compact, CompactBuilder};
use solved_engine::table::Packed;
use solved_engine::{DenseIndex, Plies, Table, audit as audit_values};
use solved_games::params::{ParamError, quote};
use solved_games::registry::{Game, Kind, Operation, command_line};
use solved_games::tables::{Provenance, Solvable};
use solved_games::tic_tac_chec::{
    self, OPENING_POSITIONS, PawnRule, PhaseSummary, Position, ProbeValues, Reference, TicTacChec, census as count,
    compare_variants,
};

use super::bench::{self, peak_memory_bytes};
use super::{Request, open_table, provenance_words, unsupported, verify_report};
use crate::config::Config;
use crate::json::{
    AuditJson, CensusJson, ChecSolveJson, CompactJson, DrawingLineJson, HistogramJson, LineMoveJson, PhaseJson,
    PlyJson, ProbeJson, ReplyCountJson, ReportJson, ThreatJson, TransitionsJson, VariantExampleJson, VariantsJson,
};
use crate::output;
use crate::progress::Bar;
use crate::text::{columns, thousands};

pub(super) fn run(request: &Request) -> anyhow::Result<ExitCode> {
    if request.operation == Operation::Verify {
        return verify(request);
    }
    let game = TicTacChec::from_params(request.params)?;
    match request.operation {
        Operation::Solve => solve(request, &game),
        Operation::Probe => probe(request, &game),
        Operation::Bench => bench::bench(&Game::TicTacChec(game), request),
        Operation::Audit => audit(request, &game),
        Operation::Compact => compact(request, &game),
        Operation::Report => report(request, &game),
        Operation::Census => census(request, &game),
        _ => unsupported(request, Kind::TicTacChec),
    }
}

/// The table of `game`; `solving` when the solve is what was asked for.
fn table(config: &Config, game: &TicTacChec, solving: bool) -> anyhow::Result<(Table<Packed>, Provenance)> {
    let command = (!solving).then(|| command_line(Operation::Solve, &Game::TicTacChec(game.clone())));
    open_table(config, tic_tac_chec::INFO.name, game, command)
}

/// A part of the report.
#[derive(Copy, Clone, Debug, Eq, PartialEq)]
enum Section {
    /// A deterministic drawing line from the empty board until it repeats.
    Line,
    /// How often a side can win at once, and the defences.
    Threats,
    /// How the two pawn rules differ (needs both tables).
    Variants,
}

impl FromStr for Section {
    type Err = ParamError;

    fn from_str(text: &str) -> Result<Section, ParamError> {
        match text {
            "line" => Ok(Section::Line),
            "threats" => Ok(Section::Threats),
            "variants" => Ok(Section::Variants),
            _ => Err(ParamError::Invalid {
                name: "sections",
                value: quote(text),
                source: "expected line, threats or variants".into(),
            }),
        }
    }
}

fn census(request: &Request, game: &TicTacChec) -> anyhow::Result<ExitCode> {
    let json = request.json;
    let began = Instant::now();
    let census = count(game, &Bar::new())?;
    let seconds = began.elapsed().as_secs_f64();
    if json {
        let report = CensusJson {
            game: tic_tac_chec::INFO.id,
            pawn: game.rule().id(),
            positions: census.positions,
            edges: census.edges,
            terminal: census.terminal,
            no_move: census.stuck,
            max_moves: census.max_moves,
            opening_positions: OPENING_POSITIONS,
            seconds,
        };
        output::json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    writeln!(text, "Tic-Tac-Chec, pawn rule {}: the post-opening domain (White to move)", game.rule().id())?;
    writeln!(text, "positions: {}", thousands(census.positions))?;
    writeln!(text, "successor edges: {}", thousands(census.edges))?;
    writeln!(text, "terminal positions (a line complete): {}", thousands(census.terminal))?;
    writeln!(text, "non-terminal positions with no legal move: {}", thousands(census.stuck))?;
    writeln!(text, "most legal moves in one position: {}", census.max_moves)?;
    writeln!(text, "opening positions (plies 0 to 5): {}", thousands(OPENING_POSITIONS))?;
    writeln!(text, "time: {seconds:.1} s")?;
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn phase(phase: &PhaseSummary) -> PhaseJson {
    PhaseJson {
        positions: phase.tally.positions(),
        wins: phase.tally.wins,
        losses: phase.tally.losses,
        draws: phase.tally.draws,
        max_win_distance: phase.longest_win.map(|p| p.0),
        max_loss_distance: phase.longest_loss.map(|p| p.0),
    }
}

fn solve(request: &Request, game: &TicTacChec) -> anyhow::Result<ExitCode> {
    let (config, json) = (request.config, request.json);
    let began = Instant::now();
    let (table, provenance) = table(config, game, true)?;
    let summary = game.summary(&table);
    let seconds = began.elapsed().as_secs_f64();
    let path = config.store.path::<Packed>(&game.table_key()).display().to_string();
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
            game: tic_tac_chec::INFO.id,
            pawn: game.rule().id(),
            post_opening: phase(&summary.post_opening),
            opening: phase(&summary.opening),
            opening_plies: summary
                .opening_plies
                .iter()
                .enumerate()
                .map(|(ply, t)| PlyJson {
                    ply,
                    positions: t.tally.positions(),
                    wins: t.tally.wins,
                    losses: t.tally.losses,
                    draws: t.tally.draws,
                })
                .collect(),
            distance_histogram: histogram,
            start: summary.start,
            seconds,
            peak_memory_bytes: peak_memory_bytes(),
            table: path,
            cached: provenance == Provenance::Cached,
        };
        output::json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let how = provenance_words(provenance);
    let mut text = String::new();
    writeln!(text, "Tic-Tac-Chec ({} pawns), {how} {path}", game.rule().id())?;
    let mut rows =
        vec![["", "positions", "wins", "losses", "draws", "longest win", "longest loss"].map(String::from).to_vec()];
    let longest = |d: Option<Plies>| d.map_or("-".into(), |d| d.to_string());
    let mut row = |name: String, t: &PhaseSummary| {
        rows.push(vec![
            name,
            thousands(t.tally.positions()),
            thousands(t.tally.wins),
            thousands(t.tally.losses),
            thousands(t.tally.draws),
            longest(t.longest_win),
            longest(t.longest_loss),
        ])
    };
    row("after the opening (White to move)".into(), &summary.post_opening);
    row("the opening (plies 0-5)".into(), &summary.opening);
    for (ply, t) in summary.opening_plies.iter().enumerate() {
        row(format!("  ply {ply}"), t);
    }
    text.push_str(&columns(&rows));
    writeln!(text, "empty board: {}", summary.start)?;
    writeln!(text, "time: {seconds:.1} s")?;
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

/// The compact copy if it has been made, else the full table (solved if
/// need be).
fn open_for_probing(config: &Config, game: &TicTacChec) -> anyhow::Result<ProbeValues> {
    match game.open_for_probing(&config.store)? {
        Some(values) => Ok(values),
        None => Ok(ProbeValues::Full(table(config, game, false)?.0)),
    }
}

fn probe(request: &Request, game: &TicTacChec) -> anyhow::Result<ExitCode> {
    let pos = request.params.parsed::<Position>("position")?.unwrap_or_else(Position::empty);
    let table = open_for_probing(request.config, game)?;
    let value = solved_engine::Values::probe(&table, game.positions().index(&pos));
    let moves = game.ranked_moves(&pos, &table);
    if request.json {
        output::json(&ProbeJson::new(&pos, &pos.turn(), value, &moves))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    writeln!(text, "{pos}  (Tic-Tac-Chec, {} pawns)", game.rule().id())?;
    writeln!(text, "{} to move: {value}", pos.turn())?;
    let mut rows = vec![["move", "value", "position after"].map(String::from).to_vec()];
    rows.extend(moves.iter().map(|(m, v, child)| vec![m.to_string(), v.to_string(), child.to_string()]));
    if moves.is_empty() {
        text.push_str("the game is over\n");
    } else {
        text.push_str(&columns(&rows));
    }
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn audit(request: &Request, game: &TicTacChec) -> anyhow::Result<ExitCode> {
    let (table, _) = table(request.config, game, false)?;
    let began = Instant::now();
    let reference = Reference(game);
    let report = audit_values(&reference, &table, |pos| game.positions().index(pos), &Bar::new())?;
    let seconds = began.elapsed().as_secs_f64();
    let examples: Vec<String> = report
        .examples
        .iter()
        .map(|d| format!("{}: stored {}, children say {}", reference.unindex(d.idx), d.stored, d.implied))
        .collect();
    if request.json {
        let out = AuditJson {
            game: tic_tac_chec::INFO.id,
            pawn: game.rule().id(),
            checked: report.checked,
            disagreements: report.disagreements,
            examples,
            seconds,
        };
        output::json(&out)?;
    } else {
        let mut text = String::new();
        writeln!(
            text,
            "Tic-Tac-Chec ({} pawns): {} positions checked against their children (plain rules), {} disagree; {seconds:.0} s",
            game.rule().id(),
            thousands(report.checked),
            thousands(report.disagreements)
        )?;
        for example in &examples {
            writeln!(text, "  {example}")?;
        }
        output::print(&text)?;
    }
    Ok(if report.disagreements == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

fn compact(request: &Request, game: &TicTacChec) -> anyhow::Result<ExitCode> {
    let config = request.config;
    let (table, _) = table(config, game, false)?;
    let began = Instant::now();
    let compact = CompactBuilder::new(&table).context("cannot make the compact copy")?;
    compact.verify(&table).context("the compact copy does not match the table")?;
    let key = game.table_key();
    let path = config.store.save::<Compact>(&key, &[], &compact)?;
    // Read back through the file, as probe will.
    let saved = config.store.open::<Compact>(&key)?.context("the compact copy vanished")?;
    compact.verify(&saved).context("the saved compact copy does not match the table")?;
    let seconds = began.elapsed().as_secs_f64();
    let counts = saved.header().tally;
    let table_bytes = table.size_in_bytes();
    let compact_bytes = saved.size_in_bytes();
    if request.json {
        let report = CompactJson {
            game: tic_tac_chec::INFO.id,
            pawn: game.rule().id(),
            positions: saved.len(),
            decisive: counts.wins + counts.losses,
            table_bytes,
            compact_bytes,
            verified: true,
            seconds,
            path: path.display().to_string(),
        };
        output::json(&report)?;
    } else {
        output::print(&format!(
            "compact copy: {} ({:.0} MiB, from {:.0} MiB), {} decisive positions, every entry checked against the table; {seconds:.1} s\n",
            path.display(),
            compact_bytes as f64 / (1 << 20) as f64,
            table_bytes as f64 / (1 << 20) as f64,
            thousands(counts.wins + counts.losses)
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn report(request: &Request, game: &TicTacChec) -> anyhow::Result<ExitCode> {
    let config = request.config;
    let listed = request.params.text("sections").unwrap_or_default();
    let sections = listed.split(',').map(str::parse).collect::<Result<Vec<Section>, _>>()?;
    let table = open_for_probing(config, game)?;
    let mut report = ReportJson {
        game: tic_tac_chec::INFO.id,
        pawn: game.rule().id(),
        drawing_line: None,
        threats: None,
        variants: None,
    };
    if sections.contains(&Section::Line) {
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
    if sections.contains(&Section::Threats) {
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
    if sections.contains(&Section::Variants) {
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
            post_opening: comparison.post_opening.into(),
            opening: comparison.opening.into(),
            examples: comparison
                .examples
                .iter()
                .map(|(pos, a, b)| VariantExampleJson { position: pos.to_string(), travel: *a, outbound: *b })
                .collect(),
        });
    }
    if request.json {
        output::json(&report)?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut text = String::new();
    if let Some(line) = &report.drawing_line {
        writeln!(
            text,
            "A drawing line from the empty board (always the first drawing move), until a position comes round:"
        )?;
        for m in &line.moves {
            writeln!(text, "  {:>3}. {:<6} {}", m.ply, m.m, m.position)?;
        }
        writeln!(text, "  the position after ply {} comes round again", line.cycle_start)?;
    }
    if let Some(t) = &report.threats {
        writeln!(
            text,
            "Threats, over {} positions after the opening without a complete line:",
            thousands(t.positions)
        )?;
        writeln!(text, "  the side to move can complete a line at once: {}", thousands(t.mover_can_win_at_once))?;
        writeln!(text, "  the other side could, were it its turn: {}", thousands(t.opponent_could_win_at_once))?;
        for r in &t.drawing_replies {
            writeln!(text, "  drawn, threatened, with {} drawing replies: {}", r.replies, thousands(r.positions))?;
        }
    }
    if let Some(v) = &report.variants {
        writeln!(text, "Travel against outbound pawns, over {} positions:", thousands(v.positions))?;
        writeln!(
            text,
            "  {} positions have more moves under travel ({} extra moves); {} have another value",
            thousands(v.positions_with_more_moves_under_travel),
            thousands(v.extra_moves_under_travel),
            thousands(v.positions_with_different_values)
        )?;
        for (phase, transitions) in [("after the opening", &v.post_opening), ("in the opening", &v.opening)] {
            writeln!(text, "  results {phase}, travel (rows) to outbound (columns), for the side to move:")?;
            text.push_str(&transitions_table(transitions));
        }
        for e in &v.examples {
            writeln!(text, "  {}: travel {}, outbound {}", e.position, e.travel, e.outbound)?;
        }
    }
    output::print(&text)?;
    Ok(ExitCode::SUCCESS)
}

fn verify(request: &Request) -> anyhow::Result<ExitCode> {
    let game = TicTacChec::new(PawnRule::Travel);
    let table = open_for_probing(request.config, &game)?;
    let claims = tic_tac_chec::verify(&game, &table, &Bar::new())?;
    verify_report(request, Kind::TicTacChec, &claims, String::new(), Vec::new())
}

/// One phase's transitions as a table: travel's results down, outbound's
/// across, then the positions whose distance alone changed.
fn transitions_table(t: &TransitionsJson) -> String {
    let mut rows = vec![["travel \\ outbound", "win", "loss", "draw"].map(String::from).to_vec()];
    for (name, row) in [("win", &t.win), ("loss", &t.loss), ("draw", &t.draw)] {
        rows.push(vec![name.into(), thousands(row.win), thousands(row.loss), thousands(row.draw)]);
    }
    let mut text: String = columns(&rows).lines().map(|line| format!("    {line}\n")).collect();
    text.push_str(&format!("    the same result at another distance: {}\n", thousands(t.distance_only)));
    text
}
