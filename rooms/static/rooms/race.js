// A race room: the lobby, the 3-2-1 countdown, the board, the live leaders and the
// results, all from the room socket (docs/PROTOCOL.md). The server referees every pair.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const root = $("race");
  const T = JSON.parse($("strings").textContent);
  const code = root.dataset.code;
  let socket = null;
  let version = 0;
  let standingsAt = 0; // server time (ms) of the standings shown
  let snap = JSON.parse($("initial-snapshot").textContent);
  let offset = 0; // server clock minus ours, in ms
  let nextId = 1;
  let pairsRemoved = 0;
  let penaltyUntil = 0;
  let retryMs = 500;
  let outbox = []; // messages sent while the socket was (re)connecting

  const say = (text) => { $("message").textContent = text || ""; };
  const board = new MahjongBoard($("board"), $("board-wrap"), {
    sprite: root.dataset.sprite, strings: T, onSay: say, onPair: sendPair,
  });
  const serverNow = () => Date.now() + offset;
  const at = (iso) => (iso ? Date.parse(iso) : null);

  // --- the socket ---------------------------------------------------------------------
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/rooms/${code}/`);
    socket.addEventListener("open", () => {
      retryMs = 500;
      $("connection").textContent = "";
      send({ type: "ping", t: Date.now() });
      const waiting = outbox;
      outbox = [];
      waiting.forEach(send);
    });
    socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
    socket.addEventListener("close", (event) => {
      $("connection").textContent = T.reconnecting;
      // Refused for too many sockets (its error says why): wait the longest.
      if (event.code === 4429) retryMs = 8000;
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 8000);
    });
  }

  let resyncTimer = null;
  function resyncSoon() {
    if (resyncTimer) return;
    resyncTimer = setTimeout(() => { resyncTimer = null; send({ type: "snapshot" }); }, 1000);
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      outbox.push(message); // nothing is dropped: it goes as soon as the socket opens
      return null;
    }
    message.id = nextId++;
    socket.send(JSON.stringify(message));
    return message.id;
  }

  const HANDLERS = {
    snapshot: (m) => { version = m.v; standingsAt = at(m.server_now); showSnapshot(m); },
    lobby: (m) => { snap.room = m.room; showLobby(); },
    race_started: (m) => { snap.race = m.race; snap.results = null; showLobby(); },
    go: (m) => startPlaying(m.board),
    standings: (m) => {
      // Not a versioned event but a whole state: keep the latest, and none read before
      // an event this page has already seen (docs/PROTOCOL.md).
      if (m.v < version || m.at <= standingsAt) return;
      standingsAt = m.at;
      snap.standings = m.standings;
      showStandings();
    },
    race_finished: (m) => {
      snap.race = m.race; snap.results = m.results; snap.table = m.table; showResults();
    },
    ack: (m) => {
      if (m.status && m.status !== "playing") finishMine(m.status);
    },
    hint: (m) => board.highlight(m.pair),
    shuffled: (m) => {
      board.setFaces(m.board.tiles, m.board.alive);
      penaltyUntil = at(m.penalty_until) || 0;
      $("shuffles-left").textContent = m.shuffles_left;
      checkBlocked();
    },
    pong: (m) => {
      const now = Date.now();
      offset = at(m.server_now) - (m.t + now) / 2;
    },
    error: (m) => {
      say(m.message);
      if (["illegal", "stale", "penalty", "entry_over", "race_over"].includes(m.code)) send({ type: "snapshot" });
      // The database is away: nothing was stored, so the board this page already moved
      // on must come back. Asked again each second until the server can answer.
      if (m.code === "unavailable") resyncSoon();
    },
  };

  function receive(message) {
    if (message.v !== undefined && !["snapshot", "standings"].includes(message.type)) {
      if (message.v !== version + 1) { send({ type: "snapshot" }); return; }
      version = message.v;
    }
    const handler = HANDLERS[message.type];
    if (handler) handler(message);
  }

  // --- lobby ----------------------------------------------------------------------------
  const isOwner = () => snap.you !== null && snap.you === snap.room.owner_seat;
  const raceRunning = () => snap.race && snap.race.status === "running";

  function showLobby() {
    const room = snap.room;
    $("seat-count").textContent = `(${room.seats.length}/20)`;
    $("seats").replaceChildren(...room.seats.map((seat) => {
      const item = document.createElement("li");
      item.textContent = seat.nickname + (seat.id === snap.you ? " ★" : "");
      if (seat.cpu) item.classList.add("cpu");
      if (isOwner() && seat.id !== room.owner_seat && !raceRunning()) {
        const remove = document.createElement("button");
        remove.type = "button";
        remove.textContent = "✕";
        remove.setAttribute("aria-label", T.remove_seat.replace("{name}", seat.nickname));
        remove.addEventListener("click", () => send({ type: "remove_seat", seat: seat.id }));
        item.append(" ", remove);
      }
      return item;
    }));
    const form = $("rules");
    for (const [name, value] of Object.entries(room.rules)) {
      const field = form.elements[name];
      if (!field) continue;
      if (field.type === "checkbox") field.checked = value; else field.value = String(value);
      field.disabled = !isOwner() || raceRunning();
    }
    $("owner-tools").hidden = !isOwner() || raceRunning();
    $("start").hidden = !isOwner() || raceRunning();
    $("waiting").hidden = isOwner() || raceRunning() || snap.you === null;
    // While racing, the board takes the room: lobby and sharing fold away.
    $("lobby").hidden = Boolean(raceRunning());
    document.querySelector(".share").hidden = Boolean(raceRunning());
  }

  $("rules").addEventListener("change", (event) => {
    const field = event.target;
    const value = field.type === "checkbox" ? field.checked : (field.name === "level" ? field.value : Number(field.value));
    send({ type: "rules", rules: { [field.name]: value } });
  });
  $("add-cpu").addEventListener("click", () => send({ type: "add_cpu", level: $("cpu-level").value }));
  $("start").addEventListener("click", () => send({ type: "start" }));
  $("another").addEventListener("click", () => send({ type: "start" }));
  $("copy-link").addEventListener("click", () => navigator.clipboard && navigator.clipboard.writeText($("share-link").value));

  // --- the race -------------------------------------------------------------------------
  function showSnapshot(m) {
    snap = m;
    offset = at(m.server_now) - Date.now();
    showLobby();
    const entry = m.entry;
    $("results").hidden = true;
    if (!m.race || !entry) { $("play-area").hidden = !m.race; showStandings(); if (m.results) showResults(); return; }
    $("play-area").hidden = false;
    pairsRemoved = entry.pairs_removed;
    penaltyUntil = at(entry.penalty_until) || 0;
    $("hints-left").textContent = entry.hints_left;
    $("shuffles-left").textContent = entry.shuffles_left;
    board.load(entry.board.tiles, entry.board.alive);
    board.fit();
    $("progress").textContent = `${board.progress()}%`;
    const counting = !("face" in entry.board.tiles[0]);
    board.enabled = !counting && entry.status === "playing" && m.race.status === "running";
    $("countdown").hidden = !counting;
    showStandings();
    if (m.race.status === "finished") showResults();
    else if (entry.status !== "playing") finishMine(entry.status);
    else checkBlocked();
  }

  function startPlaying(boardJson) {
    $("countdown").textContent = T.go;
    setTimeout(() => { $("countdown").hidden = true; }, 500);
    board.setFaces(boardJson.tiles, boardJson.alive);
    board.enabled = true;
    say("");
  }

  function sendPair(pair) {
    if (serverNow() < penaltyUntil) { say(T.penalty); send({ type: "snapshot" }); return; }
    send({ type: "move", tiles: pair, n: pairsRemoved });
    pairsRemoved += 1;
    $("progress").textContent = `${board.progress()}%`;
    checkBlocked();
  }

  function checkBlocked() {
    const blocked = board.isBlocked() && board.aliveCount() > 0;
    const left = Number($("shuffles-left").textContent);
    $("shuffle").disabled = !blocked || left <= 0;
    if (blocked) say(left > 0 ? T.blocked_shuffle : T.blocked_out);
  }

  function finishMine(status) {
    board.enabled = false;
    say(T[status] || "");
  }

  function showStandings() {
    const rows = snap.standings || [];
    const label = (row) => row.status === "playing" ? `${row.progress}%` : (row.status === "finished" ? MahjongBoard.formatTime(row.finished_ms) : T[row.status]);
    $("leaders").replaceChildren(...rows.slice(0, 3).map((row) => {
      const item = document.createElement("li");
      item.textContent = `${row.nickname} ${label(row)}`;
      if (row.seat === snap.you) item.classList.add("me");
      return item;
    }));
    const mine = rows.findIndex((row) => row.seat === snap.you);
    $("you-line").textContent = mine >= 3
      ? T.you_line.replace("{place}", ordinal(mine + 1)).replace("{progress}", rows[mine].progress) : "";
  }

  function ordinal(n) {
    const s = { 1: "st", 2: "nd", 3: "rd" };
    return n + ((n % 100 >= 11 && n % 100 <= 13) ? "th" : (s[n % 10] || "th"));
  }

  function showResults() {
    board.enabled = false;
    $("results").hidden = false;
    $("results-rows").replaceChildren(...(snap.results || []).map((row) => {
      const tr = document.createElement("tr");
      const time = row.finished_ms !== null ? MahjongBoard.formatTime(row.finished_ms) : T[row.status] || "–";
      for (const text of [row.place, row.nickname, time, `${row.progress}%`, row.hints_used, row.shuffles_used, row.points]) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      if (row.seat === snap.you) tr.classList.add("me");
      return tr;
    }));
    $("room-table").replaceChildren(...(snap.table || []).map((row) => {
      const item = document.createElement("li");
      item.textContent = `${row.nickname}: ${row.points}`;
      return item;
    }));
    drawChart(snap.results || []);
    $("another").hidden = !isOwner();
    showLobby();
  }

  function drawChart(results) {
    const svg = $("progress-chart");
    const NS = "http://www.w3.org/2000/svg";
    const end = Math.max(60000, ...results.flatMap((r) => r.timeline.map((p) => p[0])));
    const x = (ms) => 40 + (550 * ms) / end;
    const y = (pct) => 220 - 2 * pct;
    const colors = ["#1f5f46", "#c0392b", "#2e6fb0", "#e8a33d", "#7d3c98", "#16a085", "#555"];
    const parts = [];
    const axis = document.createElementNS(NS, "path");
    axis.setAttribute("d", `M40 20V220H590`);
    axis.setAttribute("class", "axis");
    parts.push(axis);
    results.forEach((row, k) => {
      const points = [[0, 0], ...row.timeline].map(([ms, pct]) => `${x(ms).toFixed(1)},${y(pct).toFixed(1)}`);
      const line = document.createElementNS(NS, "polyline");
      line.setAttribute("points", points.join(" "));
      line.style.stroke = colors[k % colors.length]; // inline: beats the site's .chart rule
      line.setAttribute("fill", "none");
      line.style.strokeWidth = row.seat === snap.you ? "3" : "1.6";
      const title = document.createElementNS(NS, "title");
      title.textContent = row.nickname;
      line.append(title);
      parts.push(line);
      const last = [[0, 0], ...row.timeline].pop();
      const label = document.createElementNS(NS, "text");
      label.setAttribute("x", Math.min(x(last[0]) + 4, 520).toFixed(1));
      label.setAttribute("y", (y(last[1]) + 4 + 11 * (k % 3 - 1)).toFixed(1));
      label.style.fill = colors[k % colors.length];
      label.setAttribute("font-size", "11");
      label.textContent = row.nickname;
      parts.push(label);
    });
    svg.replaceChildren(...parts);
  }

  // The clock: counting down before go, then time since go (+ over time past the limit).
  function tick() {
    const race = snap.race;
    if (!race) return;
    const now = serverNow();
    const go = at(race.go_at);
    if (now < go) {
      $("countdown").hidden = false;
      $("countdown").textContent = String(Math.ceil((go - now) / 1000));
      return;
    }
    const end = race.status === "finished" ? at(race.finished_at) : now;
    const elapsed = end - go;
    const limit = at(race.time_limit_at) - go;
    $("clock").textContent = elapsed > limit
      ? `${MahjongBoard.formatTime(limit)} +${MahjongBoard.formatTime(elapsed - limit)}`
      : MahjongBoard.formatTime(elapsed);
    $("clock").classList.toggle("overtime", elapsed > limit);
  }

  $("hint").addEventListener("click", () => send({ type: "hint" }));
  $("shuffle").addEventListener("click", () => send({ type: "shuffle" }));
  $("give-up").addEventListener("click", () => { if (confirm(T.confirm_give_up)) send({ type: "give_up" }); });
  MahjongBoard.listenKeys(board, { h: () => send({ type: "hint" }) });
  MahjongBoard.setupTileStyle(root, $("tile-style"));
  setInterval(() => send({ type: "ping", t: Date.now() }), 15000);
  setInterval(tick, 200);
  showSnapshot(snap);
  connect();
})();
