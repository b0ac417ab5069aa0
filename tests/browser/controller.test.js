// The rules every board page shares (controller.js): Back and Forward, a shared link, the probe cache and a
// server that stops answering, the same on each page. Each test began as a bug a user met on one page or another.
import assert from "node:assert/strict";
import { test } from "node:test";
import { screenshot, sharedServerAndBrowser } from "./harness.js";

const shared = sharedServerAndBrowser();

/**
 * How to drive each board page: where its position is named (`#position`, or the lines drawn in Dots and Boxes),
 * a move anyone can make by clicking, and the status that says a person is to move (with or without the computer).
 */
const PAGES = {
  dodgem: { shown: "#position", move: "g.dot", yourTurn: /Your move|^(Blue|Red) to move\.|Game over/ },
  "dots-and-boxes": { shown: "#moves", move: 'g.line[role="button"]', yourTurn: /\(you\)|^[AB] to move\.|Game over/ },
  "tic-tac-chec": { shown: "#position", move: "#moves button", yourTurn: /to move/ },
};

const textOf = (page, selector) => page.evaluate((s) => document.querySelector(s)?.textContent ?? null, selector);
const plies = (page) => page.locator("#record button.ply").count();

/** Waits until the page is the person's to play, at a position other than `previous`; returns it. */
async function settled(page, game, previous) {
  const { shown, yourTurn } = PAGES[game];
  await page.waitForFunction(
    ({ shown, yourTurn, previous }) => {
      const now = document.querySelector(shown)?.textContent;
      return Boolean(now) && now !== previous && new RegExp(yourTurn).test(document.getElementById("status")?.textContent);
    },
    { shown, yourTurn: yourTurn.source, previous },
  );
  return textOf(page, shown);
}

/** Waits (5 s at most) until `predicate(arg)` holds in the page, failing with `why` and what the page shows. */
async function until(page, why, predicate, arg) {
  try {
    await page.waitForFunction(predicate, arg, { timeout: 5000 });
  } catch (_) {
    const status = await textOf(page, "#status");
    assert.fail(`${why}: not so after 5 s; the status says ${JSON.stringify(status)} (${page.url()})`);
  }
}

/** Waits until the position shown is `expected`, failing with what the page shows instead. */
async function showing(page, game, expected, why) {
  const shown = PAGES[game].shown;
  await until(page, `${why}: ${JSON.stringify(expected)} shown, not ${JSON.stringify(await textOf(page, shown))}`, ({ s, e }) => document.querySelector(s)?.textContent === e, { s: shown, e: expected });
}

/** Waits until the status matches `pattern`. */
const statusSays = (page, pattern) =>
  until(page, `the status says ${pattern}`, (p) => new RegExp(p).test(document.getElementById("status")?.textContent), pattern.source);

/** The problems a page reported, less the failed requests a test caused on purpose. */
const unexpected = (problems) => problems.filter((p) => !/Failed to load resource/.test(p));

for (const game of ["dodgem", "dots-and-boxes"]) {
  test(`${game}: against the computer, Back and Forward walk the game without the computer moving again`, async () => {
    const { page, problems } = shared.session;
    problems.length = 0;
    await page.goto(`${shared.server.url}/${game}?delay=0`);
    const start = await settled(page, game, null);
    await page.click(PAGES[game].move);
    const first = await settled(page, game, start);
    await page.click(PAGES[game].move);
    const second = await settled(page, game, first);
    const entries = await page.evaluate(() => history.length);
    await page.goBack();
    await showing(page, game, first, "one step Back");
    await page.goBack();
    await showing(page, game, start, "two steps Back");
    assert.equal(await page.evaluate(() => history.length), entries, "Back added no entry to the history");
    await page.goForward();
    await showing(page, game, first, "one step Forward");
    await page.goForward();
    await showing(page, game, second, "two steps Forward");
    assert.deepEqual(problems, []);
  });
}

test("tic-tac-chec: a shared line of 12 plies has a value for every dot of the chart", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  // The values a built table would give (every one a draw): this server has no table, and the page's own
  // bookkeeping is what is tested.
  await page.route("**/api/tic-tac-chec/probe?*", async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    const drawn = (it) => Object.assign(it, { value: it.value ?? "draw", distance: it.distance ?? null });
    drawn(body);
    body.moves.forEach(drawn);
    delete body.missing;
    await route.fulfill({ response, json: body });
  });
  try {
    const line = "P@d2,P@d4,B@a3,R@c1,N@c4,B@a4,R@c2,N@b4,d2-d3,c1-d1,c2-b2,a4-b3";
    await page.goto(`${shared.server.url}/tic-tac-chec?moves=${line}`);
    await page.waitForFunction(() => document.querySelectorAll("#chart circle.ply-dot").length === 13);
    const dots = await page.$$eval("#chart circle.ply-dot title", (titles) => titles.map((t) => t.textContent));
    assert.deepEqual(dots.filter((d) => /no value/.test(d)), [], "dots without a value");
  } finally {
    await page.unroute("**/api/tic-tac-chec/probe?*");
  }
  assert.deepEqual(problems, []);
});

