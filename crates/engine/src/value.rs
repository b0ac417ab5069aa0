//! Game-theoretic values and distances.

use std::cmp::Ordering;
use std::fmt;
use std::ops::Neg;

/// A distance in plies (single moves by either side).
///
/// Distances are counted in plies rather than full moves because the games
/// we solve do not always alternate whole moves, and because a win at
/// distance 0 (a terminal position) must be distinct from a win in one ply.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub struct Plies(pub u16);

impl fmt::Display for Plies {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The value of a position for the side to move, with perfect play.
///
/// A win carries the length of the shortest forced win, a loss the length of
/// the longest resistance; both are counted to the end of the game.
///
/// `Ord` ranks values by how good they are for the side to move: a shorter
/// win beats a longer one, any win beats a draw, and a longer loss beats a
/// shorter one.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Value {
    /// The side to move wins in this many plies.
    Win(Plies),
    /// The side to move loses in this many plies.
    Loss(Plies),
    /// Neither side can force a win.
    Draw,
}

impl Value {
    /// The value, from the mover's side, of a move into a position whose
    /// value for the opponent is `child`: negated, and one ply longer.
    ///
    /// # Examples
    ///
    /// ```
    /// use solved_engine::{Plies, Value};
    /// assert_eq!(Value::of_move_into(Value::Win(Plies(17))), Value::Loss(Plies(18)));
    /// assert_eq!(Value::of_move_into(Value::Draw), Value::Draw);
    /// ```
    pub fn of_move_into(child: Value) -> Value {
        match -child {
            Value::Win(Plies(d)) => Value::Win(Plies(d + 1)),
            Value::Loss(Plies(d)) => Value::Loss(Plies(d + 1)),
            Value::Draw => Value::Draw,
        }
    }

    /// The distance to the end of the game, or `None` for a draw.
    pub fn plies(self) -> Option<Plies> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The bare result, without a distance.
    pub fn outcome_word(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw => "draw",
        }
    }

    #[inline]
    fn goodness(self) -> (i8, i32) {
        match self {
            Value::Win(Plies(d)) => (1, -i32::from(d)),
            Value::Draw => (0, 0),
            Value::Loss(Plies(d)) => (-1, i32::from(d)),
        }
    }
}

impl Neg for Value {
    type Output = Value;

    fn neg(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d),
            Value::Loss(d) => Value::Win(d),
            Value::Draw => Value::Draw,
        }
    }
}

impl Ord for Value {
    #[inline]
    fn cmp(&self, other: &Self) -> Ordering {
        self.goodness().cmp(&other.goodness())
    }
}

impl PartialOrd for Value {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// Writes `W19`, `L18` or `=`.
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "W{d}"),
            Value::Loss(d) => write!(f, "L{d}"),
            Value::Draw => f.write_str("="),
        }
    }
}

/// Written as every `--json` output and the web API show a value:
/// `{"value": "win", "distance": 12}`, the distance `null` for a draw. A
/// field marked `#[serde(flatten)]` puts the two keys beside its siblings.
impl serde::Serialize for Value {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut fields = serializer.serialize_struct("Value", 2)?;
        fields.serialize_field("value", self.outcome_word())?;
        fields.serialize_field("distance", &self.plies().map(|p| p.0))?;
        fields.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordering_prefers_short_wins_and_long_losses() {
        let mut values = vec![
            Value::Loss(Plies(3)),
            Value::Win(Plies(9)),
            Value::Draw,
            Value::Loss(Plies(30)),
            Value::Win(Plies(1)),
        ];
        values.sort_by(|a, b| b.cmp(a));
        assert_eq!(
            values,
            vec![
                Value::Win(Plies(1)),
                Value::Win(Plies(9)),
                Value::Draw,
                Value::Loss(Plies(30)),
                Value::Loss(Plies(3)),
            ]
        );
    }

    #[test]
    fn negation_swaps_win_and_loss() {
        assert_eq!(-Value::Win(Plies(4)), Value::Loss(Plies(4)));
        assert_eq!(-Value::Draw, Value::Draw);
    }

    #[test]
    fn display_uses_short_codes() {
        assert_eq!(Value::Win(Plies(19)).to_string(), "W19");
        assert_eq!(Value::Loss(Plies(0)).to_string(), "L0");
        assert_eq!(Value::Draw.to_string(), "=");
    }
}
