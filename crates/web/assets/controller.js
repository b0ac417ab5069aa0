// The game line of a board page, with one set of rules on every page: the line and the ply shown, the URL and the
// browser's history, Undo and Redo, the probes, the computer's turn, a shared link, and errors with a Retry. A page
// says how to draw a position and how to name a move; see `boardPage`.
"use strict";

/** The delay before the computer moves; `?delay=0` in the URL removes it. */
function computerDelay() {
  const asked = new URLSearchParams(location.search).get("delay");
  return asked === null ? 350 : Math.max(0, Number(asked) || 0);
}

/**
 * The ply Undo goes back to: just before the person's last move, the replies after it taken back too; null if the
 * person has not moved. `isPerson(mover)` says whose moves are the person's: with nobody else at the board it is
 * every mover's, and Undo takes back one ply.
 */
function undoPly(line, at, isPerson) {
  let ply = at;
  while (ply > 0 && !isPerson(line[ply - 1].mover)) ply--;
  return ply > 0 ? ply - 1 : null;
}

/** The ply Redo goes on to: what was taken back, up to the person's next turn (see `undoPly`). */
function redoPly(line, at, isPerson) {
  let ply = at + 1;
  while (ply < line.length && !isPerson(line[ply].mover)) ply++;
  return Math.min(ply, line.length);
}

/**
 * The value of `key` in a link: one of `allowed`, else `fallback` (the first allowed unless given). A value the
 * page does not offer gives the fallback, and a sentence in `problems` saying so.
 */
function linkChoice(query, key, allowed, problems, fallback = allowed[0]) {
  const asked = query.get(key);
  if (asked === null || allowed.includes(asked)) return asked ?? fallback;
  problems.push(`The link's ${key}=${asked} is not one this page offers: ${key}=${fallback} is shown.`);
  return fallback;
}

/**
 * Runs a board page. `game` says what is particular to the page's game:
 *
 * - `id`: the game's id, as in `/api/<id>/probe`;
 * - `readUrl(query, problems)`: the settings a URL asks for, as a plain object (see `linkChoice`);
 *   `writeUrl(settings, query)` puts them back; `showSettings(settings)` sets the page's controls to them, and
 *   `settings()` reads them from the controls;
 * - `start(settings)`: the id of the position the line starts from: the board's start, or the position a link
 *   gave (in the settings, so that the URL keeps it);
 * - `probeParams(settings, id)`: the query that probes the position `id` (of `start(settings)`, the first one, or
 *   an entry's);
 * - `entry(probe, name, id)`: the record's entry (see record.js) for move `name` at the probed position `id`, with
 *   the `id` of the position it leads to; null if the move is not legal there;
 * - `isPerson(settings, mover)`: whether the person plays `mover`'s moves (the computer plays the others);
 * - `words`: `{ move, illegal }`, how a link's move that cannot be played is reported ("Move 2 … is not legal there");
 * - `buttons`: `{ undo, redo, playOn }`, each `[id, label]` or absent, the buttons the controller drives;
 * - `reset()`: the page shows another ply or game: what belonged to the one before (a selection, a hint) goes;
 * - `draw()`: draws the position shown, read from the controller; `status()`: the words for it.
 *
 * The page puts `statusBar` and `buttons` where it wants them, then calls `start()`.
 *
 * The rules. The line is played from the page's start, one entry per ply, and `ply` of it are on the board; moves
 * after the ply shown stay for Redo until another move is played there. Nothing is shown until every position of the
 * line it shows has been probed: a failed probe leaves the page as it was, says why, and offers Retry when trying
 * again may help (the server could not be reached, or failed). Probes are kept under their query, which makes the
 * query the only key. The URL holds the settings, the line (`moves`) and the ply (`ply`, absent at the end): each
 * step the person takes is a new entry in the browser's history, the computer's reply joins the entry of the move
 * it answers, and Back and Forward show an entry again without anyone moving. The computer moves at the end of
 * the line when it is its turn there, after the person's move, a new game or a link; a link it cannot follow to
 * its end stops there, and what it got wrong stays in the status until the person acts.
 */
