//! A deliberately naive reference solver, for cross-checking the fast ones.
//!
//! It builds the whole game graph explicitly and applies the minimax
//! equation to every position at once, over and over, until nothing changes.
//! It shares no code with the retrograde solver: no tiers, no predecessors,
//! no counters. After round `r` exactly the positions whose distance is at
//! most `r` are known, with their final values; what is never known is a
//! draw.

use crate::game::DenseIndex;
use crate::value::{Plies, Value};

/// The value of every position, by index. Slow and memory-hungry: use it
/// only on small games.
pub fn solve_naive<G: DenseIndex>(game: &G) -> Vec<Value> {
    let count = game.position_count() as usize;
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); count];
    let mut known: Vec<Option<Value>> = vec![None; count];
    for idx in 0..count {
        let pos = game.unindex(idx as u64);
        known[idx] = game.terminal_value(&pos);
        if known[idx].is_none() {
            game.for_each_child(&pos, |child| children[idx].push(game.index(&child) as usize));
        }
    }
    loop {
        let next: Vec<Option<Value>> =
            (0..count).map(|idx| known[idx].or_else(|| one_round(&children[idx], &known))).collect();
        if next == known {
            return known.into_iter().map(|v| v.unwrap_or(Value::Draw)).collect();
        }
        known = next;
    }
}

fn one_round(children: &[usize], known: &[Option<Value>]) -> Option<Value> {
    let shortest_win = children
        .iter()
        .filter_map(|&c| match known[c] {
            Some(Value::Loss(Plies(d))) => Some(d + 1),
            _ => None,
        })
        .min();
    if let Some(d) = shortest_win {
        return Some(Value::Win(Plies(d)));
    }
    let mut longest_loss = 0;
    for &c in children {
        match known[c] {
            Some(Value::Win(Plies(d))) => longest_loss = longest_loss.max(d + 1),
            _ => return None,
        }
    }
    Some(Value::Loss(Plies(longest_loss)))
}
