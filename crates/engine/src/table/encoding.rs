//! How a table lays out its values, as types.
//!
//! # Stability
//!
//! Each encoding's `CODE` is written to table headers, and the layout of its
//! payload is part of the file format: changing either bumps
//! [`FORMAT_VERSION`](super::FORMAT_VERSION).

use std::fmt::Debug;

use crate::tally::Tally;

/// How a table stores its values.
///
/// Each encoding is a type, and a [`Table`](super::Table) carries its
/// encoding in its own type, so that using a table for what it does not
/// hold does not compile: a table of margins has no win/loss `probe`, and
/// only tables of values can be audited or made compact. Encodings other
/// than the two here live with the code that knows their layout (the
/// compact copy, in [`compact`](crate::compact)).
pub trait Encoding: Copy + Debug + Send + Sync + 'static {
    /// The code the header records.
    const CODE: u32;
    /// What the table holds, for messages.
    const NAME: &'static str;
    /// The file name suffix that keeps tables of one key but different
    /// encodings apart.
    const SUFFIX: &'static str;
    /// Whether the payload is kept compressed in blocks on disk, and read a
    /// block at a time (see [`blocks`](super::blocks)), rather than read
    /// whole.
    const BLOCKED: bool = false;

    /// The payload's length in bytes for `positions` positions with these
    /// results, or `None` if no payload can have them (they overflow, or
    /// count more positions than there are).
    fn payload_len(positions: u64, tally: Tally) -> Option<u64>;
}

/// One [`PackedValue`](crate::PackedValue) byte per position.
#[derive(Copy, Clone, Debug)]
pub struct Packed;

impl Encoding for Packed {
    const CODE: u32 = 1;
    const NAME: &'static str = "packed values";
    const SUFFIX: &'static str = "";

    fn payload_len(positions: u64, _: Tally) -> Option<u64> {
        Some(positions)
    }
}

/// One signed byte per position: the margin the side to move can force
/// (see [`sweep`](crate::sweep)).
#[derive(Copy, Clone, Debug)]
pub struct Margin;

impl Encoding for Margin {
    const CODE: u32 = 2;
    const NAME: &'static str = "margins";
    const SUFFIX: &'static str = "";

    fn payload_len(positions: u64, _: Tally) -> Option<u64> {
        Some(positions)
    }
}
