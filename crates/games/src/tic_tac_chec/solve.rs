//! Glue to the engine's retrograde solver, and the census of the domain.

use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;
use solved_engine::table::{Encoding, TableKey};
use solved_engine::{DenseIndex, Expansion, Interrupted, Plies, Progress, Rules, TieredRetrograde, Value};

use super::{PawnRule, Position, TicTacChecIndex};

/// The version of [`TicTacChecIndex`]'s layout, recorded in table headers:
/// bump it whenever a position moves to another index.
const INDEX_VERSION: u32 = 1;

/// Tic-Tac-Chec under one pawn rule.
#[derive(Clone, Debug)]
pub struct TicTacChec {
    pub(super) rule: PawnRule,
    pub(super) index: Arc<TicTacChecIndex>,
}

impl TicTacChec {
    /// The game under `rule`.
    pub fn new(rule: PawnRule) -> TicTacChec {
        TicTacChec { rule, index: Arc::new(TicTacChecIndex::new()) }
    }

    /// The pawn rule.
    pub fn rule(&self) -> PawnRule {
        self.rule
    }

    /// The index.
    pub fn positions(&self) -> &TicTacChecIndex {
        &self.index
    }

    /// What the compact copy of this game's table is called and holds.
    pub fn compact_key(&self) -> TableKey {
        TableKey { encoding: Encoding::Compact, ..self.table_key() }
    }

    /// What the table of this game is called and holds.
    pub fn table_key(&self) -> TableKey {
        TableKey {
            game: "tic-tac-chec".into(),
            variant: self.rule.id().into(),
            size: "4x4".into(),
            index_version: INDEX_VERSION,
            encoding: Encoding::PackedValue,
            positions: self.index.count(),
        }
    }
}

impl Rules for TicTacChec {
    type Position = Position;

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        pos.is_terminal().then_some(Value::Loss(Plies(0)))
    }

    fn for_each_child(&self, pos: &Position, mut f: impl FnMut(Position)) {
        pos.for_each_move(self.rule, |_, child| f(child));
    }
}

impl DenseIndex for TicTacChec {
    fn position_count(&self) -> u64 {
        self.index.count()
    }

    fn index(&self, pos: &Position) -> u64 {
        self.index.index(pos)
    }

    fn unindex(&self, idx: u64) -> Position {
        self.index.unindex(idx)
    }
}

/// The post-opening domain is one tier (its moves go round in cycles);
/// each opening ply is a tier of its own, solved from the last ply back,
/// whose moves all lead to the next ply or out of the opening.
impl TieredRetrograde for TicTacChec {
    fn tiers(&self) -> Vec<Range<u64>> {
        let mut tiers = vec![self.index.post_opening()];
        tiers.extend((0..6).rev().map(|ply| self.index.opening_ply(ply)));
        tiers
    }

    fn max_in_tier_moves(&self) -> u8 {
        64
    }

    fn for_each_in_range(&self, tier: usize, range: Range<u64>, mut f: impl FnMut(u64, Position)) {
        if tier == 0 {
            self.index.for_each_post(range, f);
        } else {
            for idx in range {
                f(idx, self.index.unindex_opening(idx));
            }
        }
    }

    fn expand(&self, pos: &Position, mut earlier_child: impl FnMut(u64)) -> Expansion {
        if pos.is_terminal() {
            return Expansion::Terminal(Value::Loss(Plies(0)));
        }
        if pos.opening {
            pos.for_each_move(self.rule, |_, child| earlier_child(self.index.index(&child)));
            return Expansion::Moves { in_tier: 0 };
        }
        Expansion::Moves { in_tier: pos.count_moves(self.rule) as u8 }
    }

    fn for_each_parent(&self, pos: &Position, mut f: impl FnMut(u64, Position)) {
        if pos.opening {
            return;
        }
        pos.for_each_parent(self.rule, |parent| f(self.index.index_post(&parent.squares, parent.directions), parent));
    }
}

/// The published figures of the post-opening domain.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Census {
    /// Positions (White to move).
    pub positions: u64,
    /// Legal moves summed over the positions.
    pub edges: u64,
    /// Positions with some complete line.
    pub terminal: u64,
    /// Positions without a line and without a legal move.
    pub stuck: u64,
    /// The most legal moves in one position.
    pub max_moves: u32,
}

impl Census {
    fn merge(self, other: Census) -> Census {
        Census {
            positions: self.positions + other.positions,
            edges: self.edges + other.edges,
            terminal: self.terminal + other.terminal,
            stuck: self.stuck + other.stuck,
            max_moves: self.max_moves.max(other.max_moves),
        }
    }
}

/// One pass over the post-opening domain under `rule`, counting moves with
/// bit operations.
///
/// # Errors
///
/// [`Interrupted`] if `progress` asks to stop.
pub fn census(game: &TicTacChec, progress: &dyn Progress) -> Result<Census, Interrupted> {
    let domain = game.index.post_opening();
    let chunk = 1u64 << 20;
    progress.start("census", domain.end);
    (0..domain.end.div_ceil(chunk))
        .into_par_iter()
        .map(|c| {
            if progress.should_stop() {
                return Err(Interrupted);
            }
            let range = c * chunk..((c + 1) * chunk).min(domain.end);
            let mut census = Census::default();
            game.index.for_each_post(range.clone(), |_, pos| {
                census.positions += 1;
                if pos.is_terminal() {
                    census.terminal += 1;
                    return;
                }
                let moves = pos.count_moves(game.rule);
                census.edges += u64::from(moves);
                census.max_moves = census.max_moves.max(moves);
                if moves == 0 {
                    census.stuck += 1;
                }
            });
            progress.advance(range.end - range.start);
            Ok(census)
        })
        .try_reduce(Census::default, |a, b| Ok(a.merge(b)))
}

