// The game record, the value chart and the game as text: what every two-player page shows beside its board.
// The page's controller (controller.js) keeps the game as a line of entries, one per ply played:
//   { id, move, mover, label, value, grade }
// `id` names the position the move leads to, `label` is the value as played (`W12`, `=`, `+2`), `value` its CSS
// class, `grade` how good a move it was as the server marks it (best, good, inaccuracy, mistake; absent without a
// table), as GamesmanUni's scorecard does.
"use strict";

/** The entries grouped into turns (a run of moves by one side) and the turns paired, one pair per numbered row. */
function recordRows(line) {
  const turns = [];
  line.forEach((entry, i) => {
    const last = turns[turns.length - 1];
    if (last && last.mover === entry.mover) last.plies.push(i + 1);
    else turns.push({ mover: entry.mover, plies: [i + 1] });
  });
  const rows = [];
  for (let i = 0; i < turns.length; i += 2) rows.push(turns.slice(i, i + 2));
  return rows;
}

/** Each grade's mark in the record and its words. */
const GRADES = {
  best: { mark: "★", words: "a best move" },
  good: { mark: "✓", words: "good: keeps the result, at most a move slower or a box worse" },
  inaccuracy: { mark: "?!", words: "an inaccuracy: keeps the result, but slower or by a smaller margin" },
  mistake: { mark: "?", words: "a mistake: changes the result" },
};

/** The summary of a player's grades, as `solved play` ends a game: "Your moves: 9 best, 1 mistake." */
function scorecardWords(grades) {
  const plural = { inaccuracy: "inaccuracies", mistake: "mistakes" };
  const counts = Object.keys(GRADES)
    .map((grade) => [grade, grades.filter((g) => g === grade).length])
    .filter(([, n]) => n > 0)
    .map(([grade, n]) => `${n} ${n > 1 && plural[grade] ? plural[grade] : grade}`);
  return `Your moves: ${counts.join(", ")}.`;
}

/** The grade's mark after a move, if it is marked. */
const gradeMark = (entry, marked) => (marked(entry) && GRADES[entry.grade] ? GRADES[entry.grade].mark : "");

/** Makes `element` work as a button from the keyboard too: Tab reaches it, Enter or Space presses it. */
function pressable(element, label, press) {
  element.setAttribute("tabindex", "0");
  element.setAttribute("role", "button");
  element.setAttribute("aria-label", label);
  element.addEventListener("click", (event) => {
    event.stopPropagation();
    press(false);
  });
  element.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      press(true);
    }
  });
}

/**
 * Fills the list `record` with the game: rows numbered, each move a button with its value as played and, where
 * `marked(entry)` (the person's moves), its grade's mark, unless `values` is false; ply `at` marked as the one on the board. Clicking a move
 * calls `goTo(ply)`. `moverWords(mover)` names a side for a screen reader; a turn of several moves (a box
 * completed) shows its mover.
 */
function renderRecord(record, line, at, goTo, { moverWords = (mover) => mover, marked = () => true, values = true } = {}) {
  const several = line.some((entry, i) => i > 0 && line[i - 1].mover === entry.mover);
  const items = recordRows(line).map((row, number) => {
    const turns = row.map((turn) => {
      const moves = turn.plies.map((ply) => {
        const entry = line[ply - 1];
        const classes = ["ply"];
        if (ply === at) classes.push("current");
        // With the values hidden, a move is only its name.
        const mark = values ? gradeMark(entry, marked) : "";
        if (mark) classes.push(entry.grade);
        const label = values ? entry.label : "";
        const words = `${moverWords(entry.mover)} ${entry.move}${label ? `, ${label}` : ""}${mark ? `, ${GRADES[entry.grade].words}` : ""}`;
        return h(
          "button",
          { class: classes.join(" "), "data-move": entry.move, "data-ply": ply, "data-grade": mark ? entry.grade : null, "aria-label": words, title: words, onclick: () => goTo(ply) },
          `${entry.move} `,
          label ? h("span", { class: `v ${valueClass(entry.value)}` }, label) : null,
          mark ? h("span", { class: "grade", "aria-hidden": "true" }, mark) : null,
        );
      });
      return several ? h("span", { class: "turn-moves" }, h("span", { class: "mover" }, `${turn.mover}:`), ...moves) : moves;
    });
    return h("li", {}, h("span", { class: "turn" }, `${number + 1}.`), ...turns.flat());
  });
  record.replaceChildren(...items);
  // The move on the board stays in sight, at the end of a long game too: scrolled within the record alone, so
  // that the page itself does not move.
  const current = record.querySelector("button.current");
  if (current) {
    const top = current.offsetTop - record.offsetTop;
    if (top < record.scrollTop || top + current.offsetHeight > record.scrollTop + record.clientHeight) {
      record.scrollTop = top - (record.clientHeight - current.offsetHeight) / 2;
    }
  }
}

/**
 * A value history chart, as GamesmanUni draws it: one dot per ply, at `point.y` from -1 (bottom) to 1 (top), 0 on
 * the middle band, null when not known (a hollow dot on the band, apart from the draws); `point.shade` names its
 * colour and `point.words` says it in text. The labels name the top, the middle and the bottom, `ticks` (`{ y, text }`)
 * mark the scale on the left; clicking a dot (or Enter on it) calls `goTo(ply)`.
 */
