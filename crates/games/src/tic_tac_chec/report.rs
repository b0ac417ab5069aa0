//! Reports on the solved game: a drawing line, the threat census, and how
//! the two pawn rules differ.

use std::collections::HashMap;

use rayon::prelude::*;
use solved_engine::{Interrupted, Progress, Value, Values};

use super::{Move, Position, TicTacChec};

/// A line of drawing moves from the empty board, followed until a position
/// comes round again.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct DrawingLine {
    /// Each move with the position it leads to.
    pub moves: Vec<(Move, Position)>,
    /// The ply after which the position that comes round first stood
    /// (0 is the empty board); the line repeats from there.
    pub cycle_start: usize,
}

/// Why there is no drawing line.
#[derive(Copy, Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("the empty board is not a draw but {0}")]
pub struct NotADraw(pub Value);

impl TicTacChec {
    /// The drawing line that always plays the first drawing move (in move
    /// order: placements by piece and square, then moves by squares).
    ///
    /// # Errors
    ///
    /// [`NotADraw`] if the empty board is not a draw.
    pub fn drawing_line(&self, values: &(impl Values + ?Sized)) -> Result<DrawingLine, NotADraw> {
        let mut pos = Position::empty();
        let start = values.probe(self.index.index(&pos));
        if start != Value::Draw {
            return Err(NotADraw(start));
        }
        let mut seen = HashMap::from([(pos, 0)]);
        let mut moves = Vec::new();
        loop {
            let mut drawing = Vec::new();
            pos.for_each_move(self.rule, |m, child| {
                if values.probe(self.index.index(&child)) == Value::Draw {
                    drawing.push((m, child));
                }
            });
            let (m, child) = *drawing.iter().min_by_key(|(m, _)| *m).expect("a drawn position has a drawing move");
            moves.push((m, child));
            if let Some(&first) = seen.get(&child) {
                return Ok(DrawingLine { moves, cycle_start: first });
            }
            seen.insert(child, moves.len());
            pos = child;
        }
    }

    /// Counts, over the positions after the opening, those where a side
    /// can complete a line at once (a live threat), and for the drawn ones
    /// where only the opponent could, how many replies keep the draw.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] if `progress` asks to stop.
    pub fn threat_census(
        &self,
        values: &(impl Values + ?Sized),
        progress: &dyn Progress,
    ) -> Result<ThreatCensus, Interrupted> {
        const CHUNK: u64 = 1 << 20;
        let domain = self.index.post_opening();
        progress.start("threats", domain.end);
        (0..domain.end.div_ceil(CHUNK))
            .into_par_iter()
            .map(|c| {
                if progress.should_stop() {
                    return Err(Interrupted);
                }
                let range = c * CHUNK..((c + 1) * CHUNK).min(domain.end);
                let mut census = ThreatCensus::default();
                self.index.for_each_post(range.clone(), |idx, pos| {
                    if pos.is_over() {
                        return;
                    }
                    census.positions += 1;
                    let mover = pos.can_win_at_once(self.rule);
                    let opponent = pos.is_threatened(self.rule);
                    census.mover_threat += u64::from(mover);
                    census.opponent_threat += u64::from(opponent);
                    if opponent && !mover && values.probe(idx) == Value::Draw {
                        let mut drawing = 0;
                        pos.for_each_move(self.rule, |_, child| {
                            drawing += usize::from(values.probe(self.index.index(&child)) == Value::Draw);
                        });
                        if census.drawing_replies.len() <= drawing {
                            census.drawing_replies.resize(drawing + 1, 0);
                        }
                        census.drawing_replies[drawing] += 1;
                    }
                });
                progress.advance(range.end - range.start);
                Ok(census)
            })
            .try_reduce(ThreatCensus::default, |a, b| Ok(a.merge(b)))
    }
}

/// How often threats stand on the board after the opening.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct ThreatCensus {
    /// Positions without a complete line.
    pub positions: u64,
    /// Those where the side to move can complete a line at once.
    pub mover_threat: u64,
    /// Those where the other side could, were it its turn.
    pub opponent_threat: u64,
    /// Drawn positions threatened only by the opponent, by how many of the
    /// mover's replies keep the draw (index: that number).
    pub drawing_replies: Vec<u64>,
}

impl ThreatCensus {
    fn merge(mut self, other: ThreatCensus) -> ThreatCensus {
        self.positions += other.positions;
        self.mover_threat += other.mover_threat;
        self.opponent_threat += other.opponent_threat;
        if self.drawing_replies.len() < other.drawing_replies.len() {
            self.drawing_replies.resize(other.drawing_replies.len(), 0);
        }
        for (a, b) in self.drawing_replies.iter_mut().zip(other.drawing_replies) {
            *a += b;
        }
        self
    }
}

/// How the outbound pawn rule changes the game against the travel rule.
#[derive(Clone, Debug, Default, Eq, PartialEq)]
pub struct VariantComparison {
    /// Positions (both phases) compared.
    pub positions: u64,
    /// Positions where the travel rule allows more moves.
    pub positions_with_more_moves: u64,
    /// The extra moves, summed.
    pub extra_moves: u64,
    /// Positions whose value differs.
    pub different_values: u64,
    /// A few of them: the position and its value under travel, outbound.
    pub examples: Vec<(Position, Value, Value)>,
}

/// Compares the game under the travel rule (`travel`) and the outbound rule
/// (`outbound`), position by position.
///
/// # Errors
///
/// [`Interrupted`] if `progress` asks to stop.
pub fn compare_variants(
    travel: (&TicTacChec, &(impl Values + ?Sized)),
    outbound: (&TicTacChec, &(impl Values + ?Sized)),
    progress: &dyn Progress,
) -> Result<VariantComparison, Interrupted> {
    const CHUNK: u64 = 1 << 20;
    let (game, travel_values) = travel;
    let (outbound_game, outbound_values) = outbound;
    let count = game.index.count();
    progress.start("variants", count);
    (0..count.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            if progress.should_stop() {
                return Err(Interrupted);
            }
            let range = c * CHUNK..((c + 1) * CHUNK).min(count);
            let mut comparison = VariantComparison::default();
            let mut visit = |idx: u64, pos: Position| {
                comparison.positions += 1;
                let extra = pos.count_moves(game.rule) - pos.count_moves(outbound_game.rule);
                comparison.positions_with_more_moves += u64::from(extra > 0);
                comparison.extra_moves += u64::from(extra);
                let (a, b) = (travel_values.probe(idx), outbound_values.probe(idx));
                if a != b {
                    comparison.different_values += 1;
                    if comparison.examples.len() < 5 {
                        comparison.examples.push((pos, a, b));
                    }
                }
            };
            if range.start < game.index.post_opening().end {
                game.index.for_each_post(range.start..range.end.min(game.index.post_opening().end), &mut visit);
            }
            for idx in range.start.max(game.index.post_opening().end)..range.end {
                visit(idx, game.index.unindex_opening(idx));
            }
            progress.advance(range.end - range.start);
            Ok(comparison)
        })
        .try_reduce(VariantComparison::default, |mut a, b| {
            a.positions += b.positions;
            a.positions_with_more_moves += b.positions_with_more_moves;
            a.extra_moves += b.extra_moves;
            a.different_values += b.different_values;
            a.examples.extend(b.examples);
            a.examples.truncate(5);
            Ok(a)
        })
}
