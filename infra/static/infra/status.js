// The status page: the parts from /healthz, and a live echo over the websocket.
// Its words come from the page's dictionary (infra/views.py status_page), like every page's.
import { pageStrings } from "../mahjong/ui.js";

const T = pageStrings();

async function showParts() {
  const list = document.getElementById("parts");
  const response = await fetch(list.dataset.url, { cache: "no-store" });
  const report = await response.json();
  list.replaceChildren(
    ...Object.entries(report.parts).map(([name, part]) => {
      const item = document.createElement("li");
      item.className = part.ok ? "up" : "down";
      // A part /healthz has and the page has no word for keeps its key.
      const label = (T.parts && T.parts[name]) || name;
      item.textContent = `${label}: ${part.ok ? T.up : T.down} (${part.ms} ms)` +
        (part.error ? ` — ${part.error}` : "");
      return item;
    }),
  );
}

function openEcho() {
  const state = document.getElementById("socket-state");
  const echoes = document.getElementById("echoes");
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/echo/`);
  socket.addEventListener("open", () => { state.textContent = T.open; });
  socket.addEventListener("close", () => {
    state.textContent = T.closed;
    setTimeout(openEcho, 2000);
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    const item = document.createElement("li");
    item.className = "echo";
    item.dataset.source = message.source || "";
    item.textContent = message.type === "echo"
      ? `${message.text} (${T.via} ${message.source})` : message.error;
    echoes.prepend(item);
  });
  document.getElementById("echo-form").onsubmit = (event) => {
    event.preventDefault();
    const text = document.getElementById("echo-text").value;
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ echo: text }));
  };
}

showParts();
openEcho();
