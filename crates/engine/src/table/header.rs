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
//! | 16 | 4 | the game's index version |
//! | 20 | 4 | number of facts (at most 8) |
//! | 24 | 16 | game id, ASCII, NUL-padded |
//! | 40 | 16 | variant, ASCII, NUL-padded |
//! | 56 | 16 | size, ASCII, NUL-padded |
//! | 72 | 8 | number of positions |
//! | 80 | 8 | wins (or positive margins) for the side to move |
//! | 88 | 8 | losses (or negative margins) |
//! | 96 | 8 | draws (or zero margins) |
//! | 104 | 8 × 24 | facts: name (16 bytes, ASCII, NUL-padded) and value |
//! | 296 | n | the values, in index order |
//! | 296 + n | 8 | CRC-64/XZ of every byte before it |
//!
//! The index version belongs to the game: it changes whenever the game's
//! index puts any position at another place, so that an old table is refused
//! rather than misread. Facts are figures a game computes once, when it
//! solves (such as how many positions are reachable), so that a summary of
//! a cached table costs nothing.

use super::FormatError;
use super::encoding::Encoding;
use crate::tally::Tally;

/// The first bytes of every table file.
pub const MAGIC: [u8; 8] = *b"SOLVEDTB";

/// The version of the layout this build reads and writes.
pub const FORMAT_VERSION: u32 = 1;

/// The length of the header in bytes.
pub const HEADER_LEN: usize = 296;

/// The most facts a header holds.
pub const MAX_FACTS: usize = 8;

/// The length of the checksum trailer in bytes.
pub const TRAILER_LEN: usize = 8;

const TEXT_LEN: usize = 16;

/// What a table holds: the fields a caller checks before trusting it.
#[derive(Clone, Debug, Eq, PartialEq, Hash)]
pub struct TableKey {
    /// The game's id, such as `dodgem`.
    pub game: String,
    /// The rules variant, such as `normal` or `misere`.
    pub variant: String,
    /// The board size, such as `5x5`.
    pub size: String,
    /// The version of the game's index (see the module docs).
    pub index_version: u32,
    /// The number of positions.
    pub positions: u64,
}

/// A parsed header.
#[derive(Clone, Debug, Eq, PartialEq)]
pub struct Header {
    /// What the table holds.
    pub key: TableKey,
    /// Its [`Encoding::CODE`].
    pub encoding: u32,
    /// The results it holds.
    pub tally: Tally,
    /// Named figures the game stored when it solved.
    pub facts: Vec<(String, u64)>,
}

impl Header {
    /// The header's bytes.
    ///
    /// # Panics
    ///
    /// Panics if a text field or fact name is longer than 16 bytes or not
    /// ASCII, or if there are more than [`MAX_FACTS`] facts; keys and facts
    /// come from code, not from users.
    pub fn to_bytes(&self) -> [u8; HEADER_LEN] {
        let key = &self.key;
        let mut bytes = [0; HEADER_LEN];
        bytes[0..8].copy_from_slice(&MAGIC);
        bytes[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
        bytes[12..16].copy_from_slice(&self.encoding.to_le_bytes());
        bytes[16..20].copy_from_slice(&key.index_version.to_le_bytes());
        assert!(self.facts.len() <= MAX_FACTS, "at most {MAX_FACTS} facts fit a header");
        bytes[20..24].copy_from_slice(&(self.facts.len() as u32).to_le_bytes());
        let mut put_text = |offset: usize, text: &str| {
            assert!(text.len() <= TEXT_LEN && text.is_ascii(), "header text {text:?} too long or not ASCII");
            bytes[offset..offset + text.len()].copy_from_slice(text.as_bytes());
        };
        put_text(24, &key.game);
        put_text(40, &key.variant);
        put_text(56, &key.size);
        for (i, (name, _)) in self.facts.iter().enumerate() {
            put_text(104 + 24 * i, name);
        }
        let numbers = [key.positions, self.tally.wins, self.tally.losses, self.tally.draws];
        for (i, n) in numbers.into_iter().enumerate() {
            bytes[72 + 8 * i..80 + 8 * i].copy_from_slice(&n.to_le_bytes());
        }
        for (i, (_, value)) in self.facts.iter().enumerate() {
            bytes[120 + 24 * i..128 + 24 * i].copy_from_slice(&value.to_le_bytes());
        }
        bytes
    }

    /// Parses a header from the start of a file, checking it against what
    /// the caller expects, in the order: length, magic, version, game,
    /// variant, size, index version, encoding, position count.
    ///
    /// # Errors
    ///
    /// The first check that fails, as a [`FormatError`].
    pub fn read<E: Encoding>(bytes: &[u8], expected: &TableKey) -> Result<Header, FormatError> {
        Header::read_coded(bytes, expected, E::CODE, E::NAME)
    }

    /// As [`read`](Self::read), for the encoding `code` called `name`.
    pub(super) fn read_coded(
        bytes: &[u8],
        expected: &TableKey,
        code: u32,
        name: &'static str,
    ) -> Result<Header, FormatError> {
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
        let texts = [("game", 24, &expected.game), ("variant", 40, &expected.variant), ("size", 56, &expected.size)];
        let mut found_texts = Vec::with_capacity(3);
        for (field, offset, wanted) in texts {
            let found = text_at(bytes, offset);
            if &found != wanted {
                return Err(FormatError::Mismatch { field, found, expected: wanted.clone() });
            }
            found_texts.push(found);
        }
        let index_version = u32_at(bytes, 16);
        if index_version != expected.index_version {
            return Err(FormatError::Mismatch {
                field: "index version",
                found: index_version.to_string(),
                expected: expected.index_version.to_string(),
            });
        }
        let encoding = u32_at(bytes, 12);
        if encoding != code {
            return Err(FormatError::Encoding { found: encoding, expected: code, name });
        }
        let positions = u64_at(bytes, 72);
        if positions != expected.positions {
            return Err(FormatError::Mismatch {
                field: "position count",
                found: positions.to_string(),
                expected: expected.positions.to_string(),
            });
        }
        let fact_count = u32_at(bytes, 20) as usize;
        if fact_count > MAX_FACTS {
            return Err(FormatError::FactCount { found: fact_count });
        }
        let facts = (0..fact_count).map(|i| (text_at(bytes, 104 + 24 * i), u64_at(bytes, 120 + 24 * i))).collect();
        let [game, variant, size] = found_texts.try_into().expect("three text fields");
        Ok(Header {
            key: TableKey { game, variant, size, index_version, positions },
            encoding,
            tally: Tally { wins: u64_at(bytes, 80), losses: u64_at(bytes, 88), draws: u64_at(bytes, 96) },
            facts,
        })
    }

    /// The fact called `name`, if the table has it.
    pub fn fact(&self, name: &str) -> Option<u64> {
        self.facts.iter().find(|(n, _)| n == name).map(|&(_, value)| value)
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
