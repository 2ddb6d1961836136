// /arenas/: each listed arena counts down to its start or its end, once a second.
import { formatLeft } from "./clock.js";

function tick() {
  const now = Date.now();
  for (const node of document.querySelectorAll(".countdown[data-until]")) {
    node.textContent = node.dataset.text.replace("{t}", formatLeft(Date.parse(node.dataset.until) - now));
  }
}
tick();
setInterval(tick, 1000);

// A refused arena: the page came back at its form; the keyboard and a screen reader go
// to the reason, which is put in view.
const refused = document.getElementById("arena-error");
if (refused) {
  refused.focus({ preventScroll: true });
  refused.scrollIntoView({ block: "center" });
}
