// axe-core's accessibility check on every page, mid-use: no serious or critical violation.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import { sharedServerAndBrowser } from "./harness.js";

const shared = sharedServerAndBrowser();
const axePath = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** The serious and critical violations axe finds on the page as it is now, one line each. */
async function violations(page) {
  await page.addScriptTag({ path: axePath });
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 3) }));
  });
  return found.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id} (${v.impact}): ${v.nodes.join(", ")}`);
}

/**
 * How a game's page is put mid-use before the check: the query to open it with, and what shows it has drawn. A
 * game without an entry is checked as its page opens, once its status says something.
 */
const MID_USE = {
  dodgem: ["?delay=0&size=3&moves=a3-b3,b1-b2", () => document.querySelector("#record button.ply")],
  "dots-and-boxes": ["?delay=0", () => document.querySelector("g.line")],
  snakes: ["", () => document.getElementById("expected-exact")?.textContent],
  "tic-tac-chec": ["", () => document.querySelector("#moves button")],
};
const opened = () => !/Setting up|^$/.test(document.getElementById("status")?.textContent ?? "");

test("no serious accessibility violation on any page", async () => {
  const { page } = shared.session;
  const games = await (await fetch(`${shared.server.url}/api/games`)).json();
  const pages = [
    ["/", () => document.querySelector(".cards a")],
    ...games.map(({ id }) => {
      const [query, ready] = MID_USE[id] ?? ["", opened];
      return [`/${id}${query}`, ready];
    }),
    ["/puzzles", () => document.querySelectorAll("#puzzles a.today").length >= 2],
    ["/dodgem?puzzle=1", () => /^Puzzle/.test(document.getElementById("status")?.textContent)],
    ["/docs", () => document.querySelector("main a[href^='/docs/']")],
  ];
  // Every document the server lists, as its index links them.
  await page.goto(`${shared.server.url}/docs`);
  const docs = await page.$$eval("main a[href^='/docs/']", (links) => [...new Set(links.map((a) => a.getAttribute("href")))]);
  assert.ok(docs.length >= 5, `${docs}`);
  pages.push(...docs.filter((d) => !d.includes("/screenshots/")).map((d) => [d, () => document.querySelector("article.doc")]));
  // At a desktop's width and a phone's.
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    for (const [path, ready] of pages) {
      await page.goto(`${shared.server.url}${path}`);
      await page.waitForFunction(ready);
      assert.deepEqual(await violations(page), [], `${path} at ${width} px`);
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
});

test("the colour-blind palette is kept from page to page and changes the value colours", async () => {
  const { page } = shared.session;
  const win = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--win").trim());
  await page.goto(`${shared.server.url}/dodgem?delay=0&moves=a3-b3`);
  await page.waitForFunction(() => document.querySelector("#record button.ply"));
  const standard = await win();
  await page.click("#palette");
  await page.waitForFunction(() => document.documentElement.classList.contains("colour-blind") && document.querySelector("#record button.ply"));
  assert.notEqual(await win(), standard);
  assert.equal(await page.locator("#palette").getAttribute("aria-pressed"), "true");
  // The game survived the redraw, and the choice holds on the next page.
  assert.equal(await page.locator("#record button.ply").count(), 2);
  await page.goto(`${shared.server.url}/`);
  assert.equal(await win(), "#009e73");
  assert.deepEqual(await violations(page), []);
  await page.click("#palette");
  assert.equal(await win(), standard);
});

/** The contrast ratio of two colours as CSS writes them (WCAG 2's relative luminance). */
const CONTRAST = `(a, b) => {
  const probe = document.createElement("div");
  document.body.append(probe);
  const lum = (c) => {
    probe.style.color = c;
    const [r, g, b] = getComputedStyle(probe).color.match(/\\d+/g).map(Number).map((v) => v / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  probe.remove();
  return (x + 0.05) / (y + 0.05);
}`;

test("value labels on the boards are text of 4.5:1, undrawn lines graphics of 3:1", async () => {
  const { page } = shared.session;
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=3`);
  await page.waitForSelector("g.car");
  await page.click('g.car[data-square="a3"]');
  await page.waitForSelector("g.target text");
  const dodgem = await page.$$eval("g.target text", (nodes, f) => nodes.map((n) => [n.textContent, eval(f)(n.getAttribute("fill"), "#fff")]), CONTRAST);
  for (const [label, ratio] of dodgem) assert.ok(ratio >= 4.5, `Dodgem ${label}: ${ratio.toFixed(2)}:1`);
  await page.goto(`${shared.server.url}/dots-and-boxes?delay=0&rows=2&cols=2&computer=none&lines=ab`);
  await page.waitForSelector("g.line text.score");
  const paper = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue("--paper"));
  const scores = await page.$$eval("g.line text.score", (nodes, [f, p]) => nodes.map((n) => [n.textContent, eval(f)(n.getAttribute("fill"), p)]), [CONTRAST, paper]);
  for (const [label, ratio] of scores) assert.ok(ratio >= 4.5, `Dots and Boxes ${label}: ${ratio.toFixed(2)}:1`);
  const undrawn = await page.$eval("g.line line", (n, [f, p]) => eval(f)(n.getAttribute("stroke"), p), [CONTRAST, paper]);
  assert.ok(undrawn >= 3, `an undrawn line: ${undrawn.toFixed(2)}:1`);
  // Wilson's letters stand around the board, one per row and column of the grid: 5 and 5 on 2×2.
  assert.equal(await page.locator("#board text.coordinate").count(), 10);
});

test("the computer's move is announced, and the focus stays on the board", async () => {
  const { page } = shared.session;
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=3`);
  await page.waitForSelector("g.car");
  await page.focus('g.car[data-square="a3"]');
  await page.keyboard.press("Enter");
  await page.waitForSelector("g.target");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => /^Red \(the computer\) played [a-c][1-3]-([a-c][1-3]|off)\. Your move/.test(document.getElementById("status")?.textContent));
  assert.equal(await page.locator("#status").getAttribute("role"), "status", "a live region");
  assert.ok(await page.evaluate(() => Boolean(document.activeElement?.closest("#board"))), "the focus is on the board");
});

test("a skip link reaches the board at the first Tab", async () => {
  const { page } = shared.session;
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=3`);
  await page.waitForSelector("g.car");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Skip to the board");
  await page.keyboard.press("Enter");
  assert.equal(await page.evaluate(() => document.activeElement?.id), "board");
  await page.keyboard.press("Tab");
  assert.ok(await page.evaluate(() => Boolean(document.activeElement?.closest("#board g.car"))), "the next Tab is a car");
});

test("Tic-Tac-Chec is played from the keyboard: a piece picked up, then its square; moves are read in words", async () => {
  const { page } = shared.session;
  await page.goto(`${shared.server.url}/tic-tac-chec?delay=0`);
  await page.waitForSelector('g.piece[data-color="white"][data-piece="N"]');
  const knight = 'g.piece[data-color="white"][data-piece="N"][data-square="hand"]';
  assert.equal(await page.locator(knight).getAttribute("aria-label"), "white knight in hand");
  assert.equal(await page.locator('#moves button[data-move="N@b1"] .sr-only').textContent(), ": knight from hand to b1");
  await page.focus(knight);
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.activeElement?.matches("g.target"));
  const move = await page.evaluate(() => document.activeElement.dataset.move);
  await page.keyboard.press("Enter");
  await page.waitForFunction((m) => document.querySelector("#record button.ply")?.dataset.move === m, move);
});
