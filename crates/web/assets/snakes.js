// Snakes and Ladders: any board, analysed exactly.
"use strict";
(() => {
  const CELL = 60;
  const app = document.getElementById("app");
  // The board being shown: a built-in one by name, or a custom one by its goal, numbering and jumps.
  // `custom` is the board being edited (null for a built-in one); `shown` the board of the analysis on screen, to
  // go back to when a change is refused; `pending` the square whose jump awaits its destination.
  const state = {
    name: "milton-bradley",
    custom: null,
    shown: null,
    overshoot: "stay",
    editing: false,
    pending: null,
    analysis: null,
    // The square to give the keyboard focus to once the board is drawn again.
    focus: null,
    // A race on the board shown: each player's square, whose turn it is, the throws so far and the winner.
    race: null,
  };
  const requests = new Requests();

  const boardSelect = h("select", { id: "board-select", onchange: () => chooseBoard() });
  const overshootSelect = h(
    "select",
    { id: "overshoot", onchange: () => analyse() },
    h("option", { value: "stay" }, "stays put"),
    h("option", { value: "bounce" }, "bounces back"),
    h("option", { value: "pass" }, "finishes anyway"),
  );
  const editBox = h("input", {
    type: "checkbox",
    id: "edit",
    onchange: () => {
      state.editing = editBox.checked;
      state.pending = null;
      render();
    },
  });
  const goalInput = h("input", { type: "number", id: "goal", min: 6, max: 400, value: 100 });
  const status = statusLine();
  const board = svg("svg", { id: "board", role: "group", "aria-label": "Snakes and Ladders board", tabindex: "-1" });
  const facts = h("dl", { class: "facts", id: "facts" });
  const plot = svg("svg", { id: "distribution", role: "img", "aria-label": "game length distribution" });

  // The race: 1 to 4 players, each throw of the die moving the player to throw by the board's own table of throws.
  const playersSelect = h("select", { id: "players", onchange: () => newRace() }, [1, 2, 3, 4].map((n) => h("option", { value: String(n) }, String(n))));
  const throwButton = h("button", { id: "throw", type: "button", onclick: () => throwDie() }, "Throw the die");
  const raceStatus = h("p", { id: "race-status", role: "status" });
  const raceTable = h("table", { id: "race", class: "race" });
  const TOKENS = ["blue", "red", "win-text", "accent"];

  app.append(
    h(
      "div",
      { class: "controls" },
      h("label", {}, "Board ", boardSelect),
      h("label", {}, "A roll past the end ", overshootSelect),
      h("label", {}, editBox, "edit jumps"),
      h("label", {}, "new blank board of ", goalInput, " squares"),
      h("button", { id: "blank", onclick: () => blankBoard() }, "Blank board"),
      rulesLink(),
    ),
    status,
    h(
      "div",
      { class: "layout" },
      board,
      h(
        "div",
        { class: "panel" },
        h("h2", {}, "Race"),
        h("div", { class: "controls" }, h("label", {}, "Players ", playersSelect), throwButton, h("button", { id: "new-race", type: "button", onclick: () => newRace() }, "New race")),
        raceStatus,
        raceTable,
        h("h2", { style: "margin-top:1rem" }, "Analysis"),
        facts,
        h("h2", { style: "margin-top:1rem" }, "How many turns a game takes"),
        plot,
      ),
    ),
    rulesSection([
      "Every player starts off the board and, in turn, throws one die and moves that many squares. A token that lands at " +
        "the foot of a ladder climbs it; one that lands on a snake's head slides down its tail. The first to reach the last " +
        "square wins. A throw past the end, by the board's rule, leaves the token where it was, bounces it back, or finishes anyway.",
      "There are no choices, only dice: what the tool solves is how long a game takes. Colours show the expected number of " +
        "turns still to play from each square (green: few, red: many), and the dashed path is a shortest game. In a race " +
        "each player throws in turn, and the table shows how many turns each still needs on average from where it stands.",
      "To edit, tick “edit jumps”, click a square and then where its ladder or snake should lead (or Tab to a square and " +
        "press Enter, then on its destination; Escape lets go); click a jump's start to remove it.",
    ], [
      [
        miniBoard({ size: 4, arrows: [{ from: [0, 0], to: [1, 2] }, { from: [3, 3], to: [2, 1] }], label: "A ladder from a1 climbs to b3; a snake from d4 slides down to c2" }),
        "Land at a ladder's foot and climb; land on a snake's head and slide.",
      ],
    ]),
  );

  /** The positions drawn as squares: 1 to the goal, or 0 to the goal when the board numbers cells. */
  function shown(a) {
    const first = a.numbering === "cells" ? 0 : 1;
    return { first, count: a.goal - first + 1 };
  }

  /** The top-left corner of a position's square, rows running back and forth from the bottom. */
  function place(a, position) {
    const { first, count } = shown(a);
    const cols = count >= 40 ? 10 : 6;
    const rows = Math.ceil(count / cols);
    if (position < first) return { x: -CELL, y: (rows - 1) * CELL + 12 };
    const k = position - first;
    const row = Math.floor(k / cols);
    const col = row % 2 === 0 ? k % cols : cols - 1 - (k % cols);
    return { x: col * CELL, y: (rows - 1 - row) * CELL + 12 };
  }

  const centre = (a, position) => {
    const { x, y } = place(a, position);
    return { x: x + CELL / 2, y: y + CELL / 2 };
  };

  function heat(value, low, high) {
    if (value === null) return colour("unknown");
    const t = high > low ? (value - low) / (high - low) : 0;
    return `hsl(${Math.round(120 * (1 - t))}, 62%, 78%)`;
  }

  function render() {
    const a = state.analysis;
    if (!a) return;
    const { first, count } = shown(a);
    const cols = count >= 40 ? 10 : 6;
    const rows = Math.ceil(count / cols);
    const width = (cols + 1) * CELL;
    const height = rows * CELL + 24;
    board.setAttribute("viewBox", `${-CELL} 0 ${width} ${height}`);
    board.setAttribute("width", width);
    board.setAttribute("height", height);
    board.replaceChildren(
      svg("defs", {}),
    );
    board.firstChild.append(
      arrowHead("ladder-head", colour("win")),
      arrowHead("snake-head", colour("loss")),
    );
    const labels = [];
    const turns = a.per_square.map((s) => s.expected_turns.approximate);
    const finite = turns.slice(first).filter((e) => e !== null);
    const low = Math.min(...finite);
    const high = Math.max(...finite);
    for (let position = first; position <= a.goal; position++) {
      const { x, y } = place(a, position);
      const expected = turns[position];
      const cell = svg("g", { class: "square", "data-square": String(position), style: state.editing ? "cursor:pointer" : "" });
      cell.append(
        svg("rect", {
          x,
          y,
          width: CELL,
          height: CELL,
          fill: heat(expected, low, high),
          stroke: colour(state.pending === position ? "ink" : "white"),
          "stroke-width": state.pending === position ? 3 : 1,
        }),
        svg("title", {}, `${position}: ${expected === null ? "the goal may never be reached" : `${expected.toFixed(3)} turns to go`}`),
      );
      // The numbers go on top of the arrows, drawn last, on a pale halo so that a line across them hides nothing.
      const halo = { stroke: colour("white"), "stroke-width": 3, "paint-order": "stroke", "pointer-events": "none" };
      labels.push(
        svg("text", { x: x + 4, y: y + 15, "font-size": 14, "font-weight": 600, fill: colour("label"), class: "number", ...halo }, String(position)),
        svg("text", { x: x + CELL - 4, y: y + CELL - 6, "font-size": 12, "text-anchor": "end", fill: colour("label"), class: "turns", ...halo }, expected === null ? "∞" : expected.toFixed(1)),
      );
      if (state.editing) {
        const turns = expected === null ? "never reached" : `${expected.toFixed(1)} turns to go`;
        const doing = state.pending === null ? "Enter starts or removes a jump here" : `Enter ends the jump from ${state.pending} here`;
        pressable(cell, `square ${position}, ${turns}; ${doing}`, (byKeyboard) => {
          if (byKeyboard) state.focus = position;
          edit(position);
        });
      }
      board.append(cell);
    }
    if (first === 1) {
      const start = place(a, 0);
      board.append(svg("text", { x: start.x + CELL / 2, y: start.y + CELL / 2 + 4, "text-anchor": "middle", "font-size": 11 }, "start"));
    }
    for (const [from, to] of a.jumps) {
      const s = centre(a, from);
      const e = centre(a, to);
      const ladder = to > from;
      board.append(
        svg("line", {
          x1: s.x, y1: s.y, x2: e.x, y2: e.y,
          stroke: colour(ladder ? "win" : "loss"),
          "stroke-width": 4,
          "stroke-opacity": 0.75,
          "marker-end": `url(#${ladder ? "ladder" : "snake"}-head)`,
          class: ladder ? "ladder" : "snake",
          "data-jump": `${from}:${to}`,
          "pointer-events": "none",
        }),
      );
    }
    if (a.squares) {
      const points = a.squares.map((sq) => centre(a, sq)).map((c) => `${c.x + 6},${c.y - 6}`).join(" ");
      board.append(
        svg("polyline", { points, fill: "none", stroke: colour("blue"), "stroke-width": 3, "stroke-dasharray": "7 5", id: "path", "pointer-events": "none" }),
      );
    }
    board.append(...labels);
    drawTokens();
    renderFacts();
    renderPlot();
    if (state.focus !== null) {
      board.querySelector(`g.square[data-square="${state.focus}"]`)?.focus();
      state.focus = null;
    }
  }

  /** A new race on the board shown, every player at the start. */
  function newRace() {
    state.race = freshRace();
    render();
  }

  function freshRace() {
    return { at: Array(Number(playersSelect.value)).fill(0), turn: 0, throws: 0, winner: null, last: null };
  }

  /** The player to throw throws: the die is the browser's, where it leads is the board's (`throws`). */
  function throwDie() {
    const race = state.race;
    const a = state.analysis;
    if (!race || race.winner !== null || !a) return;
    const roll = 1 + Math.floor(Math.random() * 6);
    const player = race.turn;
    const from = race.at[player];
    const to = a.per_square[from].throws[roll - 1];
    race.at[player] = to;
    race.throws += 1;
    race.last = { player, roll, from, to };
    if (to === a.goal) race.winner = player;
    else race.turn = (player + 1) % race.at.length;
    render();
  }

  /** Each player's token on its square, and the race in words: whose turn, the last throw, turns left on average. */
  function drawTokens() {
    const race = state.race;
    const a = state.analysis;
    if (!race) return;
    race.at.forEach((square, player) => {
      const { x, y } = square === 0 && shown(a).first === 1 ? place(a, 0) : place(a, square);
      const dx = 12 + (player % 2) * 16;
      const dy = 26 + Math.floor(player / 2) * 16;
      board.append(
        svg("circle", { cx: x + dx, cy: y + dy, r: 7, fill: colour(TOKENS[player]), stroke: colour("ink"), "stroke-width": 1.5, class: "token", "data-player": String(player + 1), "data-square": String(square) }),
      );
    });
    const expected = (square) => {
      const e = a.per_square[square].expected_turns;
      return e.infinite || e.approximate === null ? "∞" : e.approximate.toFixed(2);
    };
    raceTable.replaceChildren(
      h("tr", {}, h("th", { scope: "col" }, "player"), h("th", { scope: "col" }, "square"), h("th", { scope: "col" }, "turns left on average")),
      ...race.at.map((square, player) =>
        h("tr", { class: player === race.turn && race.winner === null ? "to-throw" : "" }, h("td", {}, `Player ${player + 1}`), h("td", {}, String(square)), h("td", {}, expected(square))),
      ),
    );
    const last = race.last ? `Player ${race.last.player + 1} threw ${race.last.roll}: ${race.last.from} to ${race.last.to}. ` : "";
    raceStatus.textContent =
      race.winner !== null ? `${last}Player ${race.winner + 1} wins after ${race.throws} throws.` : `${last}Player ${race.turn + 1} to throw.`;
    throwButton.disabled = race.winner !== null;
  }

  function arrowHead(id, colour) {
    const marker = svg("marker", { id, viewBox: "0 0 10 10", refX: 8, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse" });
    marker.append(svg("path", { d: "M 0 0 L 10 5 L 0 10 z", fill: colour }));
    return marker;
  }

  function renderFacts() {
    const a = state.analysis;
    const d = a.distribution;
    const e = a.expected_turns;
    const exact = e.infinite ? "infinite: the goal may never be reached" : e.exact;
    facts.replaceChildren(
      h("dt", {}, "board"),
      // A board numbering cells has one from 0 to the goal: one more than the goal.
      h("dd", {}, `${a.board}, ${a.numbering === "cells" ? a.goal + 1 : a.goal} ${a.numbering}, ${a.jumps.length} jumps`),
      h("dt", {}, "fewest throws"),
      h("dd", { id: "min-throws" }, a.min_throws === null ? "the goal cannot be reached" : String(a.min_throws)),
      h("dt", {}, "their rolls"),
      h("dd", { id: "rolls" }, a.rolls ? a.rolls.join(", ") : "–"),
      h("dt", {}, "expected turns"),
      h("dd", { id: "expected" }, e.infinite ? "∞" : e.decimal),
      h("dt", {}, "exactly"),
      h("dd", { id: "expected-exact", class: "note" }, exact),
      h("dt", {}, "median, mode, 90%"),
      h("dd", {}, [d.median, d.mode, d.p90].map((x) => (x === null ? "–" : x)).join(", ")),
      h("dt", {}, "chance of the shortest"),
      h("dd", {}, d.p_min_exact || "–"),
    );
  }

  function renderPlot() {
    const pmf = state.analysis.distribution.pmf;
    const width = 420;
    const height = 170;
    const bottom = height - 22;
    plot.setAttribute("viewBox", `0 0 ${width} ${height}`);
    // As wide as the panel: the picture scales, its labels with it.
    plot.setAttribute("width", "100%");
    plot.removeAttribute("height");
    plot.replaceChildren();
    if (pmf.length === 0) return;
    const top = Math.max(...pmf);
    // Room on the right for the last tick's label, which is centred on its bar.
    const step = (width - 30 - 14) / pmf.length;
    pmf.forEach((p, i) => {
      const tall = top > 0 ? ((bottom - 8) * p) / top : 0;
      plot.append(
        svg("rect", { x: 30 + i * step, y: bottom - tall, width: Math.max(step - 0.5, 0.5), height: tall, fill: colour("blue"), class: "bar" }),
      );
    });
    plot.append(svg("line", { x1: 30, y1: bottom, x2: width, y2: bottom, stroke: colour("muted") }));
    const tick = Math.max(1, Math.ceil(pmf.length / 8 / 10) * 10);
    for (let t = tick; t <= pmf.length; t += tick) {
      plot.append(svg("text", { x: 30 + (t - 0.5) * step, y: height - 6, "text-anchor": "middle", "font-size": 10 }, String(t)));
    }
    plot.append(svg("text", { x: 2, y: 12, "font-size": 10 }, `${(100 * top).toFixed(1)}%`));
  }

  function edit(position) {
    if (!state.editing) return;
    // Edits build on the last edit, even one whose analysis is still on its way.
    const a = state.custom || state.analysis;
    const jumps = a.jumps.map(([f, t]) => [f, t]);
    const existing = jumps.findIndex(([f]) => f === position);
    if (state.pending === null) {
      if (existing >= 0) {
        jumps.splice(existing, 1);
        setCustom(a, jumps);
      } else {
        state.pending = position;
        render();
        status.show(`A jump from ${position}: click the square it leads to (Escape: no jump).`);
      }
      return;
    }
    const from = state.pending;
    state.pending = null;
    if (from !== position) jumps.push([from, position]);
    setCustom(a, jumps);
  }

  function setCustom(a, jumps) {
    state.custom = { goal: a.goal, numbering: a.numbering, jumps };
    ensureCustomOption();
    analyse();
  }

  function ensureCustomOption() {
    if (![...boardSelect.options].some((o) => o.value === "")) boardSelect.append(h("option", { value: "" }, "custom"));
    boardSelect.value = "";
  }

  function blankBoard() {
    state.custom = { goal: Number(goalInput.value), numbering: "squares", jumps: [] };
    ensureCustomOption();
    editBox.checked = true;
    state.editing = true;
    analyse();
  }

  function chooseBoard() {
    if (boardSelect.value === "") return;
    state.name = boardSelect.value;
    state.custom = null;
    analyse();
  }

  /** The board in the URL, one history entry per change: reload restores it, Back and Forward undo and redo. */
  function remember(push) {
    const url = new URL(location.href);
    for (const key of ["board", "goal", "numbering", "jumps"]) url.searchParams.delete(key);
    url.searchParams.set("overshoot", overshootSelect.value);
    if (state.custom) {
      url.searchParams.set("goal", String(state.custom.goal));
      url.searchParams.set("numbering", state.custom.numbering);
      url.searchParams.set("jumps", state.custom.jumps.map(([f, t]) => `${f}:${t}`).join(","));
    } else {
      url.searchParams.set("board", state.name);
    }
    if (url.href === location.href) return;
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
  }

  /** Reads the board from the URL: a built-in one by name, or a custom one by its goal, numbering and jumps. */
  function fromUrl() {
    const shared = new URLSearchParams(location.search);
    if (["stay", "bounce", "pass"].includes(shared.get("overshoot"))) overshootSelect.value = shared.get("overshoot");
    const goal = Number(shared.get("goal"));
    if (Number.isInteger(goal) && goal > 0) {
      const jumps = (shared.get("jumps") || "")
        .split(",")
        .filter(Boolean)
        .map((pair) => pair.split(":").map(Number))
        .filter((pair) => pair.length === 2 && pair.every(Number.isInteger));
      const numbering = shared.get("numbering") === "cells" ? "cells" : "squares";
      state.custom = { goal, numbering, jumps };
      ensureCustomOption();
    } else {
      state.custom = null;
      const name = shared.get("board");
      if ([...boardSelect.options].some((o) => o.value === name && name)) state.name = name;
      boardSelect.value = state.name;
    }
  }

  async function analyse(push = true) {
    const request = requests.begin();
    const params = { overshoot: overshootSelect.value };
    if (state.custom) {
      params.goal = state.custom.goal;
      params.numbering = state.custom.numbering;
      params.jumps = state.custom.jumps.map(([f, t]) => `${f}:${t}`).join(",");
    } else {
      params.board = state.name;
    }
    status.show("Analysing…");
    try {
      const body = await request.get("snakes/analyse", params);
      if (!body) return;
      request.finish();
      state.analysis = body;
      // Another board: the race starts again on it.
      state.race = freshRace();
      state.shown = { name: state.name, custom: state.custom };
      remember(push);
      status.show(
        body.min_throws === null
          ? "The goal cannot be reached on this board."
          : `Fewest throws ${body.min_throws}; expected game length ${body.expected_turns.infinite ? "∞" : body.expected_turns.decimal} turns.`,
      );
      render();
    } catch (error) {
      if (request.stale) return;
      request.finish();
      // A refused change leaves the board as it was.
      status.show(`Error: ${error.message}`, true);
      if (state.shown) {
        ({ name: state.name, custom: state.custom } = state.shown);
        boardSelect.value = state.custom ? "" : state.name;
      }
    }
  }

  async function start() {
    try {
      const body = await requests.begin().get("snakes/boards");
      boardSelect.replaceChildren(...body.map((name) => h("option", { value: name, selected: name === state.name }, name)));
    } catch (error) {
      status.show(`Error: ${error.message}`, true);
      return;
    }
    fromUrl();
    analyse(false);
  }

  window.addEventListener("popstate", () => {
    fromUrl();
    state.pending = null;
    analyse(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.pending !== null) {
      state.focus = state.pending;
      state.pending = null;
      render();
      status.show("No jump added.");
    }
  });
  start();
})();
