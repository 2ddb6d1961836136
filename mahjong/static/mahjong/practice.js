// Solo practice (docs/RULES.md §Solo play): the board plays at once; every action goes to
// the server, one after another, and a refusal brings the board back to the server's state.
"use strict";

(() => {
  const $ = (id) => document.getElementById(id);
  const root = $("play");
  const T = JSON.parse($("strings").textContent);
  const csrf = document.querySelector("meta[name=csrf-token]").content;
  let game = null; // the server's last state
  let removed = []; // pairs removed, as the player sees them
  let clock = { base: 0, since: null };
  let queue = Promise.resolve(); // server calls, strictly in order
  let waiting = 0; // server calls not yet answered: the page is marked busy meanwhile

  const say = (text) => { $("message").textContent = text || ""; };
  const board = new MahjongBoard($("board"), $("board-wrap"), {
    sprite: root.dataset.sprite, strings: T, onSay: say, onPair: playPair,
  });

  function draw(state, at) {
    board.load(state.tiles);
    applyState(state, at);
    $("code").textContent = state.code;
    document.title = `${state.layout.label} · ${state.code}`;
  }

  // Bring the board to the server's state (after a draw, a refusal, an undo); `at` is
  // when that state was true, on the performance.now() scale.
  function applyState(state, at = performance.now()) {
    game = state;
    removed = state.removed.map((pair) => [...pair]);
    const gone = new Set(removed.flat());
    board.setAlive(state.tiles.map((_, i) => i).filter((i) => !gone.has(i)));
    const running = state.status === "playing" && !state.paused;
    clock = { base: state.clock_ms, since: running ? at : null };
    $("hints-used").textContent = state.hints_used;
    setPaused(state.paused);
    showProgress();
    tick(); // the server's clock at once, not at the next beat
  }

  function showProgress() {
    $("progress").textContent = `${board.progress()}%`;
    $("undo").disabled = removed.length === 0;
  }

  function playing() { return game && game.status === "playing" && !game.paused; }

  function playPair(pair) {
    const n = removed.length;
    removed.push(pair);
    showProgress();
    send("move", { game: game.id, tiles: pair, n }).then((state) => {
      if (!state) return;
      game = state;
      if (state.status === "won") showWon(state.result);
    });
    if (board.aliveCount() > 0 && board.isBlocked()) setTimeout(() => $("blocked-dialog").showModal(), 250);
  }

  function send(action, body) {
    const call = async () => {
      let response;
      try {
        response = await fetch(`${root.dataset.api}${action}`, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
          body: JSON.stringify(body),
          keepalive: action === "pause",
        });
      } catch (error) {
        say(T.offline);
        return null;
      }
      const answer = await response.json().catch(() => ({ error: T.offline }));
      if (!response.ok) {
        say(answer.error);
        if (answer.state) applyState(answer.state);
        return null;
      }
      return answer;
    };
    const answered = () => {
      waiting -= 1;
      if (!waiting) root.removeAttribute("aria-busy");
    };
    waiting += 1;
    root.setAttribute("aria-busy", "true");
    queue = queue.then(call, call).finally(answered);
    return queue;
  }

  function undo() {
    if (!playing() || !removed.length) return;
    $("blocked-dialog").close();
    send("undo", { game: game.id, n: removed.length }).then((state) => state && applyState(state));
  }

  function hint() {
    if (!playing()) return;
    send("hint", { game: game.id }).then((answer) => {
      if (!answer) return;
      game = answer.state;
      $("hints-used").textContent = answer.state.hints_used;
      if (!answer.pair) { say(T.no_moves); return; }
      board.highlight(answer.pair);
      say(answer.winning ? T.hint_winning : T.hint_playable);
    });
  }

  function setPaused(paused) {
    root.classList.toggle("paused", paused);
    board.enabled = !paused;
    $("paused-cover").hidden = !paused;
    $("pause").setAttribute("aria-pressed", String(paused));
    $("pause").textContent = paused ? T.resume : T.pause;
  }

  function togglePause() {
    if (!game || game.status !== "playing") return;
    const action = game.paused ? "resume" : "pause";
    // The clock stops under the cover at once; the server's answer then sets it exactly.
    if (action === "pause") clock = { base: clockMs(), since: null };
    setPaused(!game.paused);
    send(action, { game: game.id }).then((state) => state && applyState(state));
  }

  function newGame(body) {
    return send("new", body).then((state) => {
      if (!state) return false;
      draw(state);
      history.replaceState(null, "", `${root.dataset.playUrl}${state.code}/`);
      say("");
      return true;
    });
  }

  function showWon(result) {
    $("won-time").textContent = MahjongBoard.formatTime(result.time_ms);
    $("won-hints").textContent = result.hints_used;
    $("won-record").textContent = result.record
      ? T.new_record
      : T.your_record.replace("{time}", MahjongBoard.formatTime(result.previous_best_ms));
    $("won-dialog").showModal();
  }

  function clockMs() {
    if (game.status === "won") return game.result.time_ms;
    const running = clock.since !== null && playing();
    return clock.base + (running ? performance.now() - clock.since : 0);
  }

  function tick() {
    if (game) $("clock").textContent = MahjongBoard.formatTime(clockMs());
  }

  // --- wiring ---------------------------------------------------------------------------
  $("hint").addEventListener("click", hint);
  $("undo").addEventListener("click", undo);
  $("pause").addEventListener("click", togglePause);
  $("resume").addEventListener("click", togglePause);
  $("new-game").addEventListener("click", () => {
    $("code-error").textContent = "";
    $("new-game-dialog").showModal();
  });
  $("blocked-undo").addEventListener("click", undo);
  $("blocked-new").addEventListener("click", () => { $("blocked-dialog").close(); $("new-game").click(); });
  $("won-new").addEventListener("click", () => { $("won-dialog").close(); $("new-game").click(); });
  $("new-game-form").addEventListener("submit", (event) => {
    const button = event.submitter;
    if (!button || button.value === "cancel") return;
    event.preventDefault();
    let body;
    if (button.name === "level") body = { level: button.value, flowers: $("flowers").checked };
    else if (button.name === "layout") body = { layout: $("layout-choice").value };
    else body = { code: $("code-input").value };
    newGame(body).then((started) => {
      if (started) $("new-game-dialog").close();
      else $("code-error").textContent = $("message").textContent;
    });
  });
  document.addEventListener("visibilitychange", () => {
    if (document.hidden && playing()) togglePause();
  });
  MahjongBoard.listenKeys(board, { h: hint, u: undo, "Ctrl+z": undo, p: togglePause });
  MahjongBoard.setupTileStyle(root, $("tile-style"));

  const initialMessage = $("message").textContent;
  // The page's own state was written when its answer began, not when this script ran:
  // counting from then keeps the clock in step with the server's while the page loads.
  const page = performance.getEntriesByType("navigation")[0];
  draw(JSON.parse($("game-state").textContent), page ? page.responseStart : performance.now());
  say(initialMessage);
  if (game.status === "won") showWon(game.result);
  setInterval(tick, 250);
  tick();
})();
