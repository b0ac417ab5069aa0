//! Glue to the engine's tiered retrograde solver, and the solve summary.

use std::ops::Range;

use rayon::prelude::*;
use solved_engine::table::{Encoding, TableKey};
use solved_engine::{
    DenseIndex, Expansion, Interrupted, Plies, Progress, Rules, Table, TieredRetrograde, Value, Values, reachable,
};

use super::{Dodgem, Move, Player, Position, bits};

impl Rules for Dodgem {
    type Position = Position;

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        self.outcome(pos)
    }

    fn for_each_child(&self, pos: &Position, f: impl FnMut(Position)) {
        self.for_each_child_unchecked(pos, f);
    }
}

/// The solver's index: positions up to the diagonal reflection (see
/// [`DodgemIndex`](super::DodgemIndex)).
impl DenseIndex for Dodgem {
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

/// Dodgem with every position indexed on its own, both sides to move: for
/// counting reachable positions and for checks that must not lean on the
/// symmetry the solver uses.
///
/// Position `2i` is the solver's position `i` (Blue to move) and `2i + 1`
/// its mirror image (Red to move), so a pass over these indices is a pass
/// over the table.
#[derive(Copy, Clone, Debug)]
pub struct EveryPosition<'a>(pub &'a Dodgem);

impl Rules for EveryPosition<'_> {
    type Position = Position;

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        self.0.outcome(pos)
    }

    fn for_each_child(&self, pos: &Position, f: impl FnMut(Position)) {
        self.0.for_each_child_unchecked(pos, f);
    }
}

impl DenseIndex for EveryPosition<'_> {
    fn position_count(&self) -> u64 {
        2 * self.0.index.count()
    }

    fn index(&self, pos: &Position) -> u64 {
        2 * self.0.index.index(pos) + pos.turn as u64
    }

    fn unindex(&self, idx: u64) -> Position {
        let pos = self.0.index.unindex(idx / 2);
        if idx.is_multiple_of(2) { pos } else { self.0.index.mirror(&pos) }
    }
}

impl TieredRetrograde for Dodgem {
    fn tiers(&self) -> Vec<Range<u64>> {
        self.index.tiers()
    }

    fn unindex_in_tier(&self, tier: usize, idx: u64) -> Position {
        self.index.unindex_in_tier(tier, idx)
    }

    fn max_in_tier_moves(&self) -> u8 {
        3 * (self.size - 1)
    }

    fn expand(&self, pos: &Position, mut earlier_child: impl FnMut(u64)) -> Expansion {
        if let Some(value) = self.outcome(pos) {
            return Expansion::Terminal(value);
        }
        let exits = self.steps(pos, pos.turn).exits;
        if exits != 0 {
            // A child has the other side to move, so its index is that of
            // its mirror image: this position's mirror image (computed once)
            // without the reflected car, and with this side to move.
            let mirror = self.index.mirror(pos);
            let opponent = pos.turn.other();
            for exit in bits(exits) {
                let mut child = mirror;
                child.cars[opponent] &= !self.index.mirror_square(exit);
                child.turn = pos.turn;
                earlier_child(self.index.index(&child));
            }
        }
        Expansion::Moves { in_tier: self.on_board_moves(pos) as u8 }
    }

    fn for_each_in_range(&self, tier: usize, range: Range<u64>, f: impl FnMut(u64, Position)) {
        self.index.for_each_in_range(tier, range, f);
    }

