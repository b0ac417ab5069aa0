//! Compiles every file of `assets/` into the binary: a page script added
//! there is served without being listed anywhere; and so are the
//! documents (the README, ARCHITECTURE.md and every `docs/*.md`) and the
//! screenshots of `docs/screenshots/`, which the documentation shows.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    let names = names_in(&dir, &[".js", ".css"]);
    let mut table = String::from("&[\n");
    for name in &names {
        let content_type = if name.ends_with(".css") { "text/css" } else { "text/javascript" };
        let path = dir.join(name);
        writeln!(
            table,
            "    ({name:?}, \"{content_type}; charset=utf-8\", include_str!({:?})),",
            path.display().to_string()
        )
        .expect("writing to a string");
    }
    table.push(']');
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("assets.rs"), table).expect("OUT_DIR is writable");
    std::fs::write(out.join("screenshots.rs"), screenshots()).expect("OUT_DIR is writable");
    std::fs::write(out.join("documents.rs"), documents()).expect("OUT_DIR is writable");
}

/// The table of documents served at `/docs`: the README, ARCHITECTURE.md,
/// then every `docs/*.md` by name, each titled by its first heading and
/// described by its first sentence.
fn documents() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let names = names_in(&root.join("docs"), &[".md"]);
    let mut documents = vec![
        ("readme".to_string(), "README.md".to_string(), Some("README")),
        ("architecture".to_string(), "ARCHITECTURE.md".to_string(), Some("Architecture")),
    ];
    documents.extend(names.iter().map(|name| (name.trim_end_matches(".md").to_string(), format!("docs/{name}"), None)));
    let mut table = String::from("&[\n");
    for (slug, path, title) in documents {
        let file = root.join(&path);
        println!("cargo::rerun-if-changed={}", file.display());
        let text = std::fs::read_to_string(&file).expect("a document is UTF-8 text");
        let mut lines = text.lines();
        let heading = lines.next().unwrap_or_default().trim_start_matches("# ").to_string();
        // The first paragraph of prose: a generated document's note to editors (an HTML comment) is not one.
        let paragraph: Vec<&str> = lines
            .skip_while(|l| l.trim().is_empty() || l.trim_start().starts_with("<!--"))
            .take_while(|l| !l.trim().is_empty())
            .map(str::trim)
            .collect();
        let paragraph =
            paragraph.join(" ").replace(['`', '*'], "").replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
        let about = match paragraph.find(". ") {
            Some(end) => paragraph[..=end].to_string(),
            None => paragraph,
        };
        writeln!(
            table,
            "    Doc {{ slug: {slug:?}, path: {path:?}, title: {:?}, about: {about:?}, text: include_str!({:?}) }},",
            title.map_or(heading, String::from),
            file.display().to_string()
        )
        .expect("writing to a string");
    }
    table.push(']');
    table
}

/// The table of `docs/screenshots/*.png` (and the charts, `*.svg`): each
/// name and its bytes.
fn screenshots() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots");
    let names = names_in(&dir, &[".png", ".svg"]);
    let mut table = String::from("&[\n");
    for name in &names {
        let path = dir.join(name);
        writeln!(table, "    ({name:?}, include_bytes!({:?})),", path.display().to_string())
            .expect("writing to a string");
    }
    table.push(']');
    table
}

/// The names of the files in `dir` that end in one of `endings`, sorted;
/// the build runs again when the directory changes.
fn names_in(dir: &Path, endings: &[&str]) -> Vec<String> {
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("cannot list {}: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry can be read").file_name().into_string().expect("UTF-8 names"))
        .filter(|name| endings.iter().any(|ending| name.ends_with(ending)))
        .collect();
    names.sort();
    names
}
