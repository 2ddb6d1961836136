// A race room drawn from its state (./race_state.js): render functions only. Each part of
// the page is drawn from the state alone; `prev` (the state drawn last) only says what
// changed, so a list is rebuilt when its data changed and the focus moves on a transition.

import { formatTime } from "../mahjong/rules.js";
import {
  acting, aliveCount, blocked, COVERED, currentRows, isOwner, keptCount, ordinal, phaseOf, placed, progress,
  seatName, seated, serverNow, stillPlaying, watching,
} from "./race_state.js";

const $ = (id) => document.getElementById(id);
const at = (iso) => (iso ? Date.parse(iso) : null);

// Written only when it differs: a live region re-read every 100 ms would say it again.
function setText(el, text) {
  const value = text === null || text === undefined ? "" : String(text);
  if (el.textContent !== value) el.textContent = value;
}

// `view`: {root, board, lang, startLabel, drawn: {}} — what the page made once
// (./race.js); `drawn` keeps the data each list was last built from.
export function render(view, s, prev) {
  const { T } = s;
  const phase = phaseOf(s);
  const isSeated = seated(s);
  view.root.dataset.link = s.link; // for the tests, which wait on it
  $("cpus-paused").hidden = !s.cpusPaused; // the server's word: no worker runs CPU steps
  showMessages(s);
  showLobby(view, s, phase);
  showQuickWait(s, phase);
  $("lobby").hidden = phase !== "lobby";
  // A quick race is joined by Race now, not by its link (docs/RULES.md §Race now).
  document.querySelector(".share").hidden = phase !== "lobby" || Boolean(s.snap.room.quick);
  const shown = ["countdown", "playing", "done"].includes(phase);
  const wasHidden = $("play-area").hidden;
  $("play-area").hidden = !shown;
  if (shown && wasHidden) view.board.fit(); // a hidden board measured nothing
  $("results").hidden = phase !== "results";
  $("board").hidden = s.boardHidden;
  const canAct = acting(s);
  for (const id of ["hint", "shuffle", "give-up"]) {
    $(id).hidden = !isSeated; // a visitor watching has nothing to press
    $(id).disabled = !canAct;
  }
  if (canAct) $("shuffle").disabled = !blocked(s) || Number(s.shufflesLeft) <= 0;
  for (const el of document.querySelectorAll(".seated-only")) el.hidden = !isSeated;
  view.board.enabled = canAct && phase !== "results";
  // A helper the room's rules allow or not, as they stood when the race started.
  view.board.showMatches = Boolean(s.snap.race && s.snap.race.rules && s.snap.race.rules.show_matches);
  setText($("hints-left"), s.hintsLeft); // the server's count, after the last hint
  setText($("shuffles-left"), s.shufflesLeft);
  setText($("progress"), `${progress(s)}%`);
  showClock(s);
  const isWatching = watching(s);
  $("play-area").classList.toggle("watching", isWatching);
  const joinNext = $("join-next"); // on the join form of a visitor (rooms/room.html)
  if (joinNext) joinNext.hidden = !shown; // "a race is on"
  $("watching").hidden = !s.watchers;
  setText($("watching"), s.watchers === 1 ? T.watching_one : T.watching.replace("{n}", s.watchers));
  showCover(view, s, prev, isWatching);
  showReadyCheck(s, phase);
  showDone(view, s, phase);
  showStandings(view, s, phase, isWatching);
  if (phase === "results") showResults(view, s);
}

function showMessages(s) {
  setText($("message"), s.message.text);
  $("message").dataset.kind = s.message.kind;
  setText($("notice"), s.notice);
}

function showClock(s) {
  setText($("clock"), s.clock.text);
  $("clock").classList.toggle("overtime", s.clock.overtime);
  $("clock").classList.toggle("stopped", s.myStatus !== null && s.myStatus !== "playing");
  const countdown = $("countdown");
  countdown.hidden = s.countdown.hidden;
  setText(countdown, s.countdown.text);
}

