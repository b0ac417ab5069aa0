//! Glue to the engine's tiered retrograde solver, and the solve summary.

use std::ops::Range;

use rayon::prelude::*;
use solved_engine::table::{Encoding, TableKey};
use solved_engine::{DenseIndex, Expansion, Plies, Rules, Table, TieredRetrograde, Value, reachable};

use super::{Destination, Dodgem, Move, Player, Position, Square, bits};

impl Rules for Dodgem {
    type Position = Position;

    fn terminal_value(&self, pos: &Position) -> Option<Value> {
        self.outcome(pos)
    }

    fn for_each_child(&self, pos: &Position, mut f: impl FnMut(Position)) {
        for m in self.legal_moves(pos) {
            f(self.play_unchecked(pos, m));
        }
    }
}

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
        for exit in bits(self.steps(pos, pos.turn).exits) {
            let m = Move { from: Square::from_bit(exit, self.size), to: Destination::Off };
            earlier_child(self.index.index(&self.play_unchecked(pos, m)));
        }
        Expansion::Moves { in_tier: self.on_board_moves(pos) as u8 }
    }

    fn for_each_parent(&self, pos: &Position, mut f: impl FnMut(u64)) {
        let mover = pos.turn.other();
        // With no cars of the side to move, every parent would already be
        // over (that side would have just got its last car off).
        if pos.cars[pos.turn] == 0 {
            return;
        }
        let n = u32::from(self.size);
        let cars = pos.cars[mover];
        let empty = self.board & !(pos.cars.blue | pos.cars.red);
        // For each way the mover's cars move: the squares a car could have
        // come from (empty now), and the step that brought it here.
        let origins: [(u32, i32); 3] = match mover {
            Player::Blue => [
                (((cars & !self.first_file) >> 1) & empty, 1),
                ((cars >> n) & empty, n as i32),
                ((cars << n) & empty, -(n as i32)),
            ],
            Player::Red => [
                ((cars >> n) & empty, n as i32),
                (((cars & !self.last_file) << 1) & empty, -1),
                (((cars & !self.first_file) >> 1) & empty, 1),
            ],
        };
        for (sources, step) in origins {
            for source in bits(sources) {
                let target = source.wrapping_add_signed(step);
                let mut parent = *pos;
                parent.cars[mover] = (cars & !(1 << target)) | 1 << source;
                parent.turn = mover;
                f(self.index.index(&parent));
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
    /// Car placements that lose for whichever side is to move.
    pub mutual_zugzwang: u64,
}

impl Dodgem {
    /// What the table of this game is called and holds.
    pub fn table_key(&self) -> TableKey {
        TableKey {
            game: "dodgem".into(),
            variant: self.objective.id().into(),
            size: format!("{0}x{0}", self.size),
            encoding: Encoding::PackedValue,
            positions: self.index.count(),
        }
    }

    /// Summarises a solved table of this game.
    pub fn summary(&self, table: &Table) -> Summary {
        let chunk = 1 << 16;
        let placements = table.len() / 2;
        let (max_win, max_loss, mutual_zugzwang) = (0..placements.div_ceil(chunk))
            .into_par_iter()
            .map(|c| {
                let (mut max_win, mut max_loss, mut mutual) = (None, None, 0);
                for placement in c * chunk..((c + 1) * chunk).min(placements) {
                    let pair = [table.probe(2 * placement), table.probe(2 * placement + 1)];
                    for value in pair {
                        match value {
                            Value::Win(d) => max_win = max_win.max(Some(d)),
                            Value::Loss(d) => max_loss = max_loss.max(Some(d)),
                            Value::Draw => {}
                        }
                    }
                    if pair.iter().all(|v| matches!(v, Value::Loss(_))) {
                        mutual += 1;
                    }
                }
                (max_win, max_loss, mutual)
            })
            .reduce(|| (None, None, 0), |a, b| (a.0.max(b.0), a.1.max(b.1), a.2 + b.2));
        let counts = table.header().counts;
        let all = Tally { positions: table.len(), wins: counts.wins, losses: counts.losses, draws: counts.draws };
        let mut reachable_tally = Tally::default();
        for idx in reachable(self, &self.start()).iter() {
            reachable_tally.add(table.probe(idx));
        }
        Summary {
            all,
            reachable: reachable_tally,
            start: table.probe(self.index.index(&self.start())),
            max_win,
            max_loss,
            mutual_zugzwang,
        }
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
                (m, Value::of_move_into(table.probe(self.index.index(&child))), child)
            })
            .collect();
        moves.sort_by(|a, b| b.1.cmp(&a.1));
        moves
    }
}