    fn for_each_parent(&self, pos: &Position, mut f: impl FnMut(u64, Position)) {
        // Parents have the other side to move. Those of a Blue-to-move
        // position are generated as the (Blue-to-move) parents of its
        // mirror image, which index without a reflection each.
        let pos = match pos.turn {
            Player::Blue => self.index.mirror(pos),
            Player::Red => *pos,
        };
        let mover = Player::Blue;
        // With no Red cars, every parent would already be over (Red would
        // have just got its last car off).
        if pos.cars.red == 0 {
            return;
        }
        let n = u32::from(self.size);
        let cars = pos.cars.blue;
        let empty = self.board & !(pos.cars.blue | pos.cars.red);
        // For each way Blue's cars move (right, up, down): the squares a car
        // could have come from (empty now), and the step that brought it here.
        let origins: [(u32, i32); 3] = [
            (((cars & !self.first_file) >> 1) & empty, 1),
            ((cars >> n) & empty, n as i32),
            ((cars << n) & empty, -(n as i32)),
        ];
        for (sources, step) in origins {
            for source in bits(sources) {
                let target = source.wrapping_add_signed(step);
                let mut parent = Position { turn: mover, ..pos };
                parent.cars[mover] = (cars & !(1 << target)) | 1 << source;
                f(self.index.index_blue_to_move(parent.cars), parent);
            }
        }
    }
}

/// Results over a set of positions, for the side to move.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq)]
pub struct Tally {
    /// Positions counted.
    pub positions: u64,
    /// Wins for the side to move.
    pub wins: u64,
    /// Losses for the side to move.
    pub losses: u64,
    /// Draws.
    pub draws: u64,
}

impl Tally {
    fn merge(self, other: Tally) -> Tally {
        Tally {
            positions: self.positions + other.positions,
            wins: self.wins + other.wins,
            losses: self.losses + other.losses,
            draws: self.draws + other.draws,
        }
    }

    fn add(&mut self, value: Value) {
        self.positions += 1;
        match value {
            Value::Win(_) => self.wins += 1,
            Value::Loss(_) => self.losses += 1,
            Value::Draw => self.draws += 1,
        }
    }
}

/// What a solved table says about the whole game.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Summary {
    /// Over every position, either side to move.
    pub all: Tally,
    /// Over the positions reachable from the start.
    pub reachable: Tally,
    /// The value of the starting position.
    pub start: Value,
    /// The longest win, if any.
    pub max_win: Option<Plies>,
    /// The longest loss, if any.
    pub max_loss: Option<Plies>,
    /// Car placements (with at least one car) that lose for whichever side
    /// is to move.
    pub mutual_zugzwang: u64,
}

