// A full 2×2 game as A against the computer, every score checked against `solved probe dots-and-boxes`, and a
// board too large to build at once.
import assert from "node:assert/strict";
import { test } from "node:test";
import { cli, screenshot, sharedServerAndBrowser } from "./harness.js";

const shared = sharedServerAndBrowser();

const probe = (rows, cols, variant, moves) =>
  cli(shared.server.dataDir, "probe", "dots-and-boxes", "--rows", rows, "--cols", cols, "--variant", variant, moves);

/** Waits for the human's turn or the end, with the lines drawn no longer `previous`. */
async function settled(page, previous) {
  await page.waitForFunction(
    (old) => {
      const status = document.getElementById("status")?.textContent;
      const moves = document.getElementById("moves")?.textContent;
      return moves !== undefined && moves !== old && /\(you\)|Game over/.test(status);
    },
    previous,
  );
}

/** What the page should show for each line the CLI scores. */
const MARK = { A: "v", B: "^" };
const expectedLines = (truth) =>
  truth.moves
    .map(({ move, score, best, loony }) => ({
      move,
      score,
      best,
      loony,
      label: (score > 0 ? `+${score}` : score < 0 ? `−${-score}` : "0") + (MARK[loony] ?? ""),
    }))
    .sort((a, b) => a.move.localeCompare(b.move));

const lines = (page) =>
  page.$$eval("g.line", (nodes) =>
    nodes.map((n) => ({
      move: n.dataset.line,
      score: Number(n.dataset.score),
      best: n.dataset.best === "true",
      loony: n.dataset.loony ?? null,
      label: n.querySelector("text.score")?.textContent,
    })),
  );

test("a full 2×2 game as A with hints and the Hint button, against the perfect player", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/dots-and-boxes?delay=0`);
  await settled(page, undefined);
  const start = probe("2", "2", "american", "");
  assert.match(await page.locator("#status").innerText(), /final score A − B is \+2/);
  assert.equal(start.value, 2);
  let moves = "";
  for (let turn = 0; turn < 12; turn++) {
    if (/Game over/.test(await page.locator("#status").innerText())) break;
    const truth = probe("2", "2", "american", moves);
    const shown = (await lines(page)).sort((a, b) => a.move.localeCompare(b.move));
    assert.deepEqual(shown, expectedLines(truth), `scores and loony marks after ${moves || "nothing"}`);
    await page.click("#hint");
    const hinted = await page.getAttribute("g.line.hinted", "data-line");
    assert.ok(truth.moves.find((m) => m.move === hinted).best, `the hint ${hinted} is a best line`);
    if (turn === 1) await screenshot(page, "dots-and-boxes");
    await page.click(`g.line[data-line="${hinted}"]`);
    const before = moves;
    await settled(page, before || "none yet");
    moves = await page.locator("#moves").innerText();
  }
  const status = await page.locator("#status").innerText();
  assert.match(status, /Game over: A wins, 3–1\. You win!/);
  // Every line the computer drew was one of its best.
  const played = moves.split(",");
  let prefix = [];
  for (const line of played) {
    const truth = probe("2", "2", "american", prefix.join(","));
    if (truth.to_move === "B") {
      assert.ok(truth.moves.find((m) => m.move === line).best, `the computer's ${line} after ${prefix.join(",")}`);
    }
    prefix.push(line);
  }
  // Boxes show their owners.
  const owners = await page.$$eval("g.box", (nodes) => nodes.map((n) => n.dataset.owner).sort());
  assert.deepEqual(owners, ["A", "A", "A", "B"]);
  assert.deepEqual(problems, []);
});