// The cover over the board while the link is not up: nothing under it can be played (the
// board is inert, its controls disabled) and the focus is not left there.
function showCover(view, s, prev, isWatching) {
  const { T } = s;
  const cover = $("link-cover");
  const covered = COVERED.includes(s.link);
  const shown = covered && Boolean(s.snap.entry) && !$("play-area").hidden && !isWatching;
  const wasHidden = cover.hidden;
  cover.hidden = !shown;
  view.board.scrollEl.inert = covered;
  const text = s.link === "gone" ? T.link_gone : T.link_down;
  setText($("connection"), covered && !shown ? text : "");
  $("link-retry").hidden = s.link === "gone";
  $("link-rooms").hidden = s.link !== "gone";
  if (shown) {
    // Written once the region shows, so that a screen reader reads it out.
    setText($("link-cover-title"), text);
    const kept = keptCount(s);
    setText($("link-cover-kept"), !kept ? "" : kept === 1 ? T.link_kept_one : T.link_kept.replace("{n}", kept));
    const focus = document.activeElement;
    if (wasHidden && (!focus || focus === document.body || $("play-area").contains(focus))) cover.focus();
  }
  // The cover is gone: the focus it held goes back to the board.
  if (prev && s.link === "up" && COVERED.includes(prev.link) && cover.contains(document.activeElement)) {
    const i = view.board.focusIndex;
    view.board.setFocus(i !== null && view.board.alive[i] ? i : null);
  }
}

// --- lobby ----------------------------------------------------------------------------
function seatLabel(s, seat) {
  const { T } = s;
  const tags = [];
  if (seat.id === s.snap.room.owner_seat) tags.push(T.tag_owner);
  if (seat.id === s.snap.you) tags.push(T.tag_you);
  if (s.snap.room.offer_at && !seat.cpu) tags.push(seat.ready ? T.ready_yes : T.ready_no);
  const name = seatName(T, seat) + (seat.rating ? ` ${seat.rating}` : ""); // ranked: "Ana 1500?"
  return tags.length ? `${name} (${tags.join(", ")})` : name;
}

// Rebuilt when the room or the phase changed only: its buttons must stay put under a click.
function showLobby(view, s, phase) {
  const { T } = s;
  const room = s.snap.room;
  const inLobby = phase === "lobby";
  const owner = isOwner(s);
  const drawn = view.drawn.lobby;
  if (drawn && drawn.room === room && drawn.inLobby === inLobby && drawn.you === s.snap.you && drawn.race === s.snap.race) return;
  view.drawn.lobby = { room, inLobby, you: s.snap.you, race: s.snap.race };
  setText($("seat-count"), `(${room.seats.length}/20)`);
  $("seats").replaceChildren(...room.seats.map((seat) => {
    const item = document.createElement("li");
    item.textContent = seatLabel(s, seat);
    if (seat.cpu) item.classList.add("cpu");
    if (seat.id === s.snap.you) item.classList.add("me");
    if (owner && seat.id !== room.owner_seat && inLobby) {
      const remove = document.createElement("button");
      remove.type = "button";
      remove.textContent = "✕";
      remove.dataset.removeSeat = seat.id;
      remove.setAttribute("aria-label", T.remove_seat.replace("{name}", seatName(T, seat)));
      item.append(" ", remove);
    }
    return item;
  }));
  const form = $("rules");
  for (const [name, value] of Object.entries(room.rules)) {
    const field = form.elements[name];
    if (!field) continue;
    if (field instanceof RadioNodeList) { // the layout picker (layouts/_picker.html)
      for (const radio of field) {
        radio.checked = radio.value === String(value);
        radio.disabled = !owner || !inLobby;
      }
      showLayout(String(value));
      continue;
    }
    if (field.type === "checkbox") field.checked = value; else field.value = String(value);
    field.disabled = !owner || !inLobby;
  }
  // A chosen layout makes the level, flowers and handicap moot (docs/LAYOUTS.md §Races).
  for (const name of ["level", "flowers", "handicap"]) {
    form.elements[name].closest("label").hidden = Boolean(room.rules.layout);
  }
  $("owner-tools").hidden = !owner || !inLobby;
  $("public-room").checked = Boolean(room.public);
  // After a race, Start offers another game: the ready check then says the rest.
  $("start").hidden = !owner || !inLobby || Boolean(room.offer_at);
  $("start").textContent = s.snap.race ? T.another : view.startLabel;
  $("waiting").hidden = owner || s.snap.you === null || Boolean(room.offer_at) || room.quick;
  $("waiting").textContent = room.ranked ? T.ranked_next : T.waiting;
}

