//! Positions counted at every value and distance: how long the games of a
//! board run, and whether its longest is a tail or a wall.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::value::{Plies, Value};

/// Positions counted by result and distance: won in `d` plies, lost in
/// `d`, drawn. Its JSON is `{"wins": {"<plies>": count, …}, "losses": {…},
/// "draws": count}`, distances ascending, those with no position left out.
#[derive(Clone, Debug, Default, Eq, PartialEq, Serialize)]
pub struct Distances {
    /// Won, by the distance to the win.
    pub wins: BTreeMap<u16, u64>,
    /// Lost, by the distance to the loss.
    pub losses: BTreeMap<u16, u64>,
    /// Drawn.
    pub draws: u64,
}

/// Counts kept in an array while a pass runs (a map per position would be
/// its slowest step); a distance past it goes to the map.
#[derive(Clone, Debug)]
pub struct DistanceCounter {
    wins: Vec<u64>,
    losses: Vec<u64>,
    draws: u64,
    beyond: Distances,
}

/// Distances counted in the counter's arrays: every one a byte holds.
const COUNTED: usize = 256;

impl Default for DistanceCounter {
    fn default() -> DistanceCounter {
        DistanceCounter { wins: vec![0; COUNTED], losses: vec![0; COUNTED], draws: 0, beyond: Distances::default() }
    }
}

impl DistanceCounter {
    /// Counts `times` positions of `value`.
    #[inline]
    pub fn add(&mut self, value: Value, times: u64) {
        let (array, map, d) = match value {
            Value::Win(Plies(d)) => (&mut self.wins, &mut self.beyond.wins, d),
            Value::Loss(Plies(d)) => (&mut self.losses, &mut self.beyond.losses, d),
            Value::Draw => {
                self.draws += times;
                return;
            }
        };
        match array.get_mut(usize::from(d)) {
            Some(count) => *count += times,
            None => *map.entry(d).or_default() += times,
        }
    }

    /// Both counts together.
    #[must_use]
    pub fn merge(mut self, other: DistanceCounter) -> DistanceCounter {
        self.add_all(&other.finish());
        self
    }

    /// Adds every count of `distances`.
    pub fn add_all(&mut self, distances: &Distances) {
        for (&d, &n) in &distances.wins {
            self.add(Value::Win(Plies(d)), n);
        }
        for (&d, &n) in &distances.losses {
            self.add(Value::Loss(Plies(d)), n);
        }
        self.add(Value::Draw, distances.draws);
    }

    /// What was counted.
    pub fn finish(self) -> Distances {
        let mut distances = self.beyond;
        let counted = |array: Vec<u64>, map: &mut BTreeMap<u16, u64>| {
            for (d, n) in array.into_iter().enumerate().filter(|&(_, n)| n > 0) {
                *map.entry(d as u16).or_default() += n;
            }
        };
        counted(self.wins, &mut distances.wins);
        counted(self.losses, &mut distances.losses);
        distances.draws += self.draws;
        distances
    }
}

impl Distances {
    /// The positions counted.
    pub fn positions(&self) -> u64 {
        self.wins.values().chain(self.losses.values()).sum::<u64>() + self.draws
    }

    /// The longest win, if any.
    pub fn longest_win(&self) -> Option<Plies> {
        self.wins.keys().next_back().map(|&d| Plies(d))
    }

    /// The longest loss, if any.
    pub fn longest_loss(&self) -> Option<Plies> {
        self.losses.keys().next_back().map(|&d| Plies(d))
    }

    /// Every count times `factor` (counts over symmetric pairs, say).
    #[must_use]
    pub fn times(mut self, factor: u64) -> Distances {
        self.wins.values_mut().chain(self.losses.values_mut()).for_each(|n| *n *= factor);
        self.draws *= factor;
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_short_and_long_distances_alike() {
        let mut a = DistanceCounter::default();
        a.add(Value::Win(Plies(3)), 2);
        a.add(Value::Loss(Plies(300)), 1);
        a.add(Value::Draw, 5);
        let mut b = DistanceCounter::default();
        b.add(Value::Win(Plies(3)), 1);
        b.add(Value::Win(Plies(300)), 4);
        let distances = a.merge(b).finish();
        assert_eq!(distances.wins, BTreeMap::from([(3, 3), (300, 4)]));
        assert_eq!(distances.losses, BTreeMap::from([(300, 1)]));
        assert_eq!(distances.draws, 5);
        assert_eq!(distances.positions(), 13);
        assert_eq!(distances.longest_win(), Some(Plies(300)));
        assert_eq!(distances.clone().times(2).positions(), 26);
    }

    #[test]
    fn its_json_keys_distances_by_plies() {
        let mut counter = DistanceCounter::default();
        counter.add(Value::Win(Plies(12)), 7);
        counter.add(Value::Win(Plies(2)), 1);
        let json = serde_json::to_string(&counter.finish()).expect("serialisable");
        assert_eq!(json, r#"{"wins":{"2":1,"12":7},"losses":{},"draws":0}"#);
    }
}
