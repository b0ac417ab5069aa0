//! Dodgem's published results, checked against our tables.
//!
//! Sources are the ones listed in the spec: *Winning Ways*, GamesCrafters,
//! and the 1996 rec.games.abstract thread (Boll, Fleury, Erickson,
//! desJardins).

use solved_engine::table::Packed;
use solved_engine::units::UnitFiles;
use solved_engine::{AuditReport, DenseIndex, Interrupted, Plies, Progress, SolveError, Table, Tally, Value, audit};

use super::{ByTiers, Dodgem, DodgemUnits, EveryPosition, Move, Objective, Player, Position, Sampled, same_values};
use crate::claims::{ClaimCheck, Verdict};

/// Erickson's three mutual-zugzwang diagrams (`>` Blue, `^` Red, top rank
/// first), as printed in the spec.
const ERICKSON: [&str; 3] = [". > >/. . ^/. . .", "> . ./^ . ./. . .", "> > ./. . ^/. . ^"];

/// desJardins' 4×4 record in his transposed notation; `!` marks a move he
/// called the only draw.
const DESJARDINS: &str = "1. d1-d2 a4-b4 2. d2-d3 b4-c4 3. d3-d4 a3-b3 4. c1-c2 c4-c3! 5. b1-b2 a2-a3! \
     6. c2-d2 c3-c2 7. d2-d3 a3-a2 8. d3-c3 a2-a3! 9. b2-a2 b3-b2 10. c3-c4 c2-c1 \
     11. d4-off c1-c2 12. d3-off b2-b3";

/// One ply of desJardins' record, replayed.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct RecordMove {
    /// The ply, from 1.
    pub ply: usize,
    /// The move as he wrote it, with its `!`.
    pub written: String,
    /// The move played in our notation: his transposed, or as written when
    /// only that reading is legal.
    pub ours: String,
    /// The position before the move, or `None` once the replay has stopped.
    pub before: Option<Position>,
    /// Whether the move is legal as he wrote it.
    pub legal_as_written: bool,
    /// The position's value for the mover.
    pub value_before: Option<Value>,
    /// The move's value for the mover.
    pub value_after: Option<Value>,
    /// How many moves in the position draw.
    pub drawing_moves: usize,
    /// What is wrong with the move as published, if anything.
    pub problems: Vec<String>,
}

/// 6×6 as a solve by units left it: its unit files, the count of
/// reachable positions if the walk has finished, and the full audit's
/// result if that has.
#[derive(Debug)]
pub struct SolvedUnits<'a> {
    /// The unit files.
    pub units: &'a DodgemUnits,
    /// What the walk from the start counted.
    pub reachable: Option<Tally>,
    /// What `solved audit` found.
    pub audited: Option<AuditReport>,
}

/// Checks every published Dodgem claim. `table` supplies the solved table
/// of a (normal) board size, solving it if need be; each size is asked for
/// once. `six` is 6×6's unit files, or what is missing. The audits behind
/// claim 9 report to `progress`.
///
/// # Errors
///
/// Whatever `table` fails with, or [`Interrupted`] (converted into `E`).
pub fn verify<E: From<Interrupted> + From<Sampled>>(
    mut table: impl FnMut(&Dodgem) -> Result<std::sync::Arc<Table<Packed>>, E>,
    six: Result<SolvedUnits<'_>, String>,
    progress: &dyn Progress,
) -> Result<(Vec<ClaimCheck>, Vec<RecordMove>), E> {
    let mut claims = Vec::new();
    let mut record = Vec::new();
    for size in [3, 4, 5] {
        let game = Dodgem::new(size, Objective::Normal).expect("sizes 3 to 5 exist");
        let (size_claims, size_record) = check_size(&game, &*table(&game)?, progress)?;
        claims.extend(size_claims);
        record.extend(size_record);
    }
    claims.sort_by(|a, b| a.id.cmp(&b.id));
    let game = Dodgem::new(6, Objective::Normal).expect("6x6 exists");
    claims.extend(from_unit_files(&game, six, &six_by_six(), SIX_BY_SIX_SAMPLES, progress)?);
    Ok((claims, record))
}

/// Positions of 6×6 whose values `verify` re-derives from their children:
/// each reads a block of a unit file per child, so a sample rather than
/// the whole board.
const SIX_BY_SIX_SAMPLES: u64 = 100_000;

