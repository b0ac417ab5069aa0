#!/usr/bin/env node
// docs/performance.md, the one table of how fast `solved` is, made from what `solved bench … --json` measured.
//
//   node scripts/performance.mjs run [SOLVED] [ID...]   time every workload (or those named) with the release build
//                                                (or SOLVED), keep each bench's JSON in docs/performance/, then write
//                                                the page
//   node scripts/performance.mjs render         write the page from the JSON kept
//   node scripts/performance.mjs check          fail if the page is not what the JSON kept gives
//
// The page is never edited by hand: every figure on it, and every estimate the command line and the pages give
// (checked against these files by the tests), comes from the JSON.
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync, writeFileSync, mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const kept = join(root, "docs/performance");
const page = join(root, "docs/performance.md");

/** What is timed, and what its published solver took, as published. */
const WORKLOADS = [
  {
    id: "dodgem-4x4",
    title: "Dodgem 4×4",
    args: ["dodgem", "--size", "4"],
    repeat: 5,
    published: null,
  },
  {
    id: "dodgem-5x5",
    title: "Dodgem 5×5",
    args: ["dodgem", "--size", "5"],
    repeat: 5,
    published: { seconds: 323, bytes: 928e6, where: "sen-ltd's Dodgem solver, on its author's machine" },
  },
  {
    id: "dots-and-boxes-3x5-icelandic",
    title: "Dots and Boxes 3×5 Icelandic",
    args: ["dots-and-boxes", "--rows", "3", "--cols", "5", "--variant", "icelandic"],
    repeat: 5,
    published: { seconds: 150.3, bytes: 1.1e9, where: "sen-ltd's sweep, on its author's Mac mini" },
  },
  {
    id: "tic-tac-chec",
    title: "Tic-Tac-Chec, both phases",
    args: ["tic-tac-chec"],
    repeat: 1,
    published: null,
  },
];

const THREADS = "1,2";

/**
 * What `solved solve` takes from nothing to a saved table (the solve, the facts its header keeps, the writing), on
 * two threads: what the command line's estimate before a long solve foretells.
 */
const SOLVES = [
  { id: "solve-dodgem-5x5", title: "Dodgem 5×5", args: ["dodgem", "--size", "5"] },
  { id: "solve-dots-and-boxes-3x5-icelandic", title: "Dots and Boxes 3×5 Icelandic", args: ["dots-and-boxes", "--rows", "3", "--cols", "5", "--variant", "icelandic"] },
  { id: "solve-dots-and-boxes-3x4", title: "Dots and Boxes 3×4 (quiet positions)", args: ["dots-and-boxes", "--rows", "3", "--cols", "4"] },
  { id: "solve-tic-tac-chec", title: "Tic-Tac-Chec", args: ["tic-tac-chec"] },
];

/**
 * What `solved solve --search` takes to find the start's value and every first line's from nothing (a fresh record),
 * on two threads, against the target its issue set.
 */
const SEARCHES = [
  { id: "search-dots-and-boxes-3x4", title: "Dots and Boxes 3×4 American", args: ["dots-and-boxes", "--rows", "3", "--cols", "4", "--search"], target: null },
  { id: "search-dots-and-boxes-3x5", title: "Dots and Boxes 3×5 American", args: ["dots-and-boxes", "--rows", "3", "--cols", "5", "--search"], target: 600 },
  { id: "search-dots-and-boxes-4x4", title: "Dots and Boxes 4×4 American", args: ["dots-and-boxes", "--rows", "4", "--cols", "4", "--search"], target: 1800 },
];

/**
 * Solves into unit files, from nothing, on two threads: hours each, so run only when named (`run SOLVED ID`). Their
 * answer times each stage and the units by size.
 */
const LONG_SOLVES = [
  { id: "solve-dodgem-6x6", title: "Dodgem 6×6", args: ["dodgem", "--size", "6"], target: { seconds: 5400, bytes: 4 * 2 ** 30 } },
];

/** The command that builds a table from nothing, as the page shows it. */
function solveCommand(solve) {
  return ["solved", "--data-dir", "EMPTY_DIR", "--threads", "2", "solve", ...solve.args, "--json"];
}

/** The command that times a workload, as the page shows it. */
function command(workload) {
  return ["solved", "bench", ...workload.args, "--thread-counts", THREADS, "--repeat", String(workload.repeat), "--json"];
}

