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
    ["/docs/readme", () => document.querySelector("article.doc")],
    ["/docs/ladders", () => document.querySelector("article.doc")],
  ];
  for (const [path, ready] of pages) {
    await page.goto(`${shared.server.url}${path}`);
    await page.waitForFunction(ready);
    assert.deepEqual(await violations(page), [], path);
  }
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
