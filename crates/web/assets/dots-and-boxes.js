// Dots and Boxes against the perfect player.
"use strict";
(() => {
  const BOX = 84;
  const MARGIN = 30;
  const PRESETS = [
    { label: "2×2", rows: 2, cols: 2, variant: "american" },
    { label: "2×3", rows: 2, cols: 3, variant: "american" },
    { label: "3×3", rows: 3, cols: 3, variant: "american" },
    { label: "3×4 Icelandic", rows: 3, cols: 4, variant: "icelandic" },
    { label: "3×5 Swedish", rows: 3, cols: 5, variant: "swedish" },
    // Wilson's boards past 30 lines: playable once their tables are built.
    { label: "3×5 (38 lines)", rows: 3, cols: 5, variant: "american" },
    { label: "4×4 (40 lines)", rows: 4, cols: 4, variant: "american" },
  ];
  const app = document.getElementById("app");
  const delay = computerDelay();
  const state = { board: PRESETS[0], computer: "B", hints: true, moves: [], probe: null, hinted: null, focus: null };
  const requests = new Requests({
    onBuilding: (body) => {
      progress.hidden = false;
      progress.firstChild.style.width = `${Math.round(100 * body.done)}%`;
      const positions = body.positions.toLocaleString("en");
      status.show(`Building the table of this board (${positions} quiet positions): ${Math.round(100 * body.done)}%…`);
    },
    // Another board's table is being built: this one waits its turn.
    onBusy: (message) => status.show(message),
  });

  const presetSelect = h(
    "select",
    { id: "preset", onchange: () => choosePreset() },
    PRESETS.map((p, i) => h("option", { value: String(i) }, p.label)),
    h("option", { value: "custom" }, "other size…"),
  );
  const rowsInput = h("input", { type: "number", id: "rows", min: 1, max: 12, value: 2 });
  const colsInput = h("input", { type: "number", id: "cols", min: 1, max: 12, value: 2 });
  const variantSelect = h(
    "select",
    { id: "variant" },
    ["american", "swedish", "icelandic"].map((v) => h("option", { value: v }, v)),
  );
  const custom = h(
    "span",
    { id: "custom", hidden: true },
    h("label", {}, "rows ", rowsInput),
    h("label", {}, " columns ", colsInput),
    h("label", {}, " ", variantSelect),
    h("button", { id: "custom-go", onclick: () => newGame() }, "Start"),
  );
  const computerSelect = h(
    "select",
    { id: "computer", onchange: () => newGame() },
    h("option", { value: "B", selected: true }, "B (you are A and move first)"),
    h("option", { value: "A" }, "A (you are B)"),
    h("option", { value: "" }, "neither (you play both)"),
  );
  const hintsBox = hintsToggle((ticked) => {
    state.hints = ticked;
    render();
  });
  const hintButton = h("button", { id: "hint", onclick: () => showHint() }, "Hint");
  const undoButton = h("button", { id: "undo", onclick: () => undo() }, "Undo");
  const status = statusLine();
  const progress = h("div", { class: "progress", hidden: true }, h("div", { style: "width:0" }));
  const board = svg("svg", { id: "board", role: "group", "aria-label": "Dots and Boxes board" });
  const facts = h("dl", { class: "facts" });

  app.append(
    h(
      "div",
      { class: "controls" },
      h("label", {}, "Board ", presetSelect),
      custom,
      h("label", {}, "Computer plays ", computerSelect),
      h("label", {}, hintsBox, "scores on every line"),
      hintButton,
      h("button", { id: "new-game", onclick: () => newGame() }, "New game"),
      undoButton,
    ),
    status,
    progress,
    h("div", { class: "layout" }, board, h("div", { class: "panel" }, h("h2", {}, "Game"), facts)),
    h(
      "p",
      { class: "note" },
      "Draw a line by clicking between two dots; completing a box takes it and you move again. ",
      "Each undrawn line shows the final score A − B if it is drawn now and both sides then play perfectly: ",
      "green for the best lines of the player to move, red for the rest. ",
      "A ^ after a score says that B can be made to play the next loony move (one that offers boxes the opponent ",
      "may take or decline), a v that A can; no mark, that neither can be made to.",
    ),
  );

  const xy = (row, col) => ({ x: MARGIN + (col * BOX) / 2, y: MARGIN + (row * BOX) / 2 });
  const lineName = (row, col) => String.fromCharCode(97 + row) + String.fromCharCode(97 + col);
  const signed = (score) => (score > 0 ? `+${score}` : score < 0 ? `−${-score}` : "0");
  // Wilson's marks: who must make the next loony move after this line.
  const LOONY = { A: "v", B: "^" };
  const marked = (score) => signed(score.score) + (LOONY[score.loony] ?? "");
  const loonyWords = (score) => (score.loony ? `, ${score.loony} must make the next loony move` : "");

  function isHuman(player) {
    return state.computer !== player;
  }

  function choosePreset() {
    custom.hidden = presetSelect.value !== "custom";
    if (presetSelect.value !== "custom") newGame();
  }

  function render() {
    const p = state.probe;
    if (!p) return;
    const { rows, cols } = p;
    const width = 2 * MARGIN + cols * BOX;
    const height = 2 * MARGIN + rows * BOX;
    board.setAttribute("viewBox", `0 0 ${width} ${height}`);
    // As large as the window allows, up to twice the drawing's size.
    board.style.width = `min(100%, ${2 * width}px, calc((100vh - 14rem) * ${width / height}))`;
    board.style.height = "auto";
    board.replaceChildren();
    p.owners.forEach((owner, i) => {
      const r = Math.floor(i / cols);
      const c = i % cols;
      const { x, y } = xy(2 * r, 2 * c);
      const cell = svg("g", { class: "box", "data-owner": owner || "" });
      if (owner) {
        cell.append(
          svg("rect", { x: x + 3, y: y + 3, width: BOX - 6, height: BOX - 6, fill: colour(owner === "A" ? "blue-pale" : "red-pale") }),
          svg("text", { x: x + BOX / 2, y: y + BOX / 2 + 9, "text-anchor": "middle", "font-size": 26, "font-weight": 700, fill: colour(owner === "A" ? "blue" : "red") }, owner),
        );
      }
      board.append(cell);
    });
    const drawn = new Set(p.drawn);
    const played = new Set(state.moves);
    const scores = new Map(p.moves.map((m) => [m.move, m]));
    const playable = !p.over && isHuman(p.to_move);
    for (let row = 0; row <= 2 * rows; row++) {
      for (let col = 0; col <= 2 * cols; col++) {
        if (row % 2 === col % 2) continue;
        const name = lineName(row, col);
        const horizontal = row % 2 === 0;
        const a = horizontal ? xy(row, col - 1) : xy(row - 1, col);
        const b = horizontal ? xy(row, col + 1) : xy(row + 1, col);
        if (drawn.has(name)) {
          const last = state.moves[state.moves.length - 1] === name;
          board.append(
            svg("line", {
              x1: a.x, y1: a.y, x2: b.x, y2: b.y,
              stroke: colour(played.has(name) ? (last ? "accent" : "ink") : "faint"),
              "stroke-width": 5,
              "stroke-linecap": "round",
              class: "drawn",
              "data-line": name,
            }),
          );
          continue;
        }
        const score = scores.get(name);
        const group = svg("g", {
          class: state.hinted === name ? "line hinted" : "line",
          "data-line": name,
          style: playable ? "cursor:pointer" : "",
        });
        const shade = colour(score.best ? "win" : "loss");
        group.append(
          svg("line", {
            x1: a.x, y1: a.y, x2: b.x, y2: b.y,
            stroke: colour(state.hinted === name ? "hint" : "undrawn"),
            "stroke-width": state.hinted === name ? 7 : 3,
            "stroke-dasharray": state.hinted === name ? "" : "4 5",
          }),
          svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: "transparent", "stroke-width": 18 }),
        );
        if (state.hints) {
          group.setAttribute("data-score", String(score.score));
          group.setAttribute("data-best", String(score.best));
          if (score.loony) group.setAttribute("data-loony", score.loony);
          const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
          // Above a horizontal line, beside a vertical one: never across the line itself.
          const label = svg("text", {
            x: mid.x + (horizontal ? 0 : 7),
            y: mid.y + (horizontal ? -7 : 5),
            "text-anchor": horizontal ? "middle" : "start",
            "font-size": 15,
            "font-weight": 700,
            fill: shade,
            stroke: colour("paper"),
            "stroke-width": 3,
            "paint-order": "stroke",
            class: "score",
          }, marked(score));
          group.append(label);
        }
        const words = `line ${name}: final score ${signed(score.score)}${score.best ? " (best)" : ""}${loonyWords(score)}`;
        group.append(svg("title", {}, words));
        if (playable) {
          group.setAttribute("tabindex", "0");
          group.setAttribute("role", "button");
          group.setAttribute("aria-label", state.hints ? words : `line ${name}`);
          group.addEventListener("click", () => play(name));
          group.addEventListener("keydown", (event) => {
            if (event.key === "Enter" || event.key === " ") {
              event.preventDefault();
              state.focus = name;
              play(name);
            }
          });
        }
        board.append(group);
      }
    }
    for (let row = 0; row <= 2 * rows; row += 2) {
      for (let col = 0; col <= 2 * cols; col += 2) {
        const { x, y } = xy(row, col);
        board.append(svg("circle", { cx: x, cy: y, r: 5, fill: colour("ink") }));
      }
    }
    renderStatus();
    // After a line drawn from the keyboard, the focus goes on to the next line still undrawn.
    if (state.focus) {
      const lines = [...board.querySelectorAll("g.line[tabindex]")];
      const next = lines.find((g) => g.dataset.line > state.focus) || lines[0];
      state.focus = null;
      if (next) next.focus();
    }
  }

  function tally() {
    const count = (who) => state.probe.owners.filter((o) => o === who).length;
    return { a: count("A"), b: count("B") };
  }

  function renderStatus() {
    const p = state.probe;
    const { a, b } = tally();
    let text;
    if (p.over) {
      const result = p.score_so_far > 0 ? "A wins" : p.score_so_far < 0 ? "B wins" : "a tie";
      const winner = p.score_so_far > 0 ? "A" : p.score_so_far < 0 ? "B" : null;
      let verdict = "";
      if (state.computer && winner) verdict = isHuman(winner) ? " You win!" : " The computer wins.";
      text = `Game over: ${result}, ${a}–${b}.${verdict}`;
    } else {
      const who = state.computer === "" ? "" : isHuman(p.to_move) ? " (you)" : " (the computer)";
      text = `${p.to_move} to move${who}. Boxes A ${a} – B ${b}.`;
      if (state.hints) text += ` With perfect play the final score A − B is ${signed(p.value)}.`;
    }
    status.show(text);
    facts.replaceChildren(
      h("dt", {}, "board"),
      h("dd", {}, `${p.rows}×${p.cols} ${p.variant}`),
      h("dt", {}, "lines"),
      h("dd", { id: "moves" }, state.moves.join(",") || "none yet"),
      h("dt", {}, "value"),
      h("dd", { id: "value" }, signed(p.value)),
    );
    hintButton.disabled = p.over || !isHuman(p.to_move);
    undoButton.disabled = state.moves.length === 0;
  }

  function showHint() {
    if (!state.probe) return;
    const best = state.probe.moves.find((m) => m.best);
    state.hinted = best ? best.move : null;
    render();
  }

  /** Draws line `name`. A person's line is an entry in the browser's history; the computer's reply joins it, so
   * that Back goes to the person's previous turn. */
  function play(name, byComputer = false) {
    if (requests.pending) return;
    state.moves.push(name);
    state.hinted = null;
    remember(!byComputer);
    load();
  }

  /** The game in the URL, one history entry per line: reload restores it, Back and Forward walk through it. */
  function remember(push) {
    const url = new URL(location.href);
    const { rows, cols, variant } = state.board;
    url.searchParams.set("rows", String(rows));
    url.searchParams.set("cols", String(cols));
    url.searchParams.set("variant", variant);
    url.searchParams.set("computer", state.computer || "none");
    url.searchParams.set("lines", state.moves.join(","));
    if (url.href === location.href) return;
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
  }

  /** Sets the controls from the URL (a link, a reload, Back or Forward); returns its lines. */
  function fromUrl() {
    const shared = new URLSearchParams(location.search);
    const rows = Number(shared.get("rows"));
    const cols = Number(shared.get("cols"));
    const variant = shared.get("variant") || "american";
    if (rows > 0 && cols > 0) {
      const preset = PRESETS.findIndex((p) => p.rows === rows && p.cols === cols && p.variant === variant);
      presetSelect.value = preset >= 0 ? String(preset) : "custom";
      custom.hidden = preset >= 0;
      rowsInput.value = String(rows);
      colsInput.value = String(cols);
      if (["american", "swedish", "icelandic"].includes(variant)) variantSelect.value = variant;
    }
    const computer = shared.get("computer");
    if (["A", "B", "none"].includes(computer)) computerSelect.value = computer === "none" ? "" : computer;
    return (shared.get("lines") || "").split(",").filter(Boolean);
  }

  /** Takes back lines up to and including the last one a human drew. */
  function undo() {
    if (requests.pending) return;
    state.moves.pop();
    state.hinted = null;
    // Whoever is to move after the remaining lines: while it is the computer, take back its line too.
    load(true);
  }

  async function load(undoing = false) {
    const request = requests.begin();
    const { rows, cols, variant } = state.board;
    try {
      const body = await request.get("dots-and-boxes/probe", { rows, cols, variant, moves: state.moves.join(",") });
      if (!body) return;
      progress.hidden = true;
      if (undoing && !body.over && !isHuman(body.to_move) && state.moves.length > 0) {
        state.moves.pop();
        load(true);
        return;
      }
      state.probe = body;
      request.finish();
      remember(undoing);
      render();
      if (!body.over && !isHuman(body.to_move)) {
        await pause(delay);
        if (!request.stale) play(body.choice, true);
      }
    } catch (error) {
      if (request.stale) return;
      request.finish();
      progress.hidden = true;
      // Nothing of the board asked for is shown: not the previous one either.
      board.replaceChildren();
      facts.replaceChildren();
      const command = error instanceof ApiError && error.body.command;
      status.show(`Error: ${error.message}.${command ? ` Build it with \`${command}\`, then reload.` : ""}`, true);
    }
  }

  function newGame(lines = []) {
    if (presetSelect.value === "custom") {
      state.board = { rows: Number(rowsInput.value), cols: Number(colsInput.value), variant: variantSelect.value };
    } else {
      state.board = PRESETS[Number(presetSelect.value)];
    }
    state.computer = computerSelect.value;
    state.moves = lines;
    state.hinted = null;
    state.probe = null;
    board.replaceChildren();
    facts.replaceChildren();
    status.show("Setting up the board…");
    load();
  }

  window.addEventListener("popstate", () => newGame(fromUrl()));
  newGame(fromUrl());
})();
