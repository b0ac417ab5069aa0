//! The project's documentation, served by the binary itself: the README,
//! the architecture (where the source lives) and the performance, with the
//! screenshots they show, so that the pages' "Documentation" link works
//! wherever `solved serve` runs, with no network.

use axum::Router;
use axum::extract::rejection::PathRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
use solved_games::text::{bytes, duration, thousands};

use crate::api::Shared;
use crate::budget::{AT_ONCE_SECONDS, Budget, DEADLINE};
use crate::pages::shell;

/// A document of the repository, by the path links to it use.
#[derive(Debug)]
struct Doc {
    slug: &'static str,
    path: &'static str,
    title: &'static str,
    about: &'static str,
    text: &'static str,
}

/// The README, ARCHITECTURE.md and every `docs/*.md` (see `build.rs`): a
/// document added there is served without being listed anywhere.
const DOCS: &[Doc] = include!(concat!(env!("OUT_DIR"), "/documents.rs"));

/// The screenshots under `docs/screenshots/` (see `build.rs`).
const SCREENSHOTS: &[(&str, &[u8])] = include!(concat!(env!("OUT_DIR"), "/screenshots.rs"));

pub(crate) fn routes() -> Router<Shared> {
    Router::new()
        .route("/docs", get(index))
        .route("/docs/{slug}", get(doc))
        .route("/docs/screenshots/{name}", get(screenshot))
}

