// The swarm page's replay: the log is a plain list without JavaScript; with it, "Replay" shows
// the lines again one by one in time order, at the pace they were written (sped up, capped).
"use strict";
(() => {
  const log = document.getElementById("log");
  const button = document.getElementById("replay");
  if (!log || !button) return;
  const lines = Array.from(log.children);
  const at = lines.map((li) => Date.parse(li.querySelector("time").getAttribute("datetime")) || 0);
  let timer = null;
  button.hidden = false;
  button.addEventListener("click", () => {
    clearTimeout(timer);
    log.classList.add("replaying");
    lines.forEach((li) => li.classList.add("hidden"));
    let i = 0;
    const next = () => {
      if (i >= lines.length) {
        log.classList.remove("replaying");
        return;
      }
      lines[i].classList.remove("hidden");
      const gap = i + 1 < lines.length ? Math.min(Math.max((at[i + 1] - at[i]) / 20, 30), 800) : 0;
      i += 1;
      timer = setTimeout(next, gap);
    };
    next();
  });
})();
