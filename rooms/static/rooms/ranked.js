// The ranked waiting page: ask the server once a second whether the group has formed,
// then go to the race. Polling keeps it simple; the room page opens its own socket.
const queue = document.getElementById("queue");
const line = document.getElementById("queue-state");
const start = document.getElementById("queue-start");
const POLL_MS = 1000;

async function poll() {
  try {
    const response = await fetch(queue.dataset.statusUrl, { credentials: "same-origin" });
    const state = await response.json();
    if (state.url) {
      window.location.assign(state.url);
      return;
    }
    if (!state.waiting) {
      window.location.reload(); // left the queue from another tab
      return;
    }
    line.textContent = line.textContent.replace(/\d+/, String(state.players));
    start.textContent = state.starts_in === null
      ? queue.dataset.secondPlayer
      : queue.dataset.startsIn.replace("{s}", String(state.starts_in));
  } catch (error) {
    // A failed poll (server restarting) just waits for the next one.
  }
  setTimeout(poll, POLL_MS);
}
setTimeout(poll, POLL_MS);
