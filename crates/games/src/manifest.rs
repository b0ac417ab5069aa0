//! Manifests: what a copy of a solved table must be, file by file, so that
//! a copy made elsewhere (6×6's 11 GB of unit files, say) can be checked on
//! arrival without solving anything.
//!
//! `solved manifest GAME …` writes `NAME.manifest.json` beside the table
//! file or unit directory `NAME`: what the table holds (its key and
//! versions, as the headers say them), the size and SHA-256 of every file
//! that holds values, and the game's summary of it. `solved verify GAME`
//! checks every manifest of the game in the data directory and names each
//! file that differs. The layout of the files themselves is
//! `docs/table-format.md`.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use anyhow::Context;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use solved_engine::table::{FORMAT_VERSION, write_atomically};
use solved_engine::{Progress, TableKey};

use crate::claims::{ClaimCheck, Verdict};
use crate::front::Answer;
use crate::params::{Field, Params, Rendered};
use crate::text::thousands;

/// The version of the manifest's own layout.
pub const MANIFEST_VERSION: u32 = 1;

/// What ends the name of a manifest, after the name of what it describes.
const SUFFIX: &str = ".manifest.json";

/// What a table file or unit directory holds, and every file's size and
/// SHA-256. The same JSON is written to the file and printed by `--json`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Manifest {
    /// [`MANIFEST_VERSION`].
    pub manifest_version: u32,
    /// The game's id, as the files' headers give it.
    pub game: String,
    /// The rules variant, as the headers give it.
    pub variant: String,
    /// The board, as the headers give it.
    pub size: String,
    /// The game's parameters for this board, as the command line takes them.
    pub board: BTreeMap<String, String>,
    /// The command that solves the table again.
    pub command: String,
    /// The table files' format version.
    pub format_version: u32,
    /// The version of the game's numbering of positions.
    pub index_version: u32,
    /// The entries the table holds: the positions its numbering counts,
    /// fewer than the game's where a symmetry is folded away.
    pub entries: u64,
    /// The table file or unit directory described, by its name in the data
    /// directory.
    pub path: String,
    /// Whether `path` is a directory of unit files.
    pub units: bool,
    /// Every file that holds values, in name order (inside `path` for a
    /// unit directory).
    pub files: Vec<FileDigest>,
    /// The game's summary of the table, as `solved summary --json` gives it.
    pub headline: serde_json::Value,
}

/// One file's size and digest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileDigest {
    /// Its name.
    pub name: String,
    /// Its length in bytes.
    pub bytes: u64,
    /// Its SHA-256, in lower-case hex.
    pub sha256: String,
}

/// Where the manifest of the table file or unit directory `table` is kept.
pub fn manifest_path(table: &Path) -> PathBuf {
    let mut name = table.file_name().unwrap_or_default().to_os_string();
    name.push(SUFFIX);
    table.with_file_name(name)
}

/// What a game says of the table a manifest describes.
#[derive(Debug)]
pub struct Described<'a> {
    /// Its file, or its directory of unit files.
    pub path: &'a Path,
    /// What it holds.
    pub key: &'a TableKey,
    /// The board's parameters.
    pub board: Rendered,
    /// The command that solves it.
    pub command: String,
}

/// `--check`: check the copy against the manifest beside it instead of
/// writing one.
pub const CHECK: Field = Field::flag("check", "Check the table against the manifest beside it instead of writing one");

/// What `solved manifest` answers: with `--check`, how the table
/// `described` names compares with its manifest; else its manifest,
/// written, with the summary `headline` makes.
///
/// # Errors
///
/// As for [`write()`] and [`check`].
pub fn answer(
    described: Described<'_>,
    params: &Params,
    headline: impl FnOnce() -> anyhow::Result<Box<dyn Answer>>,
    progress: &dyn Progress,
) -> anyhow::Result<Box<dyn Answer>> {
    Ok(if params.flag(CHECK.name)? {
        Box::new(check(described.path, progress)?)
    } else {
        Box::new(write(described, &*headline()?, progress)?)
    })
}

