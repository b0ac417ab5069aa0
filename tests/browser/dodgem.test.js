// A full game of 3×3 Dodgem as Blue, every hint checked against `solved probe dodgem`.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cli, label, screenshot, sharedServerAndBrowser } from "./harness.js";

const shared = sharedServerAndBrowser();

const probe = (position) => cli(shared.server.dataDir, "probe", "dodgem", position);
const text = (selector) => shared.session.page.locator(selector).innerText();

/** Waits until it is the human's turn (or the game is over) at a position other than `previous`. */
async function settled(previous) {
  await shared.session.page.waitForFunction(
    (old) => {
      const status = document.getElementById("status")?.textContent;
      const position = document.getElementById("position")?.textContent;
      return position && position !== old && /Your move|Game over/.test(status);
    },
    previous,
  );
}

test("a full 3×3 game as Blue with hints, against the perfect player", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/dodgem?delay=0`);
  await settled(null);
  assert.match(await text("#status"), /Your move \(Blue\)\. With perfect play you have a win in 19\./);
  let sawExit = false;
  let screenshotTaken = false;
  for (let turn = 0; turn < 40; turn++) {
    if (/Game over/.test(await text("#status"))) break;
    const position = await text("#position");
    const truth = probe(position);
    // With no car selected, every legal move is a dot.
    const dots = await page.$$eval("g.dot", (nodes) => nodes.map((n) => [n.dataset.move, n.dataset.label]));
    assert.deepEqual(new Map(dots), new Map(truth.moves.map((m) => [m.move, label(m)])), `dots at ${position}`);
    // The best move, first in the CLI's ranking.
    const best = truth.moves[0];
    const from = best.move.split("-")[0];
    await page.click(`g.car[data-square="${from}"]`);
    const targets = await page.$$eval("g.target", (nodes) => nodes.map((n) => [n.dataset.move, n.dataset.label]));
    const expected = truth.moves.filter((m) => m.move.startsWith(`${from}-`)).map((m) => [m.move, label(m)]);
    assert.deepEqual(new Map(targets), new Map(expected), `destinations of ${from} at ${position}`);
    if (best.move.endsWith("-off")) {
      assert.ok((await page.locator("rect.exit-frame").count()) >= 1, "a move off the board has a dashed frame");
      sawExit = true;
    }
    if (!screenshotTaken) {
      await screenshot(page, "dodgem");
      screenshotTaken = true;
    }
    await page.click(`g.target[data-move="${best.move}"]`);
    await settled(position);
    // The computer's reply (if the game went on) is one of its best moves.
    const record = await page.$$eval("#record li", (items) => items.map((li) => li.textContent));
    if (record.length >= 2 && record[record.length - 1] !== best.move) {
      const reply = record[record.length - 1];
      const options = probe(best.position).moves;
      const chosen = options.find((m) => m.move === reply);
      assert.ok(chosen, `the computer's ${reply} is legal`);
      assert.equal(label(chosen), label(options[0]), `the computer's ${reply} is a best move`);
    }
  }
  assert.match(await text("#status"), /Game over: Blue wins\. You win!/);
  assert.ok(sawExit, "Blue's cars left the board");
  assert.deepEqual(problems, []);
});

test("the misère option, the Red side and undo", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/dodgem?delay=0`);
  await settled(null);
  await page.selectOption("#side", "Red");
  await page.check("#misere");
  // Each change starts a new game; wait for the last one, where the computer (Blue) has moved first.
  await page.waitForFunction(() => {
    const shared = new URLSearchParams(location.search);
    return shared.get("side") === "Red" && shared.get("misere") === "true" && shared.get("moves") !== "";
  });
  await settled("B../B../.RR B");
  const position = await text("#position");
  assert.match(position, / R$/);
  const truth = cli(shared.server.dataDir, "probe", "dodgem", "--misere", position);
  const dots = await page.$$eval("g.dot", (nodes) => nodes.map((n) => [n.dataset.move, n.dataset.label]));
  assert.deepEqual(new Map(dots), new Map(truth.moves.map((m) => [m.move, label(m)])));
  const move = truth.moves[0];
  await page.click(`g.car[data-square="${move.move.split("-")[0]}"]`);
  await page.click(`g.target[data-move="${move.move}"]`);
  await settled(position);
  await page.click("#undo");
  await page.waitForFunction((p) => document.getElementById("position")?.textContent === p, position);
  assert.equal(await page.locator("#record li").count(), 1);
  assert.deepEqual(problems, []);
});

test("a shared link replays its game, and a threefold repetition is reported", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  // Blue shuffles a car between a1 and a2 while Red's middle car goes up, left and right again: the position
  // after plies 2, 6 and 10 is the same, with Blue to move.
  const moves = ["a2-a1", "c1-c2", "a1-a2", "c2-b2", "a2-a1", "b2-c2", "a1-a2", "c2-b2", "a2-a1", "b2-c2"];
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=4&side=Blue&moves=${moves.join(",")}`);
  await settled(null);
  assert.equal(await page.locator("#record li").count(), 10);
  assert.equal(await page.locator("#size").inputValue(), "4");
  const status = await page.locator("#status").innerText();
  assert.match(status, /Your move \(Blue\)/);
  assert.match(status, /Threefold repetition of this position \(the game goes on\)/);
  const truth = cli(shared.server.dataDir, "probe", "dodgem", "--size", "4", "--moves", moves.join(" "));
  assert.equal(await page.locator("#position").innerText(), truth.position);
  // The game goes on: Blue can still move.
  assert.ok((await page.locator("g.dot").count()) > 0);
  // An illegal move in a link stops the replay there.
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=3&side=Red&moves=a3-b3,a1-a2`);
  await page.waitForFunction(() => /not legal/.test(document.getElementById("status")?.textContent));
  assert.match(await page.locator("#status").innerText(), /Move 2 of the link, a1-a2, is not legal/);
  assert.deepEqual(problems, []);
});
