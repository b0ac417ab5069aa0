// Every page on a 390 px phone: nothing makes the page scroll sideways, and the navigation wraps between names.
import assert from "node:assert/strict";
import { test } from "node:test";
import { screenshot, sharedServerAndBrowser } from "./harness.js";

const shared = sharedServerAndBrowser();

test("at 390 px no page scrolls sideways", async () => {
  const { page } = shared.session;
  await page.setViewportSize({ width: 390, height: 844 });
  // Every game's page, as the registry lists them.
  const games = await (await fetch(`${shared.server.url}/api/games`)).json();
  for (const path of ["/", ...games.map((game) => `/${game.id}`), "/puzzles", "/docs", "/docs/readme", "/docs/ladders"]) {
    await page.goto(`${shared.server.url}${path}?delay=0`);
    // Each page draws once its first answer is in: the status line says something other than setting up.
    await page.waitForFunction(() => !document.getElementById("status") || !/Setting up|^$/.test(document.getElementById("status").textContent));
    await page.waitForLoadState("networkidle");
    // A document's wide tables and code scroll inside their own box, as they must.
    const wide = await page.evaluate(() =>
      [...document.querySelectorAll("body *")]
        .filter((e) => !e.parentElement?.closest("article.doc table, article.doc pre"))
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}`),
    );
    assert.deepEqual(wide, [], `${path}: wider than the window`);
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), 390, path);
    // A game's name is never broken across lines in the navigation.
    const broken = await page.$$eval("header nav a", (links) => links.filter((a) => a.getClientRects().length > 1).map((a) => a.textContent));
    assert.deepEqual(broken, [], path);
    if (!path.startsWith("/docs")) await screenshot(page, `phone${path === "/" ? "-index" : path.replace("/", "-")}`);
  }
});

test("on a 390 px phone every control is at least 40 px tall", async () => {
  const { page } = shared.session;
  await page.setViewportSize({ width: 390, height: 844 });
  for (const path of ["/dodgem?delay=0&size=3&moves=a3-b3", "/dots-and-boxes?delay=0", "/tic-tac-chec", "/snakes", "/puzzles"]) {
    await page.goto(`${shared.server.url}${path}`);
    await page.waitForFunction(() => !document.getElementById("status") || !/Setting up|^$/.test(document.getElementById("status").textContent));
    await page.waitForLoadState("networkidle");
    const small = await page.evaluate(() =>
      [...document.querySelectorAll("button, select, input, main a, header a, #record button.ply")]
        .filter((e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== "hidden" && !e.closest("[hidden]"))
        // A checkbox is as tall as the label around it, which takes the tap.
        .map((e) => (e.type === "checkbox" && e.closest("label") ? e.closest("label") : e))
        .filter((e) => e.getBoundingClientRect().height < 40 && !e.classList.contains("skip"))
        .map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""} ${Math.round(e.getBoundingClientRect().height)}px "${e.textContent.trim().slice(0, 20)}"`),
    );
    assert.deepEqual(small, [], path);
  }
});

test("on a 390 px phone the chart's dots take a finger, and Snakes' numbers stay readable", async () => {
  const { page } = shared.session;
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${shared.server.url}/dodgem?delay=0&size=3&mode=analysis&moves=a3-b3,b1-b2`);
  await page.waitForFunction(() => document.querySelectorAll("#chart circle.ply-hit").length === 3);
  const hits = await page.$$eval("#chart circle.ply-hit", (nodes) => nodes.map((n) => Math.round(n.getBoundingClientRect().height)));
  for (const size of hits) assert.ok(size >= 40, `a chart dot's target is ${size} px`);
  await page.click('#chart circle.ply-hit[data-ply="1"]', { position: { x: 3, y: 20 } });
  await page.waitForFunction(() => new URL(location.href).searchParams.get("ply") === "1");
  await page.goto(`${shared.server.url}/snakes`);
  await page.waitForSelector("#board text.turns");
  const heights = await page.$$eval("#board text.turns, #board text.number", (nodes) => nodes.map((n) => n.getBoundingClientRect().height));
  assert.ok(Math.min(...heights) >= 10, `the smallest number on the Snakes board is ${Math.min(...heights).toFixed(1)} px tall`);
});