function boardPage(game) {
  const delay = computerDelay();
  const status = statusLine();
  const retryButton = h("button", { id: "retry", type: "button", hidden: true, onclick: () => failure?.retry() }, "Retry");
  const progress = h("div", { class: "progress", hidden: true }, h("div", { style: "width:0" }));
  const requests = new Requests({
    onBuilding: (body) => {
      progress.hidden = false;
      progress.firstChild.style.width = `${Math.round(100 * body.done)}%`;
      status.show(buildingWords(body));
    },
    onBusy: (message) => status.show(message),
  });
  // The perfect line's own requests: asking for it does not stop the computer's move.
  const lineRequests = new Requests();
  const probes = new Map();
  // What the page shows: every position of `line` is in `probes`.
  let shown = null;
  // Why the link was not followed as it asked: kept until the person acts.
  let notice = null;
  // The error on screen, and how to try again (null when trying again would not help).
  let failure = null;
  // The computer's move on its way, until it is shown.
  let thinking = null;
  // The computer's level (the URL's `level`, else perfect), from the levels the server offers.
  let level = "perfect";
  let levels = [];
  const levelSelect = h("select", { id: "level", onchange: () => chooseLevel(levelSelect.value) });
  const levelPolicy = h("p", { id: "level-policy", class: "note level-policy" });
  // The marks of the person's moves, once the game is over.
  const scorecard = h("p", { id: "scorecard", class: "scorecard", hidden: true });
  // Whether the person wants the values shown (the hints box).
  let valuesTicked = true;
  const hintsBox = hintsToggle((ticked) => {
    valuesTicked = ticked;
    redraw();
  });
  // The puzzle the link asks for (`puzzle=SEED`): what /api/<id>/puzzle drew, with the person's answer once given.
  let puzzle = null;

  // Until a game is shown there is nothing to take back, play again or go on from.
  const button = (spec, initially, press) => spec && h("button", { id: spec[0], type: "button", ...initially, onclick: press }, spec[1]);
  const buttons = {
    undo: button(game.buttons.undo, { disabled: true }, () => controller.undo()),
    redo: button(game.buttons.redo, { disabled: true }, () => controller.redo()),
    playOn: button(game.buttons.playOn, { hidden: true }, () => controller.playOn()),
  };

  const cacheKey = (params) => apiQuery(params).toString();
  const idAt = (view, ply) => (ply === 0 ? game.start(view.settings) : view.line[ply - 1].id);
  const names = (line) => line.map((entry) => entry.move);
  // A puzzle is the person's to solve, whatever side the settings give the computer.
  const isPerson = (mover) => Boolean(puzzle) || game.isPerson(shown.settings, mover);

  /** The probe of position `id` under `settings`: asked once, then read from the cache. Null if `request` went
   * stale meanwhile. */
  async function probed(request, settings, id) {
    const params = game.probeParams(settings, id);
    const key = cacheKey(params);
    if (!probes.has(key)) {
      const body = await request.get(`${game.id}/probe`, params);
      if (!body) return null;
      probes.set(key, body);
    }
    return probes.get(key);
  }

  /**
   * Plays `target.moves` from the start under `target.settings`, stopping before a move that is not legal (named
   * in the notice as a move of `target.source`), and once every position is probed shows ply `target.ply` (null:
   * the end); `target.history` says what becomes of the browser's history: "push", "replace" or "none".
   */
  async function settle(target, request = requests.begin()) {
    const { settings, moves } = target;
    const problems = [...(target.problems || [])];
    const line = [];
    try {
      let id = game.start(settings);
      let probe = await probed(request, settings, id);
      for (const [i, name] of moves.entries()) {
        if (!probe) return;
        const entry = game.entry(probe, name, id);
        if (!entry) {
          const { move, illegal } = game.words;
          problems.push(`${move} ${i + 1} of the ${target.source}, ${name}, ${illegal}: the game stops before it.`);
          break;
        }
        line.push(entry);
        id = entry.id;
        probe = await probed(request, settings, id);
      }
      if (!probe || request.stale) return;
    } catch (error) {
      fail(error, request, () => settle(target));
      return;
    }
    request.finish();
    const ply = target.ply === null || target.ply > line.length ? line.length : target.ply;
    shown = { settings, line, ply };
    notice = problems.length ? problems.join(" ") : null;
    failure = null;
    thinking = null;
    progress.hidden = true;
    remember(target.history);
    game.showSettings(settings);
    game.reset();
    redraw();
    if (target.computer && !notice) computerMoves();
  }

  /** The computer's move, if it is its turn at the end of the line: shown after the delay, in the entry of the
   * move it answers. */
  async function computerMoves() {
    const probe = controller.probe;
    if (shown.ply < shown.line.length || probe.over || isPerson(probe.to_move)) return;
    const request = requests.begin();
    thinking = request;
    redraw();
    await pause(delay);
    if (request.stale) return;
    let choice;
    try {
      const body = await request.get(`${game.id}/probe`, { ...game.probeParams(shown.settings, idAt(shown, shown.ply)), level });
      if (!body || request.stale) return;
      choice = body.choice;
      if (!choice) {
        request.finish();
        thinking = null;
        notice = "The computer has no move to play here: its table is not built.";
        redraw();
        return;
      }
    } catch (error) {
      fail(error, request, () => computerMoves());
      return;
    }
    const moves = [...names(shown.line), choice];
    settle({ settings: shown.settings, moves, ply: null, history: "replace", computer: true, source: "line" }, request);
  }

  /** The computer plays at `name` from its next move on; the URL keeps it. */
  function chooseLevel(name) {
    level = name;
    showLevel();
    if (shown) remember("replace");
  }

  function showLevel() {
    levelSelect.value = level;
    const chosen = levels.find((l) => l.name === level);
    levelPolicy.textContent = chosen ? `${chosen.name[0].toUpperCase()}${chosen.name.slice(1)}: ${chosen.policy}` : "";
  }

  /** An answer that did not come: the page stays as it was and says why, with Retry where it may help. */
  function fail(error, request, retry) {
    if (request.stale) return;
    request.finish();
    if (!(error instanceof ApiError)) throw error;
    if (thinking === request) thinking = null;
    progress.hidden = true;
    controller.showError(error, retry);
  }

  /** The page's settings, line and ply into the URL (see `boardPage` for when `how` pushes). */
  function remember(how) {
    if (how === "none") return;
    const url = new URL(location.href);
    // The keys some pages used before `moves` and `ply`: a link with them opens, and is written anew.
    url.searchParams.delete("lines");
    url.searchParams.delete("at");
    game.writeUrl(shown.settings, url.searchParams);
    if (!puzzle) url.searchParams.delete("puzzle");
    if (level === "perfect") url.searchParams.delete("level");
    else url.searchParams.set("level", level);
    url.searchParams.set("moves", names(shown.line).join(","));
    if (shown.ply < shown.line.length) url.searchParams.set("ply", String(shown.ply));
    else url.searchParams.delete("ply");
    if (url.href === location.href) return;
    if (how === "push") history.pushState(null, "", url);
    else history.replaceState(null, "", url);
  }

  /** The game the URL holds: a link, a reload, Back or Forward. */
  async function open(how) {
    const query = new URLSearchParams(location.search);
    const problems = [];
    const settings = game.readUrl(query, problems);
    game.showSettings(settings);
    level = linkChoice(query, "level", levels.map((l) => l.name), problems, "perfect");
    showLevel();
    let moves = (query.get("moves") ?? query.get("lines") ?? "").split(",").filter(Boolean);
    if (query.has("puzzle")) {
      const request = requests.begin();
      try {
        const body = await request.get(`${game.id}/puzzle`, { ...game.probeParams(settings, null), seed: query.get("puzzle") });
        if (!body) return;
        request.finish();
        puzzle = openPuzzle(body, query.get("puzzle"), moves);
        if (!puzzle) problems.push("No puzzle was found for this link.");
        else if (!puzzle.verdict) moves = puzzle.line;
      } catch (error) {
        fail(error, request, () => open(how));
        return;
      }
    } else {
      puzzle = null;
    }
    const asked = query.get("ply") ?? query.get("at");
    let ply = null;
    if (asked !== null) {
      const number = Number(asked);
      if (Number.isInteger(number) && number >= 0 && number <= moves.length) ply = number;
      else problems.push(`The link's ply=${asked} is not a ply of its game: the last one is shown.`);
    }
    // Back and Forward show what was there; only a link opened gives the computer its turn.
    settle({ settings, moves, ply, problems, history: how, computer: how !== "none", source: "link" });
  }

  /** The puzzle `body` drew for `seed`, answered already if `moves` (the link's) go one move past it. */
  function openPuzzle(body, seed, moves) {
    const found = body.puzzles[0];
    if (!found) return null;
    const key = `${game.id}?${new URLSearchParams(body.settings)}&puzzle=${seed}`;
    const answered = moves.length > found.line.length && found.line.every((move, i) => moves[i] === move);
    const played = answered ? moves[found.line.length] : null;
    return { ...found, key, played, verdict: played && (played === found.answer ? "right" : "wrong"), refutation: null };
  }

  /** How a move is worth to its mover, in a few characters: `W7`, `=`, or a final score `A − B +3`. */
  const worthLabel = (move) => (move.score !== undefined ? `A − B ${move.score > 0 ? "+" : ""}${move.score}` : valueLabel(move));

  /** The puzzle's words at its position: the question, or the verdict on the answer given. */
  function puzzleWords() {
    const before = controller.probeAt(puzzle.line.length);
    const goal = puzzle.score !== undefined ? "reach the best final score" : puzzle.value === "win" ? "win" : "hold the draw";
    if (!puzzle.verdict) {
      return `Puzzle (${puzzle.difficulty}): ${before.to_move} to play and ${goal}. Exactly one of the ${puzzle.moves} moves does; the values stay hidden until you answer.`;
    }
    const answer = before.moves.find((m) => m.move === puzzle.answer);
    const streak = puzzleStreak();
    const tally = ` Puzzles in a row: ${streak.streak} (best ${streak.best}).`;
    if (puzzle.verdict === "right") return `Right: ${puzzle.answer} (${worthLabel(answer)}) is the one move that does it.${tally}`;
    const played = before.moves.find((m) => m.move === puzzle.played);
    const line = puzzle.refutation?.length ? ` Best play after it: ${puzzle.refutation.slice(0, 8).join(" ")}${puzzle.refutation.length > 8 ? " …" : ""}.` : "";
    return `Not this time: after ${puzzle.played} (${played ? worthLabel(played) : "?"}) ${before.to_move} no longer can ${goal}; the one move was ${puzzle.answer} (${worthLabel(answer)}).${line}${tally}`;
  }

  /** The perfect line from the position the wrong answer led to, where the game serves one. */
  async function refute(id) {
    try {
      const body = await lineRequests.begin().get(`${game.id}/line`, game.probeParams(shown.settings, id));
      if (!body || !puzzle) return;
      puzzle.refutation = body.moves.map((m) => m.move);
      redraw();
    } catch {
      // A game without a served line is refuted by the values alone.
    }
  }

  /** The status line: the error, else the notice and the page's words. */
  function showStatus() {
    retryButton.hidden = !failure?.retry;
    if (failure) {
      status.show(failure.words, true);
    } else if (shown) {
      const atPuzzle = puzzle && shown.ply === puzzle.line.length + (puzzle.verdict ? 1 : 0);
      // The computer's move is said as well as shown: the status is a live region a screen reader reads out.
      const last = shown.line[shown.ply - 1];
      const replied = !atPuzzle && last && shown.ply === shown.line.length && !isPerson(last.mover) ? `${last.mover} (the computer) played ${last.move}. ` : "";
      const words = replied + (atPuzzle ? puzzleWords() : game.status());
      status.show(notice ? `${notice} ${words}` : words, Boolean(notice));
    }
  }

  /** Draws the page again, as it is. */
  function redraw() {
    if (!shown) return;
    // A move redraws the board under the keyboard's focus: the focus stays on the board, not on the page.
    const board = document.getElementById("board");
    const focused = board?.contains(document.activeElement);
    game.draw();
    if (focused && !board.contains(document.activeElement)) {
      if (!board.hasAttribute("tabindex")) board.setAttribute("tabindex", "-1");
      board.focus({ preventScroll: true });
    }
    const { line, ply } = shown;
    if (buttons.undo) buttons.undo.disabled = undoPly(line, ply, isPerson) === null;
    if (buttons.redo) buttons.redo.disabled = ply >= line.length;
    if (buttons.playOn) buttons.playOn.hidden = ply >= line.length && !controller.computerWaits;
    const over = ply === line.length && controller.probe?.over;
    const marked = line.filter((entry) => entry.grade && isPerson(entry.mover));
    scorecard.hidden = !over || marked.length === 0;
    scorecard.textContent = scorecard.hidden ? "" : scorecardWords(marked.map((entry) => entry.grade));
    showStatus();
  }

  /** Goes on from `shown` to `moves` (under the same settings) at `ply`, as the person asked. */
  const step = (moves, ply, computer) =>
    settle({ settings: shown.settings, moves, ply, history: "push", computer, source: "line" });

  const controller = {
    /** The status line, with its Retry button and the progress of a table being built. */
    statusBar: h("div", { class: "status-bar" }, status, retryButton, progress),
    buttons,
    /** The hints box, labelled `words`, to put among the page's controls. */
    hintsControl: (words) => h("label", {}, hintsBox, words),
    /** Whether values are shown: the hints box ticked, and no puzzle waiting for its answer. */
    get showValues() {
      return valuesTicked && !(puzzle && !puzzle.verdict);
    },
    /** The computer's level, to put among the page's controls, and the sentence that says what it does. */
    levelControl: h("label", {}, "Computer ", levelSelect),
    levelPolicy,
    /** The marks of the person's moves at the end of a game, to put below the record. */
    scorecard,
    /** Fills the list `record` with the game (see record.js), the person's moves marked; `moverWords` names a side. */
    renderRecord(record, moverWords) {
      const marked = (entry) => isPerson(entry.mover);
      renderRecord(record, this.line, this.ply, (ply) => this.goTo(ply), { moverWords, marked, values: this.showValues });
    },
    get settings() {
      return shown?.settings;
    },
    get line() {
      return shown ? shown.line : [];
    },
    get ply() {
      return shown ? shown.ply : 0;
    },
    /** The probe of ply `ply` of the line shown (every one is probed before it is shown). */
    probeAt(ply) {
      return shown && probes.get(cacheKey(game.probeParams(shown.settings, idAt(shown, ply))));
    },
    /** The probe of the position on the board. */
    get probe() {
      return shown && this.probeAt(shown.ply);
    },
    /** Whether the person can move on the board now. */
    get personToMove() {
      const probe = this.probe;
      return Boolean(probe) && !probe.over && isPerson(probe.to_move) && !this.thinking;
    },
    /** Whether the computer is working out its move. */
    get thinking() {
      return Boolean(thinking) && !thinking.stale;
    },
    /** Whether it is the computer's turn at the end of the line, with its move not asked for (after Back, say). */
    get computerWaits() {
      const probe = this.probe;
      return Boolean(probe) && shown.ply === shown.line.length && !probe.over && !isPerson(probe.to_move) && !this.thinking;
    },
    isPerson: (mover) => Boolean(shown) && isPerson(mover),
    /** Plays the person's move `name` at the position on the board; the moves after it are let go. */
    play(name) {
      // Until the answer for the position now shown arrives, the moves on screen belong to the one before.
      if (requests.pending || !shown) return;
      const entry = game.entry(this.probe, name, idAt(shown, shown.ply));
      if (!entry) return;
      if (puzzle && !puzzle.verdict && shown.ply === puzzle.line.length) {
        puzzle.played = name;
        puzzle.verdict = name === puzzle.answer ? "right" : "wrong";
        recordPuzzle(puzzle.key, puzzle.verdict);
        if (puzzle.verdict === "wrong") refute(entry.id);
      }
      step([...names(shown.line.slice(0, shown.ply)), name], null, true);
    },
    /** Shows ply `ply` of the line. */
    goTo(ply) {
      if (!shown || ply < 0 || ply > shown.line.length || ply === shown.ply) return;
      step(names(shown.line), ply, false);
    },
    /** Takes back the person's last move (and the computer's replies); with nobody else at the board, one ply. */
    undo() {
      const ply = shown ? undoPly(shown.line, shown.ply, isPerson) : null;
      if (ply !== null) this.goTo(ply);
    },
    /** Plays again what was taken back, up to the person's next turn; with nobody else at the board, one ply. */
    redo() {
      if (shown) this.goTo(redoPly(shown.line, shown.ply, isPerson));
    },
    /** Lets go of the moves after the position on the board, so that the game goes on from it. */
    playOn() {
      if (shown) step(names(shown.line.slice(0, shown.ply)), null, true);
    },
    /** A new game under the settings the controls show. */
    newGame() {
      puzzle = null;
      settle({ settings: game.settings(), moves: [], ply: null, history: "push", computer: true, source: "line" });
    },
    /** The line played again under the settings the controls show (a move they no longer allow ends it). */
    replayLine() {
      const moves = names(this.line);
      settle({ settings: game.settings(), moves, ply: this.ply, history: "push", computer: true, source: "line" });
    },
    redraw,
    /** Opens the game the URL holds, and follows Back and Forward: once the page's controls and board are in place. */
    async start() {
      status.show("Setting up the board…");
      // The skip link's target, and where the focus stays while moves redraw the board.
      document.getElementById("board")?.setAttribute("tabindex", "-1");
      try {
        levels = (await api("levels")).body || [];
      } catch {
        // Without the list, the computer plays perfectly, as the server does when asked for no level.
        levels = [];
      }
      levelSelect.replaceChildren(...levels.map((l) => h("option", { value: l.name }, l.name)));
      levelSelect.disabled = levels.length === 0;
      window.addEventListener("popstate", () => open("none"));
      open("replace");
    },
    /** Lists in `list` the perfect line from the position on the board to the end (for a draw, until a position
     * comes back), asked of `/api/<id>/line` with `params`; an answer for a position no longer shown is dropped. */
    async perfectLine(list, params) {
      const request = lineRequests.begin();
      const asked = this.probe;
      try {
        const body = await request.get(`${game.id}/line`, params);
        request.finish();
        if (!body || asked !== this.probe) return;
        const items = body.moves.map((m) => h("li", {}, `${m.move} ${valueLabel(m)}`));
        if (body.repeats) items.push(h("li", {}, "… and round again: a draw"));
        list.replaceChildren(...(items.length ? items : [h("li", {}, "The game is over.")]));
      } catch (error) {
        fail(error, request, () => this.perfectLine(list, params));
      }
    },
    /** Shows an error answer (an ApiError): trying again runs `retry`, when that may help. */
    showError(error, retry) {
      const command = error.body.command;
      const build = command ? ` Build it with \`${command}\`, then press Retry.` : "";
      const mayHelp = error.status === 0 || error.status >= 500;
      failure = { words: `Error: ${error.message.replace(/\.$/, "")}.${build}`, retry: mayHelp ? retry : null };
      showStatus();
    },
  };

  return controller;
}