function valueChart({ points, at, goTo, top, middle, bottom, label, ticks = [] }) {
  const width = 320;
  const height = 150;
  const band = 14;
  const left = 90;
  const step = (width - left - 10) / Math.max(1, points.length - 1);
  const reach = (height - band) / 2 - 6;
  const y = (point) => {
    if (point.y === null || point.y === 0) return height / 2;
    return height / 2 - Math.sign(point.y) * (band / 2 + reach * Math.min(1, Math.abs(point.y)));
  };
  const picture = svg("svg", { viewBox: `0 0 ${width} ${height + 18}`, width: "100%", role: "group", "aria-label": label });
  picture.append(
    svg("rect", { x: left, y: height / 2 - band / 2, width: width - left - 10, height: band, fill: colour("draw-pale") }),
    svg("text", { x: 2, y: 14, "font-size": 11, fill: colour("label") }, top),
    svg("text", { x: 2, y: height / 2 + 4, "font-size": 11, fill: colour("label") }, middle),
    svg("text", { x: 2, y: height - 4, "font-size": 11, fill: colour("label") }, bottom),
    svg("text", { x: left, y: height + 14, "font-size": 11, fill: colour("label") }, "ply 0"),
  );
  if (points.length > 1) {
    picture.append(svg("text", { x: width - 10, y: height + 14, "font-size": 11, "text-anchor": "end", fill: colour("label") }, `ply ${points.length - 1}`));
  }
  for (const tick of ticks) {
    const ty = y({ y: tick.y });
    picture.append(
      svg("line", { x1: left - 4, y1: ty, x2: left, y2: ty, stroke: colour("label"), "stroke-width": 1 }),
      svg("text", { x: left - 6, y: ty + 3.5, "font-size": 9.5, "text-anchor": "end", fill: colour("label"), class: "tick" }, tick.text),
    );
  }
  const path = points.map((point, ply) => `${left + ply * step},${y(point)}`).join(" ");
  picture.append(svg("polyline", { points: path, fill: "none", stroke: colour("muted"), "stroke-width": 1.5 }));
  points.forEach((point, ply) => {
    const unknown = point.y === null;
    const dot = svg("circle", {
      cx: left + ply * step,
      cy: y(point),
      r: ply === at ? 6 : 4,
      fill: unknown ? colour("white") : colour(point.shade),
      stroke: colour(ply === at ? "ink" : unknown ? "label" : "white"),
      "stroke-width": ply === at ? 2 : 1,
      "stroke-dasharray": unknown ? "2 2" : "",
      class: "ply-dot",
      "data-ply": ply,
      style: "cursor:pointer",
    });
    dot.append(svg("title", {}, `ply ${ply}: ${point.words}`));
    pressable(dot, `ply ${ply}: ${point.words}`, () => goTo(ply));
    // A finger needs more than the dot: a clear circle around it takes the tap.
    const hit = svg("circle", { cx: left + ply * step, cy: y(point), r: 22, fill: "transparent", class: "ply-hit", "data-ply": ply, style: "cursor:pointer" });
    hit.addEventListener("click", () => goTo(ply));
    picture.append(hit, dot);
  });
  return picture;
}

/** The scale of a chart of distances: the shortest and the longest distance of the game, on each side. */
function remotenessTicks(longest) {
  const at = (d) => 1 - d / (longest + 1);
  return [
    { y: at(1), text: "in 1" },
    { y: at(longest), text: `in ${longest}` },
    { y: -at(1), text: "in 1" },
    { y: -at(longest), text: `in ${longest}` },
  ];
}

/**
 * Where a win/loss/draw value sits on the chart for `side` (the side drawn at the top): a win higher the sooner
 * it comes, a loss lower, the longer the game the nearer the band; `longest` is the longest distance in the game,
 * so that every dot fits.
 */
function remotenessPoint(probe, side, longest, shades) {
  if (!probe || !probe.value) return { y: null, shade: "unknown", words: "no value yet" };
  const flip = { win: "loss", loss: "win", draw: "draw" };
  const forSide = probe.to_move === side ? probe.value : flip[probe.value];
  const words = `${valueLabel(probe)} for ${probe.to_move}`;
  if (forSide === "draw") return { y: 0, shade: "draw", words };
  const height = 1 - probe.distance / (longest + 1);
  return { y: forSide === "win" ? height : -height, shade: shades[forSide], words };
}

/** The game as text, one numbered row per pair of turns as the record shows it (with its marks), then `extra`
 * lines. */
function gameText(title, line, extra = [], marked = () => true) {
  const rows = recordRows(line).map((row, number) => {
    const turns = row.map((turn) => turn.plies.map((ply) => {
      const entry = line[ply - 1];
      return `${entry.move} ${entry.label}${gradeMark(entry, marked)}`;
    }).join(" "));
    return `${number + 1}. ${turns.join("  ")}`;
  });
  return [title, ...rows, ...extra].join("\n");
}

/** A read-only text box that shows `text` selected, and puts it on the clipboard where the browser lets it. */
function exportBox() {
  const box = h("textarea", { id: "export", class: "export", readonly: true, rows: 4, hidden: true, "aria-label": "The game as text" });
  box.show = (text) => {
    box.value = text;
    box.hidden = false;
    box.select();
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
  };
  return box;
}
