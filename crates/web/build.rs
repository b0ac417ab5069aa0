//! Compiles every file of `assets/` into the binary: a page script added
//! there is served without being listed anywhere.

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
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("assets.rs");
    std::fs::write(out, table).expect("OUT_DIR is writable");
}
