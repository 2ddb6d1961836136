// The site's service worker (pages/installable.py writes the lists below; docs/ARCHITECTURE.md
// §Installable and offline). It keeps every static file a page loads, by its hashed name,
// and serves them from its cache: a repeat visit draws its board without asking the
// network for one asset. A page that cannot be reached shows the offline page, in the
// language of the last page served. Nothing else is kept: pages, the game's calls and the
// sockets always go to the server.
const VERSION = "{{ version }}";
const FILES = {{ files|safe }};
const OFFLINE = {{ offline|safe }}; // language -> the offline page's URL
const DEFAULT_LANGUAGE = {{ default_language|safe }};
const CACHE = `mj-static-${VERSION}`;
const META = "mj-meta"; // what the worker remembers: the last page's language
const KEPT = new Set(FILES);

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(CACHE);
    // Fresh copies: a stale one in the HTTP cache must not be kept for good.
    await cache.addAll([...FILES, ...Object.values(OFFLINE)].map((url) => new Request(url, { cache: "reload" })));
    await self.skipWaiting();
  })());
});

// The new worker takes over at once; the caches of older ones (older hashes) go.
self.addEventListener("activate", (event) => {
  event.waitUntil((async () => {
    const names = await caches.keys();
    await Promise.all(names.filter((name) => name.startsWith("mj-static-") && name !== CACHE).map((name) => caches.delete(name)));
    await self.clients.claim();
  })());
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(request));
  } else if (KEPT.has(url.pathname)) {
    event.respondWith(kept(request));
  }
});

async function kept(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
  return response;
}

async function navigate(request) {
  try {
    const response = await fetch(request);
    remember(response.headers.get("Content-Language"));
    return response;
  } catch (error) {
    const language = await lastLanguage();
    const cache = await caches.open(CACHE);
    const page = await cache.match(OFFLINE[language] || OFFLINE[DEFAULT_LANGUAGE]);
    return page || Response.error();
  }
}

// A page says its language (mahjong/install.js).
self.addEventListener("message", (event) => {
  if (event.data && typeof event.data.language === "string") remember(event.data.language);
});

let language = null;
function remember(code) {
  if (!code || !(code in OFFLINE) || code === language) return;
  language = code;
  caches.open(META).then((cache) => cache.put("/language", new Response(code)));
}

async function lastLanguage() {
  if (language) return language;
  const saved = await (await caches.open(META)).match("/language");
  language = saved ? await saved.text() : DEFAULT_LANGUAGE;
  return language;
}
