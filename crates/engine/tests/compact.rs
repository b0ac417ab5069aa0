//! The compact copy of a table: lossless, refused where it cannot be.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use solved_engine::compact::{Compact, CompactBuilder, CompactError};
use solved_engine::table::{Packed, TableKey};
use solved_engine::{PackedValue, Plies, Table, TableStore, Value, Values};

/// Values where wins have odd distances and losses even ones.
fn parity_values(n: usize, seed: u64) -> Vec<Value> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..n)
        .map(|_| match rng.random_range(0..10) {
            0..=5 => Value::Draw,
            6..=7 => Value::Win(Plies(2 * rng.random_range(0..32) + 1)),
            _ => Value::Loss(Plies(2 * rng.random_range(0..32))),
        })
        .collect()
}

fn key(positions: u64) -> TableKey {
    TableKey { game: "test".into(), variant: "compact".into(), size: "1".into(), index_version: 1, positions }
}

#[test]
fn the_compact_copy_gives_back_every_value() {
    for (n, seed) in [(1, 1), (63, 2), (64, 3), (511, 4), (512, 5), (513, 6), (100_000, 7)] {
        let values = parity_values(n, seed);
        let compact = CompactBuilder::new(values.as_slice()).unwrap();
        compact.verify(values.as_slice()).unwrap();
        let dir = tempfile::tempdir().unwrap();
        let store = TableStore::new(dir.path());
        let path = store.save::<Compact>(&key(n as u64), &[], &compact).unwrap();
        assert!(path.to_string_lossy().ends_with(".compact.tbl"));
        let table = store.open::<Compact>(&key(n as u64)).unwrap().unwrap();
        assert!((0..n as u64).all(|i| table.probe(i) == values[i as usize]), "n {n}");
        let counts = table.header().tally;
        let wins = values.iter().filter(|v| matches!(v, Value::Win(_))).count() as u64;
        assert_eq!((counts.wins, counts.wins + counts.losses + counts.draws), (wins, n as u64));
        compact.verify(&table).unwrap();
    }
}

#[test]
fn it_is_smaller_than_the_byte_table_when_draws_dominate() {
    let values = parity_values(1 << 16, 8);
    let compact = CompactBuilder::new(values.as_slice()).unwrap();
    assert!(compact.len() < (1 << 16) / 2, "{} bytes", compact.len());
}

#[test]
fn values_it_cannot_hold_are_refused() {
    let even_win = [Value::Draw, Value::Win(Plies(2))];
    assert!(matches!(CompactBuilder::new(even_win.as_slice()), Err(CompactError::Parity { idx: 1, .. })));
    let odd_loss = [Value::Loss(Plies(3))];
    assert!(matches!(CompactBuilder::new(odd_loss.as_slice()), Err(CompactError::Parity { idx: 0, .. })));
    let long = [Value::Win(Plies(65))];
    assert!(matches!(CompactBuilder::new(long.as_slice()), Err(CompactError::TooLong { .. })));
    // A copy checked against other values reports the first difference.
    let values = parity_values(1000, 9);
    let compact = CompactBuilder::new(values.as_slice()).unwrap();
    let mut other = values.clone();
    other[777] = if other[777] == Value::Draw { Value::Loss(Plies(0)) } else { Value::Draw };
    assert!(matches!(compact.verify(other.as_slice()), Err(CompactError::Mismatch { idx: 777, .. })));
}

#[test]
fn a_corrupted_compact_file_is_refused() {
    let values = parity_values(5000, 10);
    let compact = CompactBuilder::new(values.as_slice()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = TableStore::new(dir.path());
    let path = store.save::<Compact>(&key(5000), &[], &compact).unwrap();
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 4;
    std::fs::write(&path, &bytes).unwrap();
    assert!(store.open::<Compact>(&key(5000)).is_err());
    // And a byte table is never taken for a compact one.
    let packed: Vec<PackedValue> = values.iter().map(|&v| PackedValue::pack(v).unwrap()).collect();
    let path = store.save::<Packed>(&key(5000), &[], packed.as_slice()).unwrap();
    let table: Table<Packed> = store.open(&key(5000)).unwrap().unwrap();
    assert!((0..5000).all(|i| table.probe(i) == values.probe(i)));
    assert!(Table::<Compact>::open(&path, &key(5000)).is_err());
}
