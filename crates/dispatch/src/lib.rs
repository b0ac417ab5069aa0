//! Runs a kernel compiled for the widest instruction set the processor
//! has, chosen at run time.
//!
//! The project is built for x86-64-v2 (SSE4.2, POPCNT), which every
//! machine it is meant for has; the machines it runs on mostly have AVX2
//! and BMI2 as well. [`run`] takes a [`Kernel`] and runs it inside a
//! function compiled with those extensions, so that the kernel's code,
//! inlined there, uses 32-byte vectors, where the processor has them. The
//! portable path is the same kernel run directly: the two compute the same
//! thing, which the solvers' tests check by running both.
//!
//! This crate holds the project's only `unsafe` code: the call into the
//! wider function, made only once the processor has been seen to support
//! it, [`any_lane_equal`]'s SSE2 instructions, which every x86-64 has,
//! the [`prefetch`] hint, and the kernel's advice to back a large table
//! with huge pages ([`vec_in_huge_pages`]).
//!
//! For the kernel to be compiled wider, its body must be inlined into the
//! wider function: [`Kernel::run`] is to be marked `#[inline(always)]`, and
//! so is everything hot that it calls. (A closure would not do: the
//! compiler keeps a large one out of line, compiled for the build's target.)

#![warn(missing_docs)]
#![warn(missing_debug_implementations)]

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// An instruction set a kernel can be compiled for.
#[derive(Copy, Clone, Debug, Eq, PartialEq, Ord, PartialOrd, Hash)]
pub enum Level {
    /// The build's own target (x86-64-v2 here): every machine has it.
    Portable,
    /// AVX2, BMI1, BMI2, LZCNT and FMA (x86-64-v3).
    X86_64V3,
}

impl Level {
    /// Every level, narrowest first.
    pub const ALL: [Level; 2] = [Level::Portable, Level::X86_64V3];

    /// The widest level this processor supports.
    pub fn detect() -> Level {
        Level::ALL.into_iter().rev().find(|level| level.is_supported()).unwrap_or(Level::Portable)
    }

    /// Whether this processor can run code compiled for the level.
    pub fn is_supported(self) -> bool {
        match self {
            Level::Portable => true,
            #[cfg(target_arch = "x86_64")]
            Level::X86_64V3 => {
                std::arch::is_x86_feature_detected!("avx2")
                    && std::arch::is_x86_feature_detected!("bmi1")
                    && std::arch::is_x86_feature_detected!("bmi2")
                    && std::arch::is_x86_feature_detected!("lzcnt")
                    && std::arch::is_x86_feature_detected!("fma")
            }
            #[cfg(not(target_arch = "x86_64"))]
            Level::X86_64V3 => false,
        }
    }

    /// The levels this processor supports, narrowest first.
    pub fn supported() -> Vec<Level> {
        Level::ALL.into_iter().filter(|level| level.is_supported()).collect()
    }

    /// Its name, as [`Level::from_name`] reads it.
    pub fn name(self) -> &'static str {
        match self {
            Level::Portable => "portable",
            Level::X86_64V3 => "x86-64-v3",
        }
    }

    /// The level named `name`, if there is one.
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|level| level.name() == name)
    }
}

/// The widest level [`widest`] gives, as set by [`limit_to`]: none yet.
static LIMIT: AtomicU8 = AtomicU8::new(u8::MAX);

/// Keeps every later [`widest`] at or below `level` in this process, as a
/// user asks for to compare the portable kernels with the wide ones.
pub fn limit_to(level: Level) {
    LIMIT.store(level as u8, Relaxed);
}

/// The widest level this processor supports, at most the one given to
/// [`limit_to`].
pub fn widest() -> Level {
    widest_within(&Level::supported(), LIMIT.load(Relaxed))
}

/// The widest of the `supported` levels at most `limit` (a level's number;
/// `u8::MAX` for none).
fn widest_within(supported: &[Level], limit: u8) -> Level {
    supported.iter().rev().copied().find(|&level| level as u8 <= limit).unwrap_or(Level::Portable)
}

/// Work to be compiled for several instruction sets.
pub trait Kernel {
    /// What it gives.
    type Output;

    /// Does the work. Implementations mark it `#[inline(always)]` (see the
    /// [crate docs](crate)).
    fn run(self) -> Self::Output;
}

