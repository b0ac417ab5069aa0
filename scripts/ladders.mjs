#!/usr/bin/env node
// docs/ladders.md, how the computer's levels fare against each other, made from what `solved match … --json` played.
//
//   node scripts/ladders.mjs run [SOLVED [BOARD…]]   play every match (of the boards named, by id) with the release
//                                           build (or SOLVED), keep each match's JSON in docs/ladders/, then write the
//                                           page (Tic-Tac-Chec needs its table where SOLVED_DATA_DIR or the default
//                                           data directory has it)
//   node scripts/ladders.mjs render         write the page from the JSON kept
//   node scripts/ladders.mjs check          fail if the page is not what the JSON kept gives, or if a level does not
//                                           clearly beat the one below it, or the perfect level gave up a result
//
// The page is never edited by hand.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync, mkdirSync, existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const kept = join(root, "docs/ladders");
const page = join(root, "docs/ladders.md");

const BOARDS = [
  { id: "dodgem-4x4", title: "Dodgem 4×4", args: ["dodgem", "--size", "4"] },
  { id: "dodgem-5x5", title: "Dodgem 5×5", args: ["dodgem", "--size", "5"] },
  { id: "dots-and-boxes-3x3", title: "Dots and Boxes 3×3", args: ["dots-and-boxes", "--rows", "3", "--cols", "3"] },
  { id: "dots-and-boxes-3x4", title: "Dots and Boxes 3×4", args: ["dots-and-boxes", "--rows", "3", "--cols", "4"] },
  { id: "tic-tac-chec", title: "Tic-Tac-Chec", args: ["tic-tac-chec"] },
];

/** Each level against the one above it. */
const PAIRS = [
  ["random", "casual"],
  ["casual", "strong"],
  ["strong", "perfect"],
];

const GAMES = 400;
const SEED = 1;

/** The least share of the points (a win 1, a draw ½) the stronger level of a pair must take: "clearly". */
const CLEARLY = 0.6;

function command(board, [weaker, stronger]) {
  return ["solved", "match", ...board.args, "--levels", `${weaker},${stronger}`, "--games", String(GAMES), "--seed", String(SEED), "--json"];
}

const file = (board, pair) => join(kept, `${board.id}-${pair.join("-")}.json`);

function run(solved, only) {
  mkdirSync(kept, { recursive: true });
  for (const board of BOARDS.filter((b) => only.length === 0 || only.includes(b.id))) {
    for (const pair of PAIRS) {
      const [, ...args] = command(board, pair);
      process.stderr.write(`${board.title}: ${pair.join(" against ")}\n`);
      const json = execFileSync(solved, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], maxBuffer: 1 << 26 });
      writeFileSync(file(board, pair), json);
    }
  }
}

const load = (board, pair) => JSON.parse(readFileSync(file(board, pair), "utf8"));

/** The stronger level's share of the points. */
const share = (r, games) => (r.wins + r.draws / 2) / games;

/** What is wrong with the matches kept: a level that does not clearly beat the one below, a result perfect gave up. */
function problems() {
  const found = [];
  for (const board of BOARDS) {
    for (const pair of PAIRS) {
      const m = load(board, pair);
      const stronger = m.second;
      if (share(stronger, m.games) < CLEARLY) found.push(`${board.title}: ${pair[1]} takes under ${CLEARLY * 100}% of the points against ${pair[0]}`);
      if (stronger.level !== "perfect") continue;
      // Perfect keeps the start's result on its side: never worse, whatever the other side plays.
      const [asFirst, asSecond] = [stronger.moving_first, stronger.moving_second];
      const lost = { win: asFirst.losses + asFirst.draws, draw: asFirst.losses + asSecond.losses, loss: asSecond.losses + asSecond.draws }[m.start];
      if (lost > 0) found.push(`${board.title}: perfect fell short of the start's result (${m.start} for the first mover) in ${lost} games`);
    }
  }
  return found;
}

const wdl = (t) => `${t.wins}–${t.draws}–${t.losses}`;

function render() {
  const lines = [
    "# Ladders: the computer's levels, measured",
    "",
    "<!-- Written by scripts/ladders.mjs from docs/ladders/*.json; do not edit. -->",
    "",
    "Every page and `solved play --level` offer four opponents. Each is a policy over the values the game's table",
    "gives every move; none looks ahead. `solved match` plays two levels against each other from the start, each",
    `moving first in every other game, and counts the results. Each row below is ${GAMES} games (seed ${SEED}), a level`,
    "against the one below it; a level must take at least 60% of the points (a win 1, a draw ½) from the one below,",
    "and the perfect level must never fall short of the start's result on its side (both are checked by",
    "`scripts/test`).",
    "",
    "| level | policy |",
    "|---|---|",
  ];
  const first = load(BOARDS[0], PAIRS[0]);
  first.levels_available.forEach((level, i) => lines.push(`| ${level} | ${first.policies[i]} |`));
  for (const board of BOARDS) {
    const start = load(board, PAIRS[0]).start;
    const words = { win: "won for the side that moves first", draw: "drawn", loss: "lost for the side that moves first" }[start];
    const scored = load(board, PAIRS[0]).second.average_score !== undefined;
    lines.push("", `## ${board.title}`, "", `The start is ${words}.`, "");
    lines.push(`| stronger | weaker | stronger's wins–draws–losses | moving first | moving second | share of the points |${scored ? " average margin |" : ""}`);
    lines.push(`|---|---|---|---|---|---|${scored ? "---|" : ""}`);
    for (const pair of PAIRS) {
      const m = load(board, pair);
      const s = m.second;
      const margin = scored ? ` ${s.average_score >= 0 ? "+" : ""}${s.average_score.toFixed(2)} |` : "";
      lines.push(`| ${pair[1]} | ${pair[0]} | ${wdl(s)} | ${wdl(s.moving_first)} | ${wdl(s.moving_second)} | ${(100 * share(s, m.games)).toFixed(1)}% |${margin}`);
    }
  }
  lines.push("", "Made with:", "", "```", ...BOARDS.flatMap((b) => PAIRS.map((p) => command(b, p).join(" "))), "```", "");
  return lines.join("\n");
}

const [mode, solved, ...only] = process.argv.slice(2);
if (mode === "run") {
  run(solved ?? join(root, "target/release/solved"), only);
  writeFileSync(page, render());
} else if (mode === "render") {
  writeFileSync(page, render());
} else if (mode === "check") {
  const wrong = problems();
  if (!existsSync(page) || readFileSync(page, "utf8") !== render()) wrong.push("docs/ladders.md is not what docs/ladders/*.json gives: run node scripts/ladders.mjs render");
  if (wrong.length) {
    console.error(wrong.join("\n"));
    process.exit(1);
  }
} else {
  console.error("usage: node scripts/ladders.mjs run [SOLVED] | render | check");
  process.exit(2);
}
