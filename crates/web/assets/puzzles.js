// The puzzles page: today's puzzle of every game that draws puzzles, each a link to its board, and the run of right
// answers kept in this browser. A puzzle is played and judged on its game's page (controller.js).
"use strict";
(async () => {
  const app = document.getElementById("app");
  const now = new Date();
  // The day's number, the same for everyone on the same date: the puzzles' seed.
  const day = now.getFullYear() * 10000 + (now.getMonth() + 1) * 100 + now.getDate();
  const kept = puzzleStreak();
  app.append(h("p", { id: "streak", class: "scorecard" }, `Puzzles in a row: ${kept.streak} (best ${kept.best}).`));
  const cards = h("div", { class: "cards", id: "puzzles" });
  app.append(cards);
  let games = [];
  try {
    games = (await api("games")).body.filter((g) => g.puzzles);
  } catch (error) {
    app.append(h("p", { class: "status error" }, `Error: ${error.message}`));
    return;
  }
  for (const game of games) {
    const words = h("p", {}, "Drawing the puzzle…");
    const card = h("div", { class: "card puzzle", "data-game": game.id }, h("h2", {}, game.name), words);
    cards.append(card);
    try {
      const { body } = await api(`${game.id}/puzzle`, { seed: day });
      const puzzle = body.puzzles[0];
      if (!puzzle) {
        words.textContent = "No puzzle today.";
        continue;
      }
      const goal = puzzle.score !== undefined ? "reach the best final score" : puzzle.value === "win" ? "win" : "hold the draw";
      const settings = new URLSearchParams(body.settings);
      const link = (seed) => `/${game.id}?${settings}&puzzle=${seed}`;
      const answered = kept.answered[`${game.id}?${settings}&puzzle=${day}`];
      const done = answered ? ` You answered it ${answered === "right" ? "right" : "wrong"}.` : "";
      words.textContent = `${body.board}: play and ${goal}; ${puzzle.difficulty}, ${puzzle.moves} moves to choose from.${done}`;
      card.append(
        h("p", {}, h("a", { href: link(day), class: "today" }, "Today's puzzle"), " · ", h("a", { href: link(day * 100 + Math.floor(Math.random() * 100)) }, "another one")),
      );
    } catch (error) {
      const command = error.body?.command;
      words.textContent = `No puzzle yet: ${error.message}${command ? `. Build the table with \`${command}\`.` : "."}`;
    }
  }
})();
