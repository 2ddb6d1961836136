// The shared network module (mahjong/static/mahjong/net.js), by Node's test runner: the
// sorting of kept pairs after a reconnect, the fetch queue against a real HTTP server, and
// the socket's waits between tries (against a stand-in for the browser's WebSocket).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { test } from "node:test";

import { FetchQueue, FIRST_RETRY_MS, LAST_RETRY_MS, ReconnectingSocket, sortKept } from "./static/mahjong/net.js";

test("kept pairs: both tiles there are sent again in order, both gone were stored, half gone are refused", () => {
  const kept = [{ tiles: [0, 1], n: 0 }, { tiles: [2, 3], n: 1 }, { tiles: [4, 5], n: 2 }, { tiles: [6, 7], n: 3 }];
  const alive = [2, 3, 5, 6, 7]; // 0 and 1 stored; 4 gone (a stand-in moved)
  assert.deepEqual(sortKept(kept, alive, true), { resend: [kept[1], kept[3]], refused: 1 });
});

test("kept pairs of a board no longer open are all refused, none sent", () => {
  const kept = [{ tiles: [0, 1], n: 0 }, { tiles: [2, 3], n: 1 }];
  assert.deepEqual(sortKept(kept, [0, 1, 2, 3], false), { resend: [], refused: 2 });
});

test("the fetch queue sends each call after the last one's answer, and says when it is busy", async () => {
  const seen = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => { body += chunk; });
    request.on("end", () => {
      seen.push(request.url);
      const reply = () => {
        response.writeHead(request.url.endsWith("bad") ? 409 : 200, { "Content-Type": "application/json" });
        response.end(JSON.stringify({ got: JSON.parse(body), code: "refused", token: request.headers["x-csrftoken"] }));
      };
      // The first call is slow: were the queue not in order, the second would overtake it.
      setTimeout(reply, request.url.endsWith("slow") ? 150 : 0);
    });
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const base = `http://127.0.0.1:${server.address().port}/api/`;
  const busy = [];
  const refused = [];
  const queue = new FetchQueue(base, { csrf: "t0ken", onBusy: (b) => busy.push(b), onRefused: (answer) => refused.push(answer.code) });
  try {
    const answers = await Promise.all([queue.post("slow", { a: 1 }), queue.post("fast", { b: 2 }), queue.post("bad", {})]);
    assert.deepEqual(seen, ["/api/slow", "/api/fast", "/api/bad"]);
    assert.deepEqual(answers[0].got, { a: 1 });
    assert.equal(answers[1].token, "t0ken");
    assert.equal(answers[2], null);
    assert.deepEqual(refused, ["refused"]);
    assert.equal(busy[busy.length - 1], false);
    server.close();
    // The server is gone: the call is refused as "offline", never thrown.
    assert.equal(await queue.post("fast", {}), null);
    assert.deepEqual(refused, ["refused", "offline"]);
  } finally {
    server.close();
  }
});

test("kept calls wait out a server that cannot be reached and go through in order, saying how long they waited", async () => {
  const seen = [];
  const handler = (request, response) => {
    let body = "";
    request.on("data", (chunk) => { body += chunk; });
    request.on("end", () => {
      seen.push({ url: request.url, body: JSON.parse(body) });
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end(JSON.stringify({ ok: seen.length }));
    });
  };
  // A port that nobody listens on yet: the network is "down".
  const probe = createServer();
  await new Promise((done) => probe.listen(0, "127.0.0.1", done));
  const port = probe.address().port;
  await new Promise((done) => probe.close(done));
  const saved = [];
  const events = [];
  const queue = new FetchQueue(`http://127.0.0.1:${port}/api/`, {
    csrf: "t",
    retryMs: 40,
    store: { load: () => [], save: (items) => saved.push(items.map((item) => item.body.n)) },
    onOffline: () => events.push("offline"),
    onOnline: () => events.push("online"),
  });
  const answers = [0, 1, 2].map((n) => queue.post("move", { n }, { kept: true }));
  await new Promise((done) => setTimeout(done, 150));
  assert.deepEqual(events, ["offline"]);
  assert.deepEqual(saved[saved.length - 1], [0, 1, 2]); // all three kept, none answered
  const server = createServer(handler);
  await new Promise((done) => server.listen(port, "127.0.0.1", done));
  try {
    assert.deepEqual((await Promise.all(answers)).map((answer) => answer.ok), [1, 2, 3]);
    assert.deepEqual(seen.map((call) => call.body.n), [0, 1, 2]);
    assert.ok(seen.every((call) => call.body.queued_ms >= 150), JSON.stringify(seen));
    assert.deepEqual(events, ["offline", "online"]);
    assert.deepEqual(saved[saved.length - 1], []); // nothing left to send after a reload
  } finally {
    server.close();
  }
});

test("a kept call restored after a reload says it waited since it was first made", async () => {
  const bodies = [];
  const server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => { body += chunk; });
    request.on("end", () => {
      bodies.push(JSON.parse(body));
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise((done) => server.listen(0, "127.0.0.1", done));
  const stored = [{ action: "move", body: { n: 4 }, at: 1_000 }];
  const queue = new FetchQueue(`http://127.0.0.1:${server.address().port}/api/`, {
    csrf: "t", now: () => 61_000, store: { load: () => stored, save() {} },
  });
  try {
    const [item] = queue.restore();
    await queue.post(item.action, item.body, { kept: true, at: item.at });
    assert.deepEqual(bodies, [{ n: 4, queued_ms: 60_000 }]);
  } finally {
    server.close();
  }
});

// A stand-in for the browser's WebSocket: opens when told, answers when told.
class FakeSocket {
  static CONNECTING = 0;
  static OPEN = 1;
  static made = [];
  constructor(url) {
    this.url = url;
    this.readyState = FakeSocket.CONNECTING;
    this.listeners = {};
    this.sent = [];
    FakeSocket.made.push(this);
  }
  addEventListener(type, listener) { (this.listeners[type] ||= []).push(listener); }
  emit(type, event = {}) { (this.listeners[type] || []).forEach((listener) => listener(event)); }
  send(text) { this.sent.push(JSON.parse(text)); }
  close() {}
}

test("a socket that opens but is never answered waits longer before each try; an answer starts the waits again", () => {
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: "http:", host: "example.test" };
  const socket = new ReconnectingSocket("/ws/room/ABC/", {});
  const opens = () => {
    socket.connect(); // what the retry's timer would do
    const made = FakeSocket.made.at(-1);
    made.readyState = FakeSocket.OPEN;
    made.emit("open");
    return made;
  };
  try {
    const waits = [];
    for (let k = 0; k < 4; k += 1) {
      opens(); // a busy server: the socket opens, its ping is never answered
      socket.drop(); // found dead
      waits.push(socket.retryMs);
    }
    assert.deepEqual(waits, [1000, 2000, 4000, LAST_RETRY_MS]);
    const answered = opens();
    answered.emit("message", { data: JSON.stringify({ type: "pong", t: 1 }) });
    socket.drop();
    assert.equal(socket.retryMs, 2 * FIRST_RETRY_MS); // from the first again, then doubled
    assert.equal(answered.sent[0].type, "ping"); // a new socket asks at once
  } finally {
    clearTimeout(socket.retryTimer);
  }
});