async fn index(State(state): State<Shared>) -> Html<String> {
    let items: String =
        DOCS.iter().map(|d| format!(r#"<li><a href="/docs/{}">{}</a>: {}</li>"#, d.slug, d.title, d.about)).collect();
    shell(
        state.games(),
        "Documentation",
        None,
        &format!(
            "<h1>Documentation</h1>\n<p>The documents of the source this server was built from \
             (solved {}).</p>\n<ul class=\"docs\">{items}</ul>\n<h2>This server's limits</h2>\n<p>{}</p>",
            env!("CARGO_PKG_VERSION"),
            limits(state.budget())
        ),
    )
}

/// What this server builds on request and how long it answers within, as
/// `serve --help` says it.
fn limits(budget: Budget) -> String {
    let positions = match budget.positions {
        u64::MAX => String::new(),
        0 => " It builds no table on request.".into(),
        most => format!(" It builds tables of at most {} positions.", thousands(most)),
    };
    format!(
        "A table that is not built yet is built on request if its estimate is within {} and {} of memory; \
         dearer ones are answered with the <code>solved solve</code> command that builds them.{positions} \
         One table is built in the background at a time, its requests answered at once with its progress; \
         one that takes under {} s is built while its request waits. Every request is answered within {} s.",
        duration(budget.seconds),
        bytes(budget.bytes),
        AT_ONCE_SECONDS,
        DEADLINE.as_secs()
    )
}

async fn doc(State(state): State<Shared>, slug: Result<Path<String>, PathRejection>) -> Response {
    let Some(doc) = slug.ok().and_then(|Path(slug)| DOCS.iter().find(|d| d.slug == slug)) else {
        return missing(&state, "There is no such document here.");
    };
    shell(state.games(), doc.title, None, &format!("<article class=\"doc\">\n{}</article>", render(doc)))
        .into_response()
}

async fn screenshot(State(state): State<Shared>, name: Result<Path<String>, PathRejection>) -> Response {
    match name.ok().and_then(|Path(name)| SCREENSHOTS.iter().find(|(n, _)| *n == name)) {
        Some(&(name, bytes)) => {
            let kind = if name.ends_with(".svg") { "image/svg+xml" } else { "image/png" };
            ([(header::CONTENT_TYPE, kind)], bytes).into_response()
        }
        None => missing(&state, "There is no such screenshot here."),
    }
}

fn missing(state: &Shared, words: &str) -> Response {
    let body = shell(
        state.games(),
        "Not found",
        None,
        &format!("<h1>Not found</h1>\n<p>{words} <a href=\"/docs\">See every document.</a></p>"),
    );
    (StatusCode::NOT_FOUND, body).into_response()
}

/// The document as HTML, its links into the repository turned into this
/// server's addresses: another document, a screenshot. Links elsewhere in
/// the repository (source files) stay as they are written. Headings get
/// the ids GitHub gives them, so that `#fragment` links land.
fn render(doc: &Doc) -> String {
    let base = doc.path.rsplit_once('/').map_or("", |(dir, _)| dir);
    let mut events: Vec<Event> = Parser::new_ext(doc.text, Options::ENABLE_TABLES)
        .map(|event| match event {
            Event::Start(Tag::Link { link_type, dest_url, title, id }) => {
                Event::Start(Tag::Link { link_type, dest_url: served(base, dest_url), title, id })
            }
            Event::Start(Tag::Image { link_type, dest_url, title, id }) => {
                Event::Start(Tag::Image { link_type, dest_url: served(base, dest_url), title, id })
            }
            other => other,
        })
        .collect();
    let mut used = std::collections::HashSet::new();
    for at in 0..events.len() {
        if !matches!(events[at], Event::Start(Tag::Heading { id: None, .. })) {
            continue;
        }
        let text: String = events[at + 1..]
            .iter()
            .take_while(|e| !matches!(e, Event::End(TagEnd::Heading(_))))
            .filter_map(|e| match e {
                Event::Text(t) | Event::Code(t) => Some(&**t),
                _ => None,
            })
            .collect();
        let slug = slug(&text);
        let unique =
            (0..).map(|n| if n == 0 { slug.clone() } else { format!("{slug}-{n}") }).find(|s| used.insert(s.clone()));
        if let Event::Start(Tag::Heading { id, .. }) = &mut events[at] {
            *id = unique.map(CowStr::from);
        }
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    // Code and tables scroll sideways on a phone: a keyboard must reach them to scroll them.
    html.replace("<pre>", "<pre tabindex=\"0\">").replace("<table>", "<table tabindex=\"0\">")
}

/// A heading's anchor as GitHub makes it: lower case, spaces as hyphens,
/// other punctuation dropped.
fn slug(text: &str) -> String {
    text.chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .flat_map(char::to_lowercase)
        .collect()
}

/// The address `solved serve` listens on by default, as the README links it.
const README_ADDRESS: &str = "http://127.0.0.1:8080";

/// Where this server serves the repository path a document links to, from
/// the document's folder `base`.
fn served<'a>(base: &str, link: CowStr<'a>) -> CowStr<'a> {
    // The address the README gives for a server run as it says is this
    // server, wherever it runs.
    if let Some(path) = link.strip_prefix(README_ADDRESS) {
        return if path.starts_with('/') { path.to_string().into() } else { format!("/{path}").into() };
    }
    if link.contains("://") || link.starts_with('#') || link.starts_with('/') {
        return link;
    }
    let (path, fragment) = link.split_once('#').map_or((&*link, None), |(p, f)| (p, Some(f)));
    let resolved = resolve(base, path);
    let fragment = fragment.map_or(String::new(), |f| format!("#{f}"));
    if let Some(doc) = DOCS.iter().find(|d| d.path == resolved) {
        return format!("/docs/{}{fragment}", doc.slug).into();
    }
    if let Some(name) = resolved.strip_prefix("docs/screenshots/") {
        return format!("/docs/screenshots/{name}").into();
    }
    link
}

/// `path` relative to the folder `base`, with `.` and `..` worked out.
fn resolve(base: &str, path: &str) -> String {
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop();
            }
            part => parts.push(part),
        }
    }
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_into_the_repository_go_to_what_this_server_serves() {
        assert_eq!(&*served("", "docs/performance.md".into()), "/docs/performance");
        assert_eq!(&*served("", "ARCHITECTURE.md#crates".into()), "/docs/architecture#crates");
        assert_eq!(&*served("docs", "../README.md".into()), "/docs/readme");
        assert_eq!(&*served("docs", "screenshots/dodgem.png".into()), "/docs/screenshots/dodgem.png");
        assert_eq!(&*served("", "docs/dodgem-6x6.md".into()), "/docs/dodgem-6x6");
        assert_eq!(&*served("", "http://127.0.0.1:8080".into()), "/");
        assert_eq!(&*served("", "http://127.0.0.1:8080/dodgem?size=4".into()), "/dodgem?size=4");
        assert_eq!(&*served("", "crates/engine/src/lib.rs".into()), "crates/engine/src/lib.rs");
        assert_eq!(&*served("", "https://example.org/x.md".into()), "https://example.org/x.md");
    }

    #[test]
    fn headings_have_the_anchors_links_point_at() {
        assert_eq!(slug("Dodgem by units (issue 13, 2026-12-01)"), "dodgem-by-units-issue-13-2026-12-01");
        assert_eq!(slug("`crates/web` (`solved-web`)"), "cratesweb-solved-web");
        let html = render(DOCS.iter().find(|d| d.slug == "architecture").unwrap());
        assert!(html.contains(r#"<h3 id="cratesweb-solved-web">"#), "{}", &html[..html.len().min(2000)]);
    }

    #[test]
    fn every_image_a_document_shows_is_served() {
        let html: String = DOCS.iter().map(render).collect();
        let shown: Vec<&str> = html.match_indices("src=\"/docs/screenshots/").map(|(at, _)| &html[at + 23..]).collect();
        assert!(shown.iter().any(|rest| rest.starts_with("dodgem-distances.svg")), "the chart is shown");
        for rest in shown {
            let name = &rest[..rest.find('"').unwrap()];
            assert!(SCREENSHOTS.iter().any(|(n, _)| *n == name), "{name} is not served");
        }
    }
}
