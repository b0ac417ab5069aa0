//! Solving a game whose positions fall into layers, each position's value
//! depending only on positions of earlier layers.
//!
//! Games where every move adds to the position (a line drawn in Dots and
//! Boxes) are such games once positions are grouped by how much they hold:
//! the full board first, then one line fewer, and so on. The game gives
//! each layer as pieces of work and a way to solve a piece from the values
//! already found; this module runs the pieces of each layer on every
//! thread, keeps one byte per position in a shared store, and saves the
//! store between layers so that an interrupted solve resumes.
//!
//! A piece reads only earlier layers, which no thread writes any more, and
//! writes each of its own positions once: the result is the same byte for
//! byte at any thread count.

use std::io;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use rayon::prelude::*;

use crate::cells::Bytes;
use crate::progress::{Interrupted, Progress};
use crate::retrograde::SolveError;
use crate::table::Checkpoint;

/// A game solved layer by layer.
pub trait Layered: Sync {
    /// A piece of work: some positions of one layer.
    type Piece: Send + Sync;

    /// The number of positions: the store holds one byte for each.
    fn positions(&self) -> u64;

    /// The number of layers, solved in order from 0.
    fn layers(&self) -> u32;

    /// The pieces of `layer`, each with its share of the work (what
    /// progress counts), such as the positions it visits.
    fn pieces(&self, layer: u32) -> Vec<(Self::Piece, u64)>;

    /// Solves the positions of `piece`, reading earlier layers from
    /// `solved`, and hands each position's index and byte to `put`.
    fn solve_piece(&self, piece: &Self::Piece, solved: &Solved<'_>, put: &mut dyn FnMut(u64, u8));
}

/// The bytes of the positions solved so far.
#[derive(Copy, Clone)]
pub struct Solved<'a> {
    bytes: &'a Bytes,
}

impl Solved<'_> {
    /// The byte of position `idx`, which must be of an earlier layer.
    ///
    /// # Panics
    ///
    /// Panics if `idx` is not a position.
    #[inline]
    pub fn get(&self, idx: u64) -> u8 {
        self.bytes.load(idx)
    }
}

impl std::fmt::Debug for Solved<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Solved").finish_non_exhaustive()
    }
}

/// Every position's byte.
pub struct LayersSolution {
    bytes: Bytes,
    len: u64,
}

impl std::fmt::Debug for LayersSolution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LayersSolution").field("len", &self.len).finish_non_exhaustive()
    }
}

impl LayersSolution {
    /// The number of positions.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether there are no positions.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The byte of position `idx`.
    ///
    /// # Panics
    ///
    /// Panics if `idx >= self.len()`.
    pub fn get(&self, idx: u64) -> u8 {
        assert!(idx < self.len, "position index out of range");
        self.bytes.load(idx)
    }

    /// Calls `sink` with the bytes in index order, in pieces.
    ///
    /// # Errors
    ///
    /// Whatever `sink` fails with.
    pub fn for_each_piece(&self, mut sink: impl FnMut(&[u8]) -> io::Result<()>) -> io::Result<()> {
        let mut buffer = Vec::with_capacity(1 << 20);
        let mut left = self.len;
        for chunk in self.bytes.words().chunks(1 << 17) {
            buffer.clear();
            for word in chunk {
                let take = left.min(8) as usize;
                buffer.extend_from_slice(&word.load(Relaxed).to_le_bytes()[..take]);
                left -= take as u64;
            }
            sink(&buffer)?;
        }
        Ok(())
    }
}

/// The settings of a layered solve.
#[derive(Clone, Debug, Default)]
pub struct LayersSolver<'a> {
    checkpoints: Option<(&'a Checkpoint, Duration)>,
}

/// What a checkpoint records besides the store: the shape of the solve and
/// the next layer to solve.
const STATE_LEN: usize = 16;