// Race now's waiting page (docs/RULES.md §Race now): the seconds until the race starts
// by itself, drawn on every tick, and who races with you.
function showQuickWait(s, phase) {
  const { T } = s;
  const box = $("quick-wait");
  if (!box) return; // not a quick room
  const room = s.snap.room;
  const open = phase === "lobby" && Boolean(room.quick_starts_at) && s.snap.you !== null;
  box.hidden = !open;
  if (!open) return;
  const left = Math.max(0, Math.ceil((Date.parse(room.quick_starts_at) - serverNow(s)) / 1000));
  setText($("quick-seconds"), left > 0 ? String(left) : "");
  setText($("quick-label"), left > 0 ? T.quick_starts_in : T.quick_starting);
  const others = room.seats.filter((seat) => !seat.cpu && seat.id !== s.snap.you).length;
  setText($("quick-alone"), others === 0 ? T.quick_alone
    : others === 1 ? T.quick_others_one : T.quick_others.replace("{n}", others));
}

// The chosen layout's name on the closed picker ("the level's" for the default).
function showLayout(key) {
  const current = $("layout-current");
  const radio = [...$("rules").elements.layout].find((r) => r.value === key);
  const label = radio && radio.closest(".pick") && radio.closest(".pick").querySelector(".choice-label");
  current.textContent = key === "" ? current.dataset.level : (label ? label.textContent : key);
}

// The ready check of another game, the same over the results and the lobby: who is
// ready, and the deadline counting down on every screen. The race starts by itself once
// every human is ready; past the deadline the owner may start it without the others.
function showReadyCheck(s, phase) {
  const { T } = s;
  const room = s.snap.room;
  const owner = isOwner(s);
  const open = Boolean(room.offer_at) && ["results", "lobby"].includes(phase);
  $("ready-check").hidden = !open;
  const mine = room.seats.find((seat) => seat.id === s.snap.you);
  $("ready").hidden = !open || !mine || mine.ready;
  $("start-now").hidden = !open || !owner;
  if (!open) return;
  const humans = room.seats.filter((seat) => !seat.cpu);
  const key = humans.map((seat) => `${seat.nickname}:${seat.ready}`).join("|");
  if ($("ready-list").dataset.drawn !== key) {
    $("ready-list").dataset.drawn = key;
    $("ready-list").replaceChildren(...humans.map((seat) => {
      const item = document.createElement("li");
      item.textContent = `${seatName(T, seat)}: ${seat.ready ? T.ready_yes : T.ready_no}`;
      item.className = seat.ready ? "ready" : "waiting";
      return item;
    }));
  }
  // A second's margin over the server's deadline: this page's idea of the server's clock
  // may run a little ahead, and an early Start would be refused "not_ready".
  const deadline = at(room.offer_at) + room.ready_seconds * 1000 + 1000;
  const left = Math.min(room.ready_seconds, Math.max(0, Math.ceil((deadline - serverNow(s)) / 1000)));
  const note = owner ? (left ? T.offer_note_owner : T.offer_note_owner_now)
    : !left ? T.offer_note_late
    : !mine ? T.offer_note_watch
    : mine.ready ? T.offer_note_ready : T.offer_note;
  setText($("ready-note"), note.replace("{s}", left));
  // Disabled, the owner's button says why, beside it and on it.
  const reason = left && owner ? T.start_wait.replace("{s}", left) : "";
  $("start-now").disabled = Boolean(left);
  $("start-now").title = reason;
  setText($("start-reason"), reason);
}

// --- the race -------------------------------------------------------------------------
// "Bo (CPU standing in)" while a CPU plays an away player's board; "Bo 1500?" ranked.
function shownName(s, row, rating = (s.snap.room.seats.find((seat) => seat.id === row.seat) || {}).rating) {
  const name = seatName(s.T, row) + (rating ? ` ${rating}` : "");
  return row.stand_in ? `${name} (${s.T.stand_in})` : name;
}

function standingLabel(s, row) {
  if (row.status === "playing") return `${row.progress}%`;
  if (row.status === "finished") return formatTime(row.finished_ms);
  return s.T[row.status];
}

