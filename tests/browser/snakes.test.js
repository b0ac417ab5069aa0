// Snakes and Ladders: the Milton Bradley board against `solved solve snakes`, and the board editor.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cli, screenshot, sharedServerAndBrowser } from "./harness.js";

const shared = sharedServerAndBrowser();

const solve = (...args) => cli(shared.server.dataDir, "solve", "snakes", "--per-square", ...args);

/** Waits until the analysis shown is no longer `previous`. */
async function analysed(page, previous) {
  await page.waitForFunction(
    (old) => {
      const exact = document.getElementById("expected-exact")?.textContent;
      return exact && exact !== old && !document.getElementById("status")?.textContent?.startsWith("Analysing");
    },
    previous,
  );
  return page.locator("#expected-exact").innerText();
}

test("the Milton Bradley board: fewest throws, path, exact expectation, heat map, distribution", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/snakes`);
  await analysed(page, undefined);
  const truth = solve("--board", "milton-bradley");
  assert.equal(await page.locator("#min-throws").innerText(), String(truth.min_throws));
  assert.equal(truth.min_throws, 7);
  assert.equal(await page.locator("#rolls").innerText(), truth.rolls.join(", "));
  assert.equal(await page.locator("#expected-exact").innerText(), truth.expected_turns.exact);
  assert.equal(await page.locator("#expected").innerText(), truth.expected_turns.decimal);
  // The path visits every square of the shortest game.
  const points = (await page.getAttribute("#path", "points")).trim().split(/\s+/);
  assert.equal(points.length, truth.squares.length);
  // The heat map: a square per position, each with its expected turns.
  const titles = await page.$$eval("g.square title", (nodes) => nodes.map((n) => n.textContent));
  assert.equal(titles.length, 100);
  for (const title of titles) {
    const [square, rest] = title.split(": ");
    const expected = Number(truth.per_square[Number(square)].expected_turns.decimal);
    assert.equal(rest, `${expected.toFixed(3)} turns to go`, `square ${square}`);
  }
  const fills = new Set(await page.$$eval("g.square rect", (nodes) => nodes.map((n) => n.getAttribute("fill"))));
  assert.ok(fills.size > 20, "the heat map has many colours");
  assert.ok((await page.locator("#distribution rect.bar").count()) > 100, "the distribution is plotted");
  assert.equal(await page.locator("line.ladder").count(), 9);
  assert.equal(await page.locator("line.snake").count(), 10);
  await screenshot(page, "snakes");
  assert.deepEqual(problems, []);
});

test("the editor adds and removes jumps, and refuses a loop", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/snakes`);
  const original = await analysed(page, undefined);
  await page.check("#edit");
  // A ladder from 3 to 50.
  await page.click('g.square[data-square="3"]');
  await page.click('g.square[data-square="50"]');
  const edited = await analysed(page, original);
  const jumps = await page.$$eval("line[data-jump]", (nodes) => nodes.map((n) => n.dataset.jump));
  assert.ok(jumps.includes("3:50"));
  const truth = solve("--goal", "100", "--jumps", jumps.join(","));
  assert.equal(edited, truth.expected_turns.exact);
  assert.equal(await page.locator("#min-throws").innerText(), String(truth.min_throws));
  // A snake from 50 back to 3 would make a loop: refused, the board stays.
  await page.click('g.square[data-square="50"]');
  await page.click('g.square[data-square="3"]');
  await page.waitForFunction(() => document.getElementById("status")?.classList.contains("error"));
  assert.match(await page.locator("#status").innerText(), /circle|cycle|loop/i);
  assert.equal(await page.locator("#expected-exact").innerText(), edited);
  // After the refusal, a click starts a new jump and says so.
  await page.click('g.square[data-square="7"]');
  assert.match(await page.locator("#status").innerText(), /A jump from 7: click the square it leads to/);
  await page.keyboard.press("Escape");
  assert.match(await page.locator("#status").innerText(), /No jump added/);
  // The custom board is in the URL: a reload keeps it, and Back goes to the board before the edit.
  await page.reload();
  assert.equal(await analysed(page, undefined), edited);
  assert.equal(await page.locator("#board-select").inputValue(), "");
  await page.goBack();
  assert.equal(await analysed(page, edited), original);
  await page.goForward();
  assert.equal(await analysed(page, original), edited);
  // Clicking the ladder's foot removes it.
  await page.check("#edit");
  await page.click('g.square[data-square="3"]');
  assert.equal(await analysed(page, edited), original);
  assert.deepEqual(problems.filter((p) => !p.includes("400")), []);
});

