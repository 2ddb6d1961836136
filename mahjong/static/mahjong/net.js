// The pages' ways to the server (an ES module): a websocket that finds its own drops and
// comes back (docs/PROTOCOL.md §Reconnecting), the sorting of the pairs kept while it was
// down, and a queue of fetches answered strictly in order (practice). No DOM and no
// socket is touched at import time: Node imports the pure part (tests/js/).

export const PROBE_MS = 5000; // an unanswered ping: the socket is dead (a lost network, a tab that slept)
export const ACK_WAIT_MS = 2500; // an answer awaited this long makes the page check the socket
export const OPEN_WAIT_MS = 10000; // a socket still opening then is given up and tried again
export const FIRST_RETRY_MS = 500;
export const LAST_RETRY_MS = 8000; // the wait doubles up to this (and a 4429 close waits it at once)
const CLOSE_GONE = 4404; // no such room: nothing to come back to
const CLOSE_TOO_MANY = 4429; // too many sockets of this device (its error says why)
// Not queued while the socket is down: a new socket sends its snapshot by itself, a ping
// means nothing later, and pairs are kept by the page (sortKept below).
const NOT_QUEUED = ["snapshot", "ping", "move"];

// A websocket to `path` (on this host) that is always trying to be open.
// `hooks`: onOpen(first) once a socket opens (`first`: the page's first socket), onMessage
// (message), onLost(code) when a socket closes or is found dead (code 4404: it stops
// trying), and two questions asked twice a second: awaiting() — is the page waiting for an
// answer (a pair, a new socket's snapshot)? then a quiet socket is probed — and
// resyncing() — is a new socket's snapshot still missing? then it is asked for again.
export class ReconnectingSocket {
  constructor(path, hooks) {
    this.path = path;
    this.hooks = { onOpen() {}, onMessage() {}, onLost() {}, awaiting: () => false, resyncing: () => false, ...hooks };
    this.socket = null;
    this.opened = false; // a socket of this page has opened once
    this.gone = false;
    this.nextId = 1;
    this.retryMs = FIRST_RETRY_MS;
    this.retryTimer = null;
    this.outbox = []; // messages sent while the socket was (re)connecting
    this.lastHeard = 0; // Date.now() of the socket's last message
    this.probeAt = 0; // a ping sent to check the socket, not yet answered
    this.openedAt = 0;
    this.snapshotAskedAt = 0;
    this.lastSent = {}; // message type -> Date.now() it was last sent
  }

  // Opens the socket and keeps watch: pings every 15 s, a look twice a second, and a
  // check when the tab comes back, the network comes back or the page is restored.
  start() {
    this.connect();
    setInterval(() => this.probe(), 15000);
    setInterval(() => this.watch(), 500);
    document.addEventListener("visibilitychange", () => { if (!document.hidden) this.check(); });
    window.addEventListener("online", () => this.check());
    window.addEventListener("pageshow", (event) => { if (event.persisted) this.check(); });
  }

  get open() { return Boolean(this.socket) && this.socket.readyState === WebSocket.OPEN; }

