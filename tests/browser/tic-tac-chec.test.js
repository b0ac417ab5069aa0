// The Tic-Tac-Chec explorer: without a table (what a fresh machine has) and with the solved table, in
// $TTC_DATA_DIR, every value checked against `solved probe tic-tac-chec`. scripts/test solves the table into
// target/browser-tables and sets $TTC_DATA_DIR; run alone, this test fails without it.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { cli, label, openBrowser, screenshot, startServer } from "./harness.js";

const EMPTY = "..../..../..../.... w -- open";
let session;

before(async () => {
  session = await openBrowser();
});

after(async () => {
  await session.browser.close();
});

/** Waits until the position shown is no longer `previous`, and returns it. */
async function moved(page, previous) {
  try {
    await page.waitForFunction((old) => {
      const shown = document.getElementById("position")?.textContent;
      return Boolean(shown) && shown !== old;
    }, previous);
  } catch (error) {
    const status = await page.evaluate(() => document.getElementById("status")?.textContent);
    throw new Error(`${error.message} at ${page.url()}; status ${JSON.stringify(status)}; ${session.problems.join("; ")}`);
  }
  return page.locator("#position").innerText();
}

/** Drags the piece matching `selector` onto the square `to`. */
async function drag(page, selector, to) {
  const piece = await page.locator(selector).boundingBox();
  const square = await page.locator(`rect.square[data-square="${to}"]`).boundingBox();
  await page.mouse.move(piece.x + piece.width / 2, piece.y + piece.height / 2);
  await page.mouse.down();
  await page.mouse.move(square.x + square.width / 2, square.y + square.height / 2, { steps: 8 });
  await page.mouse.up();
}

test("without a table: the page says how to build it, and the rules can still be explored", async () => {
  const server = await startServer();
  const { page, problems } = session;
  problems.length = 0;
  try {
    await page.goto(`${server.url}/tic-tac-chec`);
    await moved(page, "");
    await page.waitForSelector("#missing:not([hidden])");
    const missing = await page.locator("#missing").innerText();
    assert.match(missing, /solved solve tic-tac-chec && solved compact tic-tac-chec/);
    assert.match(missing, /about 5 minutes/);
    // The empty board: every piece of White's hand on every square, grouped by piece.
    assert.equal(await page.locator("#moves button").count(), 64);
    // Files and ranks are written beside the board, as every move names them.
    const coordinates = await page.$$eval("#board text.coordinate", (nodes) => nodes.map((n) => n.textContent).sort());
    assert.deepEqual(coordinates, ["1", "2", "3", "4", "a", "b", "c", "d"]);
    assert.deepEqual(await page.$$eval("#moves .placements", (groups) => groups.map((g) => g.querySelectorAll("button").length)), [16, 16, 16, 16]);
    await page.click('#moves button[data-move="N@b2"]');
    const afterKnight = await moved(page, EMPTY);
    assert.equal(afterKnight, "..../..../.N../.... b -- open");
    // The URL holds the line: where it starts and the moves from there.
    assert.equal(new URL(page.url()).searchParams.get("position"), EMPTY);
    assert.equal(new URL(page.url()).searchParams.get("moves"), "N@b2");
    // Black drags its rook from its hand to c3.
    await drag(page, 'g.piece[data-color="black"][data-piece="R"][data-square="hand"]', "c3");
    const afterRook = await moved(page, afterKnight);
    assert.equal(afterRook, "..../..r./.N../.... w -- open");
    // Back and forward through the line.
    await page.click("#back");
    assert.equal(await moved(page, afterRook), afterKnight);
    await page.click("#forward");
    assert.equal(await moved(page, afterKnight), afterRook);
    // The URL reopens the line, and the browser's Back and Forward walk through it.
    await page.goto(page.url());
    assert.equal(await moved(page, ""), afterRook);
    assert.equal(await page.locator("#record button.ply").count(), 2);
    await page.goBack();
    assert.equal(await moved(page, afterRook), afterKnight);
    await page.reload();
    assert.equal(await moved(page, ""), afterKnight);
    assert.equal(await page.locator("#record button.ply").count(), 2, "the line after the position shown is kept");
    assert.equal(await page.locator("#record button.ply.current").getAttribute("data-ply"), "1");
    // Without values the chart and the perfect line wait for the table.
    assert.ok(await page.locator("#chart").isHidden());
    assert.ok(await page.locator("#perfect-line").isDisabled());
    await page.goForward();
    assert.equal(await moved(page, afterKnight), afterRook);
    await screenshot(page, "tic-tac-chec-no-table");
    assert.deepEqual(problems, []);
    // At the end, the four in a line that won are framed.
    const won = "NBRP/n.../b.../r... b d- post";
    await page.goto(`${server.url}/tic-tac-chec?position=${encodeURIComponent(won)}`);
    await page.waitForFunction(() => /Game over/.test(document.getElementById("status")?.textContent));
    assert.equal(await page.locator("rect.winning").count(), 4);
    // The computer has nothing to play from without the table, and says so.
    await page.goto(`${server.url}/tic-tac-chec?delay=0&computer=Black`);
    await moved(page, "");
    await page.click('#moves button[data-move="N@b2"]');
    await page.waitForFunction(() => /The computer has no move to play here: its table is not built/.test(document.getElementById("status")?.textContent));
    // A position that cannot be read leaves nothing to walk or play.
    await page.goto(`${server.url}/tic-tac-chec?position=garbage`);
    await page.waitForFunction(() => /Error/.test(document.getElementById("status")?.textContent));
    for (const button of ["#back", "#forward", "#best", "#perfect-line"]) assert.ok(await page.locator(button).isDisabled(), button);
    problems.length = 0;
  } finally {
    await server.stop();
  }
});