/// Runs `kernel` compiled for `level`.
///
/// # Panics
///
/// Panics if the processor does not support `level`: running its
/// instructions would be undefined behaviour.
#[inline]
pub fn run<K: Kernel>(level: Level, kernel: K) -> K::Output {
    assert!(level.is_supported(), "this processor does not support {}", level.name());
    match level {
        Level::Portable => kernel.run(),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the processor supports every extension `x86_64_v3` is
        // compiled with, as `is_supported` has just checked.
        Level::X86_64V3 => unsafe { x86_64_v3(kernel) },
        #[cfg(not(target_arch = "x86_64"))]
        Level::X86_64V3 => unreachable!("not supported here"),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx,avx2,bmi1,bmi2,lzcnt,fma")]
fn x86_64_v3<K: Kernel>(kernel: K) -> K::Output {
    kernel.run()
}

/// Whether any lane of `lane_bits` bits (8 or 16) of the two words equals
/// the same lane of either of `splats`, in one 16-byte comparison: `None`
/// where the processor has none, for the caller's own path.
///
/// The scans of a solver's cells pass over most of their words with it.
/// SSE2 is part of every x86-64, so this needs no run-time check.
#[inline(always)]
pub fn any_lane_equal(words: [u64; 2], splats: [u64; 2], lane_bits: u32) -> Option<bool> {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_cmpeq_epi16, _mm_movemask_epi8, _mm_or_si128, _mm_set_epi64x};
        // SAFETY: these are SSE2 instructions, which every x86-64 has.
        let equal = unsafe {
            let both = _mm_set_epi64x(words[1] as i64, words[0] as i64);
            let [a, b] = splats.map(|s| _mm_set_epi64x(s as i64, s as i64));
            match lane_bits {
                8 => _mm_or_si128(_mm_cmpeq_epi8(both, a), _mm_cmpeq_epi8(both, b)),
                16 => _mm_or_si128(_mm_cmpeq_epi16(both, a), _mm_cmpeq_epi16(both, b)),
                _ => return None,
            }
        };
        // SAFETY: as above.
        Some(unsafe { _mm_movemask_epi8(equal) } != 0)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = (words, splats, lane_bits);
        None
    }
}

/// Asks for the cache line holding `value` without waiting for it: unlike
/// a load, the instruction retires at once, so the work after it goes on
/// while the line comes in. Does nothing where there is no such hint.
#[inline(always)]
pub fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: a prefetch is a hint that reads nothing and never
        // faults, and the pointer comes from a live reference anyway.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast()) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// The bytes a huge page spans on x86-64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// A vector of `len` values made by `fill`, its memory advised to the
/// kernel as wanting huge pages first (on Linux; elsewhere a plain
/// vector). A table read at random, gigabytes wide, misses the processor's
/// page cache on nearly every read with 4 KiB pages; with 2 MiB ones a
/// search of Dots and Boxes ran about a fifth faster here. Linux gives
/// them to memory so advised where its setting is `madvise` (the usual
/// default); the advice must come before the memory is first written.
/// (The engine's zeroed byte buffers map memory of their own instead,
/// without `unsafe`; a mapping is bytes, which values such as atomics
/// cannot be made of without it.)
pub fn vec_in_huge_pages<T>(len: usize, fill: impl FnMut() -> T) -> Vec<T> {
    let mut values = Vec::with_capacity(len);
    let spare = values.spare_capacity_mut();
    let (start, bytes) = (spare.as_mut_ptr() as usize, std::mem::size_of_val(spare));
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + bytes) / HUGE_PAGE * HUGE_PAGE;
    #[cfg(target_os = "linux")]
    if end > first {
        // SAFETY: the range lies inside the vector's own allocation, which
        // nothing else refers to, and the advice changes how the kernel
        // backs those pages, never what they hold. A refusal (an older
        // kernel, or huge pages turned off) leaves ordinary pages.
        let _ = unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (first, end);
    values.extend(std::iter::repeat_with(fill).take(len));
    values
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vector_in_huge_pages_holds_what_it_was_filled_with() {
        for len in [0, 1, 3 * HUGE_PAGE / 8 + 5] {
            let mut next = 0u64;
            let values = vec_in_huge_pages(len, || {
                next += 1;
                next
            });
            assert!(values.iter().copied().eq(1..=len as u64));
        }
    }

    struct SumOfSquares(u32);

    impl Kernel for SumOfSquares {
        type Output = u32;

        #[inline(always)]
        fn run(self) -> u32 {
            (1..=self.0).map(|x| x * x).sum()
        }
    }

    #[test]
    fn every_supported_level_runs_a_kernel_and_gets_its_result() {
        assert!(Level::supported().contains(&Level::Portable));
        for level in Level::supported() {
            assert_eq!(run(level, SumOfSquares(10)), 385, "{level:?}");
        }
    }

    #[test]
    fn names_round_trip() {
        for level in Level::ALL {
            assert_eq!(Level::from_name(level.name()), Some(level));
        }
        assert_eq!(Level::from_name("avx9000"), None);
    }

    #[test]
    fn the_limit_caps_the_widest_level() {
        let both = [Level::Portable, Level::X86_64V3];
        assert_eq!(widest_within(&both, u8::MAX), Level::X86_64V3, "no limit: the widest");
        assert_eq!(widest_within(&both, Level::Portable as u8), Level::Portable);
        assert_eq!(widest_within(&both, Level::X86_64V3 as u8), Level::X86_64V3);
        assert_eq!(widest_within(&[Level::Portable], Level::X86_64V3 as u8), Level::Portable, "a limit adds nothing");
    }
}