impl<'a> LayersSolver<'a> {
    /// No checkpoints.
    pub fn new() -> LayersSolver<'a> {
        LayersSolver { checkpoints: None }
    }

    /// Resumes from `checkpoint` if it holds a solve of the same game, and
    /// saves there after a layer whenever `every` has passed since the last
    /// save. The file is left in place: the caller removes it once the
    /// solution is safe.
    #[must_use]
    pub fn with_checkpoints(self, checkpoint: &'a Checkpoint, every: Duration) -> LayersSolver<'a> {
        LayersSolver { checkpoints: Some((checkpoint, every)) }
    }

    /// Solves every position of `game`.
    ///
    /// # Errors
    ///
    /// [`SolveError::Interrupted`] if `progress` asked to stop, and
    /// [`SolveError::Checkpoint`] or [`SolveError::ForeignCheckpoint`] if
    /// the checkpoint cannot be read (or is of another solve) or written.
    pub fn solve<G: Layered>(&self, game: &G, progress: &dyn Progress) -> Result<LayersSolution, SolveError> {
        let len = game.positions();
        let layers = game.layers();
        let (bytes, first) = match self.load(len, layers)? {
            Some((words, next)) => (Bytes::from_words(words), next),
            None => (Bytes::zeroed(len), 0),
        };
        let pieces: Vec<Vec<(G::Piece, u64)>> = (0..layers).map(|layer| game.pieces(layer)).collect();
        progress.start("solve", pieces.iter().flatten().map(|(_, work)| work).sum());
        if first > 0 {
            progress.note(&format!("resuming from the checkpoint: {first} of {layers} layers are solved"));
        }
        let mut last_save = Instant::now();
        for (layer, pieces) in (0..layers).zip(&pieces) {
            if layer < first {
                progress.advance(pieces.iter().map(|(_, n)| n).sum());
                continue;
            }
            progress.stage(&format!("layer {layer} of {layers}"));
            let solved = Solved { bytes: &bytes };
            pieces.par_iter().try_for_each(|(piece, count)| {
                if progress.should_stop() {
                    return Err(Interrupted);
                }
                game.solve_piece(piece, &solved, &mut |idx, byte| bytes.write_cells(idx, &[byte]));
                progress.advance(*count);
                Ok(())
            })?;
            if let Some((checkpoint, every)) = self.checkpoints
                && last_save.elapsed() >= every
                && layer + 1 < layers
            {
                let state = [(layers as u64).to_le_bytes(), (u64::from(layer) + 1).to_le_bytes()].concat();
                checkpoint.save(&state, bytes.words()).map_err(SolveError::Checkpoint)?;
                last_save = Instant::now();
            }
        }
        Ok(LayersSolution { bytes, len })
    }

    /// The words and next layer of the checkpoint, if there is one.
    fn load(&self, len: u64, layers: u32) -> Result<Option<(Vec<AtomicU64>, u32)>, SolveError> {
        let Some((checkpoint, _)) = self.checkpoints else { return Ok(None) };
        let Some(saved) = checkpoint.load(len.div_ceil(8)).map_err(SolveError::Checkpoint)? else {
            return Ok(None);
        };
        let foreign = || SolveError::ForeignCheckpoint { path: checkpoint.path().to_path_buf() };
        let state: [u8; STATE_LEN] = saved.state.try_into().map_err(|_| foreign())?;
        let number = |i: usize| u64::from_le_bytes(state[8 * i..8 * i + 8].try_into().expect("eight bytes"));
        if number(0) != u64::from(layers) || number(1) > u64::from(layers) {
            return Err(foreign());
        }
        Ok(Some((saved.words, number(1) as u32)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Silent;

    /// Positions `0..n` in layers of `width`; each byte is one more than
    /// the sum of a few positions of the layer before, so every byte
    /// depends on everything earlier.
    struct Chain {
        n: u64,
        width: u64,
    }

    impl Layered for Chain {
        type Piece = std::ops::Range<u64>;

        fn positions(&self) -> u64 {
            self.n
        }

        fn layers(&self) -> u32 {
            self.n.div_ceil(self.width) as u32
        }

        fn pieces(&self, layer: u32) -> Vec<(Self::Piece, u64)> {
            let start = u64::from(layer) * self.width;
            let end = (start + self.width).min(self.n);
            (start..end).step_by(3).map(|s| (s..(s + 3).min(end), (s + 3).min(end) - s)).collect()
        }

        fn solve_piece(&self, piece: &Self::Piece, solved: &Solved<'_>, put: &mut dyn FnMut(u64, u8)) {
            for idx in piece.clone() {
                let before = idx / self.width * self.width;
                let sum = (before.saturating_sub(self.width)..before)
                    .filter(|p| p % 3 == idx % 3)
                    .fold(1u8, |s, p| s.wrapping_add(solved.get(p)));
                put(idx, sum);
            }
        }
    }

    fn expected(game: &Chain) -> Vec<u8> {
        let mut bytes = vec![0u8; game.n as usize];
        for idx in 0..game.n {
            let before = idx / game.width * game.width;
            bytes[idx as usize] = (before.saturating_sub(game.width)..before)
                .filter(|p| p % 3 == idx % 3)
                .fold(1u8, |s, p| s.wrapping_add(bytes[p as usize]));
        }
        bytes
    }

    #[test]
    fn layers_see_the_layers_before_at_any_thread_count() {
        let game = Chain { n: 1000, width: 37 };
        for threads in [1, 3] {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let solution = pool.install(|| LayersSolver::new().solve(&game, &Silent)).unwrap();
            let bytes: Vec<u8> = (0..game.n).map(|i| solution.get(i)).collect();
            assert_eq!(bytes, expected(&game), "{threads} threads");
        }
    }

    /// Stops after `after` pieces.
    struct StopAfter {
        after: u64,
        seen: AtomicU64,
    }

    impl Progress for StopAfter {
        fn should_stop(&self) -> bool {
            self.seen.fetch_add(1, Relaxed) >= self.after
        }
    }

    /// Keeps the notes a solve writes.
    #[derive(Default)]
    struct Notes {
        notes: std::sync::Mutex<Vec<String>>,
    }

    impl Progress for Notes {
        fn note(&self, message: &str) {
            self.notes.lock().unwrap().push(message.to_string());
        }
    }

    #[test]
    fn an_interrupted_solve_resumes_from_its_checkpoint() {
        let dir = tempfile::tempdir().unwrap();
        let key = crate::TableKey {
            game: "chain".into(),
            variant: "test".into(),
            size: "1000".into(),
            index_version: 1,
            positions: 1000,
        };
        let checkpoint = Checkpoint::new(dir.path().join("chain.checkpoint"), key);
        let game = Chain { n: 1000, width: 37 };
        let solver = LayersSolver::new().with_checkpoints(&checkpoint, Duration::ZERO);
        let stop = StopAfter { after: 200, seen: AtomicU64::new(0) };
        assert!(matches!(solver.solve(&game, &stop), Err(SolveError::Interrupted(_))));
        assert!(checkpoint.path().exists(), "layers finished before the stop were saved");
        let resumed = Notes::default();
        let solution = solver.solve(&game, &resumed).unwrap();
        let notes = resumed.notes.lock().unwrap().clone();
        assert!(notes.iter().any(|n| n.starts_with("resuming from the checkpoint")), "{notes:?}");
        let bytes: Vec<u8> = (0..game.n).map(|i| solution.get(i)).collect();
        assert_eq!(bytes, expected(&game));
        let other = Chain { n: 1000, width: 50 };
        assert!(matches!(solver.solve(&other, &Silent), Err(SolveError::ForeignCheckpoint { .. })));
    }
}