  connect() {
    clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}${this.path}`);
    this.socket = ws;
    this.openedAt = Date.now();
    ws.addEventListener("open", () => {
      if (ws !== this.socket) return; // a socket this page gave up on
      const first = !this.opened;
      this.opened = true;
      this.hooks.onOpen(first);
      this.send({ type: "ping", t: Date.now() });
      const waiting = this.outbox;
      this.outbox = [];
      waiting.forEach((message) => this.send(message));
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.socket) return;
      // The wait before the next try starts again from the first only once the server
      // answers: a socket that opens on a server too busy to answer, and is dropped as
      // dead, waits longer each time instead of asking again at once.
      this.retryMs = FIRST_RETRY_MS;
      this.lastHeard = Date.now();
      this.probeAt = 0;
      this.hooks.onMessage(JSON.parse(event.data));
    });
    ws.addEventListener("close", (event) => { if (ws === this.socket) this.lost(event.code); });
  }

  // The socket closed, or was found dead: try again with a growing wait.
  lost(code) {
    this.socket = null;
    this.probeAt = 0;
    clearTimeout(this.retryTimer);
    if (code === CLOSE_GONE) this.gone = true;
    this.hooks.onLost(code);
    if (this.gone) return;
    if (code === CLOSE_TOO_MANY) this.retryMs = LAST_RETRY_MS;
    // Spread a little, so that a restarted server is not met by every page at once.
    this.retryTimer = setTimeout(() => this.connect(), this.retryMs * (0.8 + Math.random() * 0.4));
    this.retryMs = Math.min(this.retryMs * 2, LAST_RETRY_MS);
  }

  drop() {
    const dead = this.socket;
    this.lost(1006);
    if (dead) dead.close();
  }

  // Is the socket alive? A ping; unanswered within PROBE_MS, the socket is dropped.
  probe() {
    if (!this.open || this.probeAt) return;
    this.probeAt = Date.now();
    this.send({ type: "ping", t: this.probeAt });
  }

  watch() {
    const now = Date.now();
    const ws = this.socket;
    if (this.probeAt && now - this.probeAt > PROBE_MS) { this.drop(); return; }
    if (ws && ws.readyState === WebSocket.CONNECTING && now - this.openedAt > OPEN_WAIT_MS) { this.drop(); return; }
    const quiet = now - Math.max(this.lastHeard, this.openedAt) > ACK_WAIT_MS;
    if (quiet && this.hooks.awaiting(now)) this.probe();
    // A new socket whose first snapshot was lost on the way (it opened while the network
    // was still dead, and answers pings now): ask for one again.
    if (this.hooks.resyncing() && this.open && now - Math.max(this.snapshotAskedAt, this.openedAt) > ACK_WAIT_MS) {
      this.snapshotAskedAt = now;
      this.send({ type: "snapshot" });
    }
  }

  // Back from sleep, back online, or "Try now": a live socket is checked, none is opened at once.
  check() {
    if (this.gone) return;
    if (this.socket) { this.probe(); return; }
    this.retryMs = FIRST_RETRY_MS;
    this.connect();
  }

  // Sends `message` with a fresh id, or the one it has (returned); while the socket is not open it waits in
  // the outbox (null is returned), unless it is of a kind that must not wait (NOT_QUEUED).
  send(message) {
    if (!this.open) {
      if (!NOT_QUEUED.includes(message.type)) this.outbox.push(message);
      return null;
    }
    const sent = { ...message, id: message.id ?? this.nextId++ }; // a caller's own id stays
    this.lastSent[message.type] = Date.now();
    this.socket.send(JSON.stringify(sent));
    return sent.id;
  }
}

// After (re)connecting, the socket's snapshot is the truth (docs/PROTOCOL.md
// §Reconnecting). The kept pairs (`kept`: [{tiles: [i, j], n}], oldest first) sorted by
// the snapshot's board (`alive`: the indices of its live tiles; `open`: the board still
// playing in a running race): a pair whose two tiles are still there never reached the
// server and is sent again (`resend`, in order) if the board is open, else refused; one
// whose tiles are both gone was stored; one half gone (a stand-in moved) can no longer be
// (`refused` counts those that did not reach the server).
export function sortKept(kept, alive, open) {
  const live = new Set(alive);
  const missing = kept.filter((pair) => pair.tiles.every((i) => live.has(i)));
  const half = kept.filter((pair) => pair.tiles.some((i) => live.has(i)) && !missing.includes(pair));
  return { resend: open ? missing : [], refused: half.length + (open ? 0 : missing.length) };
}

// POSTs of JSON to `base` + action, each sent once the one before is answered (a refusal
// of one must not be overtaken by the next). `onBusy(busy)` says when calls are waiting;
// each call resolves to the answer's JSON, or null after `onRefused(answer, response)`
// (answer {code: "offline"} when the server could not be reached).
//
// A call posted `kept` (a practice move: docs/PRACTICE.md §Offline) is not given up when
// the server cannot be reached: the queue says `onOffline()`, waits for the network
// (the browser's "online", or `retryMs`) and sends it again, and the calls behind it wait
// their turn; `onOnline()` once the last of them went through. Each try says how long the
// call has waited since it was made (`queued_ms` in its body). `store` ({load, save})
// keeps the kept calls not yet answered across a reload: `restore()` hands them back,
// oldest first, to be posted again with their first time (`at`).
export class FetchQueue {
  constructor(base, { csrf, onBusy = () => {}, onRefused = () => {}, onOffline = () => {}, onOnline = () => {}, store = null, retryMs = 3000, now = () => Date.now() }) {
    Object.assign(this, { base, csrf, onBusy, onRefused, onOffline, onOnline, store, retryMs, now });
    this.queue = Promise.resolve();
    this.waiting = 0;
    this.offline = false;
    this.recovering = false; // offline since the last kept call was answered
    this.kept = []; // [{action, body, at}] not yet answered, oldest first
  }

  restore() {
    if (!this.store) return [];
    try { return this.store.load() || []; } catch (error) { return []; }
  }

  save() {
    if (!this.store) return;
    try { this.store.save(this.kept.map(({ action, body, at }) => ({ action, body, at }))); } catch (error) { /* storage full or blocked: kept for this page only */ }
  }

  post(action, body, { keepalive = false, kept = false, at = this.now() } = {}) {
    const item = { action, body, at };
    if (kept) {
      this.kept.push(item);
      this.save();
    }
    const call = async () => {
      for (;;) {
        const sent = kept ? { ...body, queued_ms: Math.max(0, Math.round(this.now() - at)) } : body;
        let response;
        try {
          response = await fetch(`${this.base}${action}`, {
            method: "POST",
            headers: { "Content-Type": "application/json", "X-CSRFToken": this.csrf },
            body: JSON.stringify(sent),
            keepalive,
          });
        } catch (error) {
          if (!kept) {
            this.onRefused({ code: "offline" }, null);
            return null;
          }
          if (!this.offline) {
            this.offline = true;
            this.recovering = true;
            this.onOffline();
          }
          await this.networkBack();
          continue;
        }
        this.offline = false;
        if (kept) this.answered(item);
        const answer = await response.json().catch(() => ({ code: "offline" }));
        if (!response.ok) {
          this.onRefused(answer, response);
          return null;
        }
        return answer;
      }
    };
    const answered = () => {
      this.waiting -= 1;
      if (!this.waiting) this.onBusy(false);
    };
    this.waiting += 1;
    this.onBusy(true);
    this.queue = this.queue.then(call, call).finally(answered);
    return this.queue;
  }

  // A kept call went through; the last of those kept while offline says `onOnline()`.
  answered(item) {
    this.kept = this.kept.filter((one) => one !== item);
    this.save();
    if (this.recovering && !this.kept.length) {
      this.recovering = false;
      this.onOnline();
    }
  }

  // Resolves when the browser says it is online again, or after retryMs (a network that
  // came back without a word, a server that was down).
  networkBack() {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        if (typeof window !== "undefined") window.removeEventListener("online", done);
        resolve();
      };
      const timer = setTimeout(done, this.retryMs);
      if (typeof window !== "undefined") window.addEventListener("online", done);
    });
  }
}
