//! How long a search of the start and every first line will take, said
//! before it starts: from the boards measured (`docs/performance/`, held
//! to these figures by a test), each line more multiplying the time by
//! as little and as much as it did between them.

/// Lines of the American boards measured, and the seconds their search
/// took on two threads (3×4, 3×5 and 4×4; `docs/performance.md`).
pub const MEASURED: [(u32, f64); 3] = [(31, 4.75), (38, 368.6), (40, 345.6)];

/// The least and the most one line more multiplied the time between the
/// boards measured: 3×4 to 4×4, and 3×4 to 3×5.
const LEAST_GROWTH: f64 = 1.61;
const MOST_GROWTH: f64 = 1.86;

/// The least and the most seconds a search of the start of a board of
/// `lines` undrawn lines should take on two threads, from nothing: scaled
/// from the largest board measured that is no larger (or the smallest).
pub fn search_seconds(lines: u32) -> (f64, f64) {
    let &(measured, seconds) = MEASURED.iter().rev().find(|&&(measured, _)| measured <= lines).unwrap_or(&MEASURED[0]);
    let more = f64::from(lines) - f64::from(measured);
    let (a, b) = (seconds * LEAST_GROWTH.powf(more), seconds * MOST_GROWTH.powf(more));
    (a.min(b), a.max(b))
}

/// `about 8 to 38 hours`: a range of seconds as a person reads it.
pub fn say(seconds: (f64, f64)) -> String {
    let (low, high) = seconds;
    let (unit, per) = match high {
        h if h < 120.0 => ("seconds", 1.0),
        h if h < 2.0 * 3600.0 => ("minutes", 60.0),
        _ => ("hours", 3600.0),
    };
    let (low, high) = ((low / per).round().max(1.0), (high / per).round().max(1.0));
    if high == 1.0 && per == 1.0 {
        "about a second or less".into()
    } else if low == high {
        format!("about {low} {unit}")
    } else {
        format!("about {low} to {high} {unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_measured_board_is_estimated_at_its_measure_and_larger_ones_grow_with_their_lines() {
        for (lines, seconds) in MEASURED {
            assert_eq!(search_seconds(lines), (seconds, seconds));
        }
        let (low, high) = search_seconds(49);
        assert!((6.5 * 3600.0..7.5 * 3600.0).contains(&low) && (25.0 * 3600.0..26.5 * 3600.0).contains(&high));
        let (low, high) = search_seconds(24);
        assert!(low < high && high < 7.0);
        assert_eq!(say(search_seconds(49)), "about 7 to 26 hours");
        assert_eq!(say((5.4, 5.4)), "about 5 seconds");
        assert_eq!(say((0.01, 0.2)), "about a second or less");
        assert_eq!(say((400.0, 1900.0)), "about 7 to 32 minutes");
    }
}
