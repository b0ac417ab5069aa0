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
    // Mid-game, with moves in the record and the chart.
    if (!screenshotTaken && turn === 3) {
      await screenshot(page, "dodgem");
      screenshotTaken = true;
    }
    await page.click(`g.target[data-move="${best.move}"]`);
    await settled(position);
    // The computer's reply (if the game went on) is one of its best moves.
    const record = await page.$$eval("#record button.ply", (items) => items.map((b) => b.dataset.move));
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
  // The moves taken back stay in the record, for Redo, with the position on the board marked.
  assert.equal(await page.locator("#record button.ply").count(), 3);
  assert.equal(await page.locator("#record button.ply.current").getAttribute("data-ply"), "1");
  await page.click("#redo");
  await page.waitForFunction((p) => document.getElementById("position")?.textContent !== p, position);
  assert.equal(await page.locator("#record button.ply.current").getAttribute("data-ply"), "3");
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
  assert.equal(await page.locator("#record button.ply").count(), 10);
  assert.equal(await page.locator("#record li").count(), 5, "moves are paired by side");
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

test("at the end of a game the person's moves are summed up as the scorecard marks them", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  // The perfect line, Blue's moves the person's: every one best, and the summary at the end alone.
  const line = cli(shared.server.dataDir, "line", "dodgem", "--size", "3").moves.map((m) => m.move);
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=3&side=Blue&moves=${line.join(",")}&ply=${line.length - 1}`);
  await page.waitForFunction((n) => document.querySelectorAll("#record button.ply").length === n, line.length);
  assert.ok(await page.locator("#scorecard").isHidden(), "no summary before the end");
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=3&side=Blue&moves=${line.join(",")}`);
  await page.waitForFunction(() => /Game over/.test(document.getElementById("status")?.textContent));
  const blue = Math.ceil(line.length / 2);
  assert.equal(await page.locator("#scorecard").innerText(), `Your moves: ${blue} best.`);
  assert.equal(await page.locator("#record button.ply[data-grade]").count(), blue, "Red's moves are the computer's");
  // A move that gives the win away is a mistake, in the record, in the game as text and in the summary.
  const start = cli(shared.server.dataDir, "probe", "dodgem", "B../B../.RR B");
  const mistake = start.moves.find((m) => m.grade === "mistake");
  assert.ok(mistake, "3×3 has a first move that gives the win away");
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=3&side=Blue&mode=analysis&moves=${mistake.move}`);
  await page.waitForSelector("#record button.ply.mistake");
  assert.equal(await page.locator("#record button.ply .grade").innerText(), "?");
  assert.match(await page.locator("#record button.ply").getAttribute("aria-label"), /a mistake: changes the result/);
  assert.deepEqual(problems, []);
});

/** Waits until the position on the board is `position`. */
const showing = (position) =>
  shared.session.page.waitForFunction((p) => document.getElementById("position")?.textContent === p, position);

test("Back, Forward and reload walk through the game; the record and the chart go to any ply", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=4&mode=analysis`);
  await page.waitForFunction(() => /Blue to move\./.test(document.getElementById("status")?.textContent));
  // Two people: every move is played from the page, none by the computer.
  const played = ["a2-b2", "c1-c2", "a3-b3"];
  const positions = [await text("#position")];
  for (const move of played) {
    await page.click(`g.car[data-square="${move.split("-")[0]}"]`);
    await page.click(`g.target[data-move="${move}"]`);
    await page.waitForFunction((n) => document.querySelectorAll("#record button.ply").length === n, positions.length);
    positions.push(await text("#position"));
  }
  assert.equal(new Set(positions).size, 4);
  // The last move is marked on the board as well as in the record.
  assert.deepEqual((await page.$$eval("rect.last-move", (nodes) => nodes.map((n) => n.dataset.square))).sort(), ["a3", "b3"]);
  const truth = cli(shared.server.dataDir, "probe", "dodgem", "--size", "4", "--moves", played.join(" "));
  assert.equal(positions[3], truth.position);
  // Each move's value as played, from its mover's side.
  const labels = await page.$$eval("#record button.ply .v", (nodes) => nodes.map((n) => n.textContent));
  const before = cli(shared.server.dataDir, "probe", "dodgem", "--size", "4", "--moves", played.slice(0, 2).join(" "));
  assert.equal(labels[2].replace("?", ""), label(before.moves.find((m) => m.move === "a3-b3")));
  await page.goBack();
  await showing(positions[2]);
  await page.goBack();
  await showing(positions[1]);
  await page.goForward();
  await showing(positions[2]);
  await page.reload();
  await showing(positions[2]);
  assert.equal(await page.locator("#record button.ply").count(), 2);
  await page.goForward();
  await showing(positions[3]);
  // The record and the chart: click a ply to go there; the rest of the game stays for Redo.
  await page.click('#record button.ply[data-ply="1"]');
  await showing(positions[1]);
  assert.equal(await page.locator("#record button.ply").count(), 3);
  assert.match(await text("#status"), /Ply 1 of 3/);
  await page.click('#chart circle.ply-dot[data-ply="0"]');
  await showing(positions[0]);
  assert.equal(await page.locator("#chart circle.ply-dot").count(), 4);
  await page.goBack();
  await showing(positions[1]);
  // Playing another move there lets the rest go.
  await page.click('g.car[data-square="d1"]');
  await page.click('g.target[data-move="d1-d2"]');
  await page.waitForFunction(() => document.querySelectorAll("#record button.ply").length === 2);
  // The game as text, and the perfect line from here, as the CLI plays it.
  await page.click("#copy-game");
  assert.match(await page.locator("#export").inputValue(), /^Dodgem 4x4\n1\. a2-b2 \S+ {2}d1-d2 \S+\nPosition: /);
  await page.click("#perfect-line");
  await page.waitForFunction(() => document.querySelectorAll("#perfect li").length > 0);
  const first = await page.locator("#perfect li").first().innerText();
  const here = cli(shared.server.dataDir, "probe", "dodgem", "--size", "4", "--moves", "a2-b2 d1-d2");
  assert.equal(first, `${here.moves[0].move} ${label(here.moves[0])}`);
  assert.deepEqual(problems, []);
});