/// A board's result from our own solve by units, as the README publishes
/// it, for `verify` to hold the unit files to.
#[derive(Clone, Debug)]
pub(super) struct OwnResult {
    /// Every first move and its value, best first, as `move value`
    /// separated by `, `.
    pub first_moves: String,
    /// Every position, either side to move, by value.
    pub all: Tally,
    /// The positions reachable from the start, once the walk that counts
    /// them has been run to its end.
    pub reachable: Option<Tally>,
    /// The longest win and the longest loss.
    pub longest: (Plies, Plies),
    /// A longest win and a longest loss, as positions: the first of the
    /// smallest unit holding each.
    pub longest_positions: [String; 2],
    /// Placements (with a car) lost for whichever side is to move.
    pub mutual_zugzwangs: u64,
}

/// Our 6×6 result as the README publishes it (solved 2026-12-02): a draw,
/// as desJardins conjectured, whatever Blue's first move.
fn six_by_six() -> OwnResult {
    OwnResult {
        first_moves: "a2-a1 =, a2-b2 =, a3-b3 =, a4-b4 =, a5-b5 =, a6-b6 =".into(),
        all: Tally { wins: 57_884_611_872, losses: 37_354_789_992, draws: 93_471_288_842 },
        reachable: Some(Tally { wins: 40_310_283_488, losses: 26_431_862_958, draws: 57_912_238_213 }),
        longest: (Plies(127), Plies(126)),
        longest_positions: [
            ".BB.../B...../.B..../....../.B..../RRR..R B".into(),
            "B...../....../....../BR...R/B..R.R/B...R. B".into(),
        ],
        mutual_zugzwangs: 81,
    }
}

/// Where our own results are published.
const OURS: &str = "our solve by units (README)";