/// Results over one phase.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct PhaseTally {
    /// Positions.
    pub positions: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Losses.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
    /// The longest win.
    pub max_win: Option<u16>,
    /// The longest loss.
    pub max_loss: Option<u16>,
}

impl PhaseTally {
    fn add(&mut self, value: Value) {
        self.positions += 1;
        match value {
            Value::Win(Plies(d)) => {
                self.wins += 1;
                self.max_win = self.max_win.max(Some(d));
            }
            Value::Loss(Plies(d)) => {
                self.losses += 1;
                self.max_loss = self.max_loss.max(Some(d));
            }
            Value::Draw => self.draws += 1,
        }
    }

    fn merge(self, other: PhaseTally) -> PhaseTally {
        PhaseTally {
            positions: self.positions + other.positions,
            wins: self.wins + other.wins,
            losses: self.losses + other.losses,
            draws: self.draws + other.draws,
            max_win: self.max_win.max(other.max_win),
            max_loss: self.max_loss.max(other.max_loss),
        }
    }
}

/// What a solved table says, phase by phase and distance by distance.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Summary {
    /// The post-opening positions.
    pub post_opening: PhaseTally,
    /// The opening positions.
    pub opening: PhaseTally,
    /// Each opening ply, from 0.
    pub opening_plies: Vec<PhaseTally>,
    /// For each distance: wins and losses after the opening, then in it.
    pub histogram: Vec<[u64; 4]>,
    /// The empty board's value.
    pub start: Value,
}

impl TicTacChec {
    /// Tallies a solved table of this game.
    pub fn summary(&self, table: &solved_engine::Table) -> Summary {
        const CHUNK: u64 = 1 << 22;
        let count = self.index.count();
        let post = self.index.post_opening().end;
        let tally = |range: Range<u64>| {
            let mut tally = PhaseTally::default();
            let mut histogram = vec![[0u64; 4]; 128];
            for idx in range {
                let value = table.probe(idx);
                tally.add(value);
                let phase = if idx < post { 0 } else { 2 };
                match value {
                    Value::Win(Plies(d)) => histogram[usize::from(d)][phase] += 1,
                    Value::Loss(Plies(d)) => histogram[usize::from(d)][phase + 1] += 1,
                    Value::Draw => {}
                }
            }
            (tally, histogram)
        };
        let merge_histograms = |mut a: Vec<[u64; 4]>, b: Vec<[u64; 4]>| {
            for (x, y) in a.iter_mut().zip(b) {
                for i in 0..4 {
                    x[i] += y[i];
                }
            }
            a
        };
        let (post_opening, mut histogram) = (0..post.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| tally(c * CHUNK..((c + 1) * CHUNK).min(post)))
            .reduce(|| (PhaseTally::default(), vec![[0; 4]; 128]), |a, b| (a.0.merge(b.0), merge_histograms(a.1, b.1)));
        let opening_plies: Vec<PhaseTally> = (0..6)
            .map(|ply| {
                let (ply_tally, ply_histogram) = tally(self.index.opening_ply(ply));
                histogram = merge_histograms(std::mem::take(&mut histogram), ply_histogram);
                ply_tally
            })
            .collect();
        let opening = opening_plies.iter().fold(PhaseTally::default(), |a, &b| a.merge(b));
        let longest = histogram.iter().rposition(|h| h.iter().any(|&n| n > 0)).map_or(0, |d| d + 1);
        histogram.truncate(longest);
        debug_assert_eq!(post_opening.positions + opening.positions, count);
        Summary {
            post_opening,
            opening,
            opening_plies,
            histogram,
            start: table.probe(self.index.index(&Position::empty())),
        }
    }

    /// Every legal move at `pos` with its value for the mover and the
    /// position it leads to, best first.
    pub fn ranked_moves(&self, pos: &Position, table: &solved_engine::Table) -> Vec<(super::Move, Value, Position)> {
        let mut moves = Vec::new();
        pos.for_each_move(self.rule, |m, child| {
            moves.push((m, Value::of_move_into(table.probe(self.index.index(&child))), child));
        });
        moves.sort_by_key(|entry| std::cmp::Reverse(entry.1));
        moves
    }
}

/// The game with successors generated by the plain reference rules, for
/// audits that must not share the solver's fast move generation.
#[derive(Copy, Clone, Debug)]
pub struct Reference<'a>(pub &'a TicTacChec);

impl Rules for Reference<'_> {
    type Position = Position;

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        pos.is_terminal().then_some(Value::Loss(Plies(0)))
    }

    fn for_each_child(&self, pos: &Position, mut f: impl FnMut(Position)) {
        for m in pos.legal_moves(self.0.rule) {
            f(pos.play_unchecked(m));
        }
    }
}

impl DenseIndex for Reference<'_> {
    fn position_count(&self) -> u64 {
        self.0.index.count()
    }

    fn index(&self, pos: &Position) -> u64 {
        self.0.index.index(pos)
    }

    fn unindex(&self, idx: u64) -> Position {
        self.0.index.unindex(idx)
    }
}