/// Writes the manifest of the table `described` names, with the game's
/// summary `headline`, beside it, atomically; and returns it.
///
/// # Errors
///
/// A file that cannot be read, or a manifest that cannot be written.
pub fn write(described: Described<'_>, headline: &dyn Answer, progress: &dyn Progress) -> anyhow::Result<Manifest> {
    let path = described.path;
    let units = path.is_dir();
    let files = digests(&value_files(path)?, progress)?;
    let key = described.key;
    let manifest = Manifest {
        manifest_version: MANIFEST_VERSION,
        game: key.game.clone(),
        variant: key.variant.clone(),
        size: key.size.clone(),
        board: described.board.into_iter().map(|(name, value)| (name.to_string(), value)).collect(),
        command: described.command,
        format_version: FORMAT_VERSION,
        index_version: key.index_version,
        entries: key.positions,
        path: file_name(path)?,
        units,
        files,
        headline: serde_json::to_value(headline).context("the summary cannot be put in a manifest")?,
    };
    let target = manifest_path(path);
    let json = serde_json::to_vec_pretty(&manifest)?;
    write_atomically(&target, |out| {
        out.write_all(&json)?;
        out.write_all(b"\n")
    })?;
    Ok(manifest)
}

impl Answer for Manifest {
    fn text(&self) -> String {
        let bytes: u64 = self.files.iter().map(|f| f.bytes).sum();
        let mut text = format!(
            "Manifest of {} ({} {} {}): {} file{}, {} bytes, written to {}{SUFFIX}\n",
            self.path,
            self.game,
            self.variant,
            self.size,
            thousands(self.files.len() as u64),
            if self.files.len() == 1 { "" } else { "s" },
            thousands(bytes),
            self.path,
        );
        if let [only] = &self.files[..] {
            text.push_str(&format!("SHA-256 {}\n", only.sha256));
        }
        text
    }
}

/// The files of `table` that hold values: the file itself, or every table
/// file in a unit directory (not its checkpoints, locks or temporaries,
/// which a copy does without).
fn value_files(table: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if !table.is_dir() {
        if !table.is_file() {
            anyhow::bail!("{} is not there: solve the table first", table.display());
        }
        return Ok(vec![table.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(table).with_context(|| format!("cannot list {}", table.display()))? {
        let entry = entry?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if entry.file_type()?.is_file() && !name.starts_with('.') && name.ends_with(".tbl") {
            files.push(entry.path());
        }
    }
    files.sort();
    Ok(files)
}

fn file_name(path: &Path) -> anyhow::Result<String> {
    path.file_name()
        .and_then(|name| name.to_str())
        .map(str::to_string)
        .with_context(|| format!("{} has no name a manifest can hold", path.display()))
}

/// Every file's size and SHA-256, several files at once.
fn digests(files: &[PathBuf], progress: &dyn Progress) -> anyhow::Result<Vec<FileDigest>> {
    let total = files.iter().map(|f| f.metadata().map(|m| m.len()).unwrap_or(0)).sum();
    progress.start("hashing", total);
    files
        .par_iter()
        .map(|path| {
            let (bytes, sha256) = digest(path, progress).with_context(|| format!("cannot read {}", path.display()))?;
            Ok(FileDigest { name: file_name(path)?, bytes, sha256 })
        })
        .collect()
}

fn digest(path: &Path, progress: &dyn Progress) -> io::Result<(u64, String)> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0; 1 << 20];
    let mut bytes = 0;
    loop {
        if progress.should_stop() {
            return Err(io::Error::new(io::ErrorKind::Interrupted, "interrupted"));
        }
        let n = file.read(&mut buffer)?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        bytes += n as u64;
        progress.advance(n as u64);
    }
    let hex = hasher.finalize().iter().map(|b| format!("{b:02x}")).collect();
    Ok((bytes, hex))
}

/// One claim for every manifest of game `game` in the data directory
/// `dir`: that the files beside it are the ones it describes. A file that
/// differs, is missing or is not in the manifest is named; a manifest that
/// cannot be read disagrees, saying why.
///
/// # Errors
///
/// Only a data directory that cannot be listed.
pub fn claims(dir: &Path, game: &str, progress: &dyn Progress) -> anyhow::Result<Vec<ClaimCheck>> {
    let mut manifests = Vec::new();
    if dir.is_dir() {
        for entry in std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))? {
            let path = entry?.path();
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if name.starts_with(&format!("{game}-")) && name.ends_with(SUFFIX) {
                manifests.push(path);
            }
        }
    }
    manifests.sort();
    Ok(manifests.iter().map(|path| claim(path, progress)).collect())
}

