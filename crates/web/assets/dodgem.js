// Dodgem against the perfect player, or analysed by two people.
"use strict";
(() => {
  const CELL = 84;
  // Room for the rank numbers on the left and the file letters below.
  const MARGIN = 30;
  const app = document.getElementById("app");
  const delay = computerDelay();
  const state = {
    size: 3,
    human: "Blue",
    misere: false,
    hints: true,
    // "computer": the computer plays the other side; "analysis": nobody moves by itself.
    mode: "computer",
    start: null,
    // The game as played: every move with the position it led to; `at` moves of it are on the board.
    line: [],
    at: 0,
    // Every position probed so far, by its notation.
    probes: new Map(),
    selected: null,
    // Why a shared link was not replayed to its end, shown until the next move.
    notice: null,
    // What to give the keyboard focus to once the board is drawn again.
    focus: null,
  };
  const requests = new Requests({
    onBuilding: (body) => status.show(buildingWords(body)),
    onBusy: (message) => status.show(message),
  });
  const lineRequests = new Requests();

  const sizeSelect = h(
    "select",
    { id: "size", onchange: () => newGame() },
    h("option", { value: "3", selected: true }, "3×3"),
    h("option", { value: "4" }, "4×4"),
    h("option", { value: "5" }, "5×5 (built on first use)"),
    h("option", { value: "6" }, "6×6 (solved offline)"),
  );
  const sideSelect = h(
    "select",
    { id: "side", onchange: () => newGame() },
    h("option", { value: "Blue", selected: true }, "Blue (moves first)"),
    h("option", { value: "Red" }, "Red"),
  );
  const modeSelect = h(
    "select",
    { id: "mode", onchange: () => changeMode() },
    h("option", { value: "computer", selected: true }, "against the computer"),
    h("option", { value: "analysis" }, "two people (analysis)"),
  );
  const misereBox = h("input", { type: "checkbox", id: "misere", onchange: () => newGame() });
  const hintsBox = hintsToggle((ticked) => {
    state.hints = ticked;
    render();
  });
  const undoButton = h("button", { id: "undo", disabled: true, onclick: () => undo() }, "Undo");
  const redoButton = h("button", { id: "redo", disabled: true, onclick: () => redo() }, "Redo");
  const playOnButton = h("button", { id: "play-on", hidden: true, onclick: () => playOn() }, "Play on from here");
  const status = statusLine();
  const board = svg("svg", { id: "board", role: "group", "aria-label": "Dodgem board" });
  const facts = h("dl", { class: "facts" });
  const record = h("ol", { id: "record", class: "record" });
  const chart = h("div", { id: "chart", class: "chart" });
  const exported = exportBox();
  const perfect = h("ol", { id: "perfect", class: "note perfect" });
  const rules = h("p", { class: "note", id: "rules" });

  app.append(
    h(
      "div",
      { class: "controls" },
      h("label", {}, "Board ", sizeSelect),
      h("label", {}, "You play ", sideSelect),
      h("label", {}, "Mode ", modeSelect),
      h("label", {}, misereBox, "misère (get your cars off and lose)"),
      h("label", {}, hintsBox, "hints"),
      h("button", { id: "new-game", onclick: () => newGame() }, "New game"),
      undoButton,
      redoButton,
      playOnButton,
    ),
    status,
    h(
      "div",
      { class: "layout" },
      board,
      h(
        "div",
        { class: "panel" },
        h("h2", {}, "Position"),
        facts,
        h("h2", {}, "Moves"),
        record,
        h("h2", {}, "Value of each ply"),
        chart,
        h(
          "div",
          { class: "export-buttons" },
          h("button", { id: "copy-game", onclick: () => exportGame() }, "Game as text"),
          h("button", { id: "perfect-line", onclick: () => perfectLine() }, "Perfect line from here"),
        ),
        exported,
        perfect,
      ),
    ),
    rules,
  );

  const squareName = (file, rank) => String.fromCharCode(97 + file) + (rank + 1);
  /** Each square of the largest board by its name, as the API writes it: names are looked up, never read. */
  const SQUARES = new Map();
  for (let file = 0; file < 6; file++) {
    for (let rank = 0; rank < 6; rank++) SQUARES.set(squareName(file, rank), { file, rank });
  }
  const squareAt = (name) => SQUARES.get(name);

  /** The top-left corner of a square; the board sits below the row where Red's cars leave. */
  function corner(n, file, rank) {
    return { x: MARGIN + file * CELL, y: CELL + (n - 1 - rank) * CELL };
  }

  /** Where a move's car ends: a square, or the frame beyond its exit edge. */
  function destination(n, player, move) {
    const from = squareAt(move.from);
    if (move.to !== "off") {
      const to = squareAt(move.to);
      return { ...corner(n, to.file, to.rank), off: false, from };
    }
    const c = corner(n, from.file, from.rank);
    return player === "Blue" ? { x: MARGIN + n * CELL, y: c.y, off: true, from } : { x: c.x, y: 0, off: true, from };
  }

  const positionAt = (ply) => (ply === 0 ? state.start : state.line[ply - 1].position);
  const p = () => state.probes.get(positionAt(state.at));
  const other = (player) => (player === "Blue" ? "Red" : "Blue");

  /** Whether the person at the board moves now: always in analysis, on their side against the computer. */
  function personToMove() {
    const probe = p();
    return probe && !probe.over && (state.mode === "analysis" || probe.to_move === state.human);
  }

  function repetitions() {
    const here = positionAt(state.at);
    return [state.start, ...state.line.slice(0, state.at).map((entry) => entry.position)].filter((pos) => pos === here).length;
  }

  function render() {
    const probe = p();
    if (!probe) return;
    const n = probe.size;
    const cars = probe.cars.map((car) => ({ player: car.player, ...squareAt(car.square) }));
    const width = MARGIN + (n + 1) * CELL;
    const height = (n + 1) * CELL + MARGIN;
    board.setAttribute("viewBox", `-4 -4 ${width + 8} ${height + 8}`);
    // As wide as the board's squares need, narrower on a small screen, never taller than it draws.
    board.style.width = `min(100%, ${width + 8}px)`;
    board.style.height = "auto";
    board.replaceChildren();
    board.append(
      svg("text", { x: MARGIN + (n * CELL) / 2, y: CELL / 2 + 5, "text-anchor": "middle", fill: colour("label-muted") }, "Red leaves ↑"),
      svg("text", { x: MARGIN + n * CELL + CELL / 2, y: CELL / 2 + 5, "text-anchor": "middle", fill: colour("label-muted") }, "Blue →"),
    );
    for (let i = 0; i < n; i++) {
      const rankLabel = corner(n, 0, i);
      const fileLabel = corner(n, i, 0);
      board.append(
        svg("text", { x: MARGIN / 2, y: rankLabel.y + CELL / 2 + 6, "text-anchor": "middle", "font-size": 17, fill: colour("label"), class: "coordinate" }, String(i + 1)),
        svg("text", { x: fileLabel.x + CELL / 2, y: CELL + n * CELL + 21, "text-anchor": "middle", "font-size": 17, fill: colour("label"), class: "coordinate" }, String.fromCharCode(97 + i)),
      );
    }
    const last = state.at > 0 ? state.line[state.at - 1] : null;
    const lastSquares = new Set(last ? [last.from, last.to] : []);
    for (let file = 0; file < n; file++) {
      for (let rank = 0; rank < n; rank++) {
        const { x, y } = corner(n, file, rank);
        const name = squareName(file, rank);
        board.append(
          svg("rect", {
            x,
            y,
            width: CELL,
            height: CELL,
            fill: colour(lastSquares.has(name) ? "picked" : (file + rank) % 2 ? "square-dark" : "square-light"),
            stroke: colour("square-edge"),
            "data-square": name,
            class: lastSquares.has(name) ? "last-move" : "",
          }),
        );
      }
    }
    const mover = probe.to_move;
    const playable = personToMove();
    for (const car of cars) {
      const { x, y } = corner(n, car.file, car.rank);
      const name = squareName(car.file, car.rank);
      const mine = playable && car.player === mover;
      const group = svg("g", { class: "car", "data-square": name, "data-player": car.player, style: mine ? "cursor:pointer" : "" });
      group.append(
        svg("rect", {
          x: x + 12,
          y: y + 12,
          width: CELL - 24,
          height: CELL - 24,
          rx: 12,
          fill: colour(car.player === "Blue" ? "blue" : "red"),
          stroke: colour(state.selected === name ? "accent" : "ink"),
          "stroke-width": state.selected === name ? 5 : 1.5,
        }),
        svg("text", { x: x + CELL / 2, y: y + CELL / 2 + 9, "text-anchor": "middle", "font-size": 26, fill: colour("white") }, car.player === "Blue" ? "→" : "↑"),
      );
      if (mine) {
        const label = `${car.player} car on ${name}${state.selected === name ? ", selected" : ""}`;
        pressable(group, label, (byKeyboard) => select(name, byKeyboard));
      }
      board.append(group);
    }
    if (playable) drawMoves(n, mover);
    renderStatus();
    renderPanel();
    if (state.focus) {
      const target = board.querySelector(state.focus);
      state.focus = null;
      if (target) target.focus();
    }
  }

  /** The selected car's destinations with their values, or a dot for every legal move. */
  function drawMoves(n, mover) {
    const moves = state.selected ? p().moves.filter((m) => m.from === state.selected) : p().moves;
    for (const m of moves) {
      const to = destination(n, mover, m);
      if (to.off) {
        board.append(
          svg("rect", {
            x: to.x + 4,
            y: to.y + 4,
            width: CELL - 8,
            height: CELL - 8,
            rx: 8,
            fill: "none",
            stroke: colour("muted"),
            "stroke-dasharray": "6 5",
            class: "exit-frame",
          }),
        );
      }
      const shade = colour(state.hints ? m.value : "muted");
      const label = valueLabel(m);
      const target = svg("g", {
        class: state.selected ? "target" : "dot",
        "data-move": m.move,
        "data-label": state.hints ? label : "",
        style: "cursor:pointer",
      });
      if (state.selected) {
        target.append(svg("circle", { cx: to.x + CELL / 2, cy: to.y + CELL / 2, r: 24, fill: colour("white"), stroke: shade, "stroke-width": 3 }));
        if (state.hints) {
          target.append(
            svg("text", { x: to.x + CELL / 2, y: to.y + CELL / 2 + 6, "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: shade }, label),
          );
        }
        pressable(target, `move ${m.move}${state.hints ? `, ${valueWords(m.value, m.distance)}` : ""}`, () => playMove(m.move));
      } else {
        // Several cars may reach one square: put each dot on the side its car comes from.
        const from = corner(n, to.from.file, to.from.rank);
        const dx = Math.sign(from.x - to.x) * CELL * 0.3;
        const dy = Math.sign(from.y - to.y) * CELL * 0.3;
        target.append(svg("circle", { cx: to.x + CELL / 2 + dx, cy: to.y + CELL / 2 + dy, r: 7, fill: shade }));
        // The dots are a picture of every move; the keyboard reaches moves through the cars.
        target.addEventListener("click", (event) => {
          event.stopPropagation();
          playMove(m.move);
        });
      }
      target.append(svg("title", {}, `${m.move}${state.hints ? ` ${label}` : ""}`));
      board.append(target);
    }
  }

  function renderStatus() {
    const probe = p();
    let text;
    if (probe.over) {
      // The side to move has the value of a finished game: it has lost, or (misère) won.
      const winner = probe.value === "win" ? probe.to_move : other(probe.to_move);
      const verdict = state.mode === "analysis" ? "" : winner === state.human ? " You win!" : " The computer wins.";
      text = `Game over: ${winner} wins.${verdict}`;
    } else if (state.at < state.line.length) {
      text = `Ply ${state.at} of ${state.line.length}, ${probe.to_move} to move: a ${valueWords(probe.value, probe.distance)} for ${probe.to_move}. Play a move or "Play on from here" to go on from this position.`;
    } else if (personToMove()) {
      text = state.mode === "analysis" ? `${probe.to_move} to move.` : `Your move (${state.human}).`;
      if (state.hints) {
        const whose = state.mode === "analysis" ? `${probe.to_move} has` : "you have";
        text += ` With perfect play ${whose} a ${valueWords(probe.value, probe.distance)}.`;
      }
    } else {
      text = `The computer (${probe.to_move}) is thinking…`;
    }
    if (repetitions() >= 3) text += " Threefold repetition of this position (the game goes on).";
    if (state.notice) text = `${state.notice} ${text}`;
    status.show(text, Boolean(state.notice));
  }

  function renderPanel() {
    const probe = p();
    facts.replaceChildren(
      h("dt", {}, "position"),
      h("dd", { id: "position" }, probe.position),
      h("dt", {}, "to move"),
      h("dd", {}, probe.to_move),
      h("dt", {}, "value"),
      h("dd", { id: "value" }, `${valueLabel(probe)} (${valueWords(probe.value, probe.distance)} for ${probe.to_move})`),
      h("dt", {}, "ply"),
      h("dd", {}, `${state.at} of ${state.line.length}`),
    );
    renderRecord(record, state.line, state.at, goTo);
    chart.replaceChildren(chartOfPlies());
    undoButton.disabled = undoPly(state.line, state.at, isPerson) === null;
    redoButton.disabled = state.at >= state.line.length;
    playOnButton.hidden = state.at >= state.line.length;
  }

  /** The value of every ply for Blue: Blue's wins in blue above the band, Red's in red below. */
  function chartOfPlies() {
    const plies = [state.start, ...state.line.map((entry) => entry.position)].map((pos) => state.probes.get(pos));
    const longest = Math.max(1, ...plies.map((probe) => (probe && probe.distance) || 0));
    return valueChart({
      points: plies.map((probe) => remotenessPoint(probe, "Blue", longest, { win: "blue", loss: "red" })),
      at: state.at,
      goTo,
      top: "Blue wins",
      middle: "draw",
      bottom: "Red wins",
      label: "Value of each ply for Blue",
    });
  }

  function select(square, byKeyboard) {
    state.selected = state.selected === square ? null : square;
    if (byKeyboard) state.focus = state.selected ? "g.target" : `g.car[data-square="${square}"]`;
    render();
  }

  /** The record's entry for move `name` played at the probed position `probe`, or null if it is not legal there. */
  function entryOf(probe, name) {
    const move = probe.moves.find((m) => m.move === name);
    if (!move) return null;
    return {
      position: move.position,
      move: name,
      from: move.from,
      to: move.to,
      mover: probe.to_move,
      value: move.value,
      label: valueLabel(move),
      mistake: outcome(move.value) < outcome(probe.value),
    };
  }

  /** Plays `name` at the position on the board; moves after it in the record are let go. */
  function playMove(name) {
    if (requests.pending) return;
    const entry = p() && entryOf(p(), name);
    if (!entry) return;
    state.line = state.line.slice(0, state.at);
    state.line.push(entry);
    state.at = state.line.length;
    state.selected = null;
    state.notice = null;
    show(true);
  }

  /** Shows ply `ply` of the game, one entry in the browser's history. */
  function goTo(ply) {
    if (ply < 0 || ply > state.line.length || ply === state.at) return;
    state.at = ply;
    state.selected = null;
    show(true);
  }

  /** Whose moves Undo and Redo step over: in analysis every move is a person's. */
  const isPerson = (mover) => state.mode === "analysis" || mover === state.human;

  /** Takes back the person's last move (and the computer's reply); in analysis, one ply. */
  function undo() {
    const ply = undoPly(state.line, state.at, isPerson);
    if (ply !== null) goTo(ply);
  }

  /** Plays again what was taken back, up to the person's next turn; in analysis, one ply. */
  function redo() {
    goTo(redoPly(state.line, state.at, isPerson));
  }

  /** Lets go of the moves after the position on the board, so that the game goes on from it. */
  function playOn() {
    state.line = state.line.slice(0, state.at);
    show(true);
  }

  function changeMode() {
    state.mode = modeSelect.value;
    show(false);
  }

  const probeAt = (request, position) => request.get("dodgem/probe", { size: state.size, misere: state.misere, position });

  /** The game in the URL: reloading restores it, and Back and Forward walk through it. */
  function remember(push) {
    const url = new URL(location.href);
    url.searchParams.set("size", String(state.size));
    url.searchParams.set("side", state.human);
    url.searchParams.set("misere", String(state.misere));
    url.searchParams.set("mode", state.mode);
    url.searchParams.set("moves", state.line.map((entry) => entry.move).join(","));
    if (state.at < state.line.length) url.searchParams.set("ply", String(state.at));
    else url.searchParams.delete("ply");
    if (url.href === location.href) return;
    if (push) history.pushState(null, "", url);
    else history.replaceState(null, "", url);
  }

  /** Probes the position on the board if need be, then draws it; the computer moves if it is its turn. */
  async function show(push) {
    remember(push);
    exported.hidden = true;
    perfect.replaceChildren();
    const position = positionAt(state.at);
    // Begun even for a position probed before: whatever an earlier request was waiting to do is stale now.
    const request = requests.begin();
    if (!state.probes.has(position)) {
      try {
        const body = await probeAt(request, position);
        if (!body) return;
        state.probes.set(position, body);
      } catch (error) {
        failed(error, request);
        return;
      }
    }
    request.finish();
    render();
    const probe = p();
    const computersTurn = state.mode === "computer" && !probe.over && probe.to_move !== state.human;
    if (computersTurn && state.at === state.line.length) {
      const thinking = requests.begin();
      await pause(delay);
      thinking.finish();
      if (!thinking.stale) playMove(probe.choice);
    }
  }

  function failed(error, request) {
    if (request.stale) return;
    request.finish();
    // A board the server will not solve on request says which command does.
    const command = error instanceof ApiError && error.body.command;
    status.show(`Error: ${error.message}.${command ? ` Solve it with \`${command}\`, then reload.` : ""}`, true);
  }

  /** The game (moves numbered, with their values) and the position, as text to copy. */
  function exportGame() {
    const title = `Dodgem ${state.size}x${state.size}${state.misere ? " (misère)" : ""}`;
    exported.show(gameText(title, state.line, [`Position: ${positionAt(state.at)}`]));
  }

  /** The perfect line from the position on the board to the end (for a draw, until a position comes back). */
  async function perfectLine() {
    // Its own requests: asking for the line does not stop the computer's move, and an answer for a position no
    // longer on the board is dropped.
    const request = lineRequests.begin();
    const asked = { size: state.size, misere: state.misere, position: positionAt(state.at) };
    try {
      const body = await request.get("dodgem/line", asked);
      request.finish();
      const shown = asked.size === state.size && asked.misere === state.misere && asked.position === positionAt(state.at);
      if (!body || !shown) return;
      const items = body.moves.map((m) => h("li", {}, `${m.move} ${valueLabel(m)}`));
      if (body.repeats) items.push(h("li", {}, "… and round again: a draw"));
      perfect.replaceChildren(...items);
      if (!items.length) perfect.replaceChildren(h("li", {}, "The game is over."));
    } catch (error) {
      failed(error, request);
    }
  }

  /** Plays `moves` from the start, as a link asks, stopping at the first illegal one; shows ply `ply`. */
  async function replay(moves, ply) {
    const request = requests.begin();
    try {
      let body = state.probes.get(state.start) || (await probeAt(request, null));
      if (!body) return;
      state.start = body.position;
      state.probes.set(body.position, body);
      const line = [];
      let refused = null;
      for (const [i, name] of moves.entries()) {
        const entry = entryOf(body, name);
        if (!entry) {
          refused = `Move ${i + 1} of the link, ${name}, is not legal there: the game stops before it.`;
          break;
        }
        line.push(entry);
        body = state.probes.get(entry.position) || (await probeAt(request, entry.position));
        if (!body) return;
        state.probes.set(entry.position, body);
      }
      request.finish();
      state.line = line;
      state.at = Number.isInteger(ply) && ply >= 0 && ply < line.length ? ply : line.length;
      state.notice = refused;
      show(false);
    } catch (error) {
      failed(error, request);
    }
  }

  function describeRules() {
    const aim = state.misere
      ? "Misère: the first to get every car off loses, and so does leaving the opponent no move."
      : "The first to get every car off wins; leaving the opponent no move loses.";
    rules.textContent =
      "Blue's cars drive right (or up, or down) and leave across the right edge; Red's drive up (or left, or right) " +
      `and leave across the top. ${aim} Click one of your cars (or Tab to it and press Enter) to see where it can go; ` +
      "Escape lets go of it. W12: win in 12 plies; L30: loss in 30; =: draw; a ? marks a move that gave away a win or a draw.";
  }

  /** Reads the game from the URL, as a link or the browser's Back and Forward give it. */
  function fromUrl() {
    const shared = new URLSearchParams(location.search);
    sizeSelect.value = ["3", "4", "5", "6"].includes(shared.get("size")) ? shared.get("size") : "3";
    sideSelect.value = ["Blue", "Red"].includes(shared.get("side")) ? shared.get("side") : "Blue";
    modeSelect.value = shared.get("mode") === "analysis" ? "analysis" : "computer";
    misereBox.checked = shared.get("misere") === "true";
    const ply = shared.has("ply") ? Number(shared.get("ply")) : null;
    return { moves: (shared.get("moves") || "").split(",").filter(Boolean), ply };
  }

  function newGame(moves = [], ply = null) {
    const sameBoard = state.size === Number(sizeSelect.value) && state.misere === misereBox.checked;
    state.size = Number(sizeSelect.value);
    state.human = sideSelect.value;
    state.mode = modeSelect.value;
    state.misere = misereBox.checked;
    state.line = [];
    state.at = 0;
    // Values depend on the board alone: what was probed on it stays good.
    if (!sameBoard) {
      state.probes = new Map();
      state.start = null;
    }
    state.selected = null;
    state.notice = null;
    board.replaceChildren();
    facts.replaceChildren();
    record.replaceChildren();
    chart.replaceChildren();
    perfect.replaceChildren();
    exported.hidden = true;
    undoButton.disabled = true;
    redoButton.disabled = true;
    playOnButton.hidden = true;
    describeRules();
    status.show("Setting up the board…");
    replay(moves, ply);
  }

  window.addEventListener("popstate", () => {
    const { moves, ply } = fromUrl();
    const sameGame =
      state.size === Number(sizeSelect.value) && state.human === sideSelect.value && state.misere === misereBox.checked;
    if (sameGame) {
      // The same game, further back or on: its positions are probed already.
      state.mode = modeSelect.value;
      state.selected = null;
      replay(moves, ply);
    } else {
      newGame(moves, ply);
    }
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.selected) {
      const square = state.selected;
      state.selected = null;
      state.focus = `g.car[data-square="${square}"]`;
      render();
    }
  });
  board.addEventListener("click", () => {
    if (state.selected) select(state.selected, false);
  });
  const { moves, ply } = fromUrl();
  newGame(moves, ply);
})();
