// What every browser test needs: the `solved` binary, a server on a free port, headless Chromium, and the CLI
// to check the pages against.
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, mkdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { after, before } from "node:test";
import { chromium } from "playwright-core";

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "../..");

/** The binary under test: $SOLVED_BIN, else the workspace's debug build. */
export const solvedBin = process.env.SOLVED_BIN || join(root, "target/debug/solved");

/** Where the screenshots go: $SCREENSHOT_DIR, else target/screenshots. */
export const screenshotDir = process.env.SCREENSHOT_DIR || join(root, "target/screenshots");

/** Runs `solved --data-dir DIR ARGS --json` and parses what it prints. */
export function cli(dataDir, ...args) {
  const out = execFileSync(solvedBin, ["--data-dir", dataDir, ...args, "--json"], { encoding: "utf8", maxBuffer: 1 << 26 });
  return JSON.parse(out);
}

/** Starts `solved serve` on a free port with its own data directory (or `dataDir`). */
export async function startServer(dataDir) {
  const dir = dataDir || mkdtempSync(join(tmpdir(), "solved-browser-"));
  // With at most 256 files open, as some systems allow a process: the server must not need more.
  const serve = [solvedBin, "--data-dir", dir, "serve", "--addr", "127.0.0.1:0"];
  const child = spawn("sh", ["-c", 'ulimit -n 256 && exec "$0" "$@"', ...serve], { stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise((resolveUrl, reject) => {
    let seen = "";
    const timer = setTimeout(() => reject(new Error(`the server did not start: ${seen}`)), 30_000);
    child.stderr.on("data", (chunk) => {
      seen += chunk;
      // Wait for the whitespace after the address: a chunk may end inside the port number.
      const found = /serving (http:\/\/\S+)\s/.exec(seen);
      if (found) {
        clearTimeout(timer);
        resolveUrl(found[1]);
      }
    });
    child.on("exit", (code) => reject(new Error(`the server exited with ${code}: ${seen}`)));
    child.on("error", (error) => reject(new Error(`cannot start ${solvedBin}: ${error.message}`)));
  });
  return {
    url,
    dataDir: dir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((done) => child.on("exit", done));
        child.kill("SIGINT");
        await exited;
      }
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Debian's Chromium, or $CHROMIUM. */
function chromiumPath() {
  if (process.env.CHROMIUM) return process.env.CHROMIUM;
  for (const name of ["chromium", "chromium-browser"]) {
    try {
      return execFileSync("which", [name], { encoding: "utf8" }).trim();
    } catch (_) {
      // try the next name
    }
  }
  throw new Error("no chromium on the PATH: scripts/test installs Debian's chromium package");
}

/** A headless browser and a page that fails the test on any script error or failed request. */
export async function openBrowser() {
  const browser = await chromium.launch({
    executablePath: chromiumPath(),
    args: ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-quic"],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console error: ${message.text()}`);
  });
  return { browser, page, problems };
}

/** One server and one browser for all the tests of a file: `shared.server` and `shared.session` are set before
 * the first test runs, and stopped after the last. */
export function sharedServerAndBrowser() {
  const shared = {};
  before(async () => {
    shared.server = await startServer();
    shared.session = await openBrowser();
  });
  after(async () => {
    await shared.session?.browser.close();
    await shared.server?.stop();
  });
  return shared;
}

/** Saves a screenshot of the page as NAME.png. */
export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: join(screenshotDir, `${name}.png`) });
}

/** `W12`, `L30` or `=`, as the pages label a CLI move. */
export function label(move) {
  if (move.value === "win") return `W${move.distance}`;
  if (move.value === "loss") return `L${move.distance}`;
  return "=";
}
