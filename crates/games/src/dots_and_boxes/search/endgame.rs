//! The value of a loony endgame without search: when every open box has
//! exactly two undrawn sides, the open boxes form chains (from edge to
//! edge) and loops that share no box, every line hands the opponent boxes,
//! and what follows depends only on the lengths.
//!
//! The player to move opens one component; the opponent takes every box of
//! it and moves on, or (for a chain of three or more, a loop of four or
//! more) takes all but two (four for a loop) and declines them with
//! Berlekamp's double-dealing move, so that the opener takes those and
//! must move on. Nothing else is better for either (a 2-chain is best
//! opened in its middle, which leaves no decline; a chain opened in its
//! middle gives the same as at its end). The tests hold this to the full
//! sweep.

use super::Search;

/// The most components an endgame is valued with: the recursion tries
/// every distinct one at each step, unremembered, so that eight distinct
/// components take 8! orders.
const MAX_COMPONENTS: usize = 8;

/// A chain or a loop of open boxes.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd)]
enum Component {
    Chain(i32),
    Loop(i32),
}

impl Search {
    /// The mover's margin at `drawn` if it is a loony endgame of few enough
    /// components, with no box to take.
    pub(super) fn endgame(&self, drawn: u64) -> Option<i32> {
        if self.boxes.iter().any(|&sides| !matches!((sides & !drawn).count_ones(), 0 | 2)) {
            return None;
        }
        let mut components = Vec::new();
        let mut seen = 0u64;
        for (b, &sides) in self.boxes.iter().enumerate() {
            let open = sides & !drawn;
            if open == 0 || seen >> b & 1 == 1 {
                continue;
            }
            seen |= 1 << b;
            let first = open & open.wrapping_neg();
            let (length, closed) = self.follow(drawn, b, first, &mut seen);
            let component = if closed {
                Component::Loop(length + 1)
            } else {
                Component::Chain(length + 1 + self.follow(drawn, b, open ^ first, &mut seen).0)
            };
            components.push(component);
            if components.len() > MAX_COMPONENTS {
                return None;
            }
        }
        components.sort_unstable();
        Some(opener_margin(&mut components))
    }

    /// Walks from box `from` through its undrawn side `line` along boxes of
    /// two undrawn sides, marking them seen: how many boxes it passes, and
    /// whether it came back to `from` (a loop) rather than to the edge.
    fn follow(&self, drawn: u64, from: usize, mut line: u64, seen: &mut u64) -> (i32, bool) {
        let (mut here, mut length) = (from, 0);
        while let Some(next) = self.beside(line, here) {
            if next == from {
                return (length, true);
            }
            *seen |= 1 << next;
            length += 1;
            line = self.boxes[next] & !drawn & !line;
            here = next;
        }
        (length, false)
    }
}

/// The mover's margin in the endgame of these components (sorted; left
/// as given).
fn opener_margin(components: &mut Vec<Component>) -> i32 {
    let mut best = None;
    for i in 0..components.len() {
        if i > 0 && components[i] == components[i - 1] {
            continue;
        }
        let opened = components.remove(i);
        let rest = opener_margin(components);
        components.insert(i, opened);
        let to_opponent = match opened {
            Component::Chain(n) if n <= 2 => n + rest,
            Component::Chain(n) => (n + rest).max(n - 4 - rest),
            Component::Loop(n) => (n + rest).max(n - 8 - rest),
        };
        best = best.max(Some(-to_opponent));
    }
    best.unwrap_or(0)
}
