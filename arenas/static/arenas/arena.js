// An arena's page (docs/PROTOCOL.md §Arenas): the live table, the races running now, the
// player's own line and controls, the podium at the end. The server's state is the truth:
// every message answers with a fresh one.
import { clockLine, formatTime } from "./clock.js";

const $ = (id) => document.getElementById(id);
const root = $("arena");
const T = JSON.parse($("strings").textContent);
let state = JSON.parse($("initial-state").textContent);
let skew = Date.parse(state.server_now) - Date.now(); // server time = local + skew
let socket = null;
let retry = 500;
const params = new URLSearchParams(location.search);
let wantsNext = params.get("next") === "1"; // from a race page's "Next race"
if (wantsNext) history.replaceState(null, "", location.pathname);
const seenRooms = new Set(state.you && state.you.room ? [state.you.room] : []);

function roomUrl(code) { return root.dataset.roomUrl.replace("ROOM", code); }

function say(text) {
  const node = $("arena-message");
  node.textContent = text || "";
  node.hidden = !text;
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/arenas/${root.dataset.code}/`);
  socket.addEventListener("open", () => { retry = 500; say(""); });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "state") {
      state = message;
      skew = Date.parse(message.server_now) - Date.now();
      arrive();
      render();
    } else if (message.type === "error") {
      say(message.message);
    } else if (message.type === "ack") {
      say("");
    }
  });
  socket.addEventListener("close", (event) => {
    if (event.code === 4404) return;
    say(T.link_down);
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
  });
}

// Straight to a new race of ours; and "Next race" from a race page says ready once.
function arrive() {
  const you = state.you;
  if (!you) return;
  if (you.room && you.state === "racing" && !seenRooms.has(you.room)) {
    seenRooms.add(you.room);
    location.assign(roomUrl(you.room));
    return;
  }
  if (wantsNext && you.state === "paused" && state.arena.status === "running") {
    wantsNext = false;
    send({ type: "ready" });
  }
}

function cell(text, className) {
  const td = document.createElement("td");
  td.textContent = text;
  if (className) td.className = className;
  return td;
}

function render() {
  const { arena, table, races, you, podium } = state;
  const finished = arena.status === "finished";
  $("arena-clock").textContent = clockLine(arena, Date.now() + skew, T);
  // The table.
  $("table-rows").replaceChildren(...table.map((row) => {
    const tr = document.createElement("tr");
    const name = cell(row.name, "name");
    if (row.fire) {
      const mark = document.createElement("span");
      mark.className = "fire";
      mark.textContent = "×2";
      mark.title = T.streak;
      mark.setAttribute("aria-label", T.streak);
      name.append(mark);
    }
    tr.append(cell(row.rank), name, cell(row.points, "num"), cell(row.races, "num"), cell(formatTime(row.best_ms), "num"));
    if (you && row.id === you.id) tr.classList.add("me");
    tr.dataset.id = row.id;
    return tr;
  }));
  $("table-empty").hidden = table.length > 0;
  // The races running now, to watch.
  $("races-now").hidden = finished;
  $("race-list").replaceChildren(...(races.length ? races.map((race) => {
    const li = document.createElement("li");
    const names = document.createElement("span");
    names.textContent = race.players.join(T.vs);
    const link = document.createElement("a");
    link.href = roomUrl(race.room);
    link.className = "button";
    link.textContent = T.watch;
    li.append(names, " ", link);
    return li;
  }) : [Object.assign(document.createElement("li"), { className: "muted", textContent: T.no_races })]));
  // The podium, at the end.
  $("podium").hidden = !finished || !podium.length;
  $("podium-list").replaceChildren(...podium.map((row, index) => {
    const li = document.createElement("li");
    li.className = `step step-${index + 1}`;
    const place = document.createElement("span");
    place.className = "place";
    place.textContent = T[`podium_${row.rank}`] || row.rank;
    const name = document.createElement("strong");
    name.textContent = row.name;
    const points = document.createElement("span");
    points.textContent = T.points.replace("{n}", row.points);
    li.append(place, name, points);
    return li;
  }));
  // The player's own line, pinned above the table, and the controls.
  $("you").hidden = !you;
  if (!you) return;
  const mine = table.find((row) => row.id === you.id);
  const raced = mine ? mine.races : 0;
  $("you-line").textContent = (raced === 1 ? T.you_line_one : T.you_line).replace("{rank}", you.rank)
    .replace("{points}", you.points).replace("{races}", raced);
  const open = arena.status === "running" && Date.parse(arena.ends_at) - (Date.now() + skew) > 60000;
  $("you-state").textContent = finished ? "" : T[you.state] || "";
  $("ready").hidden = !open || you.state !== "paused";
  $("pause").hidden = finished || you.state !== "waiting";
  $("to-race").hidden = !you.room;
  if (you.room) $("to-race").href = roomUrl(you.room);
  $("all-in").checked = you.all_in;
  $("all-in").disabled = finished;
}

$("ready").addEventListener("click", () => send({ type: "ready" }));
$("pause").addEventListener("click", () => send({ type: "pause" }));
$("all-in").addEventListener("change", (event) => send({ type: "all_in", on: event.target.checked }));

render();
setInterval(() => { $("arena-clock").textContent = clockLine(state.arena, Date.now() + skew, T); }, 1000);
connect();
