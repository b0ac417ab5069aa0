//! Move generation with bit operations and no allocation, for the solver.
//!
//! Everything here must agree with the plain rules in the parent module;
//! the tests compare the two on many positions.

use super::{Color, Direction, HAND, Move, PawnRule, Position, ROLES, Role, complete_line, rank_of, squares, turned};

/// Ray directions: north, south, east, west, north-east, north-west,
/// south-east, south-west. The first of each pair of opposites increases
/// the square index.
const STEPS: [(i8, i8); 8] = [(0, 1), (0, -1), (1, 0), (-1, 0), (1, 1), (-1, 1), (1, -1), (-1, -1)];
const INCREASING: [bool; 8] = [true, false, true, false, true, true, false, false];
const ROOK_RAYS: [usize; 4] = [0, 1, 2, 3];
const BISHOP_RAYS: [usize; 4] = [4, 5, 6, 7];

const fn on_board(file: i8, rank: i8) -> bool {
    file >= 0 && file < 4 && rank >= 0 && rank < 4
}

/// `RAYS[direction][square]`: the squares from `square` outward.
const RAYS: [[u16; 16]; 8] = {
    let mut rays = [[0u16; 16]; 8];
    let mut d = 0;
    while d < 8 {
        let mut square = 0;
        while square < 16 {
            let (mut f, mut r) = ((square % 4) as i8 + STEPS[d].0, (square / 4) as i8 + STEPS[d].1);
            while on_board(f, r) {
                rays[d][square] |= 1 << (r * 4 + f);
                f += STEPS[d].0;
                r += STEPS[d].1;
            }
            square += 1;
        }
        d += 1;
    }
    rays
};

const KNIGHT: [u16; 16] = {
    let jumps: [(i8, i8); 8] = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
    let mut table = [0u16; 16];
    let mut square = 0;
    while square < 16 {
        let mut j = 0;
        while j < 8 {
            let (f, r) = ((square % 4) as i8 + jumps[j].0, (square / 4) as i8 + jumps[j].1);
            if on_board(f, r) {
                table[square] |= 1 << (r * 4 + f);
            }
            j += 1;
        }
        square += 1;
    }
    table
};

/// `BEYOND[from][blocker]`: the squares a slider on `from` stops reaching
/// once `blocker` is occupied, those past it on the line from `from`
/// through it; none when the two are not on one line.
const BEYOND: [[u16; 16]; 16] = {
    let mut beyond = [[0u16; 16]; 16];
    let mut d = 0;
    while d < 8 {
        let mut from = 0;
        while from < 16 {
            let mut ray = RAYS[d][from];
            while ray != 0 {
                let blocker = ray.trailing_zeros() as usize;
                beyond[from][blocker] = RAYS[d][blocker];
                ray &= ray - 1;
            }
            from += 1;
        }
        d += 1;
    }
    beyond
};

/// The square one step from `square` in a pawn's `direction`, as a mask.
fn ahead(square: u8, direction: Direction) -> u16 {
    match direction {
        Direction::Up if rank_of(square) < 3 => 1 << (square + 4),
        Direction::Down if rank_of(square) > 0 => 1 << (square - 4),
        _ => 0,
    }
}

/// The squares diagonally ahead of `square` in `direction`.
fn diagonals_ahead(square: u8, direction: Direction) -> u16 {
    let front = ahead(square, direction);
    ((front << 1) & 0xeeee) | ((front >> 1) & 0x7777)
}

/// The squares a slider on `square` reaches along `rays`, stopping at (and
/// including) the first occupied square of each. Without a branch: whether
/// a ray is blocked is as good as random, and mispredicting it cost more
/// than the arithmetic that serves both cases.
#[inline]
fn slide(square: u8, occupied: u16, rays: [usize; 4]) -> u16 {
    let mut reach = 0;
    for d in rays {
        let ray = RAYS[d][usize::from(square)];
        let blockers = ray & occupied;
        reach |= if INCREASING[d] {
            // The lowest blocker and everything below it; all of the ray
            // if there is none (then `first − 1` is every bit).
            let first = blockers & blockers.wrapping_neg();
            ray & (first | first.wrapping_sub(1))
        } else {
            // The highest blocker and everything above it; with none, bit
            // 0 stands in for it and keeps the whole ray (a ray going down
            // holds square 0 only as its end, kept either way).
            let first = 0x8000u16 >> (blockers | 1).leading_zeros();
            ray & !(first - 1)
        };
    }
    reach
}

/// The squares a piece of `role` on `square` reaches (own pieces included,
/// for the caller to mask), given the occupancy; pawns are handled apart.
fn reach(role: Role, square: u8, occupied: u16) -> u16 {
    match role {
        Role::Knight => KNIGHT[usize::from(square)],
        Role::Bishop => slide(square, occupied, BISHOP_RAYS),
        Role::Rook => slide(square, occupied, ROOK_RAYS),
        Role::Pawn => 0,
    }
}

