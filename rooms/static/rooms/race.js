// A race room: the lobby, the 3-2-1 countdown, the board, the live standings and the
// results, all from the room socket (docs/PROTOCOL.md). The server referees every pair.
//
// The page is in one phase at a time, and only the controls that can act in it are
// enabled: "lobby" (seats and rules), "countdown" (backs only: no game state is claimed),
// "playing", "done" (this player's board is over: the clock stops, the standings of
// everyone take over until the race ends) and "results" (a screen of its own).
//
// One file (~640 lines) because every part reads the same snapshot and phase: the board
// itself lives in mahjong/static/mahjong/board.js, the chart and sounds are small.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const root = $("race");
  const T = JSON.parse($("strings").textContent);
  const code = root.dataset.code;
  const lang = document.documentElement.lang || "en";
  let socket = null;
  let version = 0;
  let standingsAt = 0; // server time (ms) of the standings shown
  let snap = JSON.parse($("initial-snapshot").textContent);
  let offset = 0; // server clock minus ours, in ms
  let nextId = 1;
  let pairsRemoved = 0;
  let acked = { race: null, pairs: 0 }; // the most pairs the server has acknowledged
  let penaltyUntil = 0;
  let retryMs = 500;
  let outbox = []; // messages sent while the socket was (re)connecting
  let phase = "lobby";
  let myStatus = null; // this seat's board in the current race: playing, finished, out, gave_up
  let myFinishMs = null; // the server's finish time of this board, once cleared
  let clockRace = null; // the race whose time the clock last showed running
  let snapRace = null; // the race of the last snapshot: it said whether this seat has a board
  let watching = false; // no board of one's own in this race: the whole table in its place
  let showingLobby = false; // after a race, the owner went back to the room's lobby
  let goSeen = null; // the race whose "go" the server has told (its clock outranks ours)
  let goShownUntil = 0; // "Go!" stays over the board until then
  let lastSecondSounded = null; // the 3-2-1 sounds once a second, "go" once a race
  const sound = (name) => window.MahjongSound && window.MahjongSound.play(name);

  const say = (text) => { $("message").textContent = text || ""; }; // refusals, a blocked board
  const tell = (text) => { $("notice").textContent = text || ""; }; // news of the room
  const board = new MahjongBoard($("board"), $("board-wrap"), {
    sprite: root.dataset.sprite, strings: T, onSay: say, onPair: sendPair,
  });
  const serverNow = () => Date.now() + offset;
  const at = (iso) => (iso ? Date.parse(iso) : null);
  const fmt = (ms) => MahjongBoard.formatTime(ms);

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
    lobby: (m) => { snap.room = m.room; render(); },
    race_started: (m) => {
      // Every socket is sent a snapshot next: a seat's board of backs, and the standings.
      snap.race = m.race; snap.results = null; snap.standings = [];
      showingLobby = false;
      if (snap.you === null) render();
    },
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
      snap.race = m.race; snap.results = m.results; snap.table = m.table; snap.history = m.history;
      showingLobby = false;
      render();
    },
    ack: (m) => {
      if (m.pairs_removed !== undefined && snap.race) {
        const race = snap.race.number;
        acked = { race, pairs: Math.max(m.pairs_removed, acked.race === race ? acked.pairs : 0) };
      }
      if (m.finished_ms !== undefined) myFinishMs = m.finished_ms;
      if (m.status && m.status !== "playing") {
        myStatus = m.status;
        render();
        if (m.status === "finished") celebrate();
      }
    },
    stand_in: (m) => noteStandIn(m.seat, m.nickname, m.on),
    watchers: (m) => {
      // Sockets without a seat watching the room (docs/PROTOCOL.md).
      $("watching").hidden = !m.count;
      $("watching").textContent = m.count === 1 ? T.watching_one : T.watching.replace("{n}", m.count);
    },
    hint: (m) => board.highlight(m.pair),
    shuffled: (m) => {
      board.setFaces(m.board.tiles, m.board.alive, { animate: true });
      sound("shuffle");
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
      if (["illegal", "stale", "penalty", "too_fast", "entry_over", "race_over"].includes(m.code)) send({ type: "snapshot" });
      // The database is away: nothing was stored, so the board this page already moved
      // on must come back. Asked again each second until the server can answer.
      if (m.code === "unavailable") resyncSoon();
    },
  };

  function receive(message) {
    if (message.v !== undefined && !["snapshot", "standings"].includes(message.type)) {
      if (message.v <= version) return; // sent before the snapshot that already holds it
      if (message.v !== version + 1) { send({ type: "snapshot" }); return; }
      version = message.v;
    }
    const handler = HANDLERS[message.type];
    if (handler) handler(message);
  }

  // --- phases ---------------------------------------------------------------------------
  function currentPhase() {
    const race = snap.race;
    if (!race || showingLobby) return "lobby";
    if (race.status === "finished") return "results";
    if (goSeen !== race.number && serverNow() < at(race.go_at)) return "countdown";
    return myStatus && myStatus !== "playing" ? "done" : "playing";
  }

  // Everything the phase decides: which sections show and which controls may act.
  function render() {
    phase = currentPhase();
    const seated = Boolean(snap.entry);
    showLobby();
    $("lobby").hidden = phase !== "lobby";
    document.querySelector(".share").hidden = phase !== "lobby";
    const boardShown = ["countdown", "playing", "done"].includes(phase);
    const wasHidden = $("play-area").hidden;
    $("play-area").hidden = !boardShown;
    if (boardShown && wasHidden) board.fit(); // a hidden board measured nothing
    $("results").hidden = phase !== "results";
    const acting = phase === "playing" && seated;
    for (const id of ["hint", "shuffle", "give-up"]) {
      $(id).hidden = !seated; // a visitor watching has nothing to press
      $(id).disabled = !acting;
    }
    for (const el of document.querySelectorAll(".seated-only")) el.hidden = !seated;
    board.enabled = acting;
    // A helper the room's rules allow or not, as they stood when the race started.
    board.showMatches = Boolean(snap.race && snap.race.rules && snap.race.rules.show_matches);
    if (acting) checkBlocked();
    if (phase === "countdown") say("");
    $("clock").classList.toggle("stopped", myStatus !== null && myStatus !== "playing");
    // Stopped at the server's finish time now, not at the next tick: the live clock may
    // have run a little behind it, and a finished clock must not move again.
    if (myFinishMs !== null && phase !== "countdown") tick();
    showWatching(seated);
    showReadyCheck();
    showDone();
    showStandings();
    if (phase === "results") showResults();
  }

  // No board in this race: a visitor, or a seat that did not say Ready for a rematch. The
  // whole table takes the board's place: a spectator never gets a face (docs/PROTOCOL.md).
  // A seat learns it sits a race out from that race's snapshot, not from race_started.
  function showWatching(seated) {
    const told = snap.you === null || (snap.race && snapRace === snap.race.number);
    watching = !seated && Boolean(told) && ["countdown", "playing", "done"].includes(phase);
    $("play-area").classList.toggle("watching", watching);
    const joinNext = $("join-next"); // on the join form of a visitor (rooms/room.html)
    if (joinNext) joinNext.hidden = phase === "lobby";
    const note = !watching ? "" : snap.you !== null ? T.sitting_out : T.spectating;
    if (note) tell(note);
    else if ([T.sitting_out, T.spectating].includes($("notice").textContent)) tell("");
  }

  // --- lobby ----------------------------------------------------------------------------
  const isOwner = () => snap.you !== null && snap.you === snap.room.owner_seat;

  function seatLabel(seat) {
    const tags = [];
    if (seat.id === snap.room.owner_seat) tags.push(T.tag_owner);
    if (seat.id === snap.you) tags.push(T.tag_you);
    if (snap.room.offer_at && !seat.cpu) tags.push(seat.ready ? T.ready_yes : T.ready_no);
    const name = seat.rating ? `${seat.nickname} ${seat.rating}` : seat.nickname; // ranked: "Ana 1500?"
    return tags.length ? `${name} (${tags.join(", ")})` : name;
  }

  function showLobby() {
    const room = snap.room;
    const inLobby = phase === "lobby";
    $("seat-count").textContent = `(${room.seats.length}/20)`;
    $("seats").replaceChildren(...room.seats.map((seat) => {
      const item = document.createElement("li");
      item.textContent = seatLabel(seat);
      if (seat.cpu) item.classList.add("cpu");
      if (seat.id === snap.you) item.classList.add("me");
      if (isOwner() && seat.id !== room.owner_seat && inLobby) {
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
      if (field instanceof RadioNodeList) {  // the layout picker (layouts/_picker.html)
        for (const radio of field) {
          radio.checked = radio.value === String(value);
          radio.disabled = !isOwner() || !inLobby;
        }
        showLayout(String(value));
        continue;
      }
      if (field.type === "checkbox") field.checked = value; else field.value = String(value);
      field.disabled = !isOwner() || !inLobby;
    }
    // A chosen layout makes the level, flowers and handicap moot (docs/LAYOUTS.md §Races).
    for (const name of ["level", "flowers", "handicap"]) {
      form.elements[name].closest("label").hidden = Boolean(room.rules.layout);
    }
    $("owner-tools").hidden = !isOwner() || !inLobby;
    $("public-room").checked = Boolean(room.public);
    $("start").hidden = !isOwner() || !inLobby;
    $("waiting").hidden = isOwner() || snap.you === null;
    $("waiting").textContent = room.ranked ? T.ranked_next : T.waiting;
  }

  // The chosen layout's name on the closed picker ("the level's" for the default).
  function showLayout(key) {
    const current = $("layout-current");
    const radio = [...$("rules").elements.layout].find((r) => r.value === key);
    const label = radio && radio.closest(".pick") && radio.closest(".pick").querySelector(".choice-label");
    current.textContent = key === "" ? current.dataset.level : (label ? label.textContent : key);
  }

  $("rules").addEventListener("change", (event) => {
    const field = event.target;
    if (!field.name) return;  // the picker's filter box is no rule
    const text = field.name === "level" || field.name === "layout";
    const value = field.type === "checkbox" ? field.checked : (text ? field.value : Number(field.value));
    send({ type: "rules", rules: { [field.name]: value } });
  });
  $("add-cpu").addEventListener("click", () => send({ type: "add_cpu", level: $("cpu-level").value }));
  $("public-room").addEventListener("change", (event) => send({ type: "public", public: event.target.checked }));
  // After a race, "Another game" first offers it (the ready check), then starts it.
  const startOrOffer = () => send({ type: snap.race && !snap.room.offer_at ? "offer" : "start" });
  $("start").addEventListener("click", startOrOffer);
  $("another").addEventListener("click", startOrOffer);
  $("ready").addEventListener("click", () => send({ type: "ready" }));
  $("to-lobby").addEventListener("click", () => { showingLobby = true; render(); });
  $("copy-link").addEventListener("click", async () => {
    const link = $("share-link");
    try {
      await navigator.clipboard.writeText(link.value);
      $("copied").textContent = T.copied;
    } catch (error) { // no clipboard here: the link is selected for the player to copy
      link.select();
      $("copied").textContent = T.copy_by_hand;
    }
    setTimeout(() => { $("copied").textContent = ""; }, 3000);
  });

  // --- the race -------------------------------------------------------------------------
  function showSnapshot(m) {
    // A snapshot built before a pair the server has since acknowledged (socket answers
    // run on threads, so one may overtake another) would put tiles back and restart a
    // stopped clock: ask again for one that holds every acknowledged pair.
    const same = m.race && acked.race === m.race.number;
    if (same && m.entry && m.entry.pairs_removed < acked.pairs) { send({ type: "snapshot" }); return; }
    snap = m;
    snapRace = m.race ? m.race.number : null;
    offset = at(m.server_now) - Date.now();
    const entry = m.entry;
    myStatus = entry ? entry.status : null;
    myFinishMs = entry ? entry.finished_ms : null;
    if (entry) {
      pairsRemoved = entry.pairs_removed;
      penaltyUntil = at(entry.penalty_until) || 0;
      $("hints-left").textContent = entry.hints_left;
      $("shuffles-left").textContent = entry.shuffles_left;
      if ("face" in (entry.board.tiles[0] || {})) goSeen = m.race.number;
      board.load(entry.board.tiles, entry.board.alive);
      board.fit();
      $("progress").textContent = `${board.progress()}%`;
    }
    render();
  }

  function startPlaying(boardJson) {
    goSeen = snap.race ? snap.race.number : null;
    goShownUntil = Math.max(goShownUntil, serverNow() + 800);
    board.setFaces(boardJson.tiles, boardJson.alive);
    say("");
    render();
  }

  function sendPair(pair) {
    if (serverNow() < penaltyUntil) { say(T.penalty); send({ type: "snapshot" }); return; }
    send({ type: "move", tiles: pair, n: pairsRemoved });
    pairsRemoved += 1;
    $("progress").textContent = `${board.progress()}%`;
    checkBlocked();
  }

  function checkBlocked() {
    if (phase !== "playing") return; // a board of backs is not a blocked board
    const blocked = board.isBlocked() && board.aliveCount() > 0;
    const left = Number($("shuffles-left").textContent);
    $("shuffle").disabled = !blocked || left <= 0;
    if (blocked) say(left > 0 ? T.blocked_shuffle : T.blocked_out);
  }

  // Every finished race of the room, each a link to its replay.
  function showHistory() {
    const races = snap.history || [];
    $("room-history").hidden = races.length === 0;
    $("room-history-list").replaceChildren(...races.map((race) => {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = root.dataset.replayUrl.replace("/0/", `/${race.id}/`);
      link.textContent = T.race_n.replace("{n}", race.number);
      item.append(link);
      return item;
    }));
  }

  // "1st", "2nd" in English; "1.º" in Spanish.
  function ordinal(n) {
    if (lang.startsWith("es")) return `${n}.º`;
    const suffix = { one: "st", two: "nd", few: "rd", other: "th" };
    return n + suffix[new Intl.PluralRules("en", { type: "ordinal" }).select(n)];
  }

  // The standings as last sent, with this seat's own row as its own answers tell it: the
  // answer to the last pair comes before the next standings, and the banner must not
  // count a finished player among those still playing.
  function currentRows() {
    const rows = (snap.standings || []).map((row) => (
      row.seat === snap.you && myStatus && myStatus !== "playing" && row.status === "playing"
        ? { ...row, status: myStatus, finished_ms: myFinishMs,
            progress: myStatus === "finished" ? 100 : row.progress }
        : row));
    const finished = rows.filter((row) => row.status === "finished")
      .sort((a, b) => a.finished_ms - b.finished_ms);
    return [...finished, ...rows.filter((row) => row.status !== "finished")];
  }

  function stillPlaying(rows) {
    return rows.filter((row) => row.status === "playing" && row.seat !== snap.you).length;
  }

  // This player cleared the board: the moment is marked (motion and sound as the
  // player's settings allow).
  function celebrate() {
    board.celebrate();
    sound("win");
  }

  // This player's board is over: one clear line, kept true as the others go on.
  function showDone() {
    const banner = $("done-banner");
    banner.hidden = phase !== "done";
    if (banner.hidden) { banner.textContent = ""; return; } // no old race's line left behind
    const rows = currentRows();
    const place = rows.findIndex((row) => row.seat === snap.you) + 1;
    let line = T[`you_${myStatus}`] || "";
    if (myStatus === "finished") {
      line = line.replace("{place}", place ? ordinal(place) : "").replace("{time}", fmt(myFinishMs || 0));
    }
    const still = stillPlaying(rows);
    const rest = still === 1 ? T.still_playing_one : T.still_playing.replace("{n}", still);
    banner.textContent = still ? `${line} — ${rest}` : line;
    say("");
  }

  // A CPU took an away player's board, or the player is back (docs/PROTOCOL.md). Told
  // once per change, whether the page learns it from the event or, after a missed
  // event, from the standings of a snapshot.
  const standIns = new Map(); // race number and seat → a CPU plays it
  function noteStandIn(seat, nickname, on) {
    const key = `${snap.race ? snap.race.number : 0}:${seat}`;
    const was = standIns.get(key);
    standIns.set(key, on);
    if (was === on || (was === undefined && !on)) return;
    if (seat === snap.you) tell(on ? T.you_stood_in : "");
    else tell((on ? T.stand_in_on : T.stand_in_off).replace("{name}", nickname));
  }

  // "Bo (CPU standing in)" while a CPU plays an away player's board; "Bo 1500?" ranked.
  const ratingOf = (seatId) => (snap.room.seats.find((seat) => seat.id === seatId) || {}).rating;
  const shownName = (row, rating = ratingOf(row.seat)) => {
    const name = rating ? `${row.nickname} ${rating}` : row.nickname;
    return row.stand_in ? `${name} (${T.stand_in})` : name;
  };

  function standingLabel(row) {
    if (row.status === "playing") return `${row.progress}%`;
    if (row.status === "finished") return fmt(row.finished_ms);
    return T[row.status];
  }

  function showStandings() {
    const rows = currentRows();
    for (const row of rows) noteStandIn(row.seat, row.nickname, row.stand_in);
    $("leaders").replaceChildren(...rows.slice(0, 3).map((row) => {
      const item = document.createElement("li");
      item.textContent = `${shownName(row)} ${standingLabel(row)}`;
      if (row.seat === snap.you) item.classList.add("me");
      return item;
    }));
    const mine = rows.findIndex((row) => row.seat === snap.you);
    $("you-line").textContent = mine >= 3
      ? T.you_line.replace("{place}", ordinal(mine + 1)).replace("{progress}", rows[mine].progress) : "";
    showAllStandings(rows);
    if (phase === "done") showDone();
  }

  // Every seat: a progress bar and where it stands. Open by itself once this player is done.
  function showAllStandings(rows) {
    const all = $("all-standings");
    if ((phase === "done" || watching) && !all.dataset.opened) { all.open = true; all.dataset.opened = "1"; }
    $("all-count").textContent = `(${rows.length})`;
    $("all-rows").replaceChildren(...rows.map((row, k) => {
      const item = document.createElement("li");
      if (row.seat === snap.you) item.classList.add("me");
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = `${ordinal(k + 1)} ${shownName(row)}`;
      const bar = document.createElement("progress");
      bar.max = 100;
      bar.value = row.progress;
      bar.setAttribute("aria-label", `${row.nickname} ${row.progress}%`);
      const state = document.createElement("span");
      state.className = `state ${row.status}`;
      state.textContent = standingLabel(row);
      item.append(name, bar, state);
      return item;
    }));
  }

  function showResults() {
    board.enabled = false;
    const ranked = snap.room.ranked;
    $("results-title").textContent = T.results_title.replace("{n}", snap.race.number);
    $("replay-link").href = root.dataset.replayUrl.replace("/0/", `/${snap.race.id}/`);
    $("rating-head").hidden = !ranked;
    $("results-rows").replaceChildren(...(snap.results || []).map((row) => {
      const tr = document.createElement("tr");
      const time = row.finished_ms !== null ? fmt(row.finished_ms) : T[row.status] || "–";
      let name = row.seat === snap.you ? `${shownName(row, null)} (${T.tag_you})` : shownName(row, null);
      if (row.cpu_pairs) name += ` — ${T.cpu_help.replace("{n}", row.cpu_pairs).replace("{total}", row.pairs)}`;
      const cells = [row.place, name, time, `${row.progress}%`, row.hints_used, row.shuffles_used,
        pointsText(row.points)];
      if (ranked) cells.push(row.rating_from ? `${row.rating_from} → ${row.rating_to} (${signed(row.rating_change)})` : signed(row.rating_change));
      for (const text of cells) {
        const td = document.createElement("td");
        td.textContent = text;
        tr.append(td);
      }
      if (row.seat === snap.you) tr.classList.add("me");
      return tr;
    }));
    $("room-table").replaceChildren(...(snap.table || []).map((row) => {
      const item = document.createElement("li");
      const line = Number(row.points) === 1 ? T.points_line_one : T.points_line;
      item.textContent = line.replace("{name}", row.nickname).replace("{points}", pointsText(row.points));
      return item;
    }));
    showHistory();
    drawChart(snap.results || []);
    $("another").hidden = !isOwner();
    $("to-lobby").hidden = !isOwner();
    // Once another game is offered, the ready check says what happens next instead.
    $("results-waiting").hidden = isOwner() || snap.you === null || Boolean(snap.room.offer_at);
    $("results-waiting").textContent = ranked ? T.ranked_over : T.waiting_next;
  }

  // The ready check of another game: who is ready, and when the owner may start.
  function showReadyCheck() {
    const room = snap.room;
    const open = Boolean(room.offer_at) && ["results", "lobby"].includes(phase);
    $("ready-check").hidden = !open;
    const mine = room.seats.find((seat) => seat.id === snap.you);
    $("ready").hidden = !open || !mine || mine.ready || isOwner();
    $("another").textContent = room.offer_at ? T.start_next : T.another;
    $("start").disabled = false;
    $("another").disabled = false;
    if (!open) return;
    const humans = room.seats.filter((seat) => !seat.cpu);
    $("ready-list").replaceChildren(...humans.map((seat) => {
      const item = document.createElement("li");
      item.textContent = `${seat.nickname}: ${seat.ready ? T.ready_yes : T.ready_no}`;
      item.className = seat.ready ? "ready" : "waiting";
      return item;
    }));
    // A second's margin over the server's deadline: this page's idea of the server's
    // clock may run a little ahead, and an early Start would be refused "not_ready".
    const deadline = at(room.offer_at) + room.ready_seconds * 1000 + 1000;
    const left = Math.ceil((deadline - serverNow()) / 1000);
    const everyone = humans.every((seat) => seat.ready);
    if (isOwner()) {
      const may = everyone || left <= 0;
      $("another").disabled = !may;
      $("start").disabled = !may;
      $("ready-note").textContent = may ? T.offer_note_owner_now : T.offer_note_owner.replace("{s}", left);
    } else {
      $("ready-note").textContent = mine && mine.ready ? T.offer_note_ready : T.offer_note;
    }
  }

  // A rating change as players read it: "+16", "−8" (a real minus), "0".
  // Points as the page's language writes them (0.5, or 0,5 in Spanish).
  const pointsText = (points) => Number(points).toLocaleString(lang);

  function signed(change) {
    if (change === null || change === undefined) return "–";
    return change > 0 ? `+${change}` : (change < 0 ? `−${-change}` : "0");
  }

  // Progress over time: minutes along the bottom, names at the right kept apart.
  function drawChart(results) {
    const svg = $("progress-chart");
    const NS = "http://www.w3.org/2000/svg";
    const make = (tag, attrs, text) => {
      const el = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
      if (text !== undefined) el.textContent = text;
      return el;
    };
    // Drawn at the width it is shown (a phone's is ~370 px), so its text stays readable.
    const width = Math.round(Math.max(340, Math.min(600, svg.getBoundingClientRect().width || 600)));
    const left = 36, right = width - 130, top = 14, bottom = 206;
    const end = Math.max(60000, ...results.flatMap((r) => r.timeline.map((p) => p[0])));
    const x = (ms) => left + ((right - left) * ms) / end;
    const y = (pct) => bottom - ((bottom - top) * pct) / 100;
    // The series' colours come from the page's theme (race.css, --series).
    const colors = getComputedStyle(svg).getPropertyValue("--series").trim().split(/\s+/);
    const parts = [make("path", { d: `M${left} ${top}V${bottom}H${right}`, class: "axis" })];
    const minutes = end / 60000;
    const every = Math.max(1, Math.ceil(minutes / 8));
    for (let m = 0; m <= minutes + 1e-9; m += every) {
      parts.push(make("text", { x: x(m * 60000), y: bottom + 14, class: "tick", "text-anchor": "middle" }, String(m)));
    }
    parts.push(make("text", { x: right, y: bottom + 28, class: "tick", "text-anchor": "end" }, T.minutes));
    for (const pct of [0, 50, 100]) {
      parts.push(make("text", { x: left - 4, y: y(pct) + 4, class: "tick", "text-anchor": "end" }, `${pct}%`));
    }
    const labels = [];
    results.forEach((row, k) => {
      const color = colors[k % colors.length];
      const line = [[0, 0], ...row.timeline];
      const points = line.map(([ms, pct]) => `${x(ms).toFixed(1)},${y(pct).toFixed(1)}`);
      const poly = make("polyline", { points: points.join(" "), fill: "none" });
      poly.style.stroke = color; // inline: beats the site's .chart rule
      poly.style.strokeWidth = row.seat === snap.you ? "3" : "1.6";
      poly.append(make("title", {}, row.nickname));
      parts.push(poly);
      labels.push({ y: y(line[line.length - 1][1]), name: row.nickname, color });
    });
    // Names sorted by height and pushed apart so none overlaps another.
    labels.sort((a, b) => a.y - b.y);
    let last = -Infinity;
    for (const label of labels) {
      label.y = Math.max(label.y, last + 12);
      last = label.y;
      const text = make("text", { x: right + 6, y: (label.y + 4).toFixed(1), class: "name" },
        label.name.length > 16 ? `${label.name.slice(0, 15)}…` : label.name);
      text.style.fill = label.color;
      parts.push(text);
    }
    const height = Math.max(240, last + 10);
    svg.setAttribute("viewBox", `0 0 ${width} ${Math.ceil(height)}`);
    svg.replaceChildren(...parts);
  }

  // The clock: the countdown over the board before go, then time since go (+ over time
  // past the limit), stopped at this board's finish time once it is cleared.
  function tick() {
    const race = snap.race;
    const countdown = $("countdown");
    if (snap.room.offer_at) showReadyCheck();
    if (!race || race.status !== "running") { countdown.hidden = true; return; }
    const now = serverNow();
    const go = at(race.go_at);
    if (now < go && goSeen !== race.number) {
      const second = Math.ceil((go - now) / 1000);
      countdown.hidden = false;
      const gathering = race.countdown_at && now < at(race.countdown_at); // ranked: players arrive
      countdown.textContent = gathering ? T.get_ready : String(second);
      $("clock").textContent = fmt(0); // not the last race's time
      $("clock").classList.remove("overtime");
      if (!gathering) soundOnce(`${race.number}:${second}`, "count");
      goShownUntil = go + 800;
      if (phase !== "countdown") render();
      return;
    }
    if (phase === "countdown") render(); // "go" passed: the phase moves on even before the board comes
    countdown.textContent = T.go;
    countdown.hidden = now >= goShownUntil;
    if (!countdown.hidden) soundOnce(`${race.number}:go`, "go");
    if (myFinishMs === null && ["gave_up", "out"].includes(myStatus)) {
      // The board ended unfinished: the clock holds where it was; a page opened after
      // that claims no time.
      if (clockRace !== race.number) $("clock").textContent = "–";
      return;
    }
    clockRace = race.number;
    const elapsed = myFinishMs !== null ? myFinishMs : now - go;
    const limit = at(race.time_limit_at) - go;
    $("clock").textContent = elapsed > limit ? `${fmt(limit)} +${fmt(elapsed - limit)}` : fmt(elapsed);
    $("clock").classList.toggle("overtime", elapsed > limit);
  }

  function soundOnce(key, name) {
    if (lastSecondSounded === key) return;
    lastSecondSounded = key;
    sound(name);
  }

  $("hint").addEventListener("click", () => send({ type: "hint" }));
  $("shuffle").addEventListener("click", () => send({ type: "shuffle" }));
  $("give-up").addEventListener("click", () => { if (confirm(T.confirm_give_up)) send({ type: "give_up" }); });
  MahjongBoard.listenKeys(board, { h: () => { if (phase === "playing" && snap.entry) send({ type: "hint" }); } });
  MahjongBoard.setupTileStyle(root, $("tile-style"));
  setInterval(() => send({ type: "ping", t: Date.now() }), 15000);
  setInterval(tick, 100);
  showSnapshot(snap);
  connect();
})();
