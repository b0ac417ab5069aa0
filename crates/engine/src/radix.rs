//! Division by the small radix of a mixed-radix digit, by multiplication.
//!
//! Unranking a placement peels one digit off per piece, a division each;
//! a hardware division takes tens of cycles, a multiplication by a
//! reciprocal a few.

/// `2^32 / d`, rounded up, for each radix `d` below 32.
const RECIPROCALS: [u64; 32] = {
    let mut table = [0; 32];
    let mut d = 1;
    while d < 32 {
        table[d] = (1u64 << 32).div_ceil(d as u64);
        d += 1;
    }
    table
};

/// `rest / radix`, for `rest < 2^27` and `1 <= radix < 32`.
///
/// With `m = ⌈2^32 / radix⌉ = (2^32 + e) / radix`, where `e < radix`,
/// `rest · m / 2^32` exceeds `rest / radix` by `rest · e / (radix · 2^32)`,
/// which stays below `1 / radix`, and so leaves the floor alone, while
/// `rest · e < 2^32`: for every radix below 32, while `rest < 2^27`.
#[inline(always)]
pub fn divide_by_radix(rest: u32, radix: u32) -> u32 {
    debug_assert!(rest < 1 << 27 && (1..32).contains(&radix));
    ((u64::from(rest) * RECIPROCALS[radix as usize & 31]) >> 32) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_by_a_radix_is_exact_below_two_to_the_27() {
        for radix in 1..32 {
            for rest in (0..1u32 << 27).step_by(9973).chain((1 << 27) - 64 * radix..1 << 27) {
                assert_eq!(divide_by_radix(rest, radix), rest / radix, "{rest} / {radix}");
            }
        }
    }
}
