//! One-byte encoding of a value.
//!
//! # Stability
//!
//! This encoding is written to table files. Changing it requires bumping
//! `table::FORMAT_VERSION`.
//!
//! | byte | value |
//! |---|---|
//! | `0` | draw |
//! | odd `b` | win in `(b - 1) / 2` plies (0 ..= 127) |
//! | even `b > 0` | loss in `(b - 2) / 2` plies (0 ..= 126) |
//!
//! The win/loss bit is stored explicitly rather than read from the parity of
//! the distance: in Dodgem a side to move without a legal move has won at
//! distance 0, so wins and losses occur at both parities. Every byte decodes
//! to some value, so a table that passed its checksum cannot hold an invalid
//! code.

use crate::value::{Plies, Value};

/// A [`Value`] packed into one byte.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct PackedValue(u8);

impl PackedValue {
    /// The packed draw.
    pub const DRAW: PackedValue = PackedValue(0);

    /// The longest distance every value can be packed with.
    pub const MAX_PLIES: Plies = Plies(126);

    /// Packs a value, or returns `None` if its distance exceeds the encoding.
    ///
    /// # Examples
    ///
    /// ```
    /// use solved_engine::{PackedValue, Plies, Value};
    /// let packed = PackedValue::pack(Value::Loss(Plies(38))).unwrap();
    /// assert_eq!(packed.unpack(), Value::Loss(Plies(38)));
    /// assert_eq!(PackedValue::pack(Value::Win(Plies(200))), None);
    /// ```
    pub fn pack(value: Value) -> Option<PackedValue> {
        let byte = match value {
            Value::Draw => 0,
            Value::Win(Plies(d)) if d <= 127 => 2 * d + 1,
            Value::Loss(Plies(d)) if d <= 126 => 2 * d + 2,
            _ => return None,
        };
        Some(PackedValue(byte as u8))
    }

    /// The value this byte stands for.
    pub fn unpack(self) -> Value {
        match self.0 {
            0 => Value::Draw,
            b if b % 2 == 1 => Value::Win(Plies(u16::from(b - 1) / 2)),
            b => Value::Loss(Plies(u16::from(b - 2) / 2)),
        }
    }

    /// Reinterprets a stored byte. Every byte is a valid code.
    pub const fn from_byte(byte: u8) -> PackedValue {
        PackedValue(byte)
    }

    /// The stored byte.
    pub const fn to_byte(self) -> u8 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_round_trips() {
        for byte in 0..=u8::MAX {
            let value = PackedValue::from_byte(byte).unpack();
            assert_eq!(PackedValue::pack(value).map(PackedValue::to_byte), Some(byte));
        }
    }

    #[test]
    fn distances_up_to_the_limit_pack() {
        for d in 0..=PackedValue::MAX_PLIES.0 {
            for value in [Value::Win(Plies(d)), Value::Loss(Plies(d))] {
                assert_eq!(PackedValue::pack(value).unwrap().unpack(), value);
            }
        }
        assert_eq!(PackedValue::pack(Value::Loss(Plies(127))), None);
    }
}
