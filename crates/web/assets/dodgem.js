// Dodgem against the perfect player.
"use strict";
(() => {
  const CELL = 84;
  const app = document.getElementById("app");
  const delay = computerDelay();
  const state = {
    size: 3,
    human: "Blue",
    misere: false,
    hints: true,
    // Every position of the game so far, with the move that led to it.
    history: [],
    probe: null,
    selected: null,
    // Why a shared link was not replayed to its end, shown until the next move.
    notice: null,
  };
  const requests = new Requests({
    onBuilding: (body) => status.show(buildingWords(body)),
    onBusy: (message) => status.show(message),
  });

  const sizeSelect = h(
    "select",
    { id: "size", onchange: () => newGame() },
    h("option", { value: "3", selected: true }, "3×3"),
    h("option", { value: "4" }, "4×4"),
    h("option", { value: "5" }, "5×5 (built on first use)"),
    h("option", { value: "6" }, "6×6 (solved beforehand, hours)"),
  );
  const sideSelect = h(
    "select",
    { id: "side", onchange: () => newGame() },
    h("option", { value: "Blue", selected: true }, "Blue (moves first)"),
    h("option", { value: "Red" }, "Red"),
  );
  const misereBox = h("input", { type: "checkbox", id: "misere", onchange: () => newGame() });
  const hintsBox = hintsToggle((ticked) => {
    state.hints = ticked;
    render();
  });
  const undoButton = h("button", { id: "undo", onclick: () => undo() }, "Undo");
  const status = statusLine();
  const board = svg("svg", { id: "board", role: "img", "aria-label": "Dodgem board" });
  const facts = h("dl", { class: "facts" });
  const record = h("ol", { id: "record", class: "note" });

  app.append(
    h(
      "div",
      { class: "controls" },
      h("label", {}, "Board ", sizeSelect),
      h("label", {}, "You play ", sideSelect),
      h("label", {}, misereBox, "misère (get your cars off and lose)"),
      h("label", {}, hintsBox, "hints"),
      h("button", { id: "new-game", onclick: () => newGame() }, "New game"),
      undoButton,
    ),
    status,
    h(
      "div",
      { class: "layout" },
      board,
      h("div", { class: "panel" }, h("h2", {}, "Position"), facts, h("h2", {}, "Moves"), record),
    ),
    h(
      "p",
      { class: "note" },
      "Blue's cars drive right (or up, or down) and leave across the right edge; Red's drive up (or left, or right) ",
      "and leave across the top. The first to get every car off wins; leaving the opponent no move loses. ",
      "Click one of your cars to see where it can go. W12: win in 12 plies; L30: loss in 30; =: draw.",
    ),
  );

  const squareName = (file, rank) => String.fromCharCode(97 + file) + (rank + 1);
  /** Each square of the largest board by its name, as the API writes it: names are looked up, never read. */
  const SQUARES = new Map();
  for (let file = 0; file < 5; file++) {
    for (let rank = 0; rank < 5; rank++) SQUARES.set(squareName(file, rank), { file, rank });
  }
  const squareAt = (name) => SQUARES.get(name);

  /** The top-left corner of a square; the board sits below the row where Red's cars leave. */
  function corner(n, file, rank) {
    return { x: file * CELL, y: CELL + (n - 1 - rank) * CELL };
  }

  /** Where a move's car ends: a square, or the frame beyond its exit edge. */
  function destination(n, player, move) {
    const from = squareAt(move.from);
    if (move.to !== "off") {
      const to = squareAt(move.to);
      return { ...corner(n, to.file, to.rank), off: false, from };
    }
    const c = corner(n, from.file, from.rank);
    return player === "Blue" ? { x: n * CELL, y: c.y, off: true, from } : { x: c.x, y: 0, off: true, from };
  }

  function humanToMove() {
    const p = state.probe;
    return p && !p.over && p.to_move === state.human;
  }

  function repetitions() {
    const here = state.probe.position;
    return state.history.filter((entry) => entry.position === here).length;
  }

  function render() {
    const p = state.probe;
    if (!p) return;
    const n = p.size;
    const cars = p.cars.map((car) => ({ player: car.player, ...squareAt(car.square) }));
    const size = (n + 1) * CELL;
    board.setAttribute("viewBox", `-4 -4 ${size + 8} ${size + 8}`);
    board.setAttribute("width", size + 8);
    board.setAttribute("height", size + 8);
    board.replaceChildren();
    board.append(
      svg("text", { x: (n * CELL) / 2, y: CELL / 2 + 5, "text-anchor": "middle", class: "note", fill: colour("faint") }, "Red leaves ↑"),
      svg("text", { x: n * CELL + CELL / 2, y: CELL / 2 + 5, "text-anchor": "middle", fill: colour("faint") }, "Blue →"),
    );
    for (let file = 0; file < n; file++) {
      for (let rank = 0; rank < n; rank++) {
        const { x, y } = corner(n, file, rank);
        board.append(
          svg("rect", {
            x,
            y,
            width: CELL,
            height: CELL,
            fill: colour((file + rank) % 2 ? "square-dark" : "square-light"),
            stroke: colour("square-edge"),
            "data-square": squareName(file, rank),
          }),
        );
      }
    }
    const playable = humanToMove();
    for (const car of cars) {
      const { x, y } = corner(n, car.file, car.rank);
      const name = squareName(car.file, car.rank);
      const mine = playable && car.player === state.human;
      const group = svg("g", {
        class: "car",
        "data-square": name,
        "data-player": car.player,
        style: mine ? "cursor:pointer" : "",
      });
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
        group.addEventListener("click", (event) => {
          event.stopPropagation();
          select(name);
        });
      }
      board.append(group);
    }
    if (playable) drawMoves(n);
    renderStatus();
    renderPanel();
  }

  /** The selected car's destinations with their values, or a dot for every legal move. */
  function drawMoves(n) {
    const moves = state.selected ? p().moves.filter((m) => m.from === state.selected) : p().moves;
    for (const m of moves) {
      const to = destination(n, state.human, m);
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
        target.append(
          svg("circle", { cx: to.x + CELL / 2, cy: to.y + CELL / 2, r: 24, fill: colour("white"), stroke: shade, "stroke-width": 3 }),
        );
        if (state.hints) {
          target.append(
            svg("text", { x: to.x + CELL / 2, y: to.y + CELL / 2 + 6, "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: shade }, label),
          );
        }
      } else {
        // Several cars may reach one square: put each dot on the side its car comes from.
        const from = corner(n, to.from.file, to.from.rank);
        const dx = Math.sign(from.x - to.x) * CELL * 0.3;
        const dy = Math.sign(from.y - to.y) * CELL * 0.3;
        target.append(svg("circle", { cx: to.x + CELL / 2 + dx, cy: to.y + CELL / 2 + dy, r: 7, fill: shade }));
      }
      target.append(svg("title", {}, `${m.move}${state.hints ? ` ${label}` : ""}`));
      target.addEventListener("click", (event) => {
        event.stopPropagation();
        playMove(m.move);
      });
      board.append(target);
    }
  }

  const p = () => state.probe;

  function renderStatus() {
    const probe = p();
    const you = probe.to_move === state.human;
    let text;
    if (probe.over) {
      // The side to move has the value of a finished game: it has lost, or (misère) won.
      const winner = probe.value === "win" ? probe.to_move : probe.to_move === "Blue" ? "Red" : "Blue";
      text = `Game over: ${winner} wins. ${winner === state.human ? "You win!" : "The computer wins."}`;
    } else if (you) {
      text = `Your move (${state.human}).`;
      if (state.hints) text += ` With perfect play you have a ${valueWords(probe.value, probe.distance)}.`;
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
      h("dt", {}, "plies"),
      h("dd", {}, String(state.history.length - 1)),
    );
    record.replaceChildren(...state.history.slice(1).map((entry) => h("li", {}, entry.move)));
    undoButton.disabled = !state.history.some((entry, i) => i > 0 && entry.mover === state.human);
  }

  function select(square) {
    state.selected = state.selected === square ? null : square;
    render();
  }

  function playMove(name) {
    if (requests.pending) return;
    const move = p().moves.find((m) => m.move === name);
    if (!move) return;
    state.history.push({ position: move.position, move: name, mover: p().to_move });
    state.selected = null;
    state.notice = null;
    load(move.position);
  }

  /** Takes back moves up to and including the human's last one. */
  function undo() {
    if (requests.pending) return;
    while (state.history.length > 1) {
      const entry = state.history.pop();
      if (entry.mover === state.human) break;
    }
    state.selected = null;
    load(state.history[state.history.length - 1].position);
  }

  const probeAt = (request, position) => request.get("dodgem/probe", { size: state.size, misere: state.misere, position });

  /** Keeps the game in the URL, so that it can be shared or reloaded. */
  function remember() {
    const url = new URL(location.href);
    url.searchParams.set("size", String(state.size));
    url.searchParams.set("side", state.human);
    url.searchParams.set("misere", String(state.misere));
    url.searchParams.set("moves", state.history.slice(1).map((entry) => entry.move).join(","));
    history.replaceState(null, "", url);
  }

  /** Shows the probed position, and lets the computer move if it is its turn. */
  async function arrive(body, request) {
    state.probe = body;
    request.finish();
    remember();
    render();
    if (!body.over && body.to_move !== state.human) {
      await pause(delay);
      if (!request.stale) playMove(body.choice);
    }
  }

  function failed(error, request) {
    if (request.stale) return;
    request.finish();
    // A board the server will not solve on request says which command does.
    const command = error instanceof ApiError && error.body.command;
    status.show(`Error: ${error.message}.${command ? ` Solve it with \`${command}\`, then reload.` : ""}`, true);
  }

  async function load(position) {
    const request = requests.begin();
    try {
      const body = await probeAt(request, position);
      if (body) await arrive(body, request);
    } catch (error) {
      failed(error, request);
    }
  }

  /** Plays `moves` from the start, as a shared link asks, stopping at the first illegal one. */
  async function replay(moves) {
    const request = requests.begin();
    try {
      let body = await probeAt(request, null);
      if (!body) return;
      const played = [{ position: body.position, move: null, mover: null }];
      let refused = null;
      for (const [i, name] of moves.entries()) {
        const move = body.moves.find((m) => m.move === name);
        if (!move) {
          refused = `Move ${i + 1} of the link, ${name}, is not legal there: the game stops before it.`;
          break;
        }
        played.push({ position: move.position, move: name, mover: body.to_move });
        body = await probeAt(request, move.position);
        if (!body) return;
      }
      state.history = played;
      state.notice = refused;
      await arrive(body, request);
    } catch (error) {
      failed(error, request);
    }
  }

  function newGame(moves = []) {
    state.size = Number(sizeSelect.value);
    state.human = sideSelect.value;
    state.misere = misereBox.checked;
    state.history = [];
    state.selected = null;
    state.probe = null;
    state.notice = null;
    board.replaceChildren();
    facts.replaceChildren();
    record.replaceChildren();
    status.show("Setting up the board…");
    replay(moves);
  }

  board.addEventListener("click", () => {
    if (state.selected) select(state.selected);
  });
  const shared = new URLSearchParams(location.search);
  if (["3", "4", "5", "6"].includes(shared.get("size"))) sizeSelect.value = shared.get("size");
  if (["Blue", "Red"].includes(shared.get("side"))) sideSelect.value = shared.get("side");
  misereBox.checked = shared.get("misere") === "true";
  newGame((shared.get("moves") || "").split(",").filter(Boolean));
})();