/// Our own solve of a board past one table (6×6), re-checked from its unit
/// files: desJardins' conjecture for the start, the figures we publish
/// (`published`) against the units' own and against the finished walk's
/// count of reachable positions (if it has finished), every unit whole,
/// and the minimax equation at every position if the full audit has
/// finished, else at `samples` positions. Without the unit files (`Err`
/// says what is missing and how to make them), one claim not yet reached.
///
/// # Errors
///
/// [`Sampled`] if a unit cannot be read or the audit is interrupted.
pub(super) fn from_unit_files(
    game: &Dodgem,
    solved: Result<SolvedUnits<'_>, String>,
    published: &OwnResult,
    samples: u64,
    progress: &dyn Progress,
) -> Result<Vec<ClaimCheck>, Sampled> {
    const CONJECTURE: &str = "desJardins 1996 (conjectured: every board past 5x5 a draw)";
    let n = game.size();
    let start_claim = format!("{n}x{n} start position");
    let SolvedUnits { units, reachable, audited } = match solved {
        Ok(solved) => solved,
        Err(missing) => {
            return Ok(vec![ClaimCheck::new(
                "6x6",
                &start_claim,
                CONJECTURE,
                "draw",
                missing,
                Verdict::NotYetReachable,
            )]);
        }
    };
    let start = units.value(game, &game.start())?;
    let first_moves: Vec<String> =
        units.ranked_moves(game, &game.start())?.iter().map(|(m, v, _)| format!("{m} {v}")).collect();
    let first_moves = first_moves.join(", ");
    let mut claims = vec![
        ClaimCheck::new("6x6", &start_claim, CONJECTURE, "draw", describe(start), Verdict::of(start == Value::Draw)),
        ClaimCheck::new(
            "6x6",
            &format!("{n}x{n} every first move's value, best first"),
            OURS,
            published.first_moves.clone(),
            first_moves.clone(),
            Verdict::of(first_moves == published.first_moves),
        ),
    ];
    let all = units.every_position();
    claims.push(ClaimCheck::new(
        "6x6",
        &format!("{n}x{n} positions, either side to move (wins, losses, draws)"),
        OURS,
        tally_text(published.all),
        tally_text(all),
        Verdict::of(all == published.all),
    ));
    let reachable_claim = format!("{n}x{n} positions reachable from the start (wins, losses, draws)");
    claims.push(match (published.reachable, reachable) {
        (Some(expected), Some(found)) => ClaimCheck::new(
            "6x6",
            &reachable_claim,
            OURS,
            tally_text(expected),
            tally_text(found),
            Verdict::of(found == expected),
        ),
        (Some(expected), None) => ClaimCheck::new(
            "6x6",
            &reachable_claim,
            OURS,
            tally_text(expected),
            "not counted here yet: the solve's walk has not finished (the solve resumes it)",
            Verdict::NotYetReachable,
        ),
        (None, found) => ClaimCheck::new(
            "6x6",
            &reachable_claim,
            OURS,
            "not published yet: the walk that counts them takes hours",
            found.map_or("not counted here either".into(), tally_text),
            Verdict::NotYetReachable,
        ),
    });
    let figures = units.figures()?;
    let longest = (figures.longest_win, figures.longest_loss);
    claims.push(ClaimCheck::new(
        "6x6",
        &format!("{n}x{n} longest win and longest loss, in plies"),
        OURS,
        format!("{}, {}", published.longest.0, published.longest.1),
        format!("{}, {}", plies_text(longest.0), plies_text(longest.1)),
        Verdict::of(longest == (Some(published.longest.0), Some(published.longest.1))),
    ));
    let [win, loss] = &published.longest_positions;
    let named = |example: Option<Position>| -> Result<String, Sampled> {
        Ok(match example {
            Some(pos) => format!("{pos} {}", units.value(game, &pos)?),
            None => "none".into(),
        })
    };
    let [found_win, found_loss] = units.longest_examples(game)?;
    let found = format!("{}; {}", named(found_win)?, named(found_loss)?);
    let expected = format!("{win} {}; {loss} {}", Value::Win(published.longest.0), Value::Loss(published.longest.1));
    let verdict = Verdict::of(found == expected);
    claims.push(ClaimCheck::new(
        "6x6",
        &format!("{n}x{n} a longest win and a longest loss, each the first of the smallest unit holding one"),
        OURS,
        expected,
        found,
        verdict,
    ));
    claims.push(ClaimCheck::new(
        "6x6",
        &format!("{n}x{n} placements lost for either side to move"),
        OURS,
        published.mutual_zugzwangs.to_string(),
        figures.mutual_zugzwang.to_string(),
        Verdict::of(figures.mutual_zugzwang == published.mutual_zugzwangs),
    ));
    let stored = units.tally().positions();
    let expected = game.unit_index().count();
    claims.push(ClaimCheck::new(
        "units",
        &format!("{n}x{n}: every unit holds a value for each of its positions"),
        "our solve by units",
        format!("{expected} positions (one per mirror pair)"),
        format!("{stored} positions"),
        Verdict::of(stored == expected),
    ));
    if let Some((unit, loss)) = units.longest_loss_unit() {
        let audit = units.audit_unit(game, unit, progress)?;
        claims.push(ClaimCheck::new(
            "units",
            &format!(
                "{n}x{n}: every position of unit {unit}, which holds a loss in {loss} plies (the longest), has the value its children give"
            ),
            "the minimax equation",
            "every one",
            audit_text(&audit),
            Verdict::of(audit.disagreements == 0),
        ));
    }
    let every_position = format!(
        "{n}x{n}: every position, either side to move, has the value its children give by the plain rules (solved audit)"
    );
    let positions = 2 * game.unit_index().count();
    match audited {
        Some(audit) => claims.push(ClaimCheck::new(
            "units",
            &every_position,
            "the minimax equation",
            format!("all {positions}"),
            audit_text(&audit),
            Verdict::of(audit.disagreements == 0 && audit.checked == positions),
        )),
        None => {
            claims.push(ClaimCheck::new(
                "units",
                &every_position,
                "the minimax equation",
                format!("all {positions}"),
                format!("not audited here yet: `solved audit dodgem --size {n}` checks them all, resuming"),
                Verdict::NotYetReachable,
            ));
            let audit = units.audit_sample(game, samples, progress)?;
            claims.push(ClaimCheck::new(
                "units",
                &format!(
                    "{n}x{n}: positions spread over every unit have the value their children give, by the plain rules"
                ),
                "the minimax equation",
                "every one",
                audit_text(&audit),
                Verdict::of(audit.disagreements == 0),
            ));
        }
    }
    Ok(claims)
}

