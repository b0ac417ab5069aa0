// Helpers shared by the pages: the API, SVG and the way values are written.
"use strict";

/** An error answered by the API, with its status and body. */
class ApiError extends Error {
  constructor(status, body) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

/** The query string of an API request: `params` in order, those without a value left out. */
function apiQuery(params) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") query.set(key, value);
  }
  return query;
}

/** GET /api/<path>?<params>; resolves to { status, body } for 2xx, throws ApiError otherwise (status 0 when the
 * server could not be reached). */
async function api(path, params = {}) {
  let response;
  try {
    response = await fetch(`/api/${path}?${apiQuery(params)}`);
  } catch (_) {
    throw new ApiError(0, { error: "the server cannot be reached" });
  }
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = null;
  }
  if (!response.ok) throw new ApiError(response.status, body);
  return { status: response.status, body };
}

/**
 * The life of a page's requests, the same on every page: each new request makes the earlier ones stale (a late
 * answer to a stale one is dropped); while one is on its way `pending` is set, so that a move waits for its answer
 * (a double click must not play twice); an answer that a table is being built (202) is shown with `onBuilding` and
 * asked again, and so is a busy server (503 without a command to run), with `onBusy`.
 */
class Requests {
  constructor({ onBuilding = () => {}, onBusy = () => {} } = {}) {
    this.latest = 0;
    this.pending = false;
    this.onBuilding = onBuilding;
    this.onBusy = onBusy;
  }

  /** Starts a new request, making every earlier one stale, and returns its handle. */
  begin() {
    this.latest += 1;
    this.pending = true;
    return new Request(this, this.latest);
  }
}

/** One request of a page, which may take several calls to the API (a shared game replayed, say). */
class Request {
  constructor(owner, id) {
    this.owner = owner;
    this.id = id;
  }

  /** Whether a newer request has begun since. */
  get stale() {
    return this.owner.latest !== this.id;
  }

  /** GET /api/<path>?<params> until it is answered: the body, or null if the request went stale meanwhile. An
   * error answer is thrown as an ApiError (unless the request is stale by then: null). */
  async get(path, params = {}) {
    for (;;) {
      let answer;
      try {
        answer = await api(path, params);
      } catch (error) {
        if (this.stale) return null;
        if (!(error instanceof ApiError && error.status === 503 && !error.body.command)) throw error;
        this.owner.onBusy(error.message);
        await pause(1000);
        if (this.stale) return null;
        continue;
      }
      if (this.stale) return null;
      if (answer.status !== 202) return answer.body;
      this.owner.onBuilding(answer.body);
      await pause(500);
      if (this.stale) return null;
    }
  }

  /** The answer is in: moves may be made again (unless a newer request is on its way). */
  finish() {
    if (!this.stale) this.owner.pending = false;
  }
}

/** A colour of the style sheet, by the name of its variable (`win`, `blue`…): the one place colours are set. */
function colour(name) {
  if (!colour.cache.has(name)) {
    const value = getComputedStyle(document.documentElement).getPropertyValue(`--${name}`).trim();
    colour.cache.set(name, value || "currentColor");
  }
  return colour.cache.get(name);
}
colour.cache = new Map();

/** What a build's phases do, in words, by the names the solvers give them. */
const PHASE_WORDS = {
  solve: "solving every position",
  reachable: "counting the positions reachable from the start",
  sweep: "solving every position",
  audit: "checking every value",
  starting: "starting",
};

/** The words for a table being built or a position searched, from the API's 202 answer; the page asks again by
 * itself. */
function buildingWords(body) {
  const what = PHASE_WORDS[body.phase] || body.phase;
  const step = body.step > 1 ? `step ${body.step}, ` : "";
  if (body.work === "search") {
    const takes = body.estimate < 120 ? `${Math.max(1, Math.round(body.estimate))} s` : `${Math.round(body.estimate / 60)} min`;
    const searched = body.what.charAt(0).toUpperCase() + body.what.slice(1);
    return `${searched} is under way, up to about ${takes} (${what}: ${Math.round(100 * body.done)}%). This page carries on by itself once it is done.`;
  }
  return `Building the table of ${body.positions.toLocaleString("en")} positions (${step}${what}: ${Math.round(100 * body.done)}%). This page carries on by itself once it is ready.`;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element with attributes (and text, if given). */
function svg(tag, attrs = {}, text) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  if (text !== undefined) node.textContent = text;
  return node;
}

/** An HTML element with attributes, and children (nodes or strings). */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value !== undefined && value !== null) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

/** `W12`, `L30` or `=`: a value for the side it belongs to, as the CLI writes it. */
function valueLabel(move) {
  if (move.value === "win") return `W${move.distance}`;
  if (move.value === "loss") return `L${move.distance}`;
  if (move.value === "draw") return "=";
  return "?";
}

/** Words for a position's value: "win in 12", "loss in 30", "draw". */
function valueWords(value, distance) {
  if (value === "win") return `win in ${distance}`;
  if (value === "loss") return `loss in ${distance}`;
  if (value === "draw") return "draw";
  return "unknown";
}

