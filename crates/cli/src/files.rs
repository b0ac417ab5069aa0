//! The files the command line reads for a game: diagrams and board files,
//! each only as large as such a file can be.

use std::fs::File;
use std::io::{self, Read};

use solved_games::params::Files;

/// Reads regular files of at most the size asked for.
#[derive(Copy, Clone, Debug)]
pub struct CommandLineFiles;

impl Files for CommandLineFiles {
    fn read(&self, path: &str, limit: u64) -> io::Result<String> {
        let metadata = std::fs::metadata(path)?;
        // A pipe or a device could be read for ever; only files are read.
        if !metadata.is_file() {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file"));
        }
        let mut bytes = Vec::new();
        File::open(path)?.take(limit + 1).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > limit {
            return Err(io::Error::new(io::ErrorKind::InvalidData, format!("larger than {limit} bytes")));
        }
        String::from_utf8(bytes).map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
    }
}
