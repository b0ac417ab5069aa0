// The puzzles page and a puzzle on its game's page: the values hidden until the answer, the verdict, the refutation
// and the run of right answers kept in the browser; and the hints box, which hides every value on a board page.
import assert from "node:assert/strict";
import { test } from "node:test";
import { screenshot, sharedServerAndBrowser } from "./harness.js";

const shared = sharedServerAndBrowser();

/** The puzzle `seed` draws for `game` on its default board, as the server gives it. */
async function drawn(game, seed) {
  const body = await (await fetch(`${shared.server.url}/api/${game}/puzzle?seed=${seed}`)).json();
  return { ...body.puzzles[0], settings: new URLSearchParams(body.settings) };
}

/** The probe of a Dodgem position. */
const probe = async (size, position) =>
  (await fetch(`${shared.server.url}/api/dodgem/probe?size=${size}&position=${encodeURIComponent(position)}`)).json();

/** Plays Dodgem move `move` by clicking its car, then its target. */
async function playDodgem(page, move) {
  await page.click(`g.car[data-square="${move.split("-")[0]}"]`);
  await page.click(`g.target[data-move="${move}"]`);
}

/** The problems a page reported, less a busy server's 503, which the page asks again after by design. */
const unexpected = (problems) => problems.filter((p) => !/status of 503/.test(p));

const statusSays = (page, pattern) =>
  page.waitForFunction((p) => new RegExp(p).test(document.getElementById("status")?.textContent), pattern.source);

test("the day's puzzles are listed for every game that draws them, each a link to its board", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/puzzles`);
  await page.waitForFunction(() => document.querySelectorAll("#puzzles .card").length === 3 && document.querySelectorAll("#puzzles a.today").length === 2);
  assert.match(await page.locator('.card[data-game="dodgem"]').innerText(), /Dodgem 4x4 \(normal\): play and (win|hold the draw)/);
  // Tic-Tac-Chec's table is not built here: the card says how to build it.
  assert.match(await page.locator('.card[data-game="tic-tac-chec"]').innerText(), /solved solve tic-tac-chec/);
  assert.match(await page.locator("#streak").innerText(), /Puzzles in a row: 0/);
  await screenshot(page, "puzzles");
  assert.deepEqual(problems.filter((p) => !/Failed to load resource/.test(p)), []);
});

test("a puzzle hides the values until it is answered, then says right, and the run of right answers grows", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/puzzles`);
  await page.evaluate(() => localStorage.removeItem("solved-puzzles"));
  const puzzle = await drawn("dodgem", 1);
  await page.goto(`${shared.server.url}/dodgem?${puzzle.settings}&puzzle=1`);
  await statusSays(page, /^Puzzle \((easy|medium|hard)\): (Blue|Red) to play and (win|hold the draw)\. Exactly one of the \d+ moves does/);
  assert.equal(await page.locator("#position").innerText(), puzzle.position);
  assert.equal(await page.locator("#value").innerText(), "hidden (tick hints)");
  assert.equal(await page.locator("#record .v").count(), 0, "no value in the record");
  await page.click(`g.car[data-square="${puzzle.answer.split("-")[0]}"]`);
  assert.deepEqual(await page.$$eval("g.target", (nodes) => nodes.map((n) => n.dataset.label)).then((l) => [...new Set(l)]), [""], "no value on the board");
  await page.click(`g.target[data-move="${puzzle.answer}"]`);
  await statusSays(page, /^Right: /);
  assert.match(await page.locator("#status").innerText(), /Puzzles in a row: 1 \(best 1\)/);
  assert.notEqual(await page.locator("#value").innerText(), "hidden (tick hints)", "the values come back");
  // Answering again (a reload) counts once.
  await page.reload();
  await statusSays(page, /^Right: .*Puzzles in a row: 1/);
  await page.goto(`${shared.server.url}/puzzles`);
  await page.waitForFunction(() => /Puzzles in a row: 1/.test(document.getElementById("streak")?.textContent));
  assert.deepEqual(unexpected(problems), []);
});

test("a wrong answer is refuted by the perfect line after it, and ends the run", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  const puzzle = await drawn("dodgem", 2);
  const wrong = (await probe(4, puzzle.position)).moves.find((m) => m.move !== puzzle.answer);
  await page.goto(`${shared.server.url}/dodgem?${puzzle.settings}&puzzle=2`);
  await statusSays(page, /^Puzzle/);
  await playDodgem(page, wrong.move);
  await statusSays(page, /Best play after it: /);
  const words = await page.locator("#status").innerText();
  assert.match(words, new RegExp(`^Not this time: after ${wrong.move} \\(`));
  assert.match(words, new RegExp(`the one move was ${puzzle.answer}`));
  assert.match(words, /Puzzles in a row: 0/);
  assert.deepEqual(unexpected(problems), []);
});

test("Dots and Boxes: a puzzle of the best final score, answered right", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  const puzzle = await drawn("dots-and-boxes", 3);
  await page.goto(`${shared.server.url}/dots-and-boxes?${puzzle.settings}&puzzle=3`);
  await statusSays(page, /^Puzzle \(\w+\): [AB] to play and reach the best final score/);
  assert.equal(await page.locator("g.line[data-score]").count(), 0, "no score on any line");
  assert.doesNotMatch(await page.locator("#board").innerHTML(), /final score/, "nor in a line's title");
  assert.ok(await page.locator("#hint").isDisabled());
  // Without its score label a horizontal line has no height to click in the browser's eyes: the keyboard draws it.
  await page.focus(`g.line[data-line="${puzzle.answer}"]`);
  await page.keyboard.press("Enter");
  await statusSays(page, new RegExp(`^Right: ${puzzle.answer} \\(A − B [+−-]?\\d+\\)`));
  assert.deepEqual(unexpected(problems), []);
});

for (const [game, link] of [
  ["dodgem", "size=3&mode=analysis&moves=a3-b3,b1-a1"],
  ["dots-and-boxes", "rows=2&cols=2&computer=none&lines=ab,ba"],
]) {
  test(`${game}: unticking the hints hides every value: the panel, the chart, the record and the board`, async () => {
    const { page, problems } = shared.session;
    problems.length = 0;
    await page.goto(`${shared.server.url}/${game}?delay=0&${link}`);
    await page.waitForFunction(() => document.querySelectorAll("#record button.ply").length === 2);
    assert.ok((await page.locator("#record .v").count()) > 0);
    await page.uncheck("#hints");
    assert.match(await page.locator("#value").innerText(), /^hidden/);
    assert.equal(await page.locator("#chart circle").count(), 0, "no chart");
    assert.equal(await page.locator("#record .v, #record .grade").count(), 0, "no value or mark in the record");
    assert.doesNotMatch(await page.locator("#status").innerText(), /perfect play/);
    await page.check("#hints");
    assert.ok((await page.locator("#chart circle").count()) > 0, "the chart comes back");
    assert.deepEqual(unexpected(problems), []);
  });
}
