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

/// How the results of one phase's positions move from one pawn rule to
/// the other.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Transitions {
    /// `counts[a][b]`: positions whose result is `a` under the travel rule
    /// and `b` under the outbound one, results in the order win, loss,
    /// draw (for the side to move).
    pub counts: [[u64; 3]; 3],
    /// Positions won (or lost) under both rules, at another distance.
    pub distance_only: u64,
}

impl Transitions {
    /// The results in the order of [`counts`](Self::counts).
    pub const RESULTS: [&str; 3] = ["win", "loss", "draw"];

    fn add(&mut self, travel: Value, outbound: Value) {
        let result = |value: Value| match value {
            Value::Win(_) => 0,
            Value::Loss(_) => 1,
            Value::Draw => 2,
        };
        let (a, b) = (result(travel), result(outbound));
        self.counts[a][b] += 1;
        self.distance_only += u64::from(a == b && travel != outbound);
    }

    fn merge(mut self, other: Transitions) -> Transitions {
        for (row, other_row) in self.counts.iter_mut().zip(other.counts) {
            for (count, other_count) in row.iter_mut().zip(other_row) {
                *count += other_count;
            }
        }
        self.distance_only += other.distance_only;
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
    /// Positions whose value differs (result or distance).
    pub different_values: u64,
    /// The results after the opening, from one rule to the other.
    pub post_opening: Transitions,
    /// The results in the opening.
    pub opening: Transitions,
    /// A few positions whose value differs: the position and its value
    /// under travel, outbound.
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
            let post = game.index.post_opening().end;
            let mut visit = |idx: u64, pos: Position| {
                comparison.positions += 1;
                let extra = pos.count_moves(game.rule) - pos.count_moves(outbound_game.rule);
                comparison.positions_with_more_moves += u64::from(extra > 0);
                comparison.extra_moves += u64::from(extra);
                let (a, b) = (travel_values.probe(idx), outbound_values.probe(idx));
                let phase = if idx < post { &mut comparison.post_opening } else { &mut comparison.opening };
                phase.add(a, b);
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
            a.post_opening = a.post_opening.merge(b.post_opening);
            a.opening = a.opening.merge(b.opening);
            a.examples.extend(b.examples);
            a.examples.truncate(5);
            Ok(a)
        })
}

#[cfg(test)]
mod tests {
    use solved_engine::Plies;

    use super::*;

    #[test]
    fn transitions_count_results_and_distances_apart() {
        let (win, loss) = (Value::Win(Plies(3)), Value::Loss(Plies(4)));
        let mut a = Transitions::default();
        a.add(win, win);
        a.add(win, Value::Win(Plies(5)));
        a.add(win, Value::Draw);
        let mut b = Transitions::default();
        b.add(Value::Draw, loss);
        b.add(loss, loss);
        let both = a.merge(b);
        assert_eq!(both.counts, [[2, 0, 1], [0, 1, 0], [0, 1, 0]]);
        assert_eq!(both.distance_only, 1);
        assert_eq!(both.counts.iter().flatten().sum::<u64>(), 5);
    }
}
