//! The repository's shape, checked: no crate's files import each other in
//! a circle, and nothing reads a path outside the repository.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The repository's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every file under `dir` whose name ends with one of `endings`, skipping
/// dependencies and build output.
fn files(dir: &Path, endings: &[&str]) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if path.is_dir() {
                if !["target", "node_modules", ".git"].contains(&name.as_str()) {
                    todo.push(path);
                }
            } else if endings.iter().any(|e| name.ends_with(e)) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The module path of a source file, from the crate root: `table::header`
/// for `src/table/header.rs`, `table` for `src/table/mod.rs`.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let relative = file.strip_prefix(src).unwrap().with_extension("");
    let mut path: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if matches!(path.last().map(String::as_str), Some("mod" | "lib" | "main")) {
        path.pop();
    }
    path
}

/// The code of a file, without comments (doc links name modules too).
fn code(text: &str) -> String {
    text.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .map(|line| line.split(" // ").next().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The modules a file's code names, as paths from the crate root.
fn references(module: &[String], code: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (at, _) in code.match_indices("crate::").chain(code.match_indices("super::")) {
        let before = code[..at].chars().last();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
            continue;
        }
        let path: String = code[at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':').collect();
        // `use crate::{a, b::c}` names each item of the group.
        let rest = &code[at + path.len()..];
        let items: Vec<String> = match rest.strip_prefix('{') {
            Some(group) => {
                let group = &group[..group.find('}').unwrap_or(group.len())];
                group.split(',').map(|item| item.trim().split(" as ").next().unwrap_or_default().to_string()).collect()
            }
            None => vec![String::new()],
        };
        for item in items {
            let full = format!("{path}{item}");
            found.push(resolve(module, &full));
        }
    }
    found
}

/// The module path from the crate root that `path` (`crate::…` or
/// `super::…`, seen from `module`) names.
fn resolve(module: &[String], path: &str) -> Vec<String> {
    {
        let mut segments: Vec<&str> = path.split("::").filter(|s| !s.is_empty()).collect();
        let mut target: Vec<String> = Vec::new();
        match segments.first() {
            Some(&"crate") => {
                segments.remove(0);
            }
            _ => {
                // `super::` is the parent of this file's module; further
                // `super::`s climb on.
                target = module.to_vec();
                while segments.first() == Some(&"super") {
                    segments.remove(0);
                    target.pop();
                }
            }
        }
        target.extend(segments.iter().map(|s| s.to_string()));
        target
    }
}

#[test]
fn no_crate_has_an_import_cycle_among_its_files() {
    for krate in ["engine", "games", "cli", "web"] {
        let src = root().join("crates").join(krate).join("src");
        let sources = files(&src, &[".rs"]);
        let modules: BTreeSet<Vec<String>> = sources.iter().map(|f| module_of(&src, f)).collect();
        // Edges between modules neither of which holds the other (a
        // module's re-exports of its children and the children's use of
        // their parent are not layers). Naming a module depends on all of
        // it, the files of its folder included.
        let mut edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
        for file in &sources {
            let from = module_of(&src, file);
            for path in references(&from, &code(&std::fs::read_to_string(file).unwrap())) {
                let Some(to) = (0..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| modules.contains(p)) else {
                    continue;
                };
                if !to.starts_with(&from) && !from.starts_with(&to) {
                    let inside = modules.iter().filter(|m| m.starts_with(&to)).cloned();
                    edges.entry(from.clone()).or_default().extend(inside);
                }
            }
        }
        // A cycle shows as a module reached again while its own search is
        // still open.
        fn visit(
            node: &Vec<String>,
            edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
            open: &mut Vec<Vec<String>>,
            done: &mut BTreeSet<Vec<String>>,
        ) -> Option<Vec<Vec<String>>> {
            if let Some(at) = open.iter().position(|n| n == node) {
                return Some(open[at..].to_vec());
            }
            if !done.insert(node.clone()) {
                return None;
            }
            open.push(node.clone());
            for next in edges.get(node).into_iter().flatten() {
                if let Some(cycle) = visit(next, edges, open, done) {
                    return Some(cycle);
                }
            }
            open.pop();
            None
        }
        let mut done = BTreeSet::new();
        for module in &modules {
            let cycle = visit(module, &edges, &mut Vec::new(), &mut done);
            let names: Option<Vec<String>> = cycle.map(|c| c.iter().map(|m| m.join("::")).collect());
            assert_eq!(names, None, "crate {krate}: these files import each other in a circle");
        }
    }
}

#[test]
fn the_cycle_check_sees_a_cycle() {
    let a = references(&["table".into()], "use crate::compact::View;\nuse super::FormatError;");
    assert_eq!(a, [vec!["compact".to_string(), "View".into()], vec!["FormatError".to_string()]]);
    let group = references(&["registry".into()], "use crate::{dodgem, snakes::Board as B};");
    assert_eq!(group, [vec!["dodgem".to_string()], vec!["snakes".to_string(), "Board".into()]]);
    let nested = references(&["table".into(), "header".into()], "x(super::super::lookup::Values)");
    assert_eq!(nested, [vec!["lookup".to_string(), "Values".into()]]);
    assert!(code("// use crate::x;\nlet a = 1; // crate::y").find("crate::").is_none());
}

#[test]
fn nothing_reads_outside_the_repository() {
    let root = root();
    let mut sources = files(&root.join("crates"), &[".rs", ".js", ".toml", ".css"]);
    sources.extend(files(&root.join("scripts"), &[""]));
    sources.extend(files(&root.join("tests"), &[".js", ".json"]));
    sources.extend(files(&root.join(".ci"), &[""]));
    // What a path out of the repository looks like from a crate's folder
    // (three levels up) or a mention of the shared folder beside it.
    let escapes = [concat!("..", "/shared"), concat!("../..", "/../"), concat!("shared", "/data")];
    for file in sources {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for escape in escapes {
            assert!(!text.contains(escape), "{} reads outside the repository ({escape})", file.display());
        }
    }
}

/// The code of a Rust file outside its unit tests: a `#[cfg(test)]` module
/// runs to the end of the file, as every one here does.
fn outside_tests(text: &str) -> &str {
    text.find("#[cfg(test)]").map_or(text, |at| &text[..at])
}

#[test]
fn no_source_outside_a_games_folder_names_a_game() {
    let root = root();
    let games: Vec<(String, String)> = solved_games::registry::GAMES
        .iter()
        .map(|g| (g.info().id.to_string(), g.info().id.replace('-', "_")))
        .collect();
    let mut sources = files(&root.join("crates"), &[".rs", ".js", ".css"]);
    sources.retain(|f| !f.components().any(|c| ["tests", "benches"].contains(&&*c.as_os_str().to_string_lossy())));
    let games_src = root.join("crates/games/src");
    for file in sources {
        let relative = file.strip_prefix(&root).unwrap().display().to_string();
        let stem = file.file_stem().unwrap().to_string_lossy().into_owned();
        let in_its_folder = |module: &str| file.starts_with(games_src.join(module));
        if games.iter().any(|(id, module)| in_its_folder(module) || stem == *id || stem == *module) {
            continue;
        }
        let mut text = std::fs::read_to_string(&file).unwrap();
        // A game is its folder's module and its entry in the registry.
        if relative == "crates/games/src/registry.rs" {
            let start = text.find("pub const GAMES").expect("the registry lists the games");
            let end = start + text[start..].find(';').unwrap();
            text.replace_range(start..end, "");
        }
        for line in code(outside_tests(&text)).lines() {
            if relative == "crates/games/src/lib.rs" && line.starts_with("pub mod ") {
                continue;
            }
            let lower = line.to_lowercase();
            for (id, module) in &games {
                assert!(!lower.contains(id) && !lower.contains(module), "{relative} names {id}: {line}");
            }
        }
    }
}

/// The paths under `dir` that `pattern` names: itself if there is no
/// `<…>` in it, else one for each folder in that place.
fn matching(dir: &Path, pattern: &str) -> Vec<PathBuf> {
    let Some((before, rest)) = pattern.split_once('<') else {
        let path = dir.join(pattern);
        return if path.exists() { vec![path] } else { Vec::new() };
    };
    let after = rest.split_once('>').map_or("", |(_, after)| after);
    let Ok(entries) = std::fs::read_dir(dir.join(before)) else { return Vec::new() };
    let mut found: Vec<PathBuf> = entries
        .map(|entry| entry.unwrap().path())
        .filter(|folder| folder.is_dir())
        .map(|folder| PathBuf::from(format!("{}{after}", folder.display())))
        .filter(|path| path.exists())
        .collect();
    found.sort();
    found
}

/// ARCHITECTURE.md's code map, like rust-analyzer's: short, naming every
/// source file, and naming nothing that is not there.
#[test]
fn the_architecture_names_every_source_file_and_only_paths_that_exist() {
    let root = root();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let lines = text.lines().count();
    assert!(lines <= 150, "ARCHITECTURE.md has {lines} lines: keep it to 150 at most");
    // Paths are written in backticks, from the folder named last in the
    // same paragraph or item, from the sources or the folder of the
    // heading's crate (`crates/engine/src/` for `table/mod.rs`), or from
    // the root.
    let mut named = BTreeSet::new();
    let mut krate = root.clone();
    let mut here = root.clone();
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("### ") {
            krate = root.join(heading.split('`').nth(1).unwrap_or_default());
        } else if line.starts_with("## ") {
            krate = root.clone();
        }
        let base = krate.join("src");
        if line.is_empty() || line.starts_with('#') || line.starts_with("- ") {
            here = base.clone();
        }
        for (i, span) in line.split('`').enumerate() {
            // `/api/` is an address, not a folder.
            let looks_like_a_path = i % 2 == 1
                && !span.contains(' ')
                && !span.starts_with('/')
                && (span.ends_with('/')
                    || span
                        .rsplit_once('.')
                        .is_some_and(|(_, ext)| ["rs", "js", "css", "md", "toml", "mjs"].contains(&ext)));
            if !looks_like_a_path {
                continue;
            }
            // `<game>/claims.rs` names the file of that name in each folder
            // that has one; `<game>.js` is a pattern for files to come.
            let found: Vec<PathBuf> = [&here, &base, &krate, &root]
                .iter()
                .map(|dir| matching(dir, span))
                .find(|found| !found.is_empty())
                .unwrap_or_default();
            assert!(
                !found.is_empty() || span.contains("<game>."),
                "ARCHITECTURE.md names `{span}`, which is not there"
            );
            // A folder, or a pattern of folders, is where the next names are.
            if let [dir] = &found[..]
                && dir.is_dir()
            {
                here = dir.clone();
            } else if span.ends_with("/") && found.len() > 1 {
                here = found[0].parent().unwrap().to_path_buf();
            }
            named.extend(found.iter().map(|f| f.canonicalize().unwrap()));
        }
    }
    let mut sources = files(&root.join("crates"), &[".rs", ".js", ".css"]);
    // Tests are found by their name, beside what they test.
    sources.retain(|f| !f.components().any(|c| c.as_os_str() == "tests") && f.file_stem().unwrap() != "tests");
    let unnamed: Vec<String> = sources
        .iter()
        .filter(|f| !named.contains(&f.canonicalize().unwrap()))
        .map(|f| f.strip_prefix(&root).unwrap().display().to_string())
        .collect();
    assert!(unnamed.is_empty(), "ARCHITECTURE.md does not name {unnamed:?}");
}