// This player's board is over: one clear line, kept true as the others go on.
function showDone(view, s, phase) {
  const { T } = s;
  const banner = $("done-banner");
  banner.hidden = phase !== "done";
  if (banner.hidden) { setText(banner, ""); return; } // no old race's line left behind
  const rows = currentRows(s);
  const place = rows.findIndex((row) => row.seat === s.snap.you) + 1;
  let line = T[`you_${s.myStatus}`] || "";
  if (s.myStatus === "finished") {
    line = line.replace("{place}", place ? ordinal(T, view.lang, place) : "").replace("{time}", formatTime(s.myFinishMs || 0));
  }
  const still = stillPlaying(s, rows);
  const rest = still === 1 ? T.still_playing_one : T.still_playing.replace("{n}", still);
  setText(banner, still ? `${line} — ${rest}` : line);
}

function showStandings(view, s, phase, isWatching) {
  const { T } = s;
  const rows = currentRows(s);
  const key = JSON.stringify([rows, s.snap.room.seats, s.snap.you]);
  if (view.drawn.standings === key && !(phase === "done" || isWatching)) return;
  const ord = (n) => ordinal(T, view.lang, n);
  if (view.drawn.standings !== key) {
    view.drawn.standings = key;
    $("leaders").replaceChildren(...rows.slice(0, 3).map((row) => {
      const item = document.createElement("li");
      // A no-break space: beside a desktop's board the column is narrow, and a name that
      // wraps takes its percent with its last word instead of leaving it alone on a line.
      item.textContent = `${shownName(s, row)}\u00a0${standingLabel(s, row)}`;
      if (row.seat === s.snap.you) item.classList.add("me");
      if (!placed(row)) item.classList.add("unplaced"); // no number in front
      return item;
    }));
    const mine = rows.findIndex((row) => row.seat === s.snap.you);
    setText($("you-line"), mine >= 3 && placed(rows[mine])
      ? T.you_line.replace("{place}", ord(mine + 1)).replace("{progress}", rows[mine].progress) : "");
    setText($("all-count"), `(${rows.length})`);
    $("all-rows").replaceChildren(...rows.map((row, k) => {
      const item = document.createElement("li");
      if (row.seat === s.snap.you) item.classList.add("me");
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = placed(row) ? `${ord(k + 1)} ${shownName(s, row)}` : shownName(s, row);
      const bar = document.createElement("progress");
      bar.max = 100;
      bar.value = row.progress;
      bar.setAttribute("aria-label", `${seatName(T, row)} ${row.progress}%`);
      const state = document.createElement("span");
      state.className = `state ${row.status}`;
      state.textContent = standingLabel(s, row);
      // Beside it: your own pairs left (your board is known here), or how far a board
      // still playing is behind the leader.
      const gap = document.createElement("span");
      gap.className = "gap";
      const leader = rows[0];
      const yours = row.seat === s.snap.you && row.status === "playing" && s.board.tiles.length;
      if (yours) gap.textContent = T.pairs_left.replace("{n}", Math.floor(aliveCount(s.board) / 2));
      else if (k > 0 && row.status === "playing" && leader.progress > row.progress) {
        gap.textContent = T.behind.replace("{n}", leader.progress - row.progress);
      }
      item.append(name, bar, state, gap);
      return item;
    }));
  }
  // Every seat: open by itself once this player is done, or for one watching.
  const all = $("all-standings");
  if ((phase === "done" || isWatching) && !all.dataset.opened) { all.open = true; all.dataset.opened = "1"; }
}

