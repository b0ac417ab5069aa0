// Each board page's rules, reachable from the top with diagrams, the line on reading its numbers, and the value
// chart's scale.
import assert from "node:assert/strict";
import { test } from "node:test";
import { sharedServerAndBrowser } from "./harness.js";

const shared = sharedServerAndBrowser();

const RULES = {
  dodgem: { figures: 3, says: [/leaves? the board only across its own far edge/, /Blue moves first|moves first/] },
  "dots-and-boxes": { figures: 3, says: [/Swedish boards start with the whole outer boundary drawn/, /Icelandic ones with the left and bottom boundary/, /double-dealing/] },
  snakes: { figures: 1, says: [/throws one die/, /bounces it back/], legend: false },
  "tic-tac-chec": { figures: 5, says: [/The knight jumps/, /turns round/, /under travel a pawn going home still captures/] },
};

for (const [game, { figures, says, legend = true }] of Object.entries(RULES)) {
  test(`${game}: the rules are one click from the top, with diagrams, and a line says how to read the numbers`, async () => {
    const { page, problems } = shared.session;
    problems.length = 0;
    await page.goto(`${shared.server.url}/${game}?delay=0`);
    await page.waitForSelector(figures ? "#rules figure svg" : "#rules p");
    const link = page.locator(".controls a.rules-link");
    assert.equal(await link.getAttribute("href"), "#rules");
    await link.click();
    assert.equal(new URL(page.url()).hash, "#rules");
    assert.equal(await page.locator("#rules figure").count(), figures);
    for (const picture of await page.locator("#rules figure svg").all()) {
      assert.equal(await picture.getAttribute("role"), "img");
      assert.ok((await picture.getAttribute("aria-label")).length > 10, "each diagram says what it shows");
    }
    const text = await page.locator("#rules").innerText();
    for (const pattern of says) assert.match(text, pattern);
    if (legend) assert.match(await page.locator("#legend").innerText(), /best play|play perfectly/);
    assert.deepEqual(problems, []);
  });
}

test("the value chart has a scale: the shortest and longest distance, or the final score", async () => {
  const { page } = shared.session;
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=3&mode=analysis&moves=a3-b3,b1-b2`);
  await page.waitForFunction(() => document.querySelectorAll("#chart circle.ply-dot").length === 3);
  const ticks = await page.$$eval("#chart text.tick", (nodes) => nodes.map((n) => n.textContent));
  // 3×3 from the start: Blue wins in 19, the longest distance of the three plies.
  assert.deepEqual(ticks, ["in 1", "in 19", "in 1", "in 19"]);
  await page.goto(`${shared.server.url}/dots-and-boxes?delay=0&rows=2&cols=2&computer=none&lines=ab`);
  await page.waitForFunction(() => document.querySelectorAll("#chart circle.ply-dot").length === 2);
  assert.deepEqual(await page.$$eval("#chart text.tick", (nodes) => nodes.map((n) => n.textContent)), ["+4", "−4"]);
});
