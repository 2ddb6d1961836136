// The open rooms of /rooms/: the server draws the list; this keeps it current by asking
// for /rooms/open.json every few seconds (rooms/lobby/open_rooms.py), while the page is seen.
// Every text from the server goes in through textContent, never as markup.
const section = document.getElementById("open-rooms"); // always on rooms/home.html
const list = document.getElementById("open-list");
const empty = document.getElementById("open-empty");
const REFRESH_MS = 5000;

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function row(room) {
  const item = element("li", "open-room");
  item.dataset.code = room.code;
  const text = element("div", "open-room-text");
  const meta = element("p", "open-meta");
  meta.append(
    element("strong", "open-owner", room.owner),
    element("span", "open-level", room.level_label),
    element("span", "open-seats", room.seats_label),
  );
  text.append(meta, element("p", "open-rules", room.summary));
  const join = element("a", "button primary", list.dataset.join);
  join.href = room.url;
  join.setAttribute("aria-label", room.join_label);
  item.append(text, join);
  return item;
}

function show(rooms) {
  list.replaceChildren(...rooms.map(row));
  empty.hidden = rooms.length > 0;
}

async function refresh() {
  if (!document.hidden) {
    try {
      const response = await fetch(section.dataset.url, {
        credentials: "same-origin", headers: { Accept: "application/json" },
      });
      if (response.ok) show((await response.json()).rooms);
    } catch (error) {
      // The server is restarting, or the network dropped: the next round tries again.
    }
  }
  setTimeout(refresh, REFRESH_MS);
}
setTimeout(refresh, REFRESH_MS);