function showResults(view, s) {
  const { T } = s;
  const key = JSON.stringify([s.snap.race, s.snap.results, s.snap.table, s.snap.history, s.snap.room, s.snap.you]);
  if (view.drawn.results === key) return;
  view.drawn.results = key;
  const ranked = s.snap.room.ranked;
  const owner = isOwner(s);
  $("results-title").textContent = T.results_title.replace("{n}", s.snap.race.number);
  $("replay-link").href = view.root.dataset.replayUrl.replace("/0/", `/${s.snap.race.id}/`);
  $("rating-head").hidden = !ranked;
  const pointsText = (points) => Number(points).toLocaleString(view.lang); // 0.5, or 0,5 in Spanish
  $("results-rows").replaceChildren(...(s.snap.results || []).map((row) => {
    const tr = document.createElement("tr");
    const time = row.finished_ms !== null ? formatTime(row.finished_ms) : resultStatus(s, row);
    let name = row.seat === s.snap.you ? `${shownName(s, row, null)} (${T.tag_you})` : shownName(s, row, null);
    if (row.cpu_pairs) name += ` — ${T.cpu_help.replace("{n}", row.cpu_pairs).replace("{total}", row.pairs)}`;
    const cells = [row.place, name, time, `${row.progress}%`, row.hints_used, row.shuffles_used, pointsText(row.points)];
    if (ranked) cells.push(row.rating_from ? `${row.rating_from} → ${row.rating_to} (${signed(row.rating_change)})` : signed(row.rating_change));
    cells.forEach((text, k) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (NUMBER_COLUMNS.includes(k)) td.className = "num"; // site.css: right-aligned, unbroken
      tr.append(td);
    });
    if (row.seat === s.snap.you) tr.classList.add("me");
    return tr;
  }));
  $("room-table").replaceChildren(...(s.snap.table || []).map((row) => {
    const item = document.createElement("li");
    const line = Number(row.points) === 1 ? T.points_line_one : T.points_line;
    item.textContent = line.replace("{name}", seatName(T, row)).replace("{points}", pointsText(row.points));
    return item;
  }));
  showHistory(view, s);
  drawChart(s, s.snap.results || []);
  $("another").hidden = !owner || Boolean(s.snap.room.offer_at);
  $("to-lobby").hidden = !owner;
  // Once another game is offered, the ready check says what happens next instead.
  // A hosted room's next race is its host's: the page's "Next race" says so instead.
  $("results-waiting").hidden = owner || s.snap.you === null || Boolean(s.snap.room.offer_at) || Boolean(s.snap.room.host);
  $("results-waiting").textContent = ranked ? T.ranked_over : s.snap.room.quick ? T.quick_over : T.waiting_next;
}

// A board that did not finish: how it ended. One still playing at the end ran out of
// time, or was stopped when every human was done (docs/RULES.md §Races).
function resultStatus(s, row) {
  if (row.status !== "playing") return s.T[row.status] || "–";
  const late = at(s.snap.race.finished_at) >= at(s.snap.race.time_limit_at);
  return (late ? s.T.out_of_time : s.T.stopped_at).replace("{progress}", row.progress);
}

// A rating change as players read it: "+16", "−8" (a real minus), "0".
function signed(change) {
  if (change === null || change === undefined) return "–";
  return change > 0 ? `+${change}` : (change < 0 ? `−${-change}` : "0");
}

// Every finished race of the room, each a link to its replay.
function showHistory(view, s) {
  const races = s.snap.history || [];
  $("room-history").hidden = races.length === 0;
  $("room-history-list").replaceChildren(...races.map((race) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = view.root.dataset.replayUrl.replace("/0/", `/${race.id}/`);
    link.textContent = s.T.race_n.replace("{n}", race.number);
    item.append(link);
    return item;
  }));
}

// The results' columns that hold a number: place, cleared, hints, shuffles, points.
const NUMBER_COLUMNS = [0, 3, 4, 5, 6];

// Progress over time: minutes along the bottom, names at the right kept apart.
function drawChart(s, results) {
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
  parts.push(make("text", { x: right, y: bottom + 28, class: "tick", "text-anchor": "end" }, s.T.minutes));
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
    poly.style.strokeWidth = row.seat === s.snap.you ? "3" : "1.6";
    poly.append(make("title", {}, seatName(s.T, row)));
    parts.push(poly);
    labels.push({ y: y(line[line.length - 1][1]), name: seatName(s.T, row), color });
  });
  // Names sorted by height and pushed apart so none overlaps another.
  labels.sort((a, b) => a.y - b.y);
  let last = -Infinity;
  for (const label of labels) {
    label.y = Math.max(label.y, last + 12);
    last = label.y;
    // 18 characters of 11 px text fit the 124 px beside the chart: a CPU's Spanish name
    // ("CPU 1 (Constante)", 17) whole.
    const text = make("text", { x: right + 6, y: (label.y + 4).toFixed(1), class: "name" },
      label.name.length > 18 ? `${label.name.slice(0, 17)}…` : label.name);
    text.style.fill = label.color;
    parts.push(text);
  }
  const height = Math.max(240, last + 10);
  svg.setAttribute("viewBox", `0 0 ${width} ${Math.ceil(height)}`);
  svg.replaceChildren(...parts);
}