/// Every block of the unit files of `game` that a solve has written, read
/// back against its checksum: a unit found damaged is named, with what
/// solves it again (`command` solves only the units whose files are gone).
///
/// # Errors
///
/// [`Interrupted`] if `progress` asked to stop.
pub(super) fn unit_blocks(
    game: &Dodgem,
    files: &UnitFiles,
    command: &str,
    progress: &dyn Progress,
) -> Result<ClaimCheck, Interrupted> {
    let n = game.size();
    let damaged = files.check_blocks(progress)?;
    let count = damaged.len();
    let found = match damaged.into_iter().next() {
        None => format!("all {} units whole", files.len()),
        Some((unit, error)) => format!(
            "{count} of {} units damaged, the first unit {unit} ({:#}): remove {} and run `{command}`, which solves it again",
            files.len(),
            anyhow::Error::new(error),
            files.path(unit).display()
        ),
    };
    Ok(ClaimCheck::new(
        "units",
        &format!("{n}x{n} ({}): every block of every unit file reads back as written", game.objective().id()),
        "the checksum of each block",
        "every one",
        found,
        Verdict::of(count == 0),
    ))
}

fn audit_text(audit: &AuditReport) -> String {
    match audit.examples.first() {
        None => format!("all {} agree", audit.checked),
        Some(d) => format!("{} of {} differ, the first at {}", audit.disagreements, audit.checked, d.idx),
    }
}

/// `positions (wins, losses, draws)`.
fn tally_text(t: Tally) -> String {
    format!("{} ({}, {}, {})", t.positions(), t.wins, t.losses, t.draws)
}

fn plies_text(plies: Option<Plies>) -> String {
    plies.map_or("none".into(), |p| p.to_string())
}

/// The claims about one board size (normal rules), with desJardins' record
/// replayed if the board is 4×4.
///
/// # Errors
///
/// [`Interrupted`] if `progress` asks to stop.
pub fn check_size(
    game: &Dodgem,
    table: &Table<Packed>,
    progress: &dyn Progress,
) -> Result<(Vec<ClaimCheck>, Vec<RecordMove>), Interrupted> {
    let mut claims = Vec::new();
    let mut record = Vec::new();
    match game.size() {
        3 => claims.extend(three_by_three(game, table, progress)?),
        4 => {
            claims.push(start_claim(game, table, "6", "desJardins 1996-03-18"));
            let corner = move_value(game, table, "a2-a1");
            claims.push(ClaimCheck::new(
                "7",
                "4x4 after Blue's a2-a1 (his b1-a1)",
                "desJardins 1996-03-20",
                "loss for Blue in 38",
                describe(corner),
                Verdict::of(corner == Value::Loss(Plies(38))),
            ));
            record = replay_record(game, table);
        }
        5 => {
            let corner = move_value(game, table, "a2-a1");
            claims.push(ClaimCheck::new(
                "7",
                "5x5 after Blue's a2-a1",
                "desJardins 1996-03-20",
                "draw",
                describe(corner),
                Verdict::of(corner == Value::Draw),
            ));
            claims.push(start_claim(game, table, "8", "desJardins 1996-03-20"));
        }
        _ => {}
    }
    claims.push(symmetry_claim(game, table, progress)?);
    claims.push(tiers_claim(game, table, progress)?);
    Ok((claims, record))
}

/// Our own check of the solve by units: the solve by tiers, with its own
/// index, moves and parents, gives every position the same value and
/// distance.
fn tiers_claim(game: &Dodgem, table: &Table<Packed>, progress: &dyn Progress) -> Result<ClaimCheck, Interrupted> {
    let tiers = ByTiers::new(game).expect("boards with a table have a flat index");
    let ours = match tiers.solve(progress) {
        Ok(by_tiers) => match same_values(game, table, &by_tiers) {
            Ok(count) => format!("the same at all {count} positions (one per mirror pair)"),
            Err(pos) => format!("{pos} differs"),
        },
        Err(SolveError::Interrupted(stop)) => return Err(stop),
        Err(error) => format!("the solve by tiers failed: {error}"),
    };
    let agrees = ours.starts_with("the same");
    Ok(ClaimCheck::new(
        "units",
        &format!("{0}x{0}: the solve by units gives every position the value the solve by tiers gives", game.size()),
        "our solve by tiers",
        "the same value and distance everywhere",
        ours,
        Verdict::of(agrees),
    ))
}

fn start_claim(game: &Dodgem, table: &Table<Packed>, id: &str, source: &str) -> ClaimCheck {
    let start = game.probe(table, &game.start());
    let claim = format!("{0}x{0} start position", game.size());
    ClaimCheck::new(id, &claim, source, "draw", describe(start), Verdict::of(start == Value::Draw))
}