/// How a table compares with the manifest beside it.
#[derive(Debug, Serialize)]
pub struct Checked {
    /// The manifest's file name.
    pub manifest: String,
    /// The files it lists.
    pub files: usize,
    /// Each file that differs, is missing or is not listed, saying how.
    pub differences: Vec<String>,
    /// Whether there is none.
    pub matches: bool,
}

impl Answer for Checked {
    fn text(&self) -> String {
        if self.matches {
            return format!(
                "{}: {} listed {}.\n",
                self.manifest,
                thousands(self.files as u64),
                if self.files == 1 { "file matches" } else { "files match" }
            );
        }
        let mut text = format!("What differs from {}:\n", self.manifest);
        for difference in &self.differences {
            text.push_str(&format!("  {difference}\n"));
        }
        text
    }

    fn holds(&self) -> bool {
        self.matches
    }
}

/// Checks the table file or unit directory `table` against the manifest
/// beside it.
///
/// # Errors
///
/// No manifest there, or one that cannot be read or trusted.
pub fn check(table: &Path, progress: &dyn Progress) -> anyhow::Result<Checked> {
    let path = manifest_path(table);
    if !path.is_file() {
        anyhow::bail!("there is no manifest {} to check against: `solved manifest` writes one", path.display());
    }
    let manifest = read(&path)?;
    let found = differences(&path, &manifest, progress)?;
    Ok(Checked {
        manifest: file_name(&path)?,
        files: manifest.files.len(),
        differences: found.iter().map(Difference::to_string).collect(),
        matches: found.is_empty(),
    })
}

fn claim(path: &Path, progress: &dyn Progress) -> ClaimCheck {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let table = name.strip_suffix(SUFFIX).unwrap_or(&name).to_string();
    let (published, ours, agrees) = match read(path) {
        Err(error) => ("a manifest".to_string(), format!("{error:#}"), false),
        Ok(manifest) => {
            let published = format!(
                "{} file{}, SHA-256",
                thousands(manifest.files.len() as u64),
                if manifest.files.len() == 1 { "" } else { "s" }
            );
            match differences(path, &manifest, progress) {
                Err(error) => (published, format!("{error:#}"), false),
                Ok(found) if found.is_empty() => (published, "every file matches".to_string(), true),
                Ok(found) => (published, summarise(&found), false),
            }
        }
    };
    ClaimCheck {
        id: format!("manifest {table}"),
        claim: format!("The copy of {table} is the one its manifest describes"),
        source: name,
        published,
        ours,
        verdict: Verdict::of(agrees),
    }
}

fn read(path: &Path) -> anyhow::Result<Manifest> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    let manifest: Manifest = serde_json::from_slice(&bytes).context("not a manifest")?;
    if manifest.manifest_version != MANIFEST_VERSION {
        anyhow::bail!(
            "manifest version {}, but this build reads version {MANIFEST_VERSION}",
            manifest.manifest_version
        );
    }
    if manifest.format_version != FORMAT_VERSION {
        anyhow::bail!(
            "the manifest describes tables of format version {}, but this build reads version {FORMAT_VERSION}",
            manifest.format_version
        );
    }
    Ok(manifest)
}

/// How a file differs from its manifest.
#[derive(Debug, Eq, PartialEq)]
enum Difference {
    Missing(String),
    Length { name: String, expected: u64, found: u64 },
    Content(String),
    Unlisted(String),
}

