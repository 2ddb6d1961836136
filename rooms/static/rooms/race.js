// A race room: the lobby, the 3-2-1 countdown, the board, the live standings and the
// results, all from the room socket (docs/PROTOCOL.md). The server referees every pair.
//
// Three modules: ./race_state.js holds the page's state and its pure reducer (every
// message and event in, a new state out, with the effects to carry out), ./race_view.js
// draws a state, and this file wires them: the one store, the socket (the shared
// ReconnectingSocket of mahjong/net.js), the board component and the buttons. Nothing here
// keeps state of its own but the one store (`store`) and the timers of its effects.

import { MahjongBoard } from "../mahjong/board.js";
import { ACK_WAIT_MS, ReconnectingSocket } from "../mahjong/net.js";
import { MahjongSound } from "../mahjong/sound.js";
import { ask, copyButton, pageStrings } from "../mahjong/ui.js";
import { acting, initialState, reduce } from "./race_state.js";
import { render } from "./race_view.js";

const $ = (id) => document.getElementById(id);
const root = $("race");
const T = pageStrings();

const board = new MahjongBoard($("board"), $("board-wrap"), {
  sprite: root.dataset.sprite, strings: T,
  onSay: (text) => dispatch({ type: "say", text, kind: "info" }),
  onPair: (tiles) => dispatch({ type: "pair", tiles }),
});
const view = {
  root, board, lang: document.documentElement.lang || "en", startLabel: $("start").textContent, drawn: {},
};

// --- the store: the page's one state, changed by dispatch() alone ---------------------
// An event dispatched while another is handled (an effect that calls back) is handled
// next, in order. After each: its effects are carried out, then the page is drawn.
function createStore(initial) {
  let current = initial;
  const queue = [];
  let handling = false;
  return {
    get state() { return current; },
    dispatch(event) {
      queue.push({ now: Date.now(), ...event });
      if (handling) return;
      handling = true;
      try {
        while (queue.length) {
          const prev = current;
          const next = reduce(current, queue.shift());
          current = { ...next, effects: [] };
          next.effects.forEach(run);
          render(view, current, prev);
        }
      } finally {
        handling = false;
      }
    },
  };
}

const store = createStore(initialState(JSON.parse($("initial-snapshot").textContent), {
  T, pairGapMs: Number(root.dataset.pairFloorMs || 250) + 100, // past the server's pace floor
}));
const dispatch = (event) => store.dispatch(event);

// --- effects ----------------------------------------------------------------------------
const timers = {};
const later = (key, ms, action) => {
  if (timers[key]) return;
  timers[key] = setTimeout(() => { timers[key] = null; action(); }, ms);
};

function run(effect) {
  if (effect.send) socket.send(effect.send);
  if (effect.later) later(effect.later, effect.ms, () => socket.send(effect.send));
  if (effect.move) {
    // A kept pair sent again, spaced past the pace floor (docs/RULES.md §Fair play).
    clearTimeout(timers.move);
    timers.move = setTimeout(() => {
      timers.move = null;
      socket.send(effect.move);
      dispatch({ type: "move_sent" });
    }, Math.max(0, effect.notBefore - Date.now()));
  }
  if (effect.sound) MahjongSound.play(effect.sound);
  if (effect.board === "load") { board.load(effect.tiles, effect.alive); board.fit(); }
  if (effect.board === "faces") board.setFaces(effect.tiles, effect.alive, { animate: effect.animate });
  if (effect.board === "highlight") board.highlight(effect.pair);
  if (effect.board === "celebrate") board.celebrate();
}

// `send` above reaches this socket (effects run only after it exists).
const socket = new ReconnectingSocket(`/ws/rooms/${root.dataset.code}/`, {
  onOpen: () => dispatch({ type: "opened" }),
  onMessage: (message) => dispatch({ type: "message", message }),
  onLost: (code) => dispatch({ type: "lost", code }),
  // A pair unanswered, or a new socket that has not yet sent its snapshot: is it alive?
  awaiting: (now) => store.state.link === "resync" ||
    (store.state.link === "up" && store.state.pending.length > 0 && now - store.state.lastPairAt > ACK_WAIT_MS),
  // Its first snapshot still missing (once it came, the kept pairs are sorted: resend).
  resyncing: () => store.state.link === "resync" && store.state.resend === null,
});
const send = (message) => socket.send(message);

// --- controls ---------------------------------------------------------------------------
$("hint").addEventListener("click", () => send({ type: "hint" }));
$("shuffle").addEventListener("click", () => send({ type: "shuffle" }));
$("give-up").addEventListener("click", () => { if (ask(T.confirm_give_up)) send({ type: "give_up" }); });
MahjongBoard.listenKeys(board, { h: () => { if (acting(store.state) && store.state.link === "up") send({ type: "hint" }); } });
MahjongBoard.setupTileStyle(root, $("tile-style"));
$("link-retry").addEventListener("click", () => socket.check());

$("seats").addEventListener("click", (event) => {
  const remove = event.target.closest("[data-remove-seat]");
  if (remove) send({ type: "remove_seat", seat: Number(remove.dataset.removeSeat) });
});
$("rules").addEventListener("change", (event) => {
  const field = event.target;
  if (!field.name) return; // the picker's filter box is no rule
  const text = field.name === "level" || field.name === "layout";
  const value = field.type === "checkbox" ? field.checked : (text ? field.value : Number(field.value));
  send({ type: "rules", rules: { [field.name]: value } });
});
$("add-cpu").addEventListener("click", () => send({ type: "add_cpu", level: $("cpu-level").value }));
$("public-room").addEventListener("change", (event) => send({ type: "public", public: event.target.checked }));
// After a race, "Another game" (from the results or the lobby) offers it: the ready check,
// which starts it by itself once everyone is ready (docs/RULES.md §Races).
const startOrOffer = () => send({ type: store.state.snap.race ? "offer" : "start" });
$("start").addEventListener("click", startOrOffer);
$("another").addEventListener("click", startOrOffer);
$("start-now").addEventListener("click", () => send({ type: "start" }));
$("ready").addEventListener("click", () => send({ type: "ready" }));
$("to-lobby").addEventListener("click", () => dispatch({ type: "to_lobby" }));
copyButton($("copy-link"), $("share-link"), $("copied"), { copied: T.copied, failed: T.copy_by_hand }, { clearMs: 3000 });

dispatch({ type: "start" });
setInterval(() => dispatch({ type: "tick" }), 100);
socket.start();

// --- a hosted room's next race (an arena's: docs/RULES.md §Arenas) ---------------------
// Once the race is over, a seated player goes back to the host for the next race in
// NEXT_RACE_SECONDS, unless they stay here (the replay, the results) or pause.
const NEXT_RACE_SECONDS = 5;
const nextRace = $("next-race");
if (nextRace) {
  let due = null;
  let stopped = false;
  const stay = $("next-cancel");
  stay.addEventListener("click", () => {
    stopped = true;
    stay.hidden = true;
    nextRace.textContent = nextRace.dataset.label;
  });
  setInterval(() => {
    const { snap } = store.state;
    if (stopped || !snap.race || snap.race.status !== "finished" || snap.you === null) return;
    if (due === null) due = Date.now() + NEXT_RACE_SECONDS * 1000;
    const left = Math.ceil((due - Date.now()) / 1000);
    stay.hidden = false;
    if (left > 0) {
      nextRace.textContent = nextRace.dataset.nextIn.replace("{s}", left);
      return;
    }
    stopped = true;
    location.assign(nextRace.href);
  }, 250);
}