impl Position {
    /// The squares the mover's piece of `role` on `from` can move to, given
    /// the mover's squares `own` and the opponent's `theirs`.
    #[inline]
    fn targets(&self, role: Role, from: u8, own: u16, theirs: u16, rule: PawnRule) -> u16 {
        if role != Role::Pawn {
            return reach(role, from, own | theirs) & !own;
        }
        let (forward, diagonals) = self.pawn_squares(from, rule);
        (forward & !(own | theirs)) | (diagonals & theirs)
    }

    /// The square ahead of the mover's pawn on `from`, and the squares
    /// where it may capture (none while it returns under
    /// [`PawnRule::Outbound`]).
    #[inline]
    fn pawn_squares(&self, from: u8, rule: PawnRule) -> (u16, u16) {
        let mover = self.turn;
        let direction = self.directions[mover as usize];
        let diagonals = if rule == PawnRule::Travel || direction == mover.home_direction() {
            diagonals_ahead(from, direction)
        } else {
            0
        };
        (ahead(from, direction), diagonals)
    }

    /// The number of legal moves (0 once the game is over).
    pub fn count_moves(&self, rule: PawnRule) -> u32 {
        let mover = self.turn;
        let own = self.occupied_by(mover);
        let theirs = self.occupied_by(mover.other());
        if complete_line(own) || complete_line(theirs) {
            return 0;
        }
        let empty = !(own | theirs);
        let first = mover as usize * 4;
        let in_hand = self.squares[first..first + 4].iter().filter(|&&s| s == HAND).count() as u32;
        let mut count = in_hand * empty.count_ones();
        if self.opening {
            return count;
        }
        for role in ROLES {
            let from = self.squares[first + role as usize];
            if from != HAND {
                count += self.targets(role, from, own, theirs, rule).count_ones();
            }
        }
        count
    }

    /// [`count_moves`](Self::count_moves) of each position that `self`
    /// becomes with the piece in slot `moving` on each of `targets`, in
    /// increasing order; `None` where the game is over.
    ///
    /// When the piece is the opponent's, the mover's pieces stay put: what
    /// they reach is worked out once, and each square then only blocks a
    /// slider's line, blocks or feeds the pawn, and may complete a line.
    ///
    /// Inlined into seeding's loop, which the compiler stopped doing of
    /// itself after changes elsewhere (seeding 13.1 s rather than 12.0 s).
    #[inline(always)]
    pub fn count_moves_along(&self, moving: usize, targets: u16, rule: PawnRule, mut f: impl FnMut(Option<u32>)) {
        let mover = self.turn;
        if self.opening || moving / 4 == mover as usize {
            let mut pos = *self;
            for square in squares(targets) {
                pos.squares[moving] = square;
                f((!pos.is_over()).then(|| pos.count_moves(rule)));
            }
            return;
        }
        let own = self.occupied_by(mover);
        // Without the moving piece (a square, not in hand, so the shift
        // stays in range).
        let theirs = self.occupied_by(mover.other()) & !(1 << self.squares[moving]);
        if complete_line(own) {
            return squares(targets).for_each(|_| f(None));
        }
        let empty = !(own | theirs);
        let first = mover as usize * 4;
        let in_hand = self.squares[first..first + 4].iter().filter(|&&s| s == HAND).count() as u32;
        // The moving piece takes one of the empty squares.
        let mut count = in_hand * (empty.count_ones() - 1);
        // What a slider reaches with the moving piece off the board; none
        // for a slider in hand.
        let mut sliders = [(0u16, 0u8); 2];
        let (mut pawn_blocked, mut pawn_captures) = (0, 0);
        for role in ROLES {
            let from = self.squares[first + role as usize];
            if from == HAND {
                continue;
            }
            match role {
                Role::Pawn => {
                    let (forward, diagonals) = self.pawn_squares(from, rule);
                    count += ((forward & empty) | (diagonals & theirs)).count_ones();
                    (pawn_blocked, pawn_captures) = (forward & empty, diagonals & empty);
                }
                Role::Knight => count += (KNIGHT[usize::from(from)] & !own).count_ones(),
                Role::Bishop => sliders[0] = (reach(role, from, own | theirs) & !own, from),
                Role::Rook => sliders[1] = (reach(role, from, own | theirs) & !own, from),
            }
        }
        for square in squares(targets) {
            let bit = 1 << square;
            if complete_line(theirs | bit) {
                f(None);
                continue;
            }
            let slid: u32 = sliders
                .iter()
                .map(|&(reach, from)| (reach & !BEYOND[usize::from(from)][usize::from(square)]).count_ones())
                .sum();
            f(Some(count + slid + u32::from(pawn_captures & bit != 0) - u32::from(pawn_blocked & bit != 0)));
        }
    }

