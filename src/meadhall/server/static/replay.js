// Replay: the left and right arrow keys step back and forward.
"use strict";
document.addEventListener("keydown", (ev) => {
  const rel = ev.key === "ArrowLeft" ? "prev" : ev.key === "ArrowRight" ? "next" : null;
  if (!rel) return;
  const a = document.querySelector(`.replay-nav a[rel="${rel}"]`);
  if (a) { ev.preventDefault(); location.href = a.href; }
});
