#!/usr/bin/env node
// docs/dodgem-distances.md and its chart, docs/screenshots/dodgem-distances.svg: how many Dodgem positions are won or
// lost in each number of plies, from what `solved solve dodgem … --json` (or, for 6x6, `solved audit`) counted.
//
//   node scripts/distances.mjs run [SOLVED [SIZE[:VARIANT]…]]
//                                           count every board (3 to 5, or the SIZEs named, both variants or the
//                                           VARIANT, normal or misere; 6 reads the audit of its unit files, which
//                                           must have finished) with the release build (or SOLVED), keep each
//                                           board's counts in docs/dodgem-distances/, then write the page and the
//                                           chart
//   node scripts/distances.mjs render       write the page and the chart from the counts kept
//   node scripts/distances.mjs check        fail if the page or the chart is not what the counts kept give
//
// Neither is edited by hand.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const kept = join(root, "docs/dodgem-distances");
const page = join(root, "docs/dodgem-distances.md");
const chart = join(root, "docs/screenshots/dodgem-distances.svg");

const VARIANTS = [
  { id: "normal", title: "Normal play", flag: [] },
  { id: "misere", title: "Misère", flag: ["--misere"] },
];
const SIZES = [3, 4, 5, 6];

const file = (size, variant) => join(kept, `${size}x${size}-${variant.id}.json`);

function command(size, variant) {
  const operation = size > 5 ? "audit" : "solve";
  return ["solved", operation, "dodgem", "--size", String(size), ...variant.flag, "--json"];
}

/** The boards a `run` counts: "6" is both variants of 6x6, "6:normal" one of them. */
function named(boards) {
  return boards.flatMap((board) => {
    const [size, id] = board.split(":");
    const variants = VARIANTS.filter((v) => id === undefined || v.id === id);
    if (!SIZES.includes(Number(size)) || variants.length === 0) {
      console.error(`no board ${board}: a size from ${SIZES.join(", ")}, then optionally :normal or :misere`);
      process.exit(2);
    }
    return variants.map((variant) => ({ size: Number(size), variant }));
  });
}