test("the computer as A on 3×4 Icelandic, and undo", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/dots-and-boxes?delay=0`);
  await settled(page, undefined);
  await page.selectOption("#preset", "3");
  await page.waitForFunction(() => document.querySelectorAll("g.line").length === 24);
  await page.selectOption("#computer", "A");
  await settled(page, "none yet");
  const first = await page.locator("#moves").innerText();
  const truth = probe("3", "4", "icelandic", "");
  assert.ok(truth.moves.find((m) => m.move === first).best, `the computer opens with a best line, not ${first}`);
  const reply = probe("3", "4", "icelandic", first);
  const shown = (await lines(page)).sort((a, b) => a.move.localeCompare(b.move));
  assert.deepEqual(shown, expectedLines(reply));
  const worst = reply.moves.find((m) => !m.best) || reply.moves[0];
  await page.click(`g.line[data-line="${worst.move}"]`);
  await settled(page, first);
  await page.click("#undo");
  await page.waitForFunction((f) => document.getElementById("moves")?.textContent === f, first);
  assert.deepEqual(problems, []);
});

test("a board too large to build at once shows its progress, then plays", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  const answers = [];
  page.on("response", (response) => {
    if (response.url().includes("/api/dots-and-boxes/probe")) answers.push(response.status());
  });
  await page.goto(`${shared.server.url}/dots-and-boxes?delay=0`);
  await settled(page, undefined);
  await page.selectOption("#preset", "custom");
  await page.fill("#rows", "1");
  await page.fill("#cols", "9");
  await page.click("#custom-go");
  await page.waitForFunction(() => document.querySelectorAll("g.line").length === 28, null, { timeout: 120_000 });
  assert.ok(answers.includes(202), `the first answers report progress (${answers})`);
  const truth = probe("1", "9", "american", "");
  const shown = await lines(page);
  assert.equal(shown.filter((l) => l.best).length, truth.moves.filter((m) => m.best).length);
  assert.deepEqual(problems, []);
});

test("Wilson's 4×4 board is offered, and without its table the page says how to build it", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/dots-and-boxes?delay=0`);
  await settled(page, undefined);
  const label = await page.$eval("#preset option:nth-child(7)", (o) => o.textContent);
  assert.equal(label, "4×4 (40 lines)");
  await page.selectOption("#preset", "6");
  await page.waitForFunction(() => /where this server builds for at most/.test(document.getElementById("status")?.textContent));
  const status = await page.locator("#status").innerText();
  assert.match(status, /Build it with solved solve dots-and-boxes --rows 4 --cols 4, then press Retry/);
  assert.equal(await page.locator("#status code").first().innerText(), "solved solve dots-and-boxes --rows 4 --cols 4", "a command is set as code, not in backticks");
  // The refusal is expected; nothing else went wrong.
  assert.ok(problems.every((p) => /503/.test(p)), `${problems}`);
});

test("4×5 is offered; the page shows what the API answers for its start: the record's scores or the command", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/dots-and-boxes?delay=0`);
  await settled(page, undefined);
  const label = await page.$eval("#preset option:nth-child(8)", (o) => o.textContent);
  assert.equal(label, "4×5 (49 lines, by search)");
  const answer = await fetch(`${shared.server.url}/api/dots-and-boxes/probe?rows=4&cols=5&variant=american`);
  const body = await answer.json();
  await page.selectOption("#preset", "7");
  if (answer.status === 200) {
    // The record holds every first line exactly: the start is scored from it.
    await page.waitForFunction(() => document.querySelectorAll("g.line").length === 49);
    const shown = (await lines(page)).sort((a, b) => a.move.localeCompare(b.move));
    assert.deepEqual(shown.map((l) => [l.move, l.score]), expectedLines(body).map((l) => [l.move, l.score]));
    assert.deepEqual(problems, []);
  } else {
    assert.equal(answer.status, 400);
    assert.match(body.error, /the search of this 4x5 american position's 49 lines takes/);
    await page.waitForFunction(() => /where this server searches for at most/.test(document.getElementById("status")?.textContent));
    const command = await page.locator("#status code").first().innerText();
    assert.match(command, /^solved probe dots-and-boxes --rows 4 --cols 5/, "the command that searches it is set as code");
    assert.ok(await page.locator("#retry").isHidden(), "trying again would not help");
    assert.ok(problems.every((p) => /400/.test(p)), `${problems}`);
  }
});

test("a 2×2 game played with the keyboard alone; Back, Forward and reload keep it", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/dots-and-boxes?delay=0`);
  await settled(page, undefined);
  const seen = [];
  for (let turn = 0; turn < 12; turn++) {
    if (/Game over/.test(await page.locator("#status").innerText())) break;
    const drawn = await page.locator("#moves").innerText();
    seen.push(drawn);
    const best = probe("2", "2", "american", drawn === "none yet" ? "" : drawn).moves.find((m) => m.best).move;
    // Tab through the lines until the best one has the focus, then Enter draws it.
    await page.focus("#undo");
    for (let tabs = 0; tabs < 30; tabs++) {
      await page.keyboard.press("Tab");
      if ((await page.evaluate(() => document.activeElement?.dataset?.line)) === best) break;
    }
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("aria-label")?.split(":")[0]), `line ${best}`);
    await page.keyboard.press("Enter");
    await settled(page, drawn);
  }
  assert.match(await page.locator("#status").innerText(), /Game over: A wins, 3–1\. You win!/);
  const final = await page.locator("#moves").innerText();
  // Back goes to the person's previous turn (the computer's reply went with the line before it).
  await page.goBack();
  await page.waitForFunction((p) => document.getElementById("moves")?.textContent === p, seen[seen.length - 1]);
  await page.reload();
  await page.waitForFunction((p) => document.getElementById("moves")?.textContent === p, seen[seen.length - 1]);
  await page.goForward();
  await page.waitForFunction((p) => document.getElementById("moves")?.textContent === p, final);
  assert.deepEqual(problems, []);
});