test("with the tables: the computer takes a side and plays at the level chosen; the person's moves are marked", async () => {
  const dataDir = process.env.TTC_DATA_DIR;
  assert.ok(dataDir, "TTC_DATA_DIR is not set: run scripts/test, which solves the table");
  const server = await startServer(dataDir);
  const { page, problems } = session;
  problems.length = 0;
  const asked = [];
  const listen = (request) => {
    const url = new URL(request.url());
    if (url.pathname === "/api/tic-tac-chec/probe" && url.searchParams.has("level")) asked.push(url.searchParams.get("level"));
  };
  page.on("request", listen);
  try {
    await page.goto(`${server.url}/tic-tac-chec?delay=0&computer=Black&level=strong`);
    await moved(page, "");
    assert.match(await page.locator("#level-policy").innerText(), /^Strong: Plays a best move nine times in ten/);
    await page.click('#moves button[data-move="N@b2"]');
    await page.waitForFunction(() => document.querySelectorAll("#record button.ply").length === 2);
    assert.deepEqual(asked, ["strong"]);
    const grades = await page.$$eval("#record button.ply", (nodes) => nodes.map((n) => n.dataset.grade ?? null));
    const truth = cli(dataDir, "probe", "tic-tac-chec", EMPTY).moves.find((m) => m.move === "N@b2");
    assert.deepEqual(grades, [truth.grade, null], "White's move is marked as the CLI grades it, the computer's is not");
    assert.match(await page.locator("#status").innerText(), /^Black \(the computer\) played \S+\. White to move/);
    assert.deepEqual(problems, []);
  } finally {
    page.off("request", listen);
    await server.stop();
  }
});