    /// Calls `f` with each legal move and the position after it.
    pub fn for_each_move(&self, rule: PawnRule, mut f: impl FnMut(Move, Position)) {
        let mover = self.turn;
        let own = self.occupied_by(mover);
        let theirs = self.occupied_by(mover.other());
        if complete_line(own) || complete_line(theirs) {
            return;
        }
        let empty = !(own | theirs);
        let first = mover as usize * 4;
        for role in ROLES {
            if self.squares[first + role as usize] == HAND {
                for to in squares(empty) {
                    let m = Move::Place { role, to };
                    f(m, self.play_unchecked(m));
                }
            }
        }
        if self.opening {
            return;
        }
        for role in ROLES {
            let from = self.squares[first + role as usize];
            if from == HAND {
                continue;
            }
            for to in squares(self.targets(role, from, own, theirs, rule)) {
                let m = Move::Step { from, to };
                f(m, self.play_unchecked(m));
            }
        }
    }

    /// Calls `f` with every post-opening position, White to move, that has
    /// a White move leading to this position's flipped twin; that is, the
    /// parents of this White-to-move position in the solver's domain, once
    /// per move. Parents where the game was already over are left out.
    pub fn for_each_parent(&self, rule: PawnRule, mut f: impl FnMut(Position)) {
        // The twin: Black to move, White having just moved.
        let z = self.flipped();
        let white = z.occupied_by(Color::White);
        let black = z.occupied_by(Color::Black);
        let empty = !(white | black);
        // With White's and Black's squares in it, known without reading it.
        let mut emit = |parent: Position, white: u16, black: u16| {
            if !complete_line(white) && !complete_line(black) {
                f(Position { turn: Color::White, ..parent });
            }
        };
        for role in ROLES {
            let slot = role as usize;
            let to = z.squares[slot];
            if to == HAND {
                continue;
            }
            let direction = z.directions[0];
            let white_before = white & !(1 << to);
            // Placed: a pawn is placed facing up, and turned round on rank 4.
            if role != Role::Pawn || direction == turned(to, Direction::Up) {
                let facing = if role == Role::Pawn { Direction::Up } else { direction };
                emit(z.with_square(slot, HAND).with_direction(Color::White, facing), white_before, black);
            }
            // Moved, or moved capturing a Black piece now in Black's hand.
            let (quiet, capturing, before) = if role == Role::Pawn {
                let before = match (rank_of(to), direction) {
                    (3, Direction::Down) => Direction::Up,
                    (0, Direction::Up) => Direction::Down,
                    (_, d) => d,
                };
                let back = ahead(to, before.reversed()) & empty;
                let diagonal_back = if rule == PawnRule::Travel || before == Direction::Up {
                    diagonals_ahead(to, before.reversed()) & empty
                } else {
                    0
                };
                (back, diagonal_back, before)
            } else {
                let sources = reach(role, to, white | black) & empty;
                (sources, sources, direction)
            };
            let moved = z.with_direction(Color::White, before);
            for from in squares(quiet) {
                emit(moved.with_square(slot, from), white_before | 1 << from, black);
            }
            for from in squares(capturing) {
                let moved = moved.with_square(slot, from);
                for captured in ROLES {
                    if z.squares[4 + captured as usize] != HAND {
                        continue;
                    }
                    let directions: &[Direction] = if captured == Role::Pawn {
                        match rank_of(to) {
                            0 => &[Direction::Up],
                            3 => &[Direction::Down],
                            _ => &[Direction::Up, Direction::Down],
                        }
                    } else {
                        &[Direction::Down]
                    };
                    let capture = moved.with_square(4 + captured as usize, to);
                    for &captured_direction in directions {
                        let parent = if captured == Role::Pawn {
                            capture.with_direction(Color::Black, captured_direction)
                        } else {
                            capture
                        };
                        emit(parent, white_before | 1 << from, black | 1 << to);
                    }
                }
            }
        }
    }
}

impl Position {
    /// Whether the side not to move could complete a line at once, were it
    /// its turn: whether the side to move faces a threat.
    pub fn is_threatened(&self, rule: PawnRule) -> bool {
        Position { turn: self.turn.other(), ..*self }.can_win_at_once(rule)
    }

    /// Whether the side to move can complete a line with its next move,
    /// by placing a piece or by moving one that is not on that line.
    pub fn can_win_at_once(&self, rule: PawnRule) -> bool {
        let mover = self.turn;
        let own = self.occupied_by(mover);
        let theirs = self.occupied_by(mover.other());
        if complete_line(own) || complete_line(theirs) {
            return false;
        }
        let empty = !(own | theirs);
        let first = mover as usize * 4;
        let any_in_hand = self.squares[first..first + 4].contains(&HAND);
        for line in super::LINES {
            let missing = line & !own;
            if missing.count_ones() != 1 {
                continue;
            }
            if any_in_hand && missing & empty != 0 && !self.opening {
                return true;
            }
            if self.opening {
                // Placements only, and a line needs four pieces on the board.
                continue;
            }
            for role in ROLES {
                let from = self.squares[first + role as usize];
                if from == HAND || line & (1 << from) != 0 {
                    continue;
                }
                if self.targets(role, from, own, theirs, rule) & missing != 0 {
                    return true;
                }
            }
        }
        false
    }
}
