//! Glue to the engine's retrograde solver, and the census of the domain.

use std::ops::Range;
use std::sync::Arc;

use rayon::prelude::*;
use solved_engine::table::{Encoding, TableKey};
use solved_engine::{DenseIndex, Expansion, Interrupted, Plies, Progress, Rules, TieredRetrograde, Value};

use super::{Color, PawnRule, Position, TicTacChecIndex};

/// The version of [`TicTacChecIndex`]'s layout, recorded in table headers:
/// bump it whenever a position moves to another index.
const INDEX_VERSION: u32 = 1;

/// Tic-Tac-Chec under one pawn rule.
#[derive(Clone, Debug)]
pub struct TicTacChec {
    rule: PawnRule,
    index: Arc<TicTacChecIndex>,
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

impl Position {
    /// Whether this is a post-opening position with White to move.
    pub fn is_canonical(&self) -> bool {
        !self.opening && self.turn == Color::White
    }
}
