//! Large zeroed buffers on huge pages, where the system gives them.
//!
//! A table of a gibibyte is first touched as 262,144 pages of 4 KiB, each
//! a fault the kernel serves by zeroing the page: a tenth of the Dots and
//! Boxes sweep went there. Transparent huge pages of 2 MiB make that 512
//! faults. Where the system does not give them (huge pages off, another
//! system), the buffer is an ordinary allocation: the same bytes, slower.

use std::ops::{Deref, DerefMut};

use memmap2::{Advice, MmapMut};

/// Below this a buffer is not worth a mapping of its own.
const HUGE_PAGE: usize = 2 << 20;

/// `len` zero bytes, on huge pages when the buffer is large and the
/// system allows.
#[derive(Debug)]
pub(crate) enum ZeroedBytes {
    Mapped(MmapMut),
    Heap(Vec<u8>),
}

impl ZeroedBytes {
    pub(crate) fn new(len: usize) -> ZeroedBytes {
        if len >= HUGE_PAGE
            && let Ok(map) = MmapMut::map_anon(len)
        {
            // Only advice: refused, the pages are ordinary ones.
            let _ = map.advise(Advice::HugePage);
            return ZeroedBytes::Mapped(map);
        }
        ZeroedBytes::Heap(vec![0; len])
    }
}

impl Deref for ZeroedBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            ZeroedBytes::Mapped(map) => map,
            ZeroedBytes::Heap(bytes) => bytes,
        }
    }
}

impl DerefMut for ZeroedBytes {
    fn deref_mut(&mut self) -> &mut [u8] {
        match self {
            ZeroedBytes::Mapped(map) => map,
            ZeroedBytes::Heap(bytes) => bytes,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_of_every_size_start_zeroed_and_keep_what_is_written() {
        for len in [0, 1, HUGE_PAGE - 1, HUGE_PAGE, 3 * HUGE_PAGE + 5] {
            let mut bytes = ZeroedBytes::new(len);
            assert_eq!(bytes.len(), len);
            assert!(bytes.iter().all(|&b| b == 0));
            if len > 0 {
                bytes[len - 1] = 7;
                assert_eq!(bytes[len - 1], 7);
            }
        }
    }
}