fn differences(manifest_path: &Path, manifest: &Manifest, progress: &dyn Progress) -> anyhow::Result<Vec<Difference>> {
    // A manifest names its table by a bare file name, beside itself.
    if Path::new(&manifest.path).components().count() != 1 || manifest.path.starts_with('.') {
        anyhow::bail!("the manifest names {:?}, which is not a file name", manifest.path);
    }
    let table = manifest_path.with_file_name(&manifest.path);
    if manifest.units != table.is_dir() {
        return Ok(vec![Difference::Missing(manifest.path.clone())]);
    }
    let base = if manifest.units { table.clone() } else { manifest_path.parent().unwrap_or(Path::new(".")).into() };
    let mut found = Vec::new();
    let mut present = Vec::new();
    for file in &manifest.files {
        if Path::new(&file.name).components().count() != 1 || file.name.starts_with('.') {
            anyhow::bail!("the manifest names {:?}, which is not a file name", file.name);
        }
        let path = base.join(&file.name);
        match path.metadata() {
            Ok(meta) if meta.is_file() && meta.len() == file.bytes => present.push((file, path)),
            Ok(meta) if meta.is_file() => {
                found.push(Difference::Length { name: file.name.clone(), expected: file.bytes, found: meta.len() })
            }
            _ => found.push(Difference::Missing(file.name.clone())),
        }
    }
    if manifest.units {
        for path in value_files(&table)? {
            let name = file_name(&path)?;
            if !manifest.files.iter().any(|f| f.name == name) {
                found.push(Difference::Unlisted(name));
            }
        }
    }
    let paths: Vec<PathBuf> = present.iter().map(|(_, path)| path.clone()).collect();
    for ((file, _), digest) in present.iter().zip(digests(&paths, progress)?) {
        if digest.sha256 != file.sha256 {
            found.push(Difference::Content(file.name.clone()));
        }
    }
    found.sort_by(|a, b| name_of(a).cmp(name_of(b)));
    Ok(found)
}

fn name_of(difference: &Difference) -> &str {
    match difference {
        Difference::Missing(name) | Difference::Content(name) | Difference::Unlisted(name) => name,
        Difference::Length { name, .. } => name,
    }
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Difference::Missing(name) => write!(f, "{name} is missing"),
            Difference::Length { name, expected, found } => {
                write!(f, "{name} has {} bytes, not {}", thousands(*found), thousands(*expected))
            }
            Difference::Content(name) => write!(f, "{name} differs (SHA-256)"),
            Difference::Unlisted(name) => write!(f, "{name} is not in the manifest"),
        }
    }
}