test("the editor by keyboard alone: Enter on a square, then on where it leads; Escape lets go", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/snakes?board=milton-bradley`);
  const original = await analysed(page, undefined);
  await page.focus("#edit");
  await page.keyboard.press("Space");
  assert.ok(await page.isChecked("#edit"));
  // The squares are reached by Tab once editing: the first one after the checkbox's controls is square 1.
  const first = await (async () => {
    for (let tabs = 0; tabs < 20; tabs++) {
      await page.keyboard.press("Tab");
      const square = await page.evaluate(() => document.activeElement?.dataset?.square);
      if (square) return square;
    }
    return null;
  })();
  assert.equal(first, "1");
  // Square 1 has Milton Bradley's first ladder; square 2 has no jump yet.
  await page.keyboard.press("Tab");
  await page.keyboard.press("Enter");
  assert.match(await page.locator("#status").innerText(), /A jump from 2: click the square it leads to/);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.square), "2", "the focus stays on the square");
  await page.keyboard.press("Escape");
  assert.match(await page.locator("#status").innerText(), /No jump added/);
  // A ladder from 2 to 3 (Tab to the next square), made by Enter twice.
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  assert.equal(await page.evaluate(() => document.activeElement?.dataset?.square), "3");
  await page.keyboard.press("Enter");
  const edited = await analysed(page, original);
  const jumps = await page.$$eval("line[data-jump]", (nodes) => nodes.map((n) => n.dataset.jump));
  assert.ok(jumps.includes("2:3"), `${jumps}`);
  assert.equal(edited, solve("--goal", "100", "--jumps", jumps.join(",")).expected_turns.exact);
  assert.deepEqual(problems.filter((p) => !p.includes("400")), []);
});

test("a blank board of 30 squares", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/snakes`);
  const original = await analysed(page, undefined);
  await page.fill("#goal", "30");
  await page.click("#blank");
  const blank = await analysed(page, original);
  assert.equal(blank, solve("--goal", "30", "--jumps", "").expected_turns.exact);
  assert.equal(await page.locator("g.square").count(), 30);
  assert.deepEqual(problems, []);
  // A board numbering its cells from 0 says how many cells it has: one more than its goal.
  await page.goto(`${shared.server.url}/snakes?board=example-30`);
  await analysed(page, undefined);
  assert.match(await page.locator("#facts").innerText(), /example-30, 30 cells/);
});

test("a race of up to four players: each throw moves its player as the board's table of throws says, to the end", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/snakes?board=example-30`);
  await page.waitForSelector("#race tr");
  const truth = await (await fetch(`${shared.server.url}/api/snakes/analyse?board=example-30`)).json();
  await page.selectOption("#players", "3");
  assert.equal(await page.locator("circle.token").count(), 3);
  assert.match(await page.locator("#race-status").innerText(), /^Player 1 to throw/);
  let throws = 0;
  while (await page.locator("#throw").isEnabled()) {
    const before = await page.$$eval("circle.token", (nodes) => nodes.map((n) => Number(n.dataset.square)));
    await page.click("#throw");
    throws += 1;
    const words = await page.locator("#race-status").innerText();
    const [, player, roll, from, to] = words.match(/^Player (\d) threw (\d): (\d+) to (\d+)\./).map(Number);
    assert.equal(from, before[player - 1], "the player to throw threw");
    assert.equal(to, truth.per_square[from].throws[roll - 1], "the token goes where the board's table says");
    // The expected turns left beside each player are the analysis's, from the square the token stands on.
    const row = await page.locator(`#race tr:nth-child(${player + 1}) td`).allInnerTexts();
    assert.equal(row[2], truth.per_square[to].expected_turns.approximate.toFixed(2));
    assert.ok(throws < 2000, "a race ends");
  }
  assert.match(await page.locator("#race-status").innerText(), /Player \d wins after \d+ throws\./);
  assert.deepEqual(problems, []);
});