fn three_by_three(
    game: &Dodgem,
    table: &Table<Packed>,
    progress: &dyn Progress,
) -> Result<Vec<ClaimCheck>, Interrupted> {
    let start = game.probe(table, &game.start());
    let mut claims = vec![ClaimCheck::new(
        "1",
        "3x3 start position",
        "Winning Ways; GamesCrafters",
        "Blue wins in 19 plies",
        describe(start),
        Verdict::of(start == Value::Win(Plies(19))),
    )];
    let winning: Vec<String> = game
        .ranked_moves(&game.start(), table)
        .into_iter()
        .filter(|(_, v, _)| matches!(v, Value::Win(_)))
        .map(|(m, ..)| m.to_string())
        .collect();
    claims.push(ClaimCheck::new(
        "2",
        "3x3 winning first moves",
        "Winning Ways; D. Boll 1996",
        "only a3-b3",
        winning.join(", "),
        Verdict::of(winning == ["a3-b3"]),
    ));
    // Recomputed here rather than read from the table's header.
    let facts = game.facts(table, progress)?;
    let reachable: Vec<u64> = facts.iter().take(4).map(|f| f.1).collect();
    claims.push(ClaimCheck::new(
        "3",
        "3x3 positions reachable from the start (wins, losses, draws)",
        "GamesCrafters (via Wikipedia)",
        "1963 (1123, 840, 0)",
        format!("{} ({}, {}, {})", reachable[0], reachable[1], reachable[2], reachable[3]),
        Verdict::of(reachable == [1963, 1123, 840, 0]),
    ));
    // Each index is one placement, with Blue to move.
    let both_colours =
        (0..game.position_count()).map(|idx| game.unindex(idx)).filter(|p| p.cars.blue != 0 && p.cars.red != 0).count();
    claims.push(ClaimCheck::new(
        "4",
        "3x3 placements with a car of each colour, halved for symmetry",
        "M. Fleury 1996-03-04",
        "666 (1332 / 2)",
        format!("{} ({both_colours} / 2)", both_colours / 2),
        Verdict::of(both_colours == 1332),
    ));
    let zugzwangs = game.mutual_zugzwangs(table);
    let is_pair = |p: &Position| {
        let mirror = game.mirror(p).with_turn(Player::Blue);
        mirror != *p && zugzwangs.contains(&mirror)
    };
    let paired = zugzwangs.iter().filter(|p| is_pair(p)).count();
    claims.push(ClaimCheck::new(
        "5",
        "3x3 placements lost for whichever side moves (mirror pairs)",
        "J. Erickson 1996-03-04",
        "6 (3 pairs)",
        format!("{} ({} pairs)", zugzwangs.len(), paired / 2),
        Verdict::of(zugzwangs.len() == 6 && paired == 6),
    ));
    let printed: Vec<Position> = ERICKSON.iter().map(|d| erickson_position(d)).collect();
    // A pair of ours that no printed diagram shows (either way round).
    let mut unprinted: Vec<&Position> = zugzwangs
        .iter()
        .filter(|p| !printed.iter().any(|d| d == *p || game.mirror(d).with_turn(Player::Blue) == **p))
        .collect();
    // Named in notation order, whatever order the table lists them in.
    unprinted.sort_by_key(|p| board_of(p));
    for (i, (diagram, pos)) in ERICKSON.iter().zip(&printed).enumerate() {
        let values = [Player::Blue, Player::Red].map(|turn| game.probe(table, &pos.with_turn(turn)));
        let lost_both_ways = values.iter().all(|v| matches!(v, Value::Loss(_)));
        let verdict = match unprinted.as_slice() {
            _ if lost_both_ways => Verdict::Agrees,
            [a, b] if zugzwangs.len() == 6 => Verdict::Erratum(format!(
                "misprinted: as printed it is not lost either way, and the pair no diagram shows is {} and {}",
                board_of(a),
                board_of(b)
            )),
            _ => Verdict::Disagrees,
        };
        claims.push(ClaimCheck::new(
            "5",
            &format!("Erickson diagram {} ({diagram})", i + 1),
            "J. Erickson 1996-03-04",
            "lost for either side to move",
            format!("{} to move {}, {} to move {}", Player::Blue, values[0], Player::Red, values[1]),
            verdict,
        ));
    }
    Ok(claims)
}

/// Erickson's diagram in our notation, Blue to move.
fn erickson_position(diagram: &str) -> Position {
    let board = diagram.replace(' ', "").replace('>', "B").replace('^', "R");
    format!("{board} B").parse().expect("Erickson's diagrams are well formed")
}

/// The board part of a position's notation.
fn board_of(pos: &Position) -> String {
    pos.to_string().split(' ').next().unwrap_or_default().to_string()
}