/// The first few differences, each naming its file, and how many more.
fn summarise(found: &[Difference]) -> String {
    const SHOWN: usize = 5;
    let mut parts: Vec<String> = found.iter().take(SHOWN).map(Difference::to_string).collect();
    if found.len() > SHOWN {
        parts.push(format!("and {} more", found.len() - SHOWN));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use solved_engine::Silent;

    use super::*;

    fn key() -> TableKey {
        TableKey { game: "toy".into(), variant: "normal".into(), size: "3".into(), index_version: 1, positions: 30 }
    }

    /// A unit directory of three files, a checkpoint and a lock, with its
    /// manifest written.
    fn units_with_manifest(dir: &Path) -> PathBuf {
        let units = dir.join("toy-normal-3.units");
        std::fs::create_dir(&units).unwrap();
        for (i, bytes) in [&b"first unit"[..], b"second", b"third unit's bytes"].into_iter().enumerate() {
            std::fs::write(units.join(format!("unit-{i}.unit.tbl")), bytes).unwrap();
        }
        std::fs::write(units.join("audit.ckpt"), b"a record that changes").unwrap();
        std::fs::write(units.join(".lock"), b"").unwrap();
        let described = Described { path: &units, key: &key(), board: vec![("size", "3".into())], command: "c".into() };
        let manifest = write(described, &(), &Silent).unwrap();
        assert_eq!(
            manifest.files.iter().map(|f| f.name.as_str()).collect::<Vec<_>>(),
            ["unit-0.unit.tbl", "unit-1.unit.tbl", "unit-2.unit.tbl"]
        );
        units
    }

    fn verdict(dir: &Path) -> (String, Verdict) {
        let [claim] = &claims(dir, "toy", &Silent).unwrap()[..] else { panic!("one manifest, one claim") };
        (claim.ours.clone(), claim.verdict.clone())
    }

    #[test]
    fn a_written_manifest_reads_back_and_its_copy_agrees() {
        let dir = tempfile::tempdir().unwrap();
        let units = units_with_manifest(dir.path());
        let read = read(&manifest_path(&units)).unwrap();
        assert_eq!(read.files[1].bytes, 6);
        // The SHA-256 of "second", as `sha256sum` gives it.
        assert_eq!(read.files[1].sha256, "16367aacb67a4a017c8da8ab95682ccb390863780f7114dda0a0e0c55644c7c4");
        assert_eq!(verdict(dir.path()), ("every file matches".into(), Verdict::Agrees));
        // What is not a value file may change.
        std::fs::write(units.join("audit.ckpt"), b"further on").unwrap();
        assert_eq!(verdict(dir.path()).1, Verdict::Agrees);
        // Another game's manifests are not this game's claims.
        assert!(claims(dir.path(), "other", &Silent).unwrap().is_empty());
    }

    /// What the check must say, and what a test does to a copy's files.
    type SpoiledFiles = (&'static str, fn(&Path));
    /// What the check must say, and what a test does to a copy's manifest.
    type SpoiledManifest = (&'static str, fn(&mut serde_json::Value));

    #[test]
    fn every_file_that_differs_from_its_manifest_is_named() {
        let cases: [SpoiledFiles; 5] = [
            ("unit-1.unit.tbl differs (SHA-256)", |units| {
                let path = units.join("unit-1.unit.tbl");
                let mut bytes = std::fs::read(&path).unwrap();
                bytes[3] ^= 1;
                std::fs::write(path, bytes).unwrap();
            }),
            ("unit-2.unit.tbl has 5 bytes, not 18", |units| {
                std::fs::write(units.join("unit-2.unit.tbl"), b"third").unwrap();
            }),
            ("unit-0.unit.tbl is missing", |units| std::fs::remove_file(units.join("unit-0.unit.tbl")).unwrap()),
            ("unit-3.unit.tbl is not in the manifest", |units| {
                std::fs::write(units.join("unit-3.unit.tbl"), b"stray").unwrap();
            }),
            ("toy-normal-3.units is missing", |units| std::fs::remove_dir_all(units).unwrap()),
        ];
        for (said, spoil) in cases {
            let dir = tempfile::tempdir().unwrap();
            spoil(&units_with_manifest(dir.path()));
            assert_eq!(verdict(dir.path()), (said.to_string(), Verdict::Disagrees));
        }
    }

    #[test]
    fn a_manifest_that_cannot_be_trusted_disagrees_saying_why() {
        let cases: [SpoiledManifest; 4] = [
            ("not a manifest", |m| m["files"] = serde_json::json!("none")),
            ("manifest version 2", |m| m["manifest_version"] = 2.into()),
            ("not a file name", |m| m["path"] = "../elsewhere".into()),
            ("not a file name", |m| m["files"][0]["name"] = "/etc/passwd".into()),
        ];
        for (said, spoil) in cases {
            let dir = tempfile::tempdir().unwrap();
            let path = manifest_path(&units_with_manifest(dir.path()));
            let mut json: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
            spoil(&mut json);
            std::fs::write(&path, serde_json::to_vec(&json).unwrap()).unwrap();
            let (ours, verdict) = verdict(dir.path());
            assert!(ours.contains(said) && verdict == Verdict::Disagrees, "{ours}");
        }
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("toy-normal-3.tbl.manifest.json"), b"{ cut sho").unwrap();
        assert!(verdict(dir.path()).0.contains("not a manifest"));
    }

    #[test]
    fn a_single_table_is_its_own_only_file() {
        let dir = tempfile::tempdir().unwrap();
        let table = dir.path().join("toy-normal-3.tbl");
        std::fs::write(&table, b"the values").unwrap();
        let described = Described { path: &table, key: &key(), board: vec![], command: "c".into() };
        let manifest = write(described, &(), &Silent).unwrap();
        assert_eq!((manifest.units, manifest.files.len(), manifest.path.as_str()), (false, 1, "toy-normal-3.tbl"));
        assert_eq!(verdict(dir.path()).1, Verdict::Agrees);
        std::fs::write(&table, b"the valuez").unwrap();
        assert_eq!(verdict(dir.path()).0, "toy-normal-3.tbl differs (SHA-256)");
        let missing = Described { path: &dir.path().join("none.tbl"), key: &key(), board: vec![], command: "c".into() };
        assert!(write(missing, &(), &Silent).unwrap_err().to_string().contains("solve the table first"));
    }
}
