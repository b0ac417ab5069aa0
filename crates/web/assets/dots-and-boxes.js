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
    // Too large to table: its first lines come from the search's record, late positions are searched on request.
    { label: "4×5 (49 lines, by search)", rows: 4, cols: 5, variant: "american" },
  ];
  const SIDES = Array.from({ length: 12 }, (_, i) => String(i + 1));
  const VARIANTS = ["american", "swedish", "icelandic"];
  const app = document.getElementById("app");
  // What belongs to the position on the board: the line hinted, and the line drawn from the keyboard, after which
  // the focus goes on to the next. The game itself is the controller's.
  const state = { hinted: null, focus: null };

  const presetSelect = h(
    "select",
    { id: "preset", onchange: () => choosePreset() },
    PRESETS.map((p, i) => h("option", { value: String(i) }, p.label)),
    h("option", { value: "custom" }, "other size…"),
  );
  const rowsInput = h("input", { type: "number", id: "rows", min: 1, max: 12, value: 2 });
  const colsInput = h("input", { type: "number", id: "cols", min: 1, max: 12, value: 2 });
  const variantSelect = h("select", { id: "variant" }, VARIANTS.map((v) => h("option", { value: v }, v)));
  const custom = h(
    "span",
    { id: "custom", hidden: true },
    h("label", {}, "rows ", rowsInput),
    h("label", {}, " columns ", colsInput),
    h("label", {}, " ", variantSelect),
    h("button", { id: "custom-go", onclick: () => page.newGame() }, "Start"),
  );
  const computerSelect = h(
    "select",
    { id: "computer", onchange: () => page.newGame() },
    h("option", { value: "B" }, "B (you are A and move first)"),
    h("option", { value: "A" }, "A (you are B)"),
    h("option", { value: "none" }, "neither (you play both)"),
  );
  const hintButton = h("button", { id: "hint", disabled: true, onclick: () => showHint() }, "Hint");
  const board = svg("svg", { id: "board", role: "group", "aria-label": "Dots and Boxes board" });
  const facts = h("dl", { class: "facts" });
  const record = h("ol", { id: "record", class: "record" });
  const chart = h("div", { id: "chart", class: "chart" });
  const exported = exportBox();

  const page = boardPage({
    id: "dots-and-boxes",
    readUrl(query, problems) {
      const board = { rows: 2, cols: 2, variant: "american" };
      if (query.has("rows") || query.has("cols")) {
        board.rows = Number(linkChoice(query, "rows", SIDES, problems, "2"));
        board.cols = Number(linkChoice(query, "cols", SIDES, problems, "2"));
      }
      board.variant = linkChoice(query, "variant", VARIANTS, problems);
      return { board, computer: linkChoice(query, "computer", ["B", "A", "none"], problems) };
    },
    writeUrl({ board, computer }, query) {
      query.set("rows", String(board.rows));
      query.set("cols", String(board.cols));
      query.set("variant", board.variant);
      query.set("computer", computer);
    },
    showSettings({ board, computer }) {
      const preset = PRESETS.findIndex((p) => p.rows === board.rows && p.cols === board.cols && p.variant === board.variant);
      presetSelect.value = preset >= 0 ? String(preset) : "custom";
      custom.hidden = preset >= 0;
      rowsInput.value = String(board.rows);
      colsInput.value = String(board.cols);
      variantSelect.value = board.variant;
      computerSelect.value = computer;
    },
    settings() {
      const preset = PRESETS[Number(presetSelect.value)];
      const board = presetSelect.value === "custom"
        ? { rows: Number(rowsInput.value), cols: Number(colsInput.value), variant: variantSelect.value }
        : { rows: preset.rows, cols: preset.cols, variant: preset.variant };
      return { board, computer: computerSelect.value };
    },
    // A position is named by the lines drawn to reach it, as the API takes it.
    probeParams: ({ board }, lines) => ({ ...board, moves: lines }),
    start: () => "",
    entry(p, name, lines) {
      const m = p.moves.find((x) => x.move === name);
      if (!m) return null;
      const forMover = p.to_move === "A" ? m.score : -m.score;
      return {
        id: lines ? `${lines},${name}` : name,
        move: name,
        mover: p.to_move,
        label: signed(m.score),
        value: forMover > 0 ? "win" : forMover < 0 ? "loss" : "draw",
        grade: m.grade,
      };
    },
    isPerson: (settings, player) => settings.computer !== player,
    words: { move: "Line", illegal: "cannot be drawn there" },
    buttons: { undo: ["undo", "Undo"], redo: ["redo", "Redo"], playOn: ["play-on", "Play on from here"] },
    reset() {
      state.hinted = null;
      exported.hidden = true;
    },
    draw,
    status,
  });

  app.append(
    h(
      "div",
      { class: "controls" },
      h("label", {}, "Board ", presetSelect),
      custom,
      h("label", {}, "Computer plays ", computerSelect),
      page.levelControl,
      rulesLink(),
      page.hintsControl("scores on every line"),
      hintButton,
      h("button", { id: "new-game", onclick: () => page.newGame() }, "New game"),
      page.buttons.undo,
      page.buttons.redo,
      page.buttons.playOn,
    ),
    page.levelPolicy,
    page.statusBar,
    legend("+3: the final score A − B if this line is drawn now and both then play perfectly (green: a best line). v or ^ after it: A or B can be made to play the next loony move. In the record ★ marks your best lines, ✓ good ones, ?! inaccuracies and ? mistakes."),
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
        page.scorecard,
        h("h2", {}, "Final score with best play, ply by ply"),
        chart,
        h("div", { class: "export-buttons" }, h("button", { id: "copy-game", onclick: () => exportGame() }, "Game as text")),
        exported,
      ),
    ),
    rulesSection(
      [
        "Players take turns drawing a line between two neighbouring dots. A player who completes the fourth side of a box " +
          "takes it and must draw another line; the game ends when every line is drawn, and the player with more boxes wins.",
        "Swedish boards start with the whole outer boundary drawn, Icelandic ones with the left and bottom boundary: the " +
          "same game from a later start, in which the edges cannot be used to hand boxes over.",
        "The heart of the game is the long chain. A player who opens one lets the other take every box of it, or take all but " +
          "two and hand those two back with one line (Wilson's double-dealing move): the other must take them and open the " +
          "next chain. A loony move is one that offers such a choice; Wilson's marks say who can be made to play the next one.",
        "Draw a line by clicking between two dots (or Tab to it and press Enter). A line is named by its row's letter and its " +
          "column's, as the letters around the board show: ab is the top-left horizontal line, ba the top-left vertical one.",
      ],
      [
        [chainPicture(["", "", ""], ["ab", "ad", "af", "cb", "cd", "cf", "ba"], "ba", "A chain of three boxes, its left end just drawn"), "A opens a chain of three boxes."],
        [chainPicture(["B", "", ""], ["ab", "ad", "af", "cb", "cd", "cf", "ba", "bc", "bg"], "bg", "B has taken the first box and drawn the far end of the chain"), "B takes one box, then declines the rest: the far end hands two boxes back."],
        [chainPicture(["B", "A", "A"], ["ab", "ad", "af", "cb", "cd", "cf", "ba", "bc", "bg", "be"], "be", "A has taken the last two boxes with one line"), "A takes both with one line and must move again: B keeps control."],
      ],
    ),
  );

  /** A strip of three boxes for the rules: `owners` of each, the lines `drawn` (by name), `last` marked. */
  function chainPicture(owners, drawn, last, label) {
    const box = 40;
    const pad = 10;
    const at = (row, col) => ({ x: pad + (col * box) / 2, y: pad + (row * box) / 2 });
    const picture = svg("svg", { viewBox: `0 0 ${3 * box + 2 * pad} ${box + 2 * pad}`, width: 3 * box + 2 * pad, height: box + 2 * pad, role: "img", "aria-label": label });
    owners.forEach((owner, i) => {
      if (!owner) return;
      const { x, y } = at(0, 2 * i);
      picture.append(
        svg("rect", { x: x + 2, y: y + 2, width: box - 4, height: box - 4, fill: colour(owner === "A" ? "blue-pale" : "red-pale") }),
        svg("text", { x: x + box / 2, y: y + box / 2 + 6, "text-anchor": "middle", "font-size": 16, "font-weight": 700, fill: colour(owner === "A" ? "blue" : "red") }, owner),
      );
    });
    for (let row = 0; row <= 2; row++) {
      for (let col = 0; col <= 6; col++) {
        if (row % 2 === col % 2) continue;
        const horizontal = row % 2 === 0;
        const [a, b] = horizontal ? [at(row, col - 1), at(row, col + 1)] : [at(row - 1, col), at(row + 1, col)];
        // Named here, not by `lineName`: the rules are drawn before the page's constants are set.
        const name = String.fromCharCode(97 + row) + String.fromCharCode(97 + col);
        const on = drawn.includes(name);
        picture.append(svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: colour(name === last ? "accent" : on ? "ink" : "undrawn"), "stroke-width": on ? 4 : 2, "stroke-dasharray": on ? "" : "3 4" }));
      }
    }
    for (let col = 0; col <= 3; col++) {
      for (const row of [0, 1]) picture.append(svg("circle", { cx: pad + col * box, cy: pad + row * box, r: 3.5, fill: colour("ink") }));
    }
    return picture;
  }

  const xy = (row, col) => ({ x: MARGIN + (col * BOX) / 2, y: MARGIN + (row * BOX) / 2 });
  const lineName = (row, col) => String.fromCharCode(97 + row) + String.fromCharCode(97 + col);
  const signed = (score) => (score > 0 ? `+${score}` : score < 0 ? `−${-score}` : "0");
  // Wilson's marks: who must make the next loony move after this line.
  const LOONY = { A: "v", B: "^" };
  const marked = (score) => signed(score.score) + (LOONY[score.loony] ?? "");
  const loonyWords = (score) => (score.loony ? `, ${score.loony} must make the next loony move` : "");

  function choosePreset() {
    custom.hidden = presetSelect.value !== "custom";
    if (presetSelect.value !== "custom") page.newGame();
  }

  /** The lines on the board, in the order they were drawn. */
  const linesShown = () => page.line.slice(0, page.ply).map((entry) => entry.move);

  function draw() {
    const p = page.probe;
    const { rows, cols } = p;
    const width = 2 * MARGIN + cols * BOX;
    const height = 2 * MARGIN + rows * BOX;
    board.setAttribute("viewBox", `0 0 ${width} ${height}`);
    // As large as the window allows, up to twice the drawing's size.
    board.style.width = `min(100%, ${2 * width}px, calc((100vh - 14rem) * ${width / height}))`;
    board.style.height = "auto";
    board.replaceChildren();
    // Wilson's letters around the board: a line is named by its row's letter, then its column's.
    for (let row = 0; row <= 2 * rows; row++) {
      const { y } = xy(row, 0);
      board.append(svg("text", { x: MARGIN / 2 - 3, y: y + 4, "text-anchor": "middle", "font-size": 11, fill: colour("label"), class: "coordinate", "aria-hidden": "true" }, String.fromCharCode(97 + row)));
    }
    for (let col = 0; col <= 2 * cols; col++) {
      const { x } = xy(0, col);
      board.append(svg("text", { x, y: MARGIN / 2 - 4, "text-anchor": "middle", "font-size": 11, fill: colour("label"), class: "coordinate", "aria-hidden": "true" }, String.fromCharCode(97 + col)));
    }
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
    const played = new Set(linesShown());
    const last = page.ply > 0 ? page.line[page.ply - 1].move : null;
    const scores = new Map(p.moves.map((m) => [m.move, m]));
    const playable = page.personToMove;
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
        const shade = colour(score.best ? "win-text" : "loss-text");
        group.append(
          svg("line", {
            x1: a.x, y1: a.y, x2: b.x, y2: b.y,
            stroke: colour(state.hinted === name ? "hint" : "undrawn"),
            "stroke-width": state.hinted === name ? 7 : 3,
            "stroke-dasharray": state.hinted === name ? "" : "4 5",
          }),
          // The line a click or tap takes: wide enough for a finger on a phone's 3×5 board.
          svg("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, stroke: "transparent", "stroke-width": 48 }),
        );
        if (page.showValues) {
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
        group.append(svg("title", {}, page.showValues ? words : `line ${name}`));
        if (playable) {
          group.setAttribute("tabindex", "0");
          group.setAttribute("role", "button");
          group.setAttribute("aria-label", page.showValues ? words : `line ${name}`);
          group.addEventListener("click", () => page.play(name));
          group.addEventListener("keydown", (event) => {
            if (event.key === "Enter" || event.key === " ") {
              event.preventDefault();
              state.focus = name;
              page.play(name);
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
    drawPanel(p);
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

  function status() {
    const p = page.probe;
    const { a, b } = tally(p);
    const { computer } = page.settings;
    if (p.over) {
      const winner = p.score_so_far > 0 ? "A" : p.score_so_far < 0 ? "B" : null;
      let verdict = "";
      if (computer !== "none" && winner) verdict = page.isPerson(winner) ? " You win!" : " The computer wins.";
      return `Game over: ${winner ? `${winner} wins` : "a tie"}, ${a}–${b}.${verdict}`;
    }
    let whose = "";
    if (computer !== "none") whose = page.isPerson(p.to_move) ? " (you)" : " (the computer)";
    let text = `${p.to_move} to move${whose}.`;
    if (page.computerWaits) text = `${p.to_move} to move (the computer): "Play on from here" lets it.`;
    text += ` Boxes A ${a} – B ${b}.`;
    if (page.showValues) text += ` With perfect play the final score A − B is ${signed(p.value)}.`;
    return text;
  }

  function drawPanel(p) {
    const { a, b } = tally(p);
    facts.replaceChildren(
      h("dt", {}, "board"),
      h("dd", {}, `${p.rows}×${p.cols} boxes, ${VARIANT_WORDS[p.variant] || p.variant} rules`),
      h("dt", {}, "boxes taken"),
      h("dd", {}, `A ${a}, B ${b}`),
      h("dt", {}, "lines on the board"),
      h("dd", { id: "moves" }, linesShown().join(",") || "none yet"),
      h("dt", {}, p.over ? "result" : "with best play"),
      h("dd", { id: "value" }, p.over || page.showValues ? `${outcomeWords(p.value)} (A − B ${signed(p.value)})` : "hidden (tick the scores)"),
      h("dt", {}, "ply"),
      h("dd", {}, `${page.ply} of ${page.line.length}`),
    );
    page.renderRecord(record);
    chart.replaceChildren(page.showValues ? chartOfPlies(p) : h("p", { class: "note" }, "Hidden with the scores."));
    hintButton.disabled = !page.personToMove || !page.showValues;
  }

  /** The final score with best play at every ply, A's wins above the band and B's below. */
  function chartOfPlies(p) {
    const boxes = Math.max(1, p.owners.length);
    const points = Array.from({ length: page.line.length + 1 }, (_, ply) => {
      const probe = page.probeAt(ply);
      const shade = probe.value > 0 ? "blue" : probe.value < 0 ? "red" : "draw";
      return { y: probe.value / boxes, shade, words: `${outcomeWords(probe.value)} with best play, ${probe.to_move} to move` };
    });
    const ticks = [
      { y: 1, text: `+${boxes}` },
      { y: -1, text: `−${boxes}` },
    ];
    return valueChart({ points, at: page.ply, goTo: page.goTo, top: "A wins", middle: "tie", bottom: "B wins", label: "Final score A − B with best play at each ply", ticks });
  }

  function showHint() {
    const best = page.probe.moves.find((m) => m.best);
    state.hinted = best ? best.move : null;
    page.redraw();
  }

  /** The game (lines numbered by turn, with the final score each leads to) as text to copy. */
  function exportGame() {
    const { rows, cols, variant } = page.settings.board;
    const title = `Dots and Boxes ${rows}x${cols} ${VARIANT_WORDS[variant] || variant}`;
    exported.show(gameText(title, page.line, [`Lines on the board: ${linesShown().join(",") || "none"}`], (entry) => page.isPerson(entry.mover)));
  }

  page.start();
})();
