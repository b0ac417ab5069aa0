//! One-byte encoding of a value, and its two-byte widening.
//!
//! # Stability
//!
//! Both encodings are written to table files. Changing either requires
//! bumping `table::FORMAT_VERSION`.
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
//!
//! [`WideValue`] is the same code in two bytes (little-endian on disk), for
//! the distances past 126 plies that a byte cannot hold: a byte widened to
//! two keeps its number, so code for code the two agree.

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
        WideValue::pack(value)?.narrow()
    }

    /// The value this byte stands for.
    pub fn unpack(self) -> Value {
        self.widen().unpack()
    }

    /// Reinterprets a stored byte. Every byte is a valid code.
    pub const fn from_byte(byte: u8) -> PackedValue {
        PackedValue(byte)
    }

    /// The stored byte.
    pub const fn to_byte(self) -> u8 {
        self.0
    }

    /// The same value in two bytes.
    pub fn widen(self) -> WideValue {
        WideValue(u16::from(self.0))
    }
}

/// A [`Value`] packed into two bytes, as [`PackedValue`] packs it into one.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub struct WideValue(u16);

impl WideValue {
    /// The longest distance every value can be packed with.
    pub const MAX_PLIES: Plies = Plies(32_766);

    /// Packs a value, or returns `None` if its distance exceeds the encoding.
    ///
    /// # Examples
    ///
    /// ```
    /// use solved_engine::{PackedValue, Plies, Value, WideValue};
    /// let packed = WideValue::pack(Value::Win(Plies(200))).unwrap();
    /// assert_eq!(packed.unpack(), Value::Win(Plies(200)));
    /// assert_eq!(packed.narrow(), None);
    /// let short = PackedValue::pack(Value::Loss(Plies(38))).unwrap();
    /// assert_eq!(short.widen().narrow(), Some(short));
    /// ```
    pub fn pack(value: Value) -> Option<WideValue> {
        let code = match value {
            Value::Draw => 0,
            Value::Win(Plies(d)) if d <= 32_767 => 2 * d + 1,
            Value::Loss(Plies(d)) if d <= 32_766 => 2 * d + 2,
            _ => return None,
        };
        Some(WideValue(code))
    }

    /// The value this code stands for.
    pub fn unpack(self) -> Value {
        match self.0 {
            0 => Value::Draw,
            c if c % 2 == 1 => Value::Win(Plies((c - 1) / 2)),
            c => Value::Loss(Plies((c - 2) / 2)),
        }
    }

    /// The same value in one byte, if it fits.
    pub fn narrow(self) -> Option<PackedValue> {
        u8::try_from(self.0).ok().map(PackedValue)
    }

    /// Reinterprets a stored code. Every code is valid.
    pub const fn from_code(code: u16) -> WideValue {
        WideValue(code)
    }

    /// The stored code.
    pub const fn to_code(self) -> u16 {
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

    #[test]
    fn wide_codes_round_trip_and_agree_with_bytes() {
        for code in (0..=u16::MAX).step_by(7).chain([u16::MAX - 1, u16::MAX]) {
            let value = WideValue::from_code(code).unpack();
            assert_eq!(WideValue::pack(value).map(WideValue::to_code), Some(code));
        }
        for byte in 0..=u8::MAX {
            let packed = PackedValue::from_byte(byte);
            assert_eq!(packed.widen().unpack(), packed.unpack());
            assert_eq!(packed.widen().narrow(), Some(packed));
        }
        assert_eq!(WideValue::pack(Value::Win(WideValue::MAX_PLIES)).unwrap().unpack(), Value::Win(Plies(32_766)));
        assert_eq!(WideValue::pack(Value::Loss(Plies(32_767))), None);
    }
}