function machine() {
  const model = cpus()[0]?.model?.trim() || "unknown processor";
  return `${model}, ${cpus().length} threads, ${Math.round(totalmem() / 2 ** 30)} GiB`;
}

function run(solved, only) {
  const binary = solved || join(root, "target/release/solved");
  statSync(binary);
  const commit = execFileSync("git", ["-C", root, "rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim();
  mkdirSync(kept, { recursive: true });
  const wanted = (entry) => only.length === 0 || only.includes(entry.id);
  for (const workload of WORKLOADS.filter(wanted)) {
    const [, ...args] = command(workload);
    process.stderr.write(`performance: ${command(workload).join(" ")}\n`);
    const bench = JSON.parse(execFileSync(binary, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
    const record = { workload: workload.id, command: command(workload).join(" "), machine: machine(), commit, date: new Date().toISOString().slice(0, 10), bench };
    writeFileSync(join(kept, `${workload.id}.json`), `${JSON.stringify(record, null, 2)}\n`);
  }
  const named = (entry) => only.includes(entry.id);
  for (const solve of [...SOLVES, ...SEARCHES].filter(wanted).concat(LONG_SOLVES.filter(named))) {
    const dir = mkdtempSync(join(tmpdir(), "solved-performance-"));
    const [, ...args] = solveCommand(solve).map((word) => (word === "EMPTY_DIR" ? dir : word));
    process.stderr.write(`performance: ${solveCommand(solve).join(" ")}\n`);
    const answer = JSON.parse(execFileSync(binary, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }));
    rmSync(dir, { recursive: true, force: true });
    const record = { workload: solve.id, command: solveCommand(solve).join(" "), machine: machine(), commit, date: new Date().toISOString().slice(0, 10), seconds: answer.seconds };
    if (answer.method === "search") Object.assign(record, { nodes: answer.nodes, value: answer.value, first_moves: answer.first_moves.length });
    if (answer.stage_seconds) {
      const { positions, stage_seconds, peak_resident_bytes, by_size } = answer;
      Object.assign(record, { positions, stage_seconds, peak_resident_bytes, by_size });
    }
    writeFileSync(join(kept, `${solve.id}.json`), `${JSON.stringify(record, null, 2)}\n`);
  }
}

const thousands = (n) => n.toLocaleString("en-US");
const seconds = (s) => (s < 10 ? s.toFixed(2) : s < 100 ? s.toFixed(1) : s.toFixed(0)) + " s";
const hours = (s) => (s >= 5400 ? `${(s / 3600).toFixed(1)} h` : s >= 120 ? `${Math.round(s / 60)} min` : seconds(s));
const memory = (bytes) => (bytes ? memoryOf(bytes) : "not reported");
const memoryOf = (bytes) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : `${Math.round(bytes / 1e6)} MB`);

function render() {
  const records = new Map(
    readdirSync(kept)
      .filter((name) => name.endsWith(".json"))
      .map((name) => JSON.parse(readFileSync(join(kept, name), "utf8")))
      .map((record) => [record.workload, record]),
  );
  const rows = [];
  const commands = [];
  const runs = new Set();
  for (const workload of WORKLOADS) {
    const record = records.get(workload.id);
    if (!record) throw new Error(`no measurement of ${workload.id} in docs/performance/: run \`node scripts/performance.mjs run\``);
    const { bench } = record;
    const median = (threads) => bench.summary.find((s) => s.threads === threads)?.median_seconds;
    const peak = Math.max(...bench.runs.map((r) => r.peak_memory_bytes || 0));
    const published = workload.published
      ? `${seconds(workload.published.seconds)}, ${memory(workload.published.bytes)} (${workload.published.where})`
      : "none published";
    rows.push(`| ${workload.title} | ${thousands(bench.runs[0].positions)} | ${seconds(median(1))} | ${seconds(median(2))} | ${memory(peak)} | ${published} |`);
    commands.push(record.command);
    runs.add(`${record.machine}; commit \`${record.commit}\`, ${record.date}`);
  }
  const built = SOLVES.map((solve) => {
    const record = records.get(solve.id);
    if (!record) throw new Error(`no measurement of ${solve.id} in docs/performance/: run \`node scripts/performance.mjs run\``);
    commands.push(record.command);
    runs.add(`${record.machine}; commit \`${record.commit}\`, ${record.date}`);
    return `| ${solve.title} | ${seconds(record.seconds)} |`;
  });
  const searched = SEARCHES.map((search) => {
    const record = records.get(search.id);
    if (!record) throw new Error(`no measurement of ${search.id} in docs/performance/: run \`node scripts/performance.mjs run\``);
    commands.push(record.command);
    runs.add(`${record.machine}; commit \`${record.commit}\`, ${record.date}`);
    const target = search.target ? `≤ ${search.target / 60} min` : "none set";
    return `| ${search.title} | ${record.first_moves} | ${record.value} | ${thousands(record.nodes)} | ${seconds(record.seconds)} | ${target} |`;
  });
  const sizes = [];
  const long = LONG_SOLVES.map((solve) => {
    const record = records.get(solve.id);
    if (!record) throw new Error(`no measurement of ${solve.id} in docs/performance/: run \`node scripts/performance.mjs run "" ${solve.id}\``);
    commands.push(record.command);
    runs.add(`${record.machine}; commit \`${record.commit}\`, ${record.date}`);
    for (const size of record.by_size) {
      const which = size.below <= 2 ** 24 ? "below 2^24, several at once" : `2^${Math.log2(size.below) - 1} to 2^${Math.log2(size.below)}`;
      sizes.push(`| ${solve.title} | ${which} | ${thousands(size.units)} | ${thousands(size.positions)} | ${hours(size.seconds)} | ${(size.positions / size.seconds / 1e6).toFixed(1)} million |`);
    }
    const stages = record.stage_seconds;
    const target = `≤ ${hours(solve.target.seconds)}, ≤ ${solve.target.bytes / 2 ** 30} GiB`;
    const projected = (stage) => (record.projected?.includes(stage) ? `about ${hours(stages[stage])} (projected)` : hours(stages[stage]));
    return `| ${solve.title} | ${thousands(record.positions / 2)} | ${projected("units")} | ${projected("distances")} | ${projected("reachable")} | ${memory(record.peak_resident_bytes)} | ${target} |`;
  });
  const text = `# Performance

How long \`solved\` takes to solve every position of each workload from
nothing, in memory (\`solved bench\`: each run a fresh process, its peak
memory measured), the median of several runs at one and at two threads.
Positions are the table's entries: one for a position and its mirror image
in Dodgem, one for each class of symmetric quiet positions in Dots and
Boxes past 30 lines. The published figure is the time the game's published
solver reported, on its author's machine.

| workload | positions | 1 thread | 2 threads | peak memory | published |
| --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

Building a table with \`solved solve\` takes longer: the solve, then the
figures its header keeps (Dodgem's positions reachable from the start, say),
then writing it; at two threads:

| table | from nothing to saved |
| --- | --- |
${built.join("\n")}

Past 5×5, Dodgem is solved into unit files, a unit at a time; then a pass
over the files counts every position by distance, and a walk from the
start counts the positions reachable. From nothing (its positions stored
one for a position and its mirror image), at two threads:

| board | stored positions | the units | then the distances | then the walk | peak memory | target for the units |
| --- | --- | --- | --- | --- | --- | --- |
${long.join("\n")}

The units by size, each class's wall time summed over its units (small
units solved together counted as one stretch):

| board | positions in a unit | units | positions | time | positions a second |
| --- | --- | --- | --- | --- | --- |
${sizes.join("\n")}

The search (\`solve --search\`), which keeps no table of every position,
finds the start's value and every first line's from nothing (a fresh
record); at two threads:

| board | first lines | value | positions searched | time | target |
| --- | --- | --- | --- | --- | --- |
${searched.join("\n")}

Measured on ${[...runs].join("; ")}, with the release build
(\`cargo build --release\`), by:

\`\`\`sh
${commands.join("\n")}
\`\`\`

This page is made by \`node scripts/performance.mjs run\` from what those
commands print, kept in \`docs/performance/\`; do not edit it by hand. The
estimates the command line and the pages give before a long solve are held
to the same measurements by a test. How each figure came about, and what
was tried, is in the working notes, \`docs/notes/\`.
`;
  return text;
}

const [mode, solved, ...only] = process.argv.slice(2);
if (mode === "run") {
  run(solved, only);
  writeFileSync(page, render());
} else if (mode === "render") {
  writeFileSync(page, render());
} else if (mode === "check") {
  if (readFileSync(page, "utf8") !== render()) {
    process.stderr.write("docs/performance.md is not what docs/performance/*.json give: run `node scripts/performance.mjs render`\n");
    process.exit(1);
  }
} else {
  process.stderr.write("usage: node scripts/performance.mjs run [SOLVED] [ID...] | render | check\n");
  process.exit(2);
}
