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
  const state = {
    board: PRESETS[0],
    // The side the computer plays; "" for none: two people, or one studying the game.
    computer: "B",
    hints: true,
    // The game as played, one entry per line drawn; `at` of them are on the board.
    line: [],
    at: 0,
    // Every position probed so far, by the lines that led to it.
    probes: new Map(),
    hinted: null,
    // Why a shared link was not replayed to its end, shown until the next line.
    notice: null,
    focus: null,
  };
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
  const undoButton = h("button", { id: "undo", disabled: true, onclick: () => undo() }, "Undo");
  const redoButton = h("button", { id: "redo", disabled: true, onclick: () => redo() }, "Redo");
  const playOnButton = h("button", { id: "play-on", hidden: true, onclick: () => playOn() }, "Play on from here");
  const status = statusLine();
  const progress = h("div", { class: "progress", hidden: true }, h("div", { style: "width:0" }));
  const board = svg("svg", { id: "board", role: "group", "aria-label": "Dots and Boxes board" });
  const facts = h("dl", { class: "facts" });
  const record = h("ol", { id: "record", class: "record" });
  const chart = h("div", { id: "chart", class: "chart" });
  const exported = exportBox();

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
      redoButton,
      playOnButton,
    ),
    status,
    progress,
    h(
      "div",
      { class: "layout" },
      board,
      h(
        "div",
        { class: "panel" },
        h("h2", {}, "Game"),
        facts,
        h("h2", {}, "Lines drawn"),
        record,
        h("h2", {}, "Final score with best play, ply by ply"),
        chart,
        h("div", { class: "export-buttons" }, h("button", { id: "copy-game", onclick: () => exportGame() }, "Game as text")),
        exported,
      ),
    ),
    h(
      "p",
      { class: "note" },
      "Draw a line by clicking between two dots (or Tab to it and press Enter); completing a box takes it and you ",
      "move again. ",
      "Each undrawn line shows the final score A − B if it is drawn now and both sides then play perfectly: ",
      "green for the best lines of the player to move, red for the rest. ",
      "A ^ after a score says that B can be made to play the next loony move (one that offers boxes the opponent ",
      "may take or decline), a v that A can; no mark, that neither can be made to. In the record each line has the ",
      "final score it leads to; a ? marks a line that was not one of its player's best.",
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

  const key = (ply) => state.line.slice(0, ply).map((entry) => entry.move).join(",");
  const probeAt = (ply) => state.probes.get(key(ply));

  function render() {
    const p = probeAt(state.at);
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
    const played = new Set(state.line.slice(0, state.at).map((entry) => entry.move));
    const last = state.at > 0 ? state.line[state.at - 1].move : null;
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
          board.append(
            svg("line", {
              x1: a.x, y1: a.y, x2: b.x, y2: b.y,
              stroke: colour(played.has(name) ? (name === last ? "accent" : "ink") : "faint"),
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

  function tally(p) {
    const count = (who) => p.owners.filter((o) => o === who).length;
    return { a: count("A"), b: count("B") };
  }

  const VARIANT_WORDS = { american: "American", swedish: "Swedish", icelandic: "Icelandic" };

  /** Who wins and by how much, in words, from a final score A − B. */
  function outcomeWords(score) {
    if (score > 0) return `A wins by ${score}`;
    if (score < 0) return `B wins by ${-score}`;
    return "a tie";
  }

  function renderStatus() {
    const p = probeAt(state.at);
    const { a, b } = tally(p);
    let text;
    if (p.over) {
      const winner = p.score_so_far > 0 ? "A" : p.score_so_far < 0 ? "B" : null;
      let verdict = "";
      if (state.computer && winner) verdict = isHuman(winner) ? " You win!" : " The computer wins.";
      text = `Game over: ${winner ? `${winner} wins` : "a tie"}, ${a}–${b}.${verdict}`;
    } else {
      const who = state.computer === "" ? "" : isHuman(p.to_move) ? " (you)" : " (the computer)";
      text = `${p.to_move} to move${who}. Boxes A ${a} – B ${b}.`;
      if (state.hints) text += ` With perfect play the final score A − B is ${signed(p.value)}.`;
    }
    status.show(state.notice ? `${state.notice} ${text}` : text, Boolean(state.notice));
    const lines = state.line.slice(0, state.at).map((entry) => entry.move);
    facts.replaceChildren(
      h("dt", {}, "board"),
      h("dd", {}, `${p.rows}×${p.cols} boxes, ${VARIANT_WORDS[p.variant] || p.variant} rules`),
      h("dt", {}, "boxes taken"),
      h("dd", {}, `A ${a}, B ${b}`),
      h("dt", {}, "lines on the board"),
      h("dd", { id: "moves" }, lines.join(",") || "none yet"),
      h("dt", {}, p.over ? "result" : "with best play"),
      h("dd", { id: "value" }, `${outcomeWords(p.value)} (A − B ${signed(p.value)})`),
      h("dt", {}, "ply"),
      h("dd", {}, `${state.at} of ${state.line.length}`),
    );
    renderRecord(record, state.line, state.at, goTo);
    chart.replaceChildren(chartOfPlies(p));
    hintButton.disabled = p.over || !isHuman(p.to_move);
    undoButton.disabled = undoPly(state.line, state.at, isHuman) === null;
    redoButton.disabled = state.at >= state.line.length;
    playOnButton.hidden = state.at >= state.line.length;
  }

  /** The final score with best play at every ply, A's wins above the band and B's below. */
  function chartOfPlies(p) {
    const boxes = Math.max(1, p.owners.length);
    const points = [];
    for (let ply = 0; ply <= state.line.length; ply++) {
      const probe = probeAt(ply);
      if (!probe) {
        points.push({ y: null, shade: "unknown", words: "not probed yet" });
        continue;
      }
      const shade = probe.value > 0 ? "blue" : probe.value < 0 ? "red" : "draw";
      points.push({ y: probe.value / boxes, shade, words: `${outcomeWords(probe.value)} with best play, ${probe.to_move} to move` });
    }
    return valueChart({ points, at: state.at, goTo, top: "A wins", middle: "tie", bottom: "B wins", label: "Final score with best play at each ply" });
  }

  function showHint() {
    const p = probeAt(state.at);
    if (!p) return;
    const best = p.moves.find((m) => m.best);
    state.hinted = best ? best.move : null;
    render();
  }

  /** The entry of the record for line `name` drawn at position `p`. */
  function entryOf(p, name) {
    const m = p.moves.find((x) => x.move === name);
    if (!m) return null;
    const forMover = p.to_move === "A" ? m.score : -m.score;
    return {
      move: name,
      mover: p.to_move,
      label: signed(m.score),
      value: forMover > 0 ? "win" : forMover < 0 ? "loss" : "draw",
      mistake: !m.best,
    };
  }

  /** Draws line `name`; the lines after the position on the board are let go. A person's line is an entry in the
   * browser's history; the computer's reply joins it, so that Back goes to the person's previous turn. */
  function play(name, byComputer = false) {
    if (requests.pending) return;
    const entry = entryOf(probeAt(state.at), name);
    if (!entry) return;
    state.line = state.line.slice(0, state.at);
    state.line.push(entry);
    state.at = state.line.length;
    state.hinted = null;
    state.notice = null;
    show(!byComputer);
  }

  /** Shows ply `ply` of the game, one entry in the browser's history. */
  function goTo(ply) {
    if (ply < 0 || ply > state.line.length || ply === state.at) return;
    state.at = ply;
    state.hinted = null;
    show(true);
  }

  /** Takes back the person's last line (and the computer's lines after it); with no computer, one line. */
  function undo() {
    const ply = undoPly(state.line, state.at, isHuman);
    if (ply !== null) goTo(ply);
  }

  /** Draws again what was taken back, up to the person's next turn; with no computer, one line. */
  function redo() {
    goTo(redoPly(state.line, state.at, isHuman));
  }

  /** Lets go of the lines after the position on the board, so that the game goes on from it. */
  function playOn() {
    state.line = state.line.slice(0, state.at);
    show(true);
  }

  /** The game in the URL, one history entry per line: reload restores it, Back and Forward walk through it. */
  function remember(push) {
    const url = new URL(location.href);
    const { rows, cols, variant } = state.board;
    url.searchParams.set("rows", String(rows));
    url.searchParams.set("cols", String(cols));
    url.searchParams.set("variant", variant);
    url.searchParams.set("computer", state.computer || "none");
    url.searchParams.set("lines", state.line.map((entry) => entry.move).join(","));
    if (state.at < state.line.length) url.searchParams.set("ply", String(state.at));
    else url.searchParams.delete("ply");
    if (url.href === location.href) return;
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
  }

  /** Sets the controls from the URL (a link, a reload, Back or Forward); returns its lines and the ply shown. */
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
    const ply = shared.has("ply") ? Number(shared.get("ply")) : null;
    return { lines: (shared.get("lines") || "").split(",").filter(Boolean), ply };
  }

  /** The position after the first `ply` lines of the game, probed once. */
  async function probed(request, ply) {
    const lines = key(ply);
    if (state.probes.has(lines)) return state.probes.get(lines);
    const { rows, cols, variant } = state.board;
    const body = await request.get("dots-and-boxes/probe", { rows, cols, variant, moves: lines });
    if (body) {
      progress.hidden = true;
      state.probes.set(lines, body);
    }
    return body;
  }

  /** Probes the position on the board if need be, then draws it; the computer draws a line if it is its turn. */
  async function show(push) {
    remember(push);
    exported.hidden = true;
    // Begun even for a position probed before: whatever an earlier request was waiting to do is stale now.
    const request = requests.begin();
    let p;
    try {
      p = await probed(request, state.at);
      if (!p) return;
    } catch (error) {
      failed(error, request);
      return;
    }
    request.finish();
    render();
    if (!p.over && !isHuman(p.to_move) && state.at === state.line.length) {
      const thinking = requests.begin();
      await pause(delay);
      thinking.finish();
      if (!thinking.stale) play(p.choice, true);
    }
  }

  function failed(error, request) {
    if (request.stale) return;
    request.finish();
    progress.hidden = true;
    // Nothing of the board asked for is shown: not the previous one either.
    for (const part of [board, facts, record, chart]) part.replaceChildren();
    const command = error instanceof ApiError && error.body.command;
    status.show(`Error: ${error.message}.${command ? ` Build it with \`${command}\`, then reload.` : ""}`, true);
  }

  /** Draws `lines` from the empty board, as a link asks, stopping at the first that cannot be drawn; shows ply
   * `ply`. */
  async function replay(lines, ply) {
    const request = requests.begin();
    try {
      state.line = [];
      let p = await probed(request, 0);
      if (!p) return;
      let refused = null;
      for (const [i, name] of lines.entries()) {
        const entry = entryOf(p, name);
        if (!entry) {
          refused = `Line ${i + 1} of the link, ${name}, cannot be drawn there: the game stops before it.`;
          break;
        }
        state.line.push(entry);
        p = await probed(request, state.line.length);
        if (!p) return;
      }
      request.finish();
      state.at = Number.isInteger(ply) && ply >= 0 && ply < state.line.length ? ply : state.line.length;
      state.notice = refused;
      show(false);
    } catch (error) {
      failed(error, request);
    }
  }

  /** The game (lines numbered by turn, with the final score each leads to) as text to copy. */
  function exportGame() {
    const { rows, cols, variant } = state.board;
    const title = `Dots and Boxes ${rows}x${cols} ${VARIANT_WORDS[variant] || variant}`;
    const lines = state.line.slice(0, state.at).map((entry) => entry.move).join(",");
    exported.show(gameText(title, state.line, [`Lines on the board: ${lines || "none"}`]));
  }

  function newGame(lines = [], ply = null) {
    const chosen = presetSelect.value === "custom"
      ? { rows: Number(rowsInput.value), cols: Number(colsInput.value), variant: variantSelect.value }
      : PRESETS[Number(presetSelect.value)];
    const { rows, cols, variant } = state.board;
    // Values depend on the board alone: what was probed on it stays good.
    if (chosen.rows !== rows || chosen.cols !== cols || chosen.variant !== variant) state.probes = new Map();
    state.board = chosen;
    state.computer = computerSelect.value;
    state.line = [];
    state.at = 0;
    state.hinted = null;
    state.notice = null;
    for (const part of [board, facts, record, chart]) part.replaceChildren();
    exported.hidden = true;
    undoButton.disabled = true;
    redoButton.disabled = true;
    playOnButton.hidden = true;
    status.show("Setting up the board…");
    replay(lines, ply);
  }

  window.addEventListener("popstate", () => {
    const { lines, ply } = fromUrl();
    newGame(lines, ply);
  });
  const { lines, ply } = fromUrl();
  newGame(lines, ply);
})();
