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

/** GET /api/<path>?<params>; resolves to { status, body } for 2xx, throws ApiError otherwise. */
async function api(path, params = {}) {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== "") query.set(key, value);
  }
  const response = await fetch(`/api/${path}?${query}`);
  let body = null;
  try {
    body = await response.json();
  } catch (_) {
    body = null;
  }
  if (!response.ok) throw new ApiError(response.status, body);
  return { status: response.status, body };
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

/** The delay before the computer moves; `?delay=0` in the URL removes it. */
function computerDelay() {
  const asked = new URLSearchParams(location.search).get("delay");
  return asked === null ? 350 : Math.max(0, Number(asked) || 0);
}

/** The hints checkbox, ticked at first; `onToggle(ticked)` runs on every change. */
function hintsToggle(onToggle) {
  const box = h("input", { type: "checkbox", id: "hints", checked: true, onchange: () => onToggle(box.checked) });
  return box;
}

/** A status line whose text and error state can be set. */
function statusLine() {
  const node = h("div", { class: "status", id: "status", role: "status" });
  node.show = (text, isError = false) => {
    node.textContent = text;
    node.classList.toggle("error", isError);
  };
  return node;
}