/** Each page's link with a move it cannot play second, and a value it does not know. */
const FAULTY_LINKS = {
  dodgem: { illegal: "size=3&moves=a3-b3,zz-top,a2-a3", refused: /Move 2 of the link, zz-top, is not legal/, unknown: "size=9", control: ["#size", "3"] },
  "dots-and-boxes": {
    illegal: "rows=2&cols=2&variant=american&moves=ab,zz-top,ba",
    refused: /Line 2 of the link, zz-top, cannot be drawn/,
    unknown: "variant=klingon",
    control: ["#variant", "american"],
  },
  "tic-tac-chec": { illegal: "moves=P@d2,zz-top,P@d4", refused: /Move 2 of the link, zz-top, is not legal/, unknown: "pawn=sideways", control: ["#pawn", "travel"] },
};

for (const [game, link] of Object.entries(FAULTY_LINKS)) {
  test(`${game}: a link's illegal move and unknown value are reported until the person acts`, async () => {
    const { page, problems } = shared.session;
    problems.length = 0;
    await page.goto(`${shared.server.url}/${game}?delay=0&${link.illegal}`);
    await statusSays(page, link.refused);
    // Whatever the page does next by itself (the computer's turn), the report stays and the game stops there.
    await page.waitForLoadState("networkidle");
    assert.match(await page.locator("#status").innerText(), link.refused);
    assert.equal(await plies(page), 1, "the game stops before the illegal move");
    await page.goto(`${shared.server.url}/${game}?delay=0&${link.unknown}`);
    await page.waitForLoadState("networkidle");
    const [key, value] = link.unknown.split("=");
    assert.match(await page.locator("#status").innerText(), new RegExp(`${key}=${value}`), "the status names the value not understood");
    assert.equal(await page.locator(link.control[0]).inputValue(), link.control[1]);
    // The person's next move is the act that lets the report go.
    await page.click(PAGES[game].move);
    await page.waitForFunction((v) => !document.getElementById("status")?.textContent.includes(v), link.unknown);
    assert.deepEqual(problems, []);
  });
}

