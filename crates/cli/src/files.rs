//! The files the command line reads for a game: diagrams and board files,
//! each only as large as such a file can be.

use std::io::{self, Read};
use std::path::Path;

use solved_engine::table::{Access, open_regular};
use solved_games::params::Files;

/// Reads regular files of at most the size asked for.
#[derive(Copy, Clone, Debug)]
pub struct CommandLineFiles;

impl Files for CommandLineFiles {
    fn read(&self, path: &str, limit: u64) -> io::Result<String> {
        // The user named the file: a link they give is followed, to a
        // regular file only, as every file the tool reads is opened.
        let resolved = Path::new(path).canonicalize()?;
        let (file, _) =
            open_regular(&resolved, Access::Read)?.ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
        let mut bytes = Vec::new();
        file.take(limit + 1).read_to_end(&mut bytes)?;
        if bytes.len() as u64 > limit {
            return Err(io::Error::new(io::ErrorKind::InvalidData, format!("larger than {limit} bytes")));
        }
        String::from_utf8(bytes).map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "not UTF-8 text"))
    }
}