test("with the tables: ranked moves and values agree with the CLI along a best line", async () => {
  const dataDir = process.env.TTC_DATA_DIR;
  assert.ok(
    dataDir,
    "TTC_DATA_DIR is not set: run scripts/test, which solves the table, or set it to a directory holding it " +
      "(solved --data-dir DIR solve tic-tac-chec && solved --data-dir DIR compact tic-tac-chec)",
  );
  const server = await startServer(dataDir);
  const { page, problems } = session;
  problems.length = 0;
  try {
    // Positions after the opening, opened by URL: a draw followed for eight plies, and a win in one played out.
    const starts = [
      ["n..R/..../.NB./.... w -- post", 8],
      ["n..b/..../..../RBN. w -- post", 8],
    ];
    for (const [start, plies] of starts) {
      await page.goto(`${server.url}/tic-tac-chec?position=${encodeURIComponent(start)}`);
      let position = await moved(page, "");
      assert.equal(position, start);
      const played = [];
      for (let ply = 0; ply < plies; ply++) {
        const truth = cli(dataDir, "probe", "tic-tac-chec", position);
        const shown = await page.$$eval("#moves button", (nodes) => nodes.map((n) => [n.dataset.move, n.dataset.label]));
        const ranked = truth.moves.map((m) => [m.move, label(m)]);
        // Placements come grouped by piece, best first within each group; other moves in the CLI's order.
        if ((await page.locator("#moves .placements").count()) === 0) assert.deepEqual(shown, ranked, `moves at ${position}`);
        else assert.deepEqual(new Map(shown), new Map(ranked), `moves at ${position}`);
        const status = await page.locator("#status").innerText();
        if (truth.moves.length === 0) {
          assert.match(status, /Game over: White has four in a line/);
          break;
        }
        assert.match(status, new RegExp(truth.value === "draw" ? "draw" : `${truth.value} in ${truth.distance}`));
        if (ply === 0) {
          // Click a piece: its destinations carry the same labels.
          const square = truth.moves.find((m) => m.move.includes("-")).move.slice(0, 2);
          await page.click(`g.piece[data-square="${square}"]`);
          const marks = await page.$$eval("g.target", (nodes) => nodes.map((n) => [n.dataset.move, n.textContent]));
          const expected = truth.moves.filter((m) => m.move.startsWith(`${square}-`)).map((m) => [m.move, label(m)]);
          assert.deepEqual(new Map(marks), new Map(expected));
          if (start.includes("RBN")) await screenshot(page, "tic-tac-chec");
        }
        await page.click("#best");
        position = await moved(page, position);
        assert.equal(position, truth.moves[0].position);
        played.push(label(truth.moves[0]));
      }
      // The record holds each move with its value as played, and the chart a dot for every ply.
      assert.deepEqual(await page.$$eval("#record button.ply .v", (nodes) => nodes.map((n) => n.textContent)), played);
      assert.equal(await page.locator("#chart circle.ply-dot").count(), played.length + 1);
    }
    // The perfect line from a won position: each move the best one, as the CLI ranks it, to the end.
    const won = starts[1][0];
    await page.goto(`${server.url}/tic-tac-chec?position=${encodeURIComponent(won)}`);
    await moved(page, "");
    await page.click("#perfect-line");
    await page.waitForFunction(() => document.querySelectorAll("#perfect li").length > 0);
    const shownLine = await page.$$eval("#perfect li", (nodes) => nodes.map((n) => n.textContent));
    const expectedLine = [];
    for (let position = won; ; ) {
      const truth = cli(dataDir, "probe", "tic-tac-chec", position);
      if (truth.moves.length === 0) break;
      expectedLine.push(`${truth.moves[0].move} ${label(truth.moves[0])}`);
      position = truth.moves[0].position;
    }
    assert.deepEqual(shownLine, expectedLine);
    // The line as text: the start, the moves with their values and marks (the best move played), the position shown.
    await page.click("#best");
    await moved(page, won);
    await page.click("#copy-game");
    const escaped = expectedLine[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    assert.match(await page.locator("#export").inputValue(), new RegExp(`^Tic-Tac-Chec \\(travel\\) from .*\n1\\. ${escaped}★\nPosition: `));
    // The summary: the header's totals, and the empty board's value as the CLI gives it.
    const summary = await (await fetch(`${server.url}/api/tic-tac-chec/summary`)).json();
    assert.equal(summary.wins + summary.losses + summary.draws, summary.positions);
    const empty = cli(dataDir, "probe", "tic-tac-chec", EMPTY);
    assert.deepEqual([summary.start.value, summary.start.distance], [empty.value, empty.distance]);
    assert.deepEqual(problems, []);
  } finally {
    await server.stop();
  }
});