test("the record and the chart: scores as played, mistakes marked, any ply reached, Redo, play on, the game as text", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  // Two people (no computer) on 2×2, two lines drawn.
  await page.goto(`${shared.server.url}/dots-and-boxes?delay=0&rows=2&cols=2&variant=american&computer=none&lines=ab,ba`);
  await page.waitForFunction(() => document.querySelectorAll("#record button.ply").length === 2);
  const start = probe("2", "2", "american", "");
  const afterAb = probe("2", "2", "american", "ab");
  const signed = (score) => (score > 0 ? `+${score}` : score < 0 ? `−${-score}` : "0");
  const expected = [start.moves.find((m) => m.move === "ab"), afterAb.moves.find((m) => m.move === "ba")].map(
    (m) => signed(m.score) + (m.best ? "" : "?"),
  );
  assert.deepEqual(await page.$$eval("#record button.ply .v", (nodes) => nodes.map((n) => n.textContent)), expected);
  assert.equal(await page.locator("#record li").count(), 1, "A's line and B's are one numbered row");
  // One dot per ply, each at the final score with best play; clicking ply 0 goes there, the rest stays for Redo.
  assert.equal(await page.locator("#chart circle.ply-dot").count(), 3);
  await page.click('#chart circle.ply-dot[data-ply="0"]');
  await page.waitForFunction(() => document.getElementById("moves")?.textContent === "none yet");
  assert.equal(await page.locator("#record button.ply").count(), 2);
  assert.equal(new URL(page.url()).searchParams.get("ply"), "0");
  await page.click("#redo");
  await page.waitForFunction(() => document.getElementById("moves")?.textContent === "ab");
  // Back returns to ply 0, reload keeps the place in the game.
  await page.goBack();
  await page.waitForFunction(() => document.getElementById("moves")?.textContent === "none yet");
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll("#record button.ply").length === 2);
  assert.equal(await page.locator("#moves").innerText(), "none yet");
  // A different line from ply 0 lets go of the old ones; a line that is not among the best is marked.
  const worst = start.moves.find((m) => !m.best);
  await page.click(`g.line[data-line="${worst.move}"]`);
  await page.waitForFunction((w) => document.getElementById("moves")?.textContent === w, worst.move);
  assert.equal(await page.locator("#record button.ply").count(), 1);
  assert.equal(await page.locator("#record button.ply.mistake").count(), 1);
  // The game as text, then play on from an earlier ply.
  await page.click("#copy-game");
  assert.match(await page.locator("#export").inputValue(), new RegExp(`^Dots and Boxes 2x2 American\\n1\\. ${worst.move} \\S+\\?\\nLines on the board: ${worst.move}$`));
  await page.click('#chart circle.ply-dot[data-ply="0"]');
  await page.waitForSelector("#play-on:not([hidden])");
  await page.click("#play-on");
  await page.waitForFunction(() => document.querySelectorAll("#record button.ply").length === 0);
  assert.ok(await page.locator("#play-on").isHidden());
  // A link with a line that cannot be drawn plays up to it and says so.
  await page.goto(`${shared.server.url}/dots-and-boxes?delay=0&rows=2&cols=2&variant=american&computer=none&lines=ab,ac`);
  await page.waitForFunction(() => /Line 2 of the link, ac, cannot be drawn/.test(document.getElementById("status")?.textContent));
  assert.equal(await page.locator("#moves").innerText(), "ab");
  assert.deepEqual(problems, []);
});

test("against the computer, Undo takes back the person's line and the replies; Redo plays them again", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/dots-and-boxes?delay=0`);
  await settled(page, undefined);
  assert.ok(await page.locator("#undo").isDisabled(), "nothing to take back on a fresh board");
  const best = probe("2", "2", "american", "").moves.find((m) => m.best).move;
  await page.click(`g.line[data-line="${best}"]`);
  await settled(page, "none yet");
  const played = await page.locator("#record button.ply").count();
  assert.ok(played >= 2, "the computer replied");
  await page.click("#undo");
  await page.waitForFunction(() => document.getElementById("moves")?.textContent === "none yet");
  assert.equal(await page.locator("#record button.ply").count(), played);
  await page.click("#redo");
  await settled(page, "none yet");
  assert.equal(await page.locator("#record button.ply.current").getAttribute("data-ply"), String(played));
  assert.deepEqual(problems, []);
});

test("at 1280 px the panel stays beside the 3×3 board as the record grows", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.setViewportSize({ width: 1280, height: 800 });
  const lines = "ab,ad,af,ba,bc,be,bg,cb,cd,cf,da,dc,de,dg,eb".split(",");
  for (const n of [2, 10, 15]) {
    await page.goto(`${shared.server.url}/dots-and-boxes?delay=0&rows=3&cols=3&computer=none&moves=${lines.slice(0, n).join(",")}`);
    await page.waitForFunction((k) => document.querySelectorAll("#record button.ply").length === k, n);
    const [board, panel] = await page.evaluate(() => ["#board", ".panel"].map((s) => document.querySelector(s).getBoundingClientRect().toJSON()));
    assert.ok(panel.left >= board.right && panel.top === board.top, `${n} lines: the panel at ${panel.left},${panel.top}, the board ending at ${board.right}`);
  }
  assert.deepEqual(problems, []);
});
