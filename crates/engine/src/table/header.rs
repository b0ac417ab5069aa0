//! The byte layout of a table file's header.
//!
//! # Stability
//!
//! All fields are little-endian and fixed-width. Any change to this layout,
//! to the trailer, or to the meaning of an [`Encoding`]'s bytes bumps
//! [`FORMAT_VERSION`]; tables of another version are refused, never guessed at.
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `SOLVEDTB` |
//! | 8 | 4 | format version |
//! | 12 | 4 | value encoding |
//! | 16 | 16 | game id, ASCII, NUL-padded |
//! | 32 | 16 | variant, ASCII, NUL-padded |
//! | 48 | 16 | size, ASCII, NUL-padded |
//! | 64 | 8 | number of positions |
//! | 72 | 8 | wins (or positive scores) for the side to move |
//! | 80 | 8 | losses (or negative scores) |
//! | 88 | 8 | draws (or zero scores) |
//! | 96 | n | the values, in index order |
//! | 96 + n | 8 | CRC-64/XZ of every byte before it |

use super::FormatError;

/// The first bytes of every table file.
pub const MAGIC: [u8; 8] = *b"SOLVEDTB";

/// The version of the layout this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The length of the header in bytes.
pub const HEADER_LEN: usize = 96;

/// The length of the checksum trailer in bytes.
pub const TRAILER_LEN: usize = 8;

const TEXT_LEN: usize = 16;

/// How each position's value is stored.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Hash)]
pub enum Encoding {
    /// One [`PackedValue`](crate::PackedValue) byte per position.
    PackedValue,
}

impl Encoding {
    fn code(self) -> u32 {
        match self {
            Encoding::PackedValue => 1,
        }
    }

    fn from_code(code: u32) -> Option<Encoding> {
        match code {
            1 => Some(Encoding::PackedValue),
            _ => None,
        }
    }

    /// The number of bytes per position.
    pub fn bytes_per_position(self) -> u64 {
        match self {
            Encoding::PackedValue => 1,
        }
    }
}

/// What a table holds: the fields a caller checks before trusting it.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct TableKey {
    /// The game's id, such as `dodgem`.
    pub game: String,
    /// The rules variant, such as `normal` or `misere`.
    pub variant: String,
    /// The board size, such as `5x5`.
    pub size: String,
    /// How values are stored.
    pub encoding: Encoding,
    /// The number of positions.
    pub positions: u64,
}

/// Positions by result for the side to move.
#[derive(Copy, Clone, Debug, Default, Eq, PartialEq, Hash)]
pub struct Counts {
    /// Won (or scoring above zero).
    pub wins: u64,
    /// Lost (or scoring below zero).
    pub losses: u64,
    /// Drawn (or scoring zero).
    pub draws: u64,
}

/// A parsed header.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Header {
    /// What the table holds.
    pub key: TableKey,
    /// The results it holds.
    pub counts: Counts,
}

impl Header {
    /// The header's bytes.
    ///
    /// # Panics
    ///
    /// Panics if a text field is longer than 16 bytes or not ASCII; keys
    /// come from code, not from users.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let key = &self.key;
        let mut bytes = [0; HEADER_LEN];
        bytes[0..8].copy_from_slice(&MAGIC);
        bytes[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes[12..16].copy_from_slice(&key.encoding.code().to_le_bytes());
        for (offset, text) in [(16, &key.game), (32, &key.variant), (48, &key.size)] {
            assert!(text.len() <= TEXT_LEN && text.is_ascii(), "table key field {text:?} too long or not ASCII");
            bytes[offset..offset + text.len()].copy_from_slice(text.as_bytes());
        }
        let numbers = [key.positions, self.counts.wins, self.counts.losses, self.counts.draws];
        for (i, n) in numbers.into_iter().enumerate() {
            bytes[64 + 8 * i..72 + 8 * i].copy_from_slice(&n.to_le_bytes());
        }
        bytes
    }

    /// Parses a header from the start of a file, checking it against what
    /// the caller expects, in the order: length, magic, version, game,
    /// variant, size, encoding, position count.
    ///
    /// # Errors
    ///
    /// The first check that fails, as a [`FormatError`].
    pub fn read(bytes: &[u8], expected: &TableKey) -> Result<Header, FormatError> {
        let Some(bytes) = bytes.get(..HEADER_LEN) else {
            return Err(FormatError::TooShort { len: bytes.len() as u64 });
        };
        if bytes[0..8] != MAGIC {
            return Err(FormatError::Magic);
        }
        let version = u32_at(bytes, 8);
        if version != FORMAT_VERSION {
            return Err(FormatError::Version { found: version, supported: FORMAT_VERSION });
        }
        let texts = [("game", 16, &expected.game), ("variant", 32, &expected.variant), ("size", 48, &expected.size)];
        let mut found_texts = Vec::with_capacity(3);
        for (field, offset, wanted) in texts {
            let found = text_at(bytes, offset);
            if &found != wanted {
                return Err(FormatError::Mismatch { field, found, expected: wanted.clone() });
            }
            found_texts.push(found);
        }
        let code = u32_at(bytes, 12);
        let encoding = Encoding::from_code(code).ok_or(FormatError::UnknownEncoding { code })?;
        if encoding != expected.encoding {
            return Err(FormatError::Mismatch {
                field: "encoding",
                found: format!("{encoding:?}"),
                expected: format!("{:?}", expected.encoding),
            });
        }
        let positions = u64_at(bytes, 64);
        if positions != expected.positions {
            return Err(FormatError::Mismatch {
                field: "position count",
                found: positions.to_string(),
                expected: expected.positions.to_string(),
            });
        }
        let [game, variant, size] = found_texts.try_into().expect("three text fields");
        Ok(Header {
            key: TableKey { game, variant, size, encoding, positions },
            counts: Counts { wins: u64_at(bytes, 72), losses: u64_at(bytes, 80), draws: u64_at(bytes, 88) },
        })
    }
}

fn u32_at(bytes: &[u8], offset: usize) -> u32 {
    u32::from_le_bytes(bytes[offset..offset + 4].try_into().expect("four bytes"))
}

fn u64_at(bytes: &[u8], offset: usize) -> u64 {
    u64::from_le_bytes(bytes[offset..offset + 8].try_into().expect("eight bytes"))
}

fn text_at(bytes: &[u8], offset: usize) -> String {
    let field = &bytes[offset..offset + TEXT_LEN];
    let end = field.iter().position(|&b| b == 0).unwrap_or(TEXT_LEN);
    String::from_utf8_lossy(&field[..end]).into_owned()
}