test("a whole 3×3 game played with the keyboard alone", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/dodgem?delay=0`);
  await settled(null);
  for (let turn = 0; turn < 20; turn++) {
    if (/Game over/.test(await text("#status"))) break;
    const position = await text("#position");
    const best = probe(position).moves[0];
    const from = best.move.split("-")[0];
    // Tab from the start of the page to the car, Enter to pick it up, Tab to its best target, Enter to move.
    await page.focus("#new-game");
    let focused = null;
    for (let tabs = 0; tabs < 40 && focused !== `car ${from}`; tabs++) {
      await page.keyboard.press("Tab");
      focused = await page.evaluate(() => {
        const el = document.activeElement;
        return el && el.classList.contains("car") ? `car ${el.dataset.square}` : null;
      });
    }
    assert.equal(focused, `car ${from}`, `Tab reaches the car on ${from}`);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.classList.contains("target"));
    // Escape lets go of it, and Enter picks it up again.
    await page.keyboard.press("Escape");
    await page.waitForFunction((f) => document.activeElement?.dataset?.square === f, from);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => document.activeElement?.classList.contains("target"));
    for (let tabs = 0; tabs < 5; tabs++) {
      const move = await page.evaluate(() => document.activeElement?.dataset?.move);
      if (move === best.move) break;
      await page.keyboard.press("Tab");
    }
    assert.equal(await page.evaluate(() => document.activeElement?.dataset?.move), best.move);
    await page.keyboard.press("Enter");
    await settled(position);
  }
  assert.match(await text("#status"), /Game over: Blue wins\. You win!/);
  assert.deepEqual(problems, []);
});

test("a link opened at the computer's turn in the middle of a game does not ask the person to play", async () => {
  const { page } = shared.session;
  await page.goto(`${shared.server.url}/dodgem?size=3&moves=a3-b3,c1-c2,a2-a3,b1-b2&ply=1&delay=0`);
  await page.waitForFunction(() => /^Ply 1 of 4/.test(document.getElementById("status")?.textContent ?? ""));
  const status = await text("#status");
  assert.doesNotMatch(status, /Play a move/);
  assert.match(status, /Red to move: .*"Play on from here" lets the computer \(Red\) go on/);
  // At the person's turn, in the same game, the person may play.
  await page.goto(`${shared.server.url}/dodgem?size=3&moves=a3-b3,c1-c2,a2-a3,b1-b2&ply=2&delay=0`);
  await page.waitForFunction(() => /^Ply 2 of 4/.test(document.getElementById("status")?.textContent ?? ""));
  assert.match(await text("#status"), /Blue to move: .*Play a move or "Play on from here"/);
});

test("at the end of a long game the record shows the move on the board", async () => {
  const { page } = shared.session;
  const line = cli(shared.server.dataDir, "line", "dodgem", "--size", "4").moves.map((m) => m.move);
  await page.goto(`${shared.server.url}/dodgem?size=4&mode=analysis&moves=${line.join(",")}&delay=0`);
  await page.waitForFunction((plies) => document.querySelectorAll("#record button.ply").length === plies, line.length);
  const seen = await page.$eval("#record", (record) => {
    const current = record.querySelector("button.current").getBoundingClientRect();
    const shown = record.getBoundingClientRect();
    return { overflows: record.scrollHeight > record.clientHeight, inside: current.top >= shown.top && current.bottom <= shown.bottom };
  });
  assert.ok(seen.overflows, "the record is longer than its box (else this checks nothing)");
  assert.ok(seen.inside, "the current move is in sight");
});

test("on a 390 px phone the page does not scroll sideways", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await page.goto(`${shared.server.url}/dodgem?delay=0&size=4&moves=a2-b2,c1-c2`);
    await settled(null);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390);
    const board = await page.locator("#board").boundingBox();
    assert.ok(board.width <= 390 && board.height < 1.2 * board.width, `the board fits, with no band: ${JSON.stringify(board)}`);
  } finally {
    await page.setViewportSize({ width: 1280, height: 900 });
  }
  assert.deepEqual(problems, []);
});

test("6×6 without its unit files says how long the solve takes here, as the CLI does, the command set as code", async () => {
  const { page } = shared.session;
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=6`);
  await page.waitForFunction(() => /not solved yet/.test(document.getElementById("status")?.textContent));
  const status = await page.locator("#status").innerText();
  const estimate = /solves them in about ([^,]+) on two cores/.exec(status)?.[1];
  assert.ok(estimate, status);
  let cliSays = "";
  try {
    cli(shared.server.dataDir, "probe", "dodgem", "--size", "6");
  } catch (error) {
    cliSays = String(error.stderr);
  }
  assert.ok(cliSays.includes(`solves them in about ${estimate} on two cores`), `the CLI says ${cliSays}`);
  assert.doesNotMatch(status, /`/, "no raw backticks");
  assert.equal(await page.locator("#status code").first().innerText(), "solved solve dodgem --size 6");
});

test("a position's link opens it, plays on from it, and a reload keeps the position and the moves", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  // Four plies into a 4×4 game, given as the position, not as the moves.
  const position = "B.../.B../.BRR/.R.. B";
  const truth = probe(position);
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=4&side=Blue&position=${encodeURIComponent(position)}`);
  await settled(null);
  assert.equal(await text("#position"), position);
  assert.equal(await page.locator("#record button.ply").count(), 0, "the position is where the game starts");
  const cars = await page.$$eval("g.car", (nodes) => nodes.map((n) => `${n.dataset.player} ${n.dataset.square}`));
  assert.deepEqual(cars.sort(), truth.cars.map((car) => `${car.player} ${car.square}`).sort());
  assert.equal(await text("#value"), `${label(truth)} (win in ${truth.distance} for Blue)`);
  assert.match(await text("#status"), new RegExp(`Your move \\(Blue\\)\\. With perfect play you have a win in ${truth.distance}\\.`));
  const dots = await page.$$eval("g.dot", (nodes) => nodes.map((n) => [n.dataset.move, n.dataset.label]));
  assert.deepEqual(new Map(dots), new Map(truth.moves.map((m) => [m.move, label(m)])));
  // One move, and the computer's reply.
  const best = truth.moves[0];
  await page.click(`g.car[data-square="${best.move.split("-")[0]}"]`);
  await page.click(`g.target[data-move="${best.move}"]`);
  await settled(position);
  const played = await page.$$eval("#record button.ply", (items) => items.map((b) => b.dataset.move));
  assert.equal(played.length, 2);
  assert.equal(played[0], best.move);
  const after = cli(shared.server.dataDir, "probe", "dodgem", position, "--moves", played.join(" "));
  assert.equal(await text("#position"), after.position);
  const link = () => page.evaluate(() => new URLSearchParams(location.search).get("position"));
  assert.equal(await link(), position);
  assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get("moves")), played.join(","));
  await page.reload();
  await settled(null);
  assert.equal(await text("#position"), after.position);
  assert.deepEqual(await page.$$eval("#record button.ply", (items) => items.map((b) => b.dataset.move)), played);
  assert.equal(await link(), position);
  // Undo goes back to the position, not to the start of the board.
  await page.click("#undo");
  await showing(position);
  assert.equal(await text("#value"), `${label(truth)} (win in ${truth.distance} for Blue)`);
  // A new game lets the position go.
  await page.click("#new-game");
  await showing("B.../B.../B.../.RRR B");
  assert.equal(await link(), null);
  // A position the server refuses is refused in its words.
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=4&position=${encodeURIComponent("BBBB/..../..../.RRR B")}`);
  await page.waitForFunction(() => /Error/.test(document.getElementById("status")?.textContent));
  assert.match(await text("#status"), /Blue has 4 cars, at most 3 fit a 4x4 board/);
  assert.deepEqual(problems.filter((p) => !/Failed to load resource/.test(p)), []);
});
