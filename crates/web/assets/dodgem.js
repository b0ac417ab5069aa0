// Dodgem against the perfect player, or analysed by two people.
"use strict";
(() => {
  const CELL = 84;
  // Room for the rank numbers on the left and the file letters below.
  const MARGIN = 30;
  const app = document.getElementById("app");
  // What belongs to the position on the board: the car picked up, and what to give the keyboard focus to once the
  // board is drawn again. The game itself is the controller's.
  const state = { selected: null, focus: null };
  // Where the game starts: the board's start (null), or the position of a link, kept while the side, misère or
  // mode change.
  let start = null;

  const sizeSelect = h(
    "select",
    { id: "size", onchange: () => fromTheBoardsStart() },
    h("option", { value: "3" }, "3×3"),
    h("option", { value: "4" }, "4×4"),
    h("option", { value: "5" }, "5×5 (built on first use)"),
    h("option", { value: "6" }, "6×6 (solved offline)"),
  );
  const sideSelect = h(
    "select",
    { id: "side", onchange: () => page.newGame() },
    h("option", { value: "Blue" }, "Blue (moves first)"),
    h("option", { value: "Red" }, "Red"),
  );
  const modeSelect = h(
    "select",
    { id: "mode", onchange: () => page.replayLine() },
    h("option", { value: "computer" }, "against the computer"),
    h("option", { value: "analysis" }, "two people (analysis)"),
  );
  const misereBox = h("input", { type: "checkbox", id: "misere", onchange: () => page.newGame() });
  const board = svg("svg", { id: "board", role: "group", "aria-label": "Dodgem board" });
  const facts = h("dl", { class: "facts" });
  const record = h("ol", { id: "record", class: "record" });
  const chart = h("div", { id: "chart", class: "chart" });
  const exported = exportBox();
  const perfect = h("ol", { id: "perfect", class: "note perfect" });
  const rules = h("div");

  const other = (player) => (player === "Blue" ? "Red" : "Blue");

  const page = boardPage({
    id: "dodgem",
    readUrl: (query, problems) => ({
      size: Number(linkChoice(query, "size", ["3", "4", "5", "6"], problems)),
      human: linkChoice(query, "side", ["Blue", "Red"], problems),
      mode: linkChoice(query, "mode", ["computer", "analysis"], problems),
      misere: linkChoice(query, "misere", ["false", "true"], problems) === "true",
      position: query.get("position") || null,
    }),
    writeUrl(settings, query) {
      query.set("size", String(settings.size));
      query.set("side", settings.human);
      query.set("misere", String(settings.misere));
      query.set("mode", settings.mode);
      if (settings.position) query.set("position", settings.position);
      else query.delete("position");
    },
    showSettings(settings) {
      sizeSelect.value = String(settings.size);
      sideSelect.value = settings.human;
      modeSelect.value = settings.mode;
      misereBox.checked = settings.misere;
      start = settings.position;
      describeRules(settings.misere);
    },
    settings: () => ({ size: Number(sizeSelect.value), human: sideSelect.value, mode: modeSelect.value, misere: misereBox.checked, position: start }),
    probeParams: (settings, position) => ({ size: settings.size, misere: settings.misere, position }),
    // The linked position, else the start of the board asked for, as the server sets it out.
    start: (settings) => settings.position,
    entry(probe, name) {
      const move = probe.moves.find((m) => m.move === name);
      if (!move) return null;
      return {
        id: move.position,
        move: name,
        from: move.from,
        to: move.to,
        mover: probe.to_move,
        value: move.value,
        label: valueLabel(move),
        grade: move.grade,
      };
    },
    // In analysis every move is a person's.
    isPerson: (settings, mover) => settings.mode === "analysis" || mover === settings.human,
    words: { move: "Move", illegal: "is not legal there" },
    buttons: { undo: ["undo", "Undo"], redo: ["redo", "Redo"], playOn: ["play-on", "Play on from here"] },
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
      h("label", {}, "Board ", sizeSelect),
      h("label", {}, "You play ", sideSelect),
      h("label", {}, "Mode ", modeSelect),
      page.levelControl,
      h("label", {}, misereBox, "misère (get your cars off and lose)"),
      page.hintsControl("hints"),
      h("button", { id: "new-game", onclick: () => fromTheBoardsStart() }, "New game"),
      rulesLink(),
      page.buttons.undo,
      page.buttons.redo,
      page.buttons.playOn,
    ),
    page.levelPolicy,
    page.statusBar,
    legend("W12: the side to move (or the move's mover) wins in 12 plies with best play, counting the move; L30: loses in 30; =: a draw. In the record ★ marks your best moves, ✓ good ones, ?! inaccuracies and ? mistakes."),
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
        page.scorecard,
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

  /** How many times the position on the board has been on it so far in the game. */
  function repetitions() {
    const here = page.probe.position;
    let seen = 0;
    for (let ply = 0; ply <= page.ply; ply++) if (page.probeAt(ply).position === here) seen++;
    return seen;
  }

  function draw() {
    const probe = page.probe;
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
    const last = page.ply > 0 ? page.line[page.ply - 1] : null;
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
    const playable = page.personToMove;
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
    drawPanel();
    if (state.focus) {
      const target = board.querySelector(state.focus);
      state.focus = null;
      if (target) target.focus();
    }
  }

  /** The selected car's destinations with their values, or a dot for every legal move. */
  function drawMoves(n, mover) {
    const moves = state.selected ? page.probe.moves.filter((m) => m.from === state.selected) : page.probe.moves;
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
      const shade = colour(page.showValues ? m.value : "muted");
      const label = valueLabel(m);
      const target = svg("g", {
        class: state.selected ? "target" : "dot",
        "data-move": m.move,
        "data-label": page.showValues ? label : "",
        style: "cursor:pointer",
      });
      if (state.selected) {
        target.append(svg("circle", { cx: to.x + CELL / 2, cy: to.y + CELL / 2, r: 24, fill: colour("white"), stroke: shade, "stroke-width": 3 }));
        if (page.showValues) {
          target.append(
            svg("text", { x: to.x + CELL / 2, y: to.y + CELL / 2 + 6, "text-anchor": "middle", "font-size": 17, "font-weight": 700, fill: colour(`${m.value}-text`) }, label),
          );
        }
        pressable(target, `move ${m.move}${page.showValues ? `, ${valueWords(m.value, m.distance)}` : ""}`, () => page.play(m.move));
      } else {
        // Several cars may reach one square: put each dot on the side its car comes from.
        const from = corner(n, to.from.file, to.from.rank);
        const dx = Math.sign(from.x - to.x) * CELL * 0.3;
        const dy = Math.sign(from.y - to.y) * CELL * 0.3;
        target.append(svg("circle", { cx: to.x + CELL / 2 + dx, cy: to.y + CELL / 2 + dy, r: 7, fill: page.showValues ? colour(`${m.value}-text`) : shade }));
        // The dots are a picture of every move; the keyboard reaches moves through the cars.
        target.addEventListener("click", (event) => {
          event.stopPropagation();
          page.play(m.move);
        });
      }
      target.append(svg("title", {}, `${m.move}${page.showValues ? ` ${label}` : ""}`));
      board.append(target);
    }
  }

  function status() {
    const probe = page.probe;
    const { mode, human } = page.settings;
    let text;
    if (probe.over) {
      // The side to move has the value of a finished game: it has lost, or (misère) won.
      const winner = probe.value === "win" ? probe.to_move : other(probe.to_move);
      const verdict = mode === "analysis" ? "" : winner === human ? " You win!" : " The computer wins.";
      text = `Game over: ${winner} wins.${verdict}`;
    } else if (page.ply < page.line.length) {
      // On the computer's turn the person has no move to play here: only the computer goes on.
      const onward = page.isPerson(probe.to_move)
        ? `Play a move or "Play on from here" to go on from this position.`
        : `"Play on from here" lets the computer (${probe.to_move}) go on from this position.`;
      const value = page.showValues ? `: a ${valueWords(probe.value, probe.distance)} for ${probe.to_move}` : "";
      text = `Ply ${page.ply} of ${page.line.length}, ${probe.to_move} to move${value}. ${onward}`;
    } else if (page.personToMove) {
      text = mode === "analysis" ? `${probe.to_move} to move.` : `Your move (${human}).`;
      if (page.showValues) {
        const whose = mode === "analysis" ? `${probe.to_move} has` : "you have";
        text += ` With perfect play ${whose} a ${valueWords(probe.value, probe.distance)}.`;
      }
    } else if (page.thinking) {
      text = `The computer (${probe.to_move}) is thinking…`;
    } else {
      text = `${probe.to_move} (the computer) to move: "Play on from here" lets it.`;
    }
    if (repetitions() >= 3) text += " Threefold repetition of this position (the game goes on).";
    return text;
  }

  function drawPanel() {
    const probe = page.probe;
    facts.replaceChildren(
      h("dt", {}, "position"),
      h("dd", { id: "position" }, probe.position),
      h("dt", {}, "to move"),
      h("dd", {}, probe.to_move),
      h("dt", {}, "value"),
      h("dd", { id: "value" }, page.showValues ? `${valueLabel(probe)} (${valueWords(probe.value, probe.distance)} for ${probe.to_move})` : "hidden (tick hints)"),
      h("dt", {}, "ply"),
      h("dd", {}, `${page.ply} of ${page.line.length}`),
    );
    page.renderRecord(record);
    chart.replaceChildren(page.showValues ? chartOfPlies() : h("p", { class: "note" }, "Hidden with the hints."));
  }

  /** The value of every ply for Blue: Blue's wins in blue above the band, Red's in red below. */
  function chartOfPlies() {
    const plies = Array.from({ length: page.line.length + 1 }, (_, ply) => page.probeAt(ply));
    const longest = Math.max(1, ...plies.map((probe) => probe.distance || 0));
    return valueChart({
      points: plies.map((probe) => remotenessPoint(probe, "Blue", longest, { win: "blue", loss: "red" })),
      at: page.ply,
      goTo: page.goTo,
      top: "Blue wins",
      middle: "draw",
      bottom: "Red wins",
      ticks: remotenessTicks(longest),
      label: "Value of each ply for Blue",
    });
  }

  function select(square, byKeyboard) {
    state.selected = state.selected === square ? null : square;
    if (byKeyboard) state.focus = state.selected ? "g.target" : `g.car[data-square="${square}"]`;
    page.redraw();
  }

  /** A new game from the start of the board the controls show: a linked position is of one size, and a new game
   * lets it go. */
  function fromTheBoardsStart() {
    start = null;
    page.newGame();
  }

  function perfectLine() {
    const { size, misere } = page.settings;
    page.perfectLine(perfect, { size, misere, position: page.probe.position });
  }

  /** The game (moves numbered, with their values) and the position, as text to copy. */
  function exportGame() {
    const { size, misere, position } = page.settings;
    const title = `Dodgem ${size}x${size}${misere ? " (misère)" : ""}${position ? ` from ${position}` : ""}`;
    exported.show(gameText(title, page.line, [`Position: ${page.probe.position}`], (entry) => page.isPerson(entry.mover)));
  }

  function describeRules(misere) {
    const aim = misere
      ? "Misère: the first to get every car off loses, and so does leaving the opponent no move on their turn."
      : "The first to get every car off wins; a player left without a legal move on their turn wins too, so leaving the opponent no move loses.";
    const car = (player) => ({ text: player === "Blue" ? "→" : "↑", fill: player === "Blue" ? "blue" : "red" });
    rules.replaceChildren(
      rulesSection(
        [
          "Each side has one car fewer than the board is wide. Blue starts on the left edge and moves first; Red starts on the bottom edge. " +
            "A move takes one car one square: Blue's right, up or down, Red's up, left or right, never onto another car (there are no captures).",
          "A car leaves the board only across its own far edge: Blue's off the right edge, Red's off the top, and it is gone for good. " +
            `${aim} A game can go on for ever, cars shuffling sideways: with best play that is a draw.`,
          "Click one of your cars (or Tab to it and press Enter) to see where it can go; Escape lets go of it.",
        ],
        [
          [miniBoard({ size: 3, pieces: [{ at: [1, 1], ...car("Blue") }], dots: [[2, 1], [1, 2], [1, 0]], label: "A Blue car in the middle may go right, up or down" }), "Blue moves right, up or down."],
          [miniBoard({ size: 3, pieces: [{ at: [1, 1], ...car("Red") }], dots: [[1, 2], [0, 1], [2, 1]], label: "A Red car in the middle may go up, left or right" }), "Red moves up, left or right."],
          [
            miniBoard({ size: 3, pieces: [{ at: [2, 1], ...car("Blue") }, { at: [0, 2], ...car("Red") }], arrows: [{ from: [2, 1], to: [3.4, 1] }, { from: [0, 2], to: [0, 3.4] }], label: "A Blue car on the right edge leaves across it; a Red car on the top edge leaves across the top" }),
            "A car leaves across its far edge: Blue's the right, Red's the top.",
          ],
        ],
      ),
    );
  }

  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && state.selected) {
      const square = state.selected;
      state.selected = null;
      state.focus = `g.car[data-square="${square}"]`;
      page.redraw();
    }
  });
  board.addEventListener("click", () => {
    if (state.selected) select(state.selected, false);
  });
  page.start();
})();