/// A table whose header lacks a figure this build stores when it solves.
#[derive(Clone, Debug, Eq, PartialEq, thiserror::Error)]
#[error("the table has no {0:?} figure; delete it to solve again")]
pub struct MissingFact(pub &'static str);

/// The version of [`DodgemIndex`](super::DodgemIndex)'s layout, recorded
/// in table headers: bump it whenever a position moves to another index.
const INDEX_VERSION: u32 = 1;

const REACHABLE: [&str; 4] = ["reachable", "reachable_wins", "reachable_losses", "reachable_draws"];
const ZUGZWANGS: &str = "zugzwangs";

impl Dodgem {
    /// What the table of this game is called and holds.
    pub fn table_key(&self) -> TableKey {
        TableKey {
            game: "dodgem".into(),
            variant: self.objective.id().into(),
            size: format!("{0}x{0}", self.size),
            index_version: INDEX_VERSION,
            encoding: Encoding::PackedValue,
            positions: self.index.count(),
        }
    }

    /// The value of `pos` in solved `values` of this game.
    pub fn probe(&self, values: &(impl Values + ?Sized), pos: &Position) -> Value {
        values.probe(self.index.index(pos))
    }

    /// The figures a table stores about itself, computed once from freshly
    /// solved `values`: the positions reachable from the start by result,
    /// and the number of mutual zugzwangs.
    ///
    /// # Errors
    ///
    /// [`Interrupted`] if `progress` asks to stop.
    pub fn facts(
        &self,
        values: &impl Values,
        progress: &dyn Progress,
    ) -> Result<Vec<(&'static str, u64)>, Interrupted> {
        let reachable = reachable(&EveryPosition(self), &self.start(), progress)?.par_fold(
            Tally::default,
            |mut tally, idx| {
                tally.add(values.probe(idx / 2));
                tally
            },
            Tally::merge,
        );
        let counts = [reachable.positions, reachable.wins, reachable.losses, reachable.draws];
        let mut facts: Vec<_> = REACHABLE.into_iter().zip(counts).collect();
        facts.push((ZUGZWANGS, self.mutual_zugzwangs(values).len() as u64));
        Ok(facts)
    }

    /// Summarises a solved table of this game.
    ///
    /// Counts are over every position: each index stands for a position
    /// and its mirror image, which have the same value, so they count twice.
    ///
    /// # Errors
    ///
    /// [`MissingFact`] if the table's header lacks a figure [`facts`](Self::facts) gives.
    pub fn summary(&self, table: &Table) -> Result<Summary, MissingFact> {
        let chunk = 1 << 16;
        let (max_win, max_loss) = (0..table.len().div_ceil(chunk))
            .into_par_iter()
            .map(|c| {
                let (mut max_win, mut max_loss) = (None, None);
                for idx in c * chunk..((c + 1) * chunk).min(table.len()) {
                    match table.probe(idx) {
                        Value::Win(d) => max_win = max_win.max(Some(d)),
                        Value::Loss(d) => max_loss = max_loss.max(Some(d)),
                        Value::Draw => {}
                    }
                }
                (max_win, max_loss)
            })
            .reduce(|| (None, None), |a, b| (a.0.max(b.0), a.1.max(b.1)));
        let header = table.header();
        let fact = |name: &'static str| header.fact(name).ok_or(MissingFact(name));
        let counts = header.counts;
        Ok(Summary {
            all: Tally {
                positions: 2 * table.len(),
                wins: 2 * counts.wins,
                losses: 2 * counts.losses,
                draws: 2 * counts.draws,
            },
            reachable: Tally {
                positions: fact(REACHABLE[0])?,
                wins: fact(REACHABLE[1])?,
                losses: fact(REACHABLE[2])?,
                draws: fact(REACHABLE[3])?,
            },
            start: self.probe(table, &self.start()),
            max_win,
            max_loss,
            mutual_zugzwang: fact(ZUGZWANGS)?,
        })
    }

    /// Placements with at least one car that lose for whichever side is to
    /// move, with Blue to move. (The empty board, which the terminal rule
    /// makes lost for both, is not a position of play and is left out.)
    pub fn mutual_zugzwangs(&self, values: &(impl Values + ?Sized)) -> Vec<Position> {
        let tiers = self.index.tiers();
        let chunks: Vec<(usize, Range<u64>)> = tiers
            .iter()
            .enumerate()
            .flat_map(|(t, tier)| {
                (tier.start..tier.end).step_by(1 << 16).map(move |s| (t, s..(s + (1 << 16)).min(tier.end)))
            })
            .collect();
        chunks
            .into_par_iter()
            .flat_map_iter(|(tier, range)| {
                let mut found = Vec::new();
                self.index.for_each_in_range(tier, range, |idx, pos| {
                    // Most positions are not lost with Blue to move: only then
                    // look up the Red-to-move one, a cache miss away.
                    if matches!(values.probe(idx), Value::Loss(_))
                        && pos.cars.blue | pos.cars.red != 0
                        && matches!(self.probe(values, &pos.with_turn(Player::Red)), Value::Loss(_))
                    {
                        found.push(pos);
                    }
                });
                found
            })
            .collect()
    }

    /// Every legal move at `pos` with its value for the mover and the
    /// position it leads to, best first (fastest wins, then draws, then
    /// slowest losses); ties keep move order.
    pub fn ranked_moves(&self, pos: &Position, table: &Table) -> Vec<(Move, Value, Position)> {
        let mut moves: Vec<_> = self
            .legal_moves(pos)
            .into_iter()
            .map(|m| {
                let child = self.play_unchecked(pos, m);
                (m, Value::of_move_into(self.probe(table, &child)), child)
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.1));
        moves
    }
}
