// The colour-blind-safe palette: a choice kept in the browser, applied before the page draws anything.
"use strict";
(() => {
  const KEY = "solved-palette";
  const root = document.documentElement;
  const stored = () => {
    try {
      return localStorage.getItem(KEY);
    } catch (_) {
      return null;
    }
  };
  root.classList.toggle("colour-blind", stored() === "colour-blind");
  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("palette");
    if (!button) return;
    button.setAttribute("aria-pressed", String(root.classList.contains("colour-blind")));
    button.addEventListener("click", () => {
      const on = !root.classList.contains("colour-blind");
      try {
        localStorage.setItem(KEY, on ? "colour-blind" : "standard");
      } catch (_) {
        // Without storage the choice lasts until the page is left.
      }
      // The boards read their colours once: draw the page again (its state is in the URL).
      if (document.getElementById("app")) location.reload();
      else {
        root.classList.toggle("colour-blind", on);
        button.setAttribute("aria-pressed", String(on));
      }
    });
  });
})();
