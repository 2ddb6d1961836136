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

  // Refusals are errors; the board's own news ("12 pairs open.", why a tile is blocked) and
  // a blocked board are information, not drawn in error red (site.css, message kinds).
  const say = (text, kind = "error") => {
    $("message").textContent = text || "";
    $("message").dataset.kind = kind;
  };
  const tell = (text) => { $("notice").textContent = text || ""; }; // news of the room
  const board = new MahjongBoard($("board"), $("board-wrap"), {
    sprite: root.dataset.sprite, strings: T, onSay: (text) => say(text, "info"), onPair: sendPair,
  });
  const serverNow = () => Date.now() + offset;
  const at = (iso) => (iso ? Date.parse(iso) : null);
  const fmt = (ms) => MahjongBoard.formatTime(ms);

  // --- the socket ---------------------------------------------------------------------
  // The link to the server (docs/PROTOCOL.md §Reconnecting) is "first" (the page's own
  // snapshot, the socket not yet answered), "up", "down" (no socket, or one found dead:
  // the board and its controls freeze under a cover, and the pairs not yet acknowledged
  // are kept), "resync" (a new socket: its snapshot is the truth; kept pairs it lacks are
  // sent again one by one, and a last snapshot lifts the cover) or "gone" (no such room).
  let link = "first";
  let pending = []; // pairs sent or kept, not yet acknowledged, oldest first: {tiles, n}
  let resend = null; // during a resync: the kept pairs still to send again (null: not sorted yet)
  let refusedPairs = 0; // kept pairs the server did not take: their tiles came back
  let lastHeard = 0; // Date.now() of the socket's last message
  let heardServerAt = 0; // the server's time then: a cut-off clock holds past the limit there
  let probeAt = 0; // a ping sent to check the socket, not yet answered
  let openedAt = 0;
  let snapshotAskedAt = 0; // Date.now() a resyncing socket last asked for its snapshot
  let lastPairAt = 0; // Date.now() of this page's last pair sent (the pace floor)
  let retryTimer = null;
  const PROBE_MS = 5000; // an unanswered ping: the socket is dead (a lost network, a tab that slept)
  const ACK_WAIT_MS = 2500; // a pair unanswered this long makes the page check the socket
  const OPEN_WAIT_MS = 10000; // a socket still opening then is given up and tried again
  // docs/RULES.md §Fair play: pairs sent again are spaced past the server's pace floor.
  const PAIR_GAP_MS = Number(root.dataset.pairFloorMs || 250) + 100;

  function connect() {
    clearTimeout(retryTimer);
    retryTimer = null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/rooms/${code}/`);
    socket = ws;
    openedAt = Date.now();
    ws.addEventListener("open", () => {
      if (ws !== socket) return; // a socket this page gave up on
      retryMs = 500;
      if (link !== "first") { // its first message is a snapshot, that sorts the kept pairs
        pending = pending.concat(resend || []);
        resend = null;
        setLink("resync");
      }
      send({ type: "ping", t: Date.now() });
      const waiting = outbox;
      outbox = [];
      waiting.forEach(send);
    });
    ws.addEventListener("message", (event) => { if (ws === socket) heard(JSON.parse(event.data)); });
    ws.addEventListener("close", (event) => { if (ws === socket) lost(event.code); });
  }

  function heard(message) {
    lastHeard = Date.now();
    probeAt = 0;
    receive(message);
    heardServerAt = serverNow();
  }

  // The socket closed, or was found dead: freeze, and try again with a growing wait.
  function lost(closeCode) {
    socket = null;
    probeAt = 0;
    clearTimeout(retryTimer);
    if (closeCode === 4404) { setLink("gone"); return; } // no such room: nothing to come back to
    setLink("down");
    // Refused for too many sockets (its error says why): wait the longest.
    if (closeCode === 4429) retryMs = 8000;
    // Spread a little, so that a restarted server is not met by every page at once.
    retryTimer = setTimeout(connect, retryMs * (0.8 + Math.random() * 0.4));
    retryMs = Math.min(retryMs * 2, 8000);
  }

  function drop() {
    const dead = socket;
    lost(1006);
    if (dead) dead.close();
  }

  // Is the socket alive? A ping; unanswered within PROBE_MS, the socket is dropped.
  function probe() {
    if (!socket || socket.readyState !== WebSocket.OPEN || probeAt) return;
    probeAt = Date.now();
    send({ type: "ping", t: probeAt });
  }

  function watchLink() {
    const now = Date.now();
    if (probeAt && now - probeAt > PROBE_MS) { drop(); return; }
    if (socket && socket.readyState === WebSocket.CONNECTING && now - openedAt > OPEN_WAIT_MS) { drop(); return; }
    const quiet = now - Math.max(lastHeard, openedAt) > ACK_WAIT_MS;
    // A pair unanswered, or a new socket that has not yet sent its snapshot: is it alive?
    if (quiet && (link === "resync" || (link === "up" && pending.length && now - lastPairAt > ACK_WAIT_MS))) probe();
    // A new socket whose first snapshot was lost on the way (it opened while the network
    // was still dead, and answers pings now): ask for one again.
    if (link === "resync" && socket && socket.readyState === WebSocket.OPEN && now - Math.max(snapshotAskedAt, openedAt) > ACK_WAIT_MS) {
      snapshotAskedAt = now;
      send({ type: "snapshot" });
    }
  }

  // Back from sleep, back online, or "Try now": a live socket is checked, none is opened at once.
  function checkLink() {
    if (link === "gone") return;
    if (socket) { probe(); return; }
    retryMs = 500;
    connect();
  }

  let resyncTimer = null;
  function resyncSoon() {
    if (resyncTimer) return;
    resyncTimer = setTimeout(() => { resyncTimer = null; send({ type: "snapshot" }); }, 1000);
  }

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      // Nothing asked is dropped: it goes as soon as the socket opens. A new socket sends
      // its snapshot by itself, and pairs wait in `pending`, not here.
      if (!["snapshot", "ping", "move"].includes(message.type)) outbox.push(message);
      return null;
    }
    message.id = nextId++;
    socket.send(JSON.stringify(message));
    return message.id;
  }

  // The cover over the board while the link is not up: nothing under it can be played
  // (the board is inert, its controls disabled) and the focus is not left there.
  function showCover() {
    const cover = $("link-cover");
    const covered = ["down", "resync", "gone"].includes(link);
    const shown = covered && Boolean(snap.entry) && !$("play-area").hidden && !watching;
    const wasHidden = cover.hidden;
    cover.hidden = !shown;
    board.scrollEl.inert = covered;
    const text = link === "gone" ? T.link_gone : T.link_down;
    $("connection").textContent = covered && !shown ? text : "";
    $("link-retry").hidden = link === "gone";
    $("link-rooms").hidden = link !== "gone";
    if (!shown) return;
    // Written once the region shows, so that a screen reader reads it out.
    $("link-cover-title").textContent = text;
    const kept = link === "gone" ? 0 : pending.length + (resend ? resend.length : 0);
    $("link-cover-kept").textContent = !kept ? "" : kept === 1 ? T.link_kept_one : T.link_kept.replace("{n}", kept);
    const focus = document.activeElement;
    if (wasHidden && (!focus || focus === document.body || $("play-area").contains(focus))) cover.focus();
  }

  function setLink(state) {
    const wasCovered = ["down", "resync", "gone"].includes(link);
    link = state;
    root.dataset.link = state; // for the tests, which wait on it
    render();
    if (state !== "up") return;
    // The cover is gone: the focus it held goes back to the board, and a refusal is told.
    if (wasCovered && $("link-cover").contains(document.activeElement)) {
      const i = board.focusIndex;
      board.setFocus(i !== null && board.alive[i] ? i : null);
    }
    if (refusedPairs) {
      say(refusedPairs === 1 ? T.link_refused_one : T.link_refused.replace("{n}", refusedPairs));
      refusedPairs = 0;
    }
  }

  const HANDLERS = {
    snapshot: (m) => {
      $("cpus-paused").hidden = !m.cpus_paused; // the server's word: no worker runs CPU steps
      version = m.v;
      standingsAt = at(m.server_now);
      if (showSnapshot(m) && ["first", "resync"].includes(link)) resyncFrom(m);
    },
    lobby: (m) => { snap.room = m.room; render(); },
    race_started: (m) => {
      // Every socket is sent a snapshot next: a seat's board of backs, and the standings.
      snap.race = m.race; snap.results = null; snap.standings = [];
      showingLobby = false;
      // Notices belong to the race they happened in; the last race's board is not this
      // one's (its snapshot brings this seat's new board, or none: it sits out).
      tell("");
      $("board").hidden = true;
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
        pending = pending.filter((pair) => pair.n >= m.pairs_removed);
        showProgress();
        showStandings(); // this player's own row takes the pair at once (currentRows)
        if (link === "resync" && resend) resendNext();
      }
      if (m.finished_ms !== undefined) myFinishMs = m.finished_ms;
      if (m.status && m.status !== "playing") {
        myStatus = m.status;
        render();
        if (m.status === "finished") celebrate();
      }
    },
    stand_in: (m) => noteStandIn(m.seat, m.nickname, m.on, m.pairs),
    watchers: (m) => {
      // Sockets without a seat watching the room (docs/PROTOCOL.md).
      $("watching").hidden = !m.count;
      $("watching").textContent = m.count === 1 ? T.watching_one : T.watching.replace("{n}", m.count);
    },
    hint: (m) => {
      board.highlight(m.pair);
      $("hints-left").textContent = m.hints_left; // the server's count, after this hint
    },
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
      if (m.code === "no_room") return; // the close (4404) that follows puts it on the cover
      say(m.message);
      if (link === "resync" && pending.length) { refuseResends(); return; }
      if (["illegal", "stale", "penalty", "too_fast", "entry_over", "race_over"].includes(m.code)) send({ type: "snapshot" });
      // The database is away: nothing was stored, so the board this page already moved
      // on must come back. Asked again each second until the server can answer.
      if (m.code === "unavailable") resyncSoon();
    },
  };

  function receive(message) {
    if (message.v !== undefined && !["snapshot", "standings"].includes(message.type)) {
      if (message.v <= version && isMyReturn(message)) noteStandIn(message.seat, message.nickname, false, message.pairs);
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
    const acting = phase === "playing" && seated && ["first", "up"].includes(link);
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
    showCover();
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
    if (joinNext) joinNext.hidden = !["countdown", "playing", "done"].includes(phase); // "a race is on"
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
    // After a race, Start offers another game: the ready check above then says the rest.
    $("start").hidden = !isOwner() || !inLobby || Boolean(room.offer_at);
    $("start").textContent = snap.race ? T.another : startLabel;
    $("waiting").hidden = isOwner() || snap.you === null || Boolean(room.offer_at);
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
  // After a race, "Another game" (from the results or the lobby) offers it: the ready
  // check, which starts it by itself once everyone is ready (docs/RULES.md §Races).
  const startLabel = $("start").textContent;
  const startOrOffer = () => send({ type: snap.race ? "offer" : "start" });
  $("start").addEventListener("click", startOrOffer);
  $("another").addEventListener("click", startOrOffer);
  $("start-now").addEventListener("click", () => send({ type: "start" }));
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
    if (same && m.entry && m.entry.pairs_removed < acked.pairs) { send({ type: "snapshot" }); return false; }
    if (link === "up") pending = []; // the server's board is the truth: what it lacks is not kept
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
      $("board").hidden = false;
      board.load(entry.board.tiles, entry.board.alive);
      board.fit();
      showProgress();
    }
    render();
    return true;
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
    pending.push({ tiles: pair, n: pairsRemoved });
    if (link === "up") sendMove(pending[pending.length - 1]); // else kept: the resync sends it
    pairsRemoved += 1;
    showProgress();
    checkBlocked();
  }

  function sendMove(pair) {
    lastPairAt = Date.now();
    send({ type: "move", tiles: pair.tiles, n: pair.n });
  }

  // What the server holds: a pair counts once it is acknowledged, so a board cleared
  // here reads 100% only when the server has stored its last pair.
  function showProgress() {
    const unsure = pending.filter((pair) => !board.alive[pair.tiles[0]]).length;
    const total = board.tiles.length;
    $("progress").textContent = `${total ? Math.floor(((board.removedCount() - 2 * unsure) * 100) / total) : 0}%`;
  }

  // After (re)connecting, the socket's snapshot is the truth (docs/PROTOCOL.md
  // §Reconnecting). A kept pair whose two tiles are still on its board never reached the
  // server and is sent again, in order, after the count the snapshot gives; one whose
  // tiles are both gone was stored; one half gone (a stand-in moved) can no longer be.
  function resyncFrom(m) {
    if (resend === null) {
      const alive = new Set(m.entry ? m.entry.board.alive : []);
      const open = Boolean(m.entry) && m.entry.status === "playing" && m.race.status === "running";
      const missing = pending.filter((pair) => pair.tiles.every((i) => alive.has(i)));
      const half = pending.filter((pair) => pair.tiles.some((i) => alive.has(i)) && !missing.includes(pair));
      refusedPairs += half.length + (open ? 0 : missing.length);
      resend = open ? missing : [];
      pending = [];
    }
    if (resend.length || pending.length) { resendNext(); return; }
    resend = null;
    setLink("up");
  }

  // One kept pair at a time, each after the last one's answer; after the last, a snapshot.
  let resendTimer = null;
  function resendNext() {
    if (pending.length) return;
    if (!resend.length) { send({ type: "snapshot" }); return; } // the last word is the server's
    const pair = { tiles: resend.shift().tiles, n: pairsRemoved };
    pending.push(pair);
    pairsRemoved += 1;
    clearTimeout(resendTimer);
    resendTimer = setTimeout(() => sendMove(pair), Math.max(0, lastPairAt + PAIR_GAP_MS - Date.now()));
    showCover(); // how many still wait
  }

  // The server refused a kept pair: it and those after it come back with its snapshot,
  // and the player is told once the cover lifts.
  function refuseResends() {
    refusedPairs += pending.length + resend.length;
    pending = [];
    resend = [];
    send({ type: "snapshot" });
  }

  function checkBlocked() {
    if (phase !== "playing") return; // a board of backs is not a blocked board
    const blocked = board.isBlocked() && board.aliveCount() > 0;
    const left = Number($("shuffles-left").textContent);
    $("shuffle").disabled = !blocked || left <= 0;
    if (blocked) say(left > 0 ? T.blocked_shuffle : T.blocked_out, "info");
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
  // answer to the last pair comes before the next standings (so the row never lags the
  // player's own acknowledged pairs), and the banner must not count a finished player
  // among those still playing.
  function currentRows() {
    const rows = (snap.standings || []).map((row) => (row.seat === snap.you ? myRow(row) : row));
    const finished = rows.filter((row) => row.status === "finished")
      .sort((a, b) => a.finished_ms - b.finished_ms);
    // The server's live order (docs/RULES.md §Races), with this seat's fresher progress.
    const playing = rows.filter((row) => row.status === "playing").sort((a, b) => b.progress - a.progress);
    return [...finished, ...playing, ...rows.filter((row) => !["finished", "playing"].includes(row.status))];
  }

  function myRow(row) {
    const race = snap.race ? snap.race.number : null;
    const pairs = acked.race === race ? acked.pairs : 0;
    const tiles = board.tiles.length;
    const progress = Math.max(row.progress, tiles ? Math.floor((pairs * 200) / tiles) : 0);
    if (myStatus && myStatus !== "playing" && row.status === "playing") {
      return { ...row, status: myStatus, finished_ms: myFinishMs,
        progress: myStatus === "finished" ? 100 : progress };
    }
    return { ...row, progress };
  }

  // A place is claimed by a pair: none before go, none for a board with nothing removed.
  const placed = (row) => row.status === "finished" || row.progress > 0;

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
  // The player's own return, with the pairs the stand-in made (`pairs`, from the event
  // only), is told even when the page saw no stand-in begin: it was closed meanwhile.
  const standIns = new Map(); // race number and seat → a CPU plays it
  const isMyReturn = (m) => m.type === "stand_in" && m.seat === snap.you && !m.on && m.pairs !== undefined;
  function noteStandIn(seat, nickname, on, pairs) {
    const key = `${snap.race ? snap.race.number : 0}:${seat}`;
    const was = standIns.get(key);
    standIns.set(key, on);
    if (seat === snap.you && !on && pairs) { tellBack(pairs); return; }
    if (was === on || (was === undefined && !on)) return;
    if (seat === snap.you) tell(on ? T.you_stood_in : "");
    else tell((on ? T.stand_in_on : T.stand_in_off).replace("{name}", nickname));
  }

  function tellBack(pairs) {
    tell(pairs === 1 ? T.you_are_back_one : T.you_are_back.replace("{n}", pairs));
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
      if (!placed(row)) item.classList.add("unplaced"); // no number in front
      return item;
    }));
    const mine = rows.findIndex((row) => row.seat === snap.you);
    $("you-line").textContent = mine >= 3 && placed(rows[mine])
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
      name.textContent = placed(row) ? `${ordinal(k + 1)} ${shownName(row)}` : shownName(row);
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
      const time = row.finished_ms !== null ? fmt(row.finished_ms) : resultStatus(row);
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
    $("another").hidden = !isOwner() || Boolean(snap.room.offer_at);
    $("to-lobby").hidden = !isOwner();
    // Once another game is offered, the ready check says what happens next instead.
    $("results-waiting").hidden = isOwner() || snap.you === null || Boolean(snap.room.offer_at);
    $("results-waiting").textContent = ranked ? T.ranked_over : T.waiting_next;
  }

  // A board that did not finish: how it ended. One still playing at the end ran out of
  // time, or was stopped when every human was done (docs/RULES.md §Races).
  function resultStatus(row) {
    if (row.status !== "playing") return T[row.status] || "–";
    const late = at(snap.race.finished_at) >= at(snap.race.time_limit_at);
    return (late ? T.out_of_time : T.stopped_at).replace("{progress}", row.progress);
  }

  // The ready check of another game, the same over the results and the lobby: who is
  // ready, and the deadline counting down on every screen. The race starts by itself once
  // every human is ready; past the deadline the owner may start it without the others.
  function showReadyCheck() {
    const room = snap.room;
    const open = Boolean(room.offer_at) && ["results", "lobby"].includes(phase);
    $("ready-check").hidden = !open;
    const mine = room.seats.find((seat) => seat.id === snap.you);
    $("ready").hidden = !open || !mine || mine.ready;
    $("start-now").hidden = !open || !isOwner();
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
    const left = Math.min(room.ready_seconds, Math.max(0, Math.ceil((deadline - serverNow()) / 1000)));
    const note = isOwner() ? (left ? T.offer_note_owner : T.offer_note_owner_now)
      : !left ? T.offer_note_late
      : !mine ? T.offer_note_watch
      : mine.ready ? T.offer_note_ready : T.offer_note;
    $("ready-note").textContent = note.replace("{s}", left);
    // Disabled, the owner's button says why, beside it and on it.
    const reason = left && isOwner() ? T.start_wait.replace("{s}", left) : "";
    $("start-now").disabled = Boolean(left);
    $("start-now").title = reason;
    $("start-reason").textContent = reason;
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
    const limit = at(race.time_limit_at) - go;
    let elapsed = myFinishMs !== null ? myFinishMs : now - go;
    // Cut off from the server the clock runs on by itself up to the limit only: past it,
    // it holds at the server's last word until the server speaks again.
    if (!["first", "up"].includes(link) && myFinishMs === null) elapsed = Math.min(elapsed, Math.max(limit, heardServerAt - go));
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
  MahjongBoard.listenKeys(board, { h: () => { if (phase === "playing" && snap.entry && link === "up") send({ type: "hint" }); } });
  MahjongBoard.setupTileStyle(root, $("tile-style"));
  setInterval(probe, 15000);
  setInterval(watchLink, 500);
  // A tab back from sleep, or a network back: a socket that died meanwhile is found at once.
  document.addEventListener("visibilitychange", () => { if (!document.hidden) checkLink(); });
  window.addEventListener("online", checkLink);
  window.addEventListener("pageshow", (event) => { if (event.persisted) checkLink(); });
  $("link-retry").addEventListener("click", checkLink);
  setInterval(tick, 100);
  showSnapshot(snap);
  connect();
})();
