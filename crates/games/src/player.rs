//! The perfect computer player's choice among ranked moves.

use rand::{Rng, RngExt};
use solved_engine::Value;

/// Picks a move among values ranked best first, as the perfect player does:
/// uniformly at random among the moves whose value equals the best. A
/// winning player thus always keeps the shortest win (otherwise it could
/// circle forever without winning), a losing one the longest loss, and a
/// drawing one picks any drawing move. Returns `None` if there is no move.
///
/// # Examples
///
/// ```
/// use solved_engine::{Plies, Value};
/// use solved_games::player::choose;
/// let ranked = [Value::Win(Plies(3)), Value::Win(Plies(5)), Value::Draw];
/// assert_eq!(choose(&ranked, &mut rand::rng()), Some(0));
/// ```
pub fn choose(ranked: &[Value], rng: &mut impl Rng) -> Option<usize> {
    let best = *ranked.first()?;
    let ties = ranked.iter().take_while(|&&v| v == best).count();
    Some(rng.random_range(0..ties))
}
