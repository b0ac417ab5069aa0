// Tic-Tac-Chec explorer: every position with its value and every move ranked.
"use strict";
(() => {
  const CELL = 76;
  const HAND_GAP = 14;
  // Below the board, above White's hand: room for the file letters.
  const FILES_GAP = 24;
  // The filled glyphs for both sides, White's drawn in white with a dark outline: fonts draw the hollow
  // ones inconsistently.
  const GLYPHS = { P: "♟\uFE0E", N: "♞\uFE0E", B: "♝\uFE0E", R: "♜\uFE0E" };
  const EMPTY = "..../..../..../.... w -- open";
  const app = document.getElementById("app");
  // What belongs to the position on the board: the piece picked up, and the one being dragged. The line explored
  // is the controller's.
  const state = { selected: null, drag: null, focus: null };
  // Where the line explored starts: the empty board, or the position of a link.
  let start = EMPTY;

  const pawnSelect = h(
    "select",
    { id: "pawn", onchange: () => page.replayLine() },
    h("option", { value: "travel" }, "a pawn going home may capture (travel)"),
    h("option", { value: "outbound" }, "a pawn going home only pushes (outbound)"),
  );
  const computerSelect = h(
    "select",
    { id: "computer", onchange: () => page.replayLine() },
    h("option", { value: "none" }, "nobody (explore)"),
    h("option", { value: "Black" }, "Black"),
    h("option", { value: "White" }, "White"),
  );
  const bestButton = h("button", { id: "best", disabled: true, onclick: () => page.play(page.probe.moves[0].move) }, "Play the best move");
  const resetButton = h("button", { id: "reset", onclick: () => emptyBoard() }, "Empty board");
  const missing = h("div", { id: "missing", class: "panel", hidden: true });
  const board = svg("svg", { id: "board", role: "group", "aria-label": "Tic-Tac-Chec board" });
  const moveList = h("div", { class: "moves", id: "moves" });
  const record = h("ol", { class: "record", id: "record" });
  const chart = h("div", { id: "chart", class: "chart" });
  const exported = exportBox();
  const perfect = h("ol", { id: "perfect", class: "note perfect" });
  const perfectButton = h("button", { id: "perfect-line", disabled: true, onclick: () => perfectLine() }, "Perfect line from here");
  const positionText = h("code", { id: "position" });

  const page = boardPage({
    id: "tic-tac-chec",
    readUrl: (query, problems) => ({
      pawn: linkChoice(query, "pawn", ["travel", "outbound"], problems),
      position: query.get("position") || EMPTY,
      computer: linkChoice(query, "computer", ["none", "Black", "White"], problems),
    }),
    writeUrl(settings, query) {
      query.set("position", settings.position);
      query.set("pawn", settings.pawn);
      if (settings.computer === "none") query.delete("computer");
      else query.set("computer", settings.computer);
    },
    showSettings(settings) {
      pawnSelect.value = settings.pawn;
      computerSelect.value = settings.computer;
      start = settings.position;
    },
    settings: () => ({ pawn: pawnSelect.value, position: start, computer: computerSelect.value }),
    probeParams: ({ pawn }, position) => ({ position, pawn }),
    start: (settings) => settings.position,
    entry(p, name) {
      const m = p.moves.find((x) => x.move === name);
      if (!m) return null;
      return {
        id: m.position,
        move: name,
        mover: p.to_move,
        label: m.value ? valueLabel(m) : "",
        value: m.value,
        grade: m.grade,
      };
    },
    // An explorer unless the computer takes a side.
    isPerson: (settings, mover) => settings.computer !== mover,
    words: { move: "Move", illegal: "is not legal there" },
    buttons: { undo: ["back", "◀ Back"], redo: ["forward", "Forward ▶"] },
    reset() {
      state.selected = null;
      exported.hidden = true;
      perfect.replaceChildren();
    },
    draw,
    status,
  });

  app.append(
    h(
      "div",
      { class: "controls" },
      h("label", {}, "Pawns: ", pawnSelect),
      h("label", {}, "Computer plays ", computerSelect),
      page.levelControl,
      rulesLink(),
      page.hintsControl("values"),
      page.buttons.undo,
      page.buttons.redo,
      bestButton,
      resetButton,
    ),
    page.levelPolicy,
    page.statusBar,
    legend("W5: the move wins in 5 plies with best play, counting itself; L8: loses in 8; =: a draw. In the line ★ marks a best move, ✓ a good one, ?! an inaccuracy and ? a mistake."),
    missing,
    h(
      "div",
      { class: "layout" },
      board,
      h(
        "div",
        { class: "panel" },
        h("h2", {}, "Moves, best first"),
        moveList,
        h("h2", { style: "margin-top:1rem" }, "Position"),
        positionText,
        h("h2", { style: "margin-top:1rem" }, "Line"),
        record,
        page.scorecard,
        h("h2", {}, "Value of each ply"),
        chart,
        h(
          "div",
          { class: "export-buttons" },
          h("button", { id: "copy-game", onclick: () => exportGame() }, "Line as text"),
          perfectButton,
        ),
        exported,
        perfect,
      ),
    ),
    rulesSection(
      [
        "Tic-tac-toe on a 4×4 board with chess pieces. Each side has a pawn, a knight, a bishop and a rook, all in hand at the " +
          "start; White moves first. The first player with all four pieces on one rank, file or long diagonal wins at once.",
        "For the first three turns each, the only move is to place a piece from the hand on any empty square. After that a turn " +
          "either places a piece from the hand (never capturing) or moves one on the board as in chess: the knight jumps, the " +
          "bishop and rook slide until blocked. Moving onto an enemy piece captures it, and it goes back to its owner's hand.",
        "A pawn steps one square straight ahead and captures one square diagonally ahead. At the far edge it turns round and " +
          "heads home, and the rules differ on one point: under travel a pawn going home still captures diagonally, under " +
          "outbound it only pushes. A game can go on for ever: with best play that is a draw.",
        "Drag a piece (from the board or a hand) to a square, click a move, or Tab to a piece and press Enter, then to its square. " +
          "The URL holds the line explored: copy it to share; the browser's Back and Forward walk through it.",
      ],
      [
        [miniBoard({ size: 4, pieces: [{ at: [1, 1], text: "♘", fill: "white" }], dots: [[0, 3], [2, 3], [3, 2], [3, 0]], label: "A knight on b2 jumps to a4, c4, d3 or d1" }), "The knight jumps."],
        [miniBoard({ size: 4, pieces: [{ at: [1, 1], text: "♗", fill: "white" }], dots: [[0, 0], [2, 0], [0, 2], [2, 2], [3, 3]], label: "A bishop on b2 slides diagonally" }), "The bishop slides diagonally."],
        [miniBoard({ size: 4, pieces: [{ at: [1, 1], text: "♖", fill: "white" }], dots: [[0, 1], [2, 1], [3, 1], [1, 0], [1, 2], [1, 3]], label: "A rook on b2 slides along its rank and file" }), "The rook slides along rank and file."],
        [
          miniBoard({ size: 4, pieces: [{ at: [1, 1], text: "♙", fill: "white" }, { at: [2, 2], text: "♞", fill: "ink" }], dots: [[1, 2], [2, 2]], label: "A white pawn on b2 steps to b3 or captures on c3" }),
          "The pawn steps ahead, or captures diagonally ahead.",
        ],
        [
          miniBoard({ size: 4, pieces: [{ at: [2, 3], text: "♙", fill: "white" }], arrows: [{ from: [2, 3], to: [2, 2.2] }], label: "A white pawn that reached rank 4 turns round and heads back down" }),
          "At the far edge the pawn turns round.",
        ],
      ],
    ),
  );

  /** Pieces, hands, side to move and pawn directions of a probed position, sides named as the page's
   * attributes name them (`white`, `black`). */
  function layout(p) {
    const side = (name) => name.toLowerCase();
    return {
      pieces: p.pieces.map((piece) => ({ color: side(piece.color), role: piece.role, square: piece.square })),
      hands: { white: p.white.hand, black: p.black.hand },
      turn: side(p.to_move),
      directions: { white: p.white.pawn, black: p.black.pawn },
      opening: p.opening,
    };
  }

  const ROLE_WORDS = { P: "pawn", N: "knight", B: "bishop", R: "rook" };
  const squareName = (file, rank) => String.fromCharCode(97 + file) + (rank + 1);
  /** Each square's corner by its name, as the API writes it: names are looked up, never read. */
  const CORNERS = new Map();
  for (let file = 0; file < 4; file++) {
    for (let rank = 0; rank < 4; rank++) {
      CORNERS.set(squareName(file, rank), { x: file * CELL, y: CELL + HAND_GAP + (3 - rank) * CELL });
    }
  }
  const squareXY = (name) => CORNERS.get(name);
  const handY = (color) => (color === "black" ? 0 : 5 * CELL + HAND_GAP + FILES_GAP);

  /** The moves of the piece picked up: a square on the board, or a role in hand. */
  function movesOf(pick) {
    return page.probe.moves.filter((m) => (pick.square ? m.from === pick.square : m.role === pick.role));
  }

  const target = (m) => m.to;

  function pieceNode(piece, x, y, direction, movable) {
    const group = svg("g", {
      class: "piece",
      "data-color": piece.color,
      "data-piece": piece.role,
      "data-square": piece.square || "hand",
      style: movable ? "cursor:grab" : "",
    });
    const picked = state.selected && (state.selected.square ? state.selected.square === piece.square : !piece.square && state.selected.role === piece.role && movable);
    group.append(
      svg("rect", { x: x + 4, y: y + 4, width: CELL - 8, height: CELL - 8, rx: 10, fill: picked ? colour("picked") : "transparent" }),
      svg("text", { x: x + CELL / 2, y: y + CELL / 2 + 17, "text-anchor": "middle", "font-size": 50, fill: colour(piece.color === "white" ? "white" : "ink"), stroke: colour("ink"), "stroke-width": piece.color === "white" ? 1.5 : 0 }, GLYPHS[piece.role]),
    );
    if (piece.role === "P") {
      group.append(svg("text", { x: x + CELL - 10, y: y + 20, "text-anchor": "middle", "font-size": 16, "font-weight": 700, fill: colour("blue"), class: "direction" }, direction === "up" ? "↑" : "↓"));
    }
    if (movable) {
      const pick = piece.square ? { square: piece.square } : { role: piece.role };
      group.addEventListener("pointerdown", (event) => startDrag(event, pick));
      // From the keyboard: Tab to a piece, Enter picks it up (or puts it down), then Tab to where it goes.
      group.setAttribute("tabindex", "0");
      group.setAttribute("role", "button");
      group.setAttribute("aria-label", `${piece.color} ${ROLE_WORDS[piece.role]} ${piece.square ? `on ${piece.square}` : "in hand"}${picked ? ", picked up" : ""}`);
      group.addEventListener("keydown", (event) => {
        if (event.key !== "Enter" && event.key !== " ") return;
        event.preventDefault();
        const same = state.selected && JSON.stringify(state.selected) === JSON.stringify(pick);
        state.selected = same ? null : pick;
        state.focus = same ? null : "g.target";
        page.redraw();
      });
    }
    return group;
  }

  /** A move in words, for a screen reader: "knight from hand to b1, a draw". */
  function moveWords(m) {
    const what = m.from ? `${m.from} to ${m.to}` : `${ROLE_WORDS[m.role]} from hand to ${m.to}`;
    return page.showValues && m.value ? `${what}, ${valueWords(m.value, m.distance)}` : what;
  }

  function draw() {
    const p = page.probe;
    const pos = layout(p);
    const width = 4 * CELL;
    const height = 6 * CELL + HAND_GAP + FILES_GAP;
    board.setAttribute("viewBox", `0 0 ${width + 30} ${height}`);
    board.setAttribute("width", width + 30);
    board.setAttribute("height", height);
    board.replaceChildren();
    for (const color of ["black", "white"]) {
      board.append(svg("rect", { x: 0, y: handY(color), width, height: CELL, rx: 8, fill: colour(color === pos.turn && !p.over ? "hand-to-move" : "hand"), class: "hand", "data-color": color }));
    }
    for (let rank = 3; rank >= 0; rank--) {
      for (let file = 0; file < 4; file++) {
        const name = squareName(file, rank);
        const { x, y } = squareXY(name);
        const square = svg("rect", { x, y, width: CELL, height: CELL, fill: colour((file + rank) % 2 ? "chess-light" : "chess-dark"), class: "square", "data-square": name });
        square.addEventListener("click", () => clickSquare(name));
        board.append(square);
      }
      board.append(svg("text", { x: width + 12, y: squareXY(squareName(0, rank)).y + CELL / 2 + 5, "font-size": 13, fill: colour("muted"), class: "coordinate" }, String(rank + 1)));
    }
    for (let file = 0; file < 4; file++) {
      const { x, y } = squareXY(squareName(file, 0));
      board.append(svg("text", { x: x + CELL / 2, y: y + CELL + 17, "text-anchor": "middle", "font-size": 13, fill: colour("muted"), class: "coordinate" }, String.fromCharCode(97 + file)));
    }
    // At the end, the four in a line that won are framed.
    for (const name of p.winning_line) {
      const { x, y } = squareXY(name);
      board.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, fill: "none", stroke: colour("accent"), "stroke-width": 6, class: "winning" }));
    }
    const movable = (color) => color === pos.turn && !p.over;
    for (const piece of pos.pieces) {
      const { x, y } = squareXY(piece.square);
      board.append(pieceNode(piece, x, y, pos.directions[piece.color], movable(piece.color)));
    }
    for (const color of ["black", "white"]) {
      pos.hands[color].forEach((role, i) => {
        board.append(pieceNode({ color, role }, i * CELL, handY(color), pos.directions[color], movable(color)));
      });
    }
    if (state.selected) {
      for (const m of movesOf(state.selected)) {
        const { x, y } = squareXY(target(m));
        const mark = svg("g", { class: "target", "data-move": m.move, style: "cursor:pointer" });
        const shown = page.showValues && m.value;
        const shade = colour(shown ? m.value : "muted");
        mark.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 20, fill: colour("white"), "fill-opacity": 0.85, stroke: shade, "stroke-width": 3 }));
        const ink = colour(shown ? `${m.value}-text` : "label");
        mark.append(svg("text", { x: x + CELL / 2, y: y + CELL / 2 + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: ink }, shown ? valueLabel(m) : "•"));
        pressable(mark, moveWords(m), () => page.play(m.move));
        board.append(mark);
      }
    }
    renderPanel();
    if (state.focus) {
      board.querySelector(state.focus)?.focus();
      state.focus = null;
    }
  }

  function status() {
    const p = page.probe;
    const side = p.to_move;
    const opening = p.opening ? " (opening: placements only)" : "";
    if (p.over) return `Game over: ${side === "White" ? "Black" : "White"} has four in a line.`;
    if (page.thinking) return `${side} (the computer) is thinking…`;
    if (p.value && page.showValues) return `${side} to move${opening}: ${valueWords(p.value, p.distance)} for ${side} with perfect play.`;
    return `${side} to move${opening}.`;
  }

  function renderPanel() {
    const p = page.probe;
    missing.hidden = !p.missing;
    if (p.missing) {
      missing.replaceChildren(
        h("strong", {}, "No values yet. "),
        `The ${p.pawn} table has not been built: it takes ${p.missing.takes}. Run:`,
        h("code", { class: "command" }, p.missing.command),
        h("span", { class: "note" }, "then reload this page. Until then you can still walk through the rules."),
      );
    }
    // With the values hidden, the moves come in the order of their names, which gives nothing away.
    const shown = page.showValues;
    const moves = shown ? p.moves : [...p.moves].sort((a, b) => (a.move < b.move ? -1 : 1));
    const button = (m) =>
      h(
        "button",
        { class: shown ? valueClass(m.value) : "", "data-move": m.move, "data-label": shown ? valueLabel(m) : "", onclick: () => page.play(m.move) },
        m.move,
        // The notation's `=` and `@` read badly aloud: a screen reader hears the move in words instead.
        h("span", { class: "v", "aria-hidden": "true" }, shown && m.value ? valueLabel(m) : ""),
        h("span", { class: "sr-only" }, `: ${moveWords(m)}`),
      );
    // Placements (the whole opening) come grouped by the piece placed, best first within each.
    const placements = moves.filter((m) => !m.from);
    if (placements.length > 8) {
      const roles = [...new Set(placements.map((m) => m.role))];
      const names = { P: "pawn", N: "knight", B: "bishop", R: "rook" };
      moveList.replaceChildren(
        ...roles.map((role) =>
          h(
            "div",
            { class: "placements", "data-role": role },
            h("span", { class: "note" }, `${names[role] || role}:`),
            ...placements.filter((m) => m.role === role).map(button),
          ),
        ),
        ...moves.filter((m) => m.from).map(button),
      );
    } else {
      moveList.replaceChildren(...moves.map(button));
    }
    if (p.moves.length === 0) moveList.append(h("span", { class: "note" }, "no moves: the game is over"));
    positionText.textContent = p.position;
    page.renderRecord(record);
    chart.hidden = !p.value || !shown;
    chart.replaceChildren(...(p.value && shown ? [chartOfPlies()] : []));
    perfectButton.disabled = !p.value || !shown;
    bestButton.disabled = p.moves.length === 0 || !shown;
  }

  /** The value of every ply of the line for White: White's wins above the band, Black's below. */
  function chartOfPlies() {
    const plies = Array.from({ length: page.line.length + 1 }, (_, ply) => page.probeAt(ply));
    const longest = Math.max(1, ...plies.map((probe) => probe.distance || 0));
    return valueChart({
      points: plies.map((probe) => remotenessPoint(probe, "White", longest, { win: "win", loss: "loss" })),
      at: page.ply,
      goTo: page.goTo,
      top: "White wins",
      middle: "draw",
      bottom: "Black wins",
      ticks: remotenessTicks(longest),
      label: "Value of each ply for White",
    });
  }

  /** A new line, from the empty board. */
  function emptyBoard() {
    start = EMPTY;
    page.newGame();
  }

  /** The line (moves numbered, with their values) and the position shown, as text to copy. */
  function exportGame() {
    const { pawn, position } = page.settings;
    exported.show(gameText(`Tic-Tac-Chec (${pawn}) from ${position}`, page.line, [`Position: ${page.probe.position}`], (entry) => page.isPerson(entry.mover)));
  }

  function perfectLine() {
    page.perfectLine(perfect, { position: page.probe.position, pawn: page.settings.pawn });
  }

  function clickSquare(name) {
    if (state.selected) {
      const m = movesOf(state.selected).find((x) => target(x) === name);
      if (m) return page.play(m.move);
    }
    state.selected = null;
    page.redraw();
  }

  function startDrag(event, pick) {
    event.preventDefault();
    const ghost = event.currentTarget.cloneNode(true);
    ghost.setAttribute("pointer-events", "none");
    ghost.setAttribute("opacity", "0.8");
    const start = svgPoint(event);
    state.drag = { pick, ghost, start, moved: false };
    board.append(ghost);
    board.setPointerCapture(event.pointerId);
  }

  function svgPoint(event) {
    const point = board.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    return point.matrixTransform(board.getScreenCTM().inverse());
  }

  board.addEventListener("pointermove", (event) => {
    const drag = state.drag;
    if (!drag) return;
    const at = svgPoint(event);
    const dx = at.x - drag.start.x;
    const dy = at.y - drag.start.y;
    if (Math.abs(dx) + Math.abs(dy) > 4) drag.moved = true;
    drag.ghost.setAttribute("transform", `translate(${dx} ${dy})`);
  });

  board.addEventListener("pointerup", (event) => {
    const drag = state.drag;
    if (!drag) return;
    state.drag = null;
    drag.ghost.remove();
    if (!drag.moved) {
      // A click: select the piece, or put it down again.
      const same = state.selected && JSON.stringify(state.selected) === JSON.stringify(drag.pick);
      state.selected = same ? null : drag.pick;
      page.redraw();
      return;
    }
    const at = svgPoint(event);
    const file = Math.floor(at.x / CELL);
    const rank = 3 - Math.floor((at.y - CELL - HAND_GAP) / CELL);
    const onBoard = file >= 0 && file < 4 && rank >= 0 && rank < 4 && at.y >= CELL + HAND_GAP;
    const m = onBoard ? movesOf(drag.pick).find((x) => target(x) === squareName(file, rank)) : null;
    if (m) {
      page.play(m.move);
    } else {
      state.selected = null;
      page.redraw();
    }
  });

  page.start();
})();