/// Claim 9, checked without trusting the symmetry the table is built on:
/// every position, of either side to move, is looked up through the table
/// and must satisfy the minimax equation with its children (generated by the
/// plain rules), which only the true solution does.
fn symmetry_claim(game: &Dodgem, table: &Table<Packed>, progress: &dyn Progress) -> Result<ClaimCheck, Interrupted> {
    let every = EveryPosition(game);
    let report = audit(&every, table, |pos| game.index(pos), progress)?;
    Ok(ClaimCheck::new(
        "9",
        &format!(
            "{0}x{0}: reflecting in the diagonal, colours and turn swapped, keeps value and distance",
            game.size()
        ),
        "follows from the rules",
        "every position",
        format!(
            "{} of {} positions break the minimax equation when read through their mirror",
            report.disagreements, report.checked
        ),
        Verdict::of(report.disagreements == 0 && report.checked == every.position_count()),
    ))
}

fn move_value(game: &Dodgem, table: &Table<Packed>, m: &str) -> Value {
    let m: Move = m.parse().expect("claimed moves are well formed");
    let child = game.play(&game.start(), m).expect("claimed moves are legal");
    Value::of_move_into(game.probe(table, &child))
}

fn describe(value: Value) -> String {
    match value {
        Value::Win(d) => format!("win in {d}"),
        Value::Loss(d) => format!("loss in {d}"),
        Value::Draw => "draw".into(),
    }
}

/// His square `xy` is our square `yx`: he wrote the board transposed.
fn transpose_move(written: &str) -> String {
    let swap = |square: &str| match square.as_bytes() {
        [file, rank] => format!("{}{}", char::from(b'a' + (rank - b'1')), char::from(b'1' + (file - b'a'))),
        _ => square.to_string(),
    };
    match written.split_once('-') {
        Some((from, to)) => format!("{}-{}", swap(from), swap(to)),
        None => written.to_string(),
    }
}

fn replay_record(game: &Dodgem, table: &Table<Packed>) -> Vec<RecordMove> {
    let written: Vec<&str> = DESJARDINS.split_whitespace().filter(|w| !w.ends_with('.')).collect();
    let mut pos = Some(game.start());
    let mut moves = Vec::new();
    for (i, &text) in written.iter().enumerate() {
        let bare = text.trim_end_matches('!');
        let transposed = transpose_move(bare);
        let mut entry = RecordMove {
            ply: i + 1,
            written: text.into(),
            ours: transposed.clone(),
            before: pos,
            legal_as_written: false,
            value_before: None,
            value_after: None,
            drawing_moves: 0,
            problems: Vec::new(),
        };
        let Some(current) = pos else {
            entry.problems.push("not replayed: an earlier move could not be played".into());
            moves.push(entry);
            continue;
        };
        let ranked = game.ranked_moves(&current, table);
        entry.value_before = Some(game.probe(table, &current));
        entry.drawing_moves = ranked.iter().filter(|(_, v, _)| *v == Value::Draw).count();
        let play = |text: &str| text.parse::<Move>().ok().and_then(|m| game.play(&current, m).ok());
        let child = match play(&transposed) {
            Some(child) => {
                entry.legal_as_written = true;
                Some(child)
            }
            None => {
                let reason = transposed
                    .parse::<Move>()
                    .map_err(|e| e.to_string())
                    .and_then(|m| game.play(&current, m).map(drop).map_err(|e| e.reason.to_string()))
                    .err()
                    .unwrap_or_default();
                // He may have slipped into our orientation for one move.
                let untransposed = play(bare);
                let fix = match untransposed {
                    Some(_) => format!("; read untransposed, {bare} is legal and is played instead"),
                    None => "; the replay stops here".into(),
                };
                entry.problems.push(format!("illegal move: {transposed}: {reason}{fix}"));
                if untransposed.is_some() {
                    entry.ours = bare.to_string();
                }
                untransposed
            }
        };
        if let Some(child) = child {
            let value = Value::of_move_into(game.probe(table, &child));
            entry.value_after = Some(value);
            if value < ranked[0].1 {
                entry.problems.push(format!("not best play: {value} where {} was possible", ranked[0].1));
            }
            if text.ends_with('!') && !(value == Value::Draw && entry.drawing_moves == 1) {
                entry.problems.push(format!("marked as the only draw, but {} moves draw", entry.drawing_moves));
            }
        }
        pos = child;
        moves.push(entry);
    }
    moves
}
