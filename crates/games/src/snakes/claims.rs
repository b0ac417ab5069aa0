//! Snakes and Ladders' published figures, checked.

use super::{Overshoot, analyse, built_in, decimal};
use crate::claims::{ClaimCheck, Verdict};

/// Checks the published figures: the 30-cell example's fewest throws, the
/// Milton Bradley board's shortest game (both printings), and the size of
/// its exact expected length.
pub fn verify() -> Vec<ClaimCheck> {
    let board = |name| built_in(name, Overshoot::Stay).expect("built-in boards exist");
    let throws = |name| analyse(&board(name)).shortest.map(|s| s.rolls.len());
    let mut claims = Vec::new();
    let example = throws("example-30");
    claims.push(ClaimCheck::new(
        "1",
        "30-cell example: fewest throws to the goal",
        "the seed problem (breadth-first search)",
        "3",
        example.map_or("unreachable".into(), |t| t.to_string()),
        Verdict::of(example == Some(3)),
    ));
    for (name, chute) in [("milton-bradley", "48->26"), ("milton-bradley-47", "47->26")] {
        let shortest = throws(name);
        claims.push(ClaimCheck::new(
            "2",
            &format!("Milton Bradley Chutes and Ladders (chute {chute}): shortest game"),
            "the spec's board",
            "7 turns",
            shortest.map_or("unreachable".into(), |t| format!("{t} turns")),
            Verdict::of(shortest == Some(7)),
        ));
    }
    // Printings differ (chute 48->26 or 47->26); the published fraction is
    // one of them, so both are worked out and the one that matches named.
    let sizes: Vec<(&str, Option<usize>, String)> = [("48->26", "milton-bradley"), ("47->26", "milton-bradley-47")]
        .into_iter()
        .map(|(chute, name)| {
            let expected = analyse(&board(name)).expectation.from_start;
            let digits = expected.as_ref().map(|e| e.numer().to_string().trim_start_matches('-').len());
            let value = expected.as_ref().map_or("infinite".into(), |e| decimal(e, 4));
            (chute, digits, value)
        })
        .collect();
    let ours: Vec<String> = sizes
        .iter()
        .map(|(chute, digits, value)| match digits {
            Some(d) => format!("{d} digits with chute {chute} ({value})"),
            None => format!("infinite with chute {chute}"),
        })
        .collect();
    claims.push(ClaimCheck::new(
        "3",
        "Milton Bradley: the exact expected length is a reduced fraction with a 60-digit numerator",
        "the spec (printings differ)",
        "60 digits",
        ours.join("; "),
        Verdict::of(sizes.iter().any(|(_, digits, _)| *digits == Some(60))),
    ));
    claims
}