function run(solved, boards) {
  mkdirSync(kept, { recursive: true });
  for (const { size, variant } of boards) {
    const [, ...args] = command(size, variant);
    process.stderr.write(`Dodgem ${size}x${size} ${variant.id}\n`);
    const answer = JSON.parse(execFileSync(solved, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
    writeFileSync(file(size, variant), JSON.stringify({ size, variant: variant.id, distances: answer.distances }, null, 1) + "\n");
  }
}

/** The boards whose counts are kept, by variant. */
function boards(variant) {
  return SIZES.filter((size) => existsSync(file(size, variant))).map((size) => JSON.parse(readFileSync(file(size, variant), "utf8")));
}

const thousands = (n) => n.toLocaleString("en-US");
const total = (counts) => Object.values(counts).reduce((a, b) => a + b, 0);
const longest = (counts) => Math.max(-1, ...Object.keys(counts).map(Number));

/** Positions decided at distance d (won and lost together), for every d up to the longest. */
function decided(board) {
  const { wins, losses } = board.distances;
  const last = Math.max(longest(wins), longest(losses));
  return Array.from({ length: last + 1 }, (_, d) => (wins[d] ?? 0) + (losses[d] ?? 0));
}

function renderChart() {
  const [width, height, left, right, top, bottom] = [720, 420, 64, 150, 20, 44];
  const all = VARIANTS.flatMap((v) => boards(v).map((b) => ({ ...b, variant: v })));
  const maxD = Math.max(...all.map((b) => decided(b).length - 1));
  const maxN = Math.max(...all.flatMap(decided));
  const decades = Math.ceil(Math.log10(maxN));
  const x = (d) => left + ((width - left - right) * d) / maxD;
  const y = (n) => top + (height - top - bottom) * (1 - Math.log10(n) / decades);
  const colours = { 3: "#1b6ca8", 4: "#c2410c", 5: "#15803d", 6: "#7e22ce" };
  const out = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="title">`,
    `<title id="title">Dodgem positions won or lost at each distance, log scale, one line per board and variant</title>`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<g font-family="sans-serif" font-size="12" fill="#222">`,
  ];
  for (let k = 0; k <= decades; k++) {
    out.push(`<line x1="${left}" x2="${width - right}" y1="${y(10 ** k)}" y2="${y(10 ** k)}" stroke="#ddd"/>`);
    out.push(`<text x="${left - 6}" y="${y(10 ** k) + 4}" text-anchor="end">1e${k}</text>`);
  }
  for (let d = 0; d <= maxD; d += 16) {
    out.push(`<text x="${x(d)}" y="${height - bottom + 16}" text-anchor="middle">${d}</text>`);
  }
  out.push(`<text x="${(left + width - right) / 2}" y="${height - 8}" text-anchor="middle">plies to the end (won or lost, either side to move)</text>`);
  all.forEach((b, i) => {
    const points = decided(b).map((n, d) => [d, n]).filter(([, n]) => n > 0);
    const path = points.map(([d, n], j) => `${j ? "L" : "M"}${x(d).toFixed(1)},${y(n).toFixed(1)}`).join("");
    const dash = b.variant.id === "misere" ? ` stroke-dasharray="5 3"` : "";
    out.push(`<path d="${path}" fill="none" stroke="${colours[b.size]}" stroke-width="1.5"${dash}/>`);
    out.push(`<line x1="${width - right + 12}" x2="${width - right + 36}" y1="${top + 16 * i}" y2="${top + 16 * i}" stroke="${colours[b.size]}" stroke-width="2"${dash}/>`);
    out.push(`<text x="${width - right + 42}" y="${top + 16 * i + 4}">${b.size}×${b.size} ${b.variant.id === "misere" ? "misère" : "normal"}</text>`);
  });
  out.push("</g>", "</svg>", "");
  return out.join("\n");
}

function renderPage() {
  const lines = [
    "# Dodgem: how long the games run",
    "",
    "<!-- Written by scripts/distances.mjs from docs/dodgem-distances/*.json; do not edit. -->",
    "",
    "Every position of each board, either side to move, counted by its value with perfect play: won or lost in so",
    "many plies (single moves), or drawn. `solved solve dodgem --size N --json` gives these counts as `distances`;",
    "6×6's come from the full audit of its unit files (`solved audit dodgem --size 6 --json`), which reads every",
    "value. The chart shows the positions decided at each distance, won and lost together, on a log scale: a",
    "board's longest game is where its line ends.",
    "",
    "![Positions won or lost at each distance, one line per board](screenshots/dodgem-distances.svg)",
  ];
  for (const variant of VARIANTS) {
    const kept = boards(variant);
    if (kept.length === 0) continue;
    lines.push("", `## ${variant.title}`, "");
    lines.push("| board | positions | won | lost | drawn | longest win | longest loss |", "|---|---|---|---|---|---|---|");
    for (const b of kept) {
      const { wins, losses, draws } = b.distances;
      const all = total(wins) + total(losses) + draws;
      lines.push(`| ${b.size}×${b.size} | ${thousands(all)} | ${thousands(total(wins))} | ${thousands(total(losses))} | ${thousands(draws)} | ${longest(wins)} | ${longest(losses)} |`);
    }
    lines.push("", "Positions at each distance (W won, L lost, for the side to move):", "");
    lines.push(`| plies | ${kept.map((b) => `${b.size}×${b.size}`).join(" | ")} |`, `|---|${kept.map(() => "---|").join("")}`);
    const last = Math.max(...kept.map((b) => decided(b).length - 1));
    for (let d = 0; d <= last; d++) {
      const cell = (b) => [["W", b.distances.wins[d]], ["L", b.distances.losses[d]]].filter(([, n]) => n).map(([w, n]) => `${w} ${thousands(n)}`).join(", ");
      lines.push(`| ${d} | ${kept.map(cell).join(" | ")} |`);
    }
  }
  const made = SIZES.flatMap((size) => VARIANTS.filter((v) => existsSync(file(size, v))).map((v) => command(size, v).join(" ")));
  lines.push("", "Made with:", "", "```", ...made, "```", "");
  return lines.join("\n");
}

const [mode, solved, ...boardNames] = process.argv.slice(2);
if (mode === "run") {
  run(solved ?? join(root, "target/release/solved"), named(boardNames.length ? boardNames : ["3", "4", "5"]));
  writeFileSync(page, renderPage());
  writeFileSync(chart, renderChart());
} else if (mode === "render") {
  writeFileSync(page, renderPage());
  writeFileSync(chart, renderChart());
} else if (mode === "check") {
  const wrong = [];
  if (!existsSync(page) || readFileSync(page, "utf8") !== renderPage()) wrong.push("docs/dodgem-distances.md");
  if (!existsSync(chart) || readFileSync(chart, "utf8") !== renderChart()) wrong.push("docs/screenshots/dodgem-distances.svg");
  if (wrong.length) {
    console.error(`${wrong.join(" and ")} not what docs/dodgem-distances/*.json gives: run node scripts/distances.mjs render`);
    process.exit(1);
  }
} else {
  console.error("usage: node scripts/distances.mjs run [SOLVED [SIZE[:VARIANT]…]] | render | check");
  process.exit(2);
}
