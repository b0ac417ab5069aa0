//! Compiles every file of `assets/` into the binary: a page script added
//! there is served without being listed anywhere; and so are the
//! screenshots of `docs/screenshots/`, which the documentation shows.

use std::fmt::Write;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("assets");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the assets directory exists")
        .map(|entry| entry.expect("the assets directory can be listed").file_name().into_string().expect("UTF-8 names"))
        .filter(|name| name.ends_with(".js") || name.ends_with(".css"))
        .collect();
    names.sort();
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
}

/// The table of `docs/screenshots/*.png`: each name and its bytes.
fn screenshots() -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/screenshots");
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the screenshots directory exists")
        .map(|entry| entry.expect("the screenshots can be listed").file_name().into_string().expect("UTF-8 names"))
        .filter(|name| name.ends_with(".png"))
        .collect();
    names.sort();
    let mut table = String::from("&[\n");
    for name in &names {
        let path = dir.join(name);
        writeln!(table, "    ({name:?}, include_bytes!({:?})),", path.display().to_string())
            .expect("writing to a string");
    }
    table.push(']');
    table
}