/** The CSS class of a value. */
function valueClass(value) {
  return value === "win" || value === "loss" || value === "draw" ? value : "";
}

/** Resolves after `ms` milliseconds. */
function pause(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The hints checkbox, ticked at first; `onToggle(ticked)` runs on every change. */
function hintsToggle(onToggle) {
  const box = h("input", { type: "checkbox", id: "hints", checked: true, onchange: () => onToggle(box.checked) });
  return box;
}

/** A status line whose text and error state can be set; a command in the text between backticks (as the server's
 * messages write one) is shown as code. */
function statusLine() {
  const node = h("div", { class: "status", id: "status", role: "status" });
  node.show = (text, isError = false) => {
    node.replaceChildren(...text.split("`").map((part, i) => (i % 2 ? h("code", { class: "command" }, part) : part)));
    node.classList.toggle("error", isError);
  };
  return node;
}

/** The puzzles answered in this browser, and the run of right answers: `{ streak, best, answered: { key: verdict } }`. */
function puzzleStreak() {
  try {
    const kept = JSON.parse(localStorage.getItem("solved-puzzles") || "{}");
    return { streak: kept.streak || 0, best: kept.best || 0, answered: kept.answered || {} };
  } catch {
    return { streak: 0, best: 0, answered: {} };
  }
}

/** Keeps the first answer to puzzle `key`: a right one lengthens the run, a wrong one ends it. */
function recordPuzzle(key, verdict) {
  const kept = puzzleStreak();
  if (kept.answered[key]) return;
  kept.answered[key] = verdict;
  kept.streak = verdict === "right" ? kept.streak + 1 : 0;
  kept.best = Math.max(kept.best, kept.streak);
  try {
    localStorage.setItem("solved-puzzles", JSON.stringify(kept));
  } catch {
    // A browser that keeps nothing still plays the puzzle.
  }
}

/** A link from the top of a page to its rules. */
function rulesLink() {
  return h("a", { href: "#rules", class: "rules-link" }, "Rules");
}

/** How to read the numbers on a board, in one line next to it. */
function legend(text) {
  return h("p", { class: "note legend", id: "legend" }, text);
}

/** A page's rules: a section at `#rules` with `paragraphs` and `figures`, each `[picture, caption]`. */
function rulesSection(paragraphs, figures = []) {
  return h(
    "section",
    { id: "rules", class: "rules", "aria-labelledby": "rules-heading" },
    h("h2", { id: "rules-heading" }, "Rules"),
    ...paragraphs.map((p) => h("p", {}, p)),
    h("div", { class: "figures" }, ...figures.map(([picture, caption]) => h("figure", {}, picture, h("figcaption", {}, caption)))),
  );
}

/**
 * A small board for the rules: `size`×`size` squares (file 0 at the left, rank 0 at the bottom), `pieces` as
 * `{ at: [file, rank], text, fill }`, `dots` where a piece may go, `arrows` as `{ from, to }` (a square off the
 * board points off its edge); `label` says it for a screen reader.
 */
function miniBoard({ size, pieces = [], dots = [], arrows = [], label }) {
  const cell = 28;
  const pad = 16;
  const width = size * cell + 2 * pad;
  // Each picture's arrow head has an id of its own: ids are unique in a page.
  miniBoard.count = (miniBoard.count || 0) + 1;
  const head = `arrow-head-${miniBoard.count}`;
  const centre = ([file, rank]) => ({ x: pad + file * cell + cell / 2, y: pad + (size - 1 - rank) * cell + cell / 2 });
  const picture = svg("svg", { viewBox: `0 0 ${width} ${width}`, width, height: width, role: "img", "aria-label": label });
  for (let file = 0; file < size; file++) {
    for (let rank = 0; rank < size; rank++) {
      picture.append(svg("rect", { x: pad + file * cell, y: pad + rank * cell, width: cell, height: cell, fill: colour((file + rank) % 2 ? "square-dark" : "square-light"), stroke: colour("square-edge") }));
    }
  }
  for (const at of dots) {
    const { x, y } = centre(at);
    picture.append(svg("circle", { cx: x, cy: y, r: 5, fill: colour("win-text") }));
  }
  for (const { from, to } of arrows) {
    const [a, b] = [centre(from), centre(to)];
    picture.append(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: colour("ink"), "stroke-width": 2.5, "marker-end": `url(#${head})` }));
  }
  const defs = svg("defs");
  const marker = svg("marker", { id: head, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" });
  marker.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: colour("ink") }));
  defs.append(marker);
  picture.prepend(defs);
  for (const { at, text, fill } of pieces) {
    const { x, y } = centre(at);
    picture.append(svg("text", { x, y: y + 7, "text-anchor": "middle", "font-size": 20, "font-weight": 700, fill: colour(fill), stroke: colour("ink"), "stroke-width": fill === "white" ? 1 : 0 }, text));
  }
  return picture;
}