test("dodgem: where a link stops at the computer's turn, the computer waits for Play on", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=3&moves=a3-b3,zz-top`);
  await statusSays(page, /Red \(the computer\) to move/);
  // Read before the click: the computer may have replied by the time the click returns.
  const before = await textOf(page, "#position");
  await page.click("#play-on");
  await settled(page, "dodgem", before);
  assert.equal(await plies(page), 2, "the computer replied");
  assert.doesNotMatch(await page.locator("#status").innerText(), /zz-top/);
  assert.deepEqual(problems, []);
});

/** Tabs from the top of the page until the Retry button has the focus. */
async function tabToRetry(page) {
  await page.evaluate(() => document.activeElement?.blur());
  for (let tabs = 0; tabs < 200; tabs++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(() => document.activeElement?.id === "retry")) return;
  }
  assert.fail("Tab never reaches the Retry button");
}

for (const game of Object.keys(PAGES)) {
  test(`${game}: with the server unreachable the board and the game stay, with a Retry; input works again after`, async () => {
    const { page, problems } = shared.session;
    problems.length = 0;
    const analysis = { dodgem: "mode=analysis", "dots-and-boxes": "computer=none", "tic-tac-chec": "" }[game];
    await page.goto(`${shared.server.url}/${game}?delay=0&${analysis}`);
    const before = await settled(page, game, null);
    await page.click(PAGES[game].move);
    const position = await settled(page, game, before);
    const moves = await page.locator(PAGES[game].move).count();
    const probe = `**/api/${game}/probe?*`;
    try {
      // Unreachable: the request fails without an answer.
      await page.route(probe, (route) => route.abort("connectionrefused"));
      await page.click(PAGES[game].move);
      await statusSays(page, /Error/);
      assert.equal(await textOf(page, PAGES[game].shown), position, "the position shown stays");
      assert.equal(await plies(page), 1, "the record stays");
      assert.equal(await page.locator(PAGES[game].move).count(), moves, "the board stays, its moves with it");
      assert.equal(await page.locator("#chart circle.ply-dot").count(), game === "tic-tac-chec" ? 0 : 2, "the chart stays");
      await until(page, "a Retry button is offered", () => document.querySelector("#retry:not([hidden])"));
      if (game === "dodgem") await screenshot(page, "dodgem-retry");
      // The server is back: Retry, from the keyboard, plays the move that failed.
      await page.unroute(probe);
      await tabToRetry(page);
      await page.keyboard.press("Enter");
      const after = await settled(page, game, position);
      assert.equal(await plies(page), 2);
      assert.ok(await page.locator("#retry").isHidden());
      // A server error, then the server answers again: the next click plays, with no Retry needed.
      await page.route(probe, (route) => route.fulfill({ status: 500, json: { error: "something broke" } }));
      await page.click(PAGES[game].move);
      await statusSays(page, /something broke/);
      assert.equal(await textOf(page, PAGES[game].shown), after);
      await page.unroute(probe);
      await page.click(PAGES[game].move);
      await settled(page, game, after);
      assert.equal(await plies(page), 3);
    } finally {
      await page.unrouteAll({ behavior: "ignoreErrors" });
    }
    assert.deepEqual(unexpected(problems), []);
  });
}

test("every page keeps its line in `moves` and its place in `ply`, and opens the old keys `lines` and `at`", async () => {
  const { page, problems } = shared.session;
  problems.length = 0;
  const params = () => Object.fromEntries(new URL(page.url()).searchParams);
  const links = [
    ["dodgem", "mode=analysis&moves=a3-b3,b1-b2"],
    ["dots-and-boxes", "computer=none&lines=ab,ba"],
    ["tic-tac-chec", "moves=P@d2,P@d4&at=2"],
  ];
  for (const [game, link] of links) {
    await page.goto(`${shared.server.url}/${game}?delay=0&${link}`);
    await page.waitForFunction(() => document.querySelectorAll("#record button.ply").length === 2);
    const opened = params();
    assert.equal(opened.moves, link.match(/(?:moves|lines)=([^&]*)/)[1], `${game}: the line in \`moves\``);
    assert.ok(!("lines" in opened) && !("at" in opened), `${game}: the old keys rewritten: ${page.url()}`);
    await page.click('#record button.ply[data-ply="1"]');
    await page.waitForFunction(() => document.querySelector("#record button.ply.current")?.dataset.ply === "1");
    assert.equal(params().ply, "1", `${game}: the ply in \`ply\``);
  }
  assert.deepEqual(problems, []);
});

for (const game of ["dodgem", "dots-and-boxes"]) {
  test(`${game}: the computer plays at the level chosen, which a sentence states and the link keeps; the person's moves are marked`, async () => {
    const { page, problems } = shared.session;
    problems.length = 0;
    const asked = [];
    const listen = (request) => {
      const url = new URL(request.url());
      if (url.pathname === `/api/${game}/probe` && url.searchParams.has("level")) asked.push(url.searchParams.get("level"));
    };
    page.on("request", listen);
    try {
      await page.goto(`${shared.server.url}/${game}?delay=0&level=casual`);
      const start = await settled(page, game, null);
      assert.equal(await page.locator("#level").inputValue(), "casual");
      assert.match(await textOf(page, "#level-policy"), /^Casual: Picks a move at random/);
      await page.selectOption("#level", "random");
      assert.equal(new URL(page.url()).searchParams.get("level"), "random");
      assert.match(await textOf(page, "#level-policy"), /^Random: Plays any legal move at random/);
      await page.click(PAGES[game].move);
      await settled(page, game, start);
      await until(page, "the computer has replied", () => document.querySelectorAll("#record button.ply").length >= 2);
      assert.deepEqual([...new Set(asked)], ["random"], "the computer's move is asked at the level chosen, and only it");
      const grades = await page.$$eval("#record button.ply", (nodes) => nodes.map((n) => n.dataset.grade ?? null));
      assert.ok(["best", "good", "inaccuracy", "mistake"].includes(grades[0]), `the person's move is marked: ${grades}`);
      assert.equal(grades[1], null, "the computer's move is not");
      // A link without a level plays perfectly, and says so.
      await page.goto(`${shared.server.url}/${game}?delay=0`);
      await settled(page, game, null);
      assert.equal(await page.locator("#level").inputValue(), "perfect");
      assert.match(await textOf(page, "#level-policy"), /^Perfect: Always plays a best move/);
      assert.deepEqual(unexpected(problems), []);
    } finally {
      page.off("request", listen);
    }
  });
}

test("a link's level the page does not offer is refused in words, and the computer plays perfectly", async () => {
  const { page } = shared.session;
  await page.goto(`${shared.server.url}/dodgem?delay=0&level=grandmaster`);
  await statusSays(page, /The link's level=grandmaster is not one this page offers: level=perfect is shown/);
  assert.equal(await page.locator("#level").inputValue(), "perfect");
});
