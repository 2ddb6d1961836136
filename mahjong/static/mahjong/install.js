// The service worker (/sw.js, pages/installable.py; docs/ARCHITECTURE.md §Installable and
// offline), registered once the page has loaded so it never competes with the page's own
// files. A browser without workers, or a worker that fails to install, leaves the site as
// it was: every page still comes from the network.
if ("serviceWorker" in navigator) {
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  // The page's language, for the offline page the worker shows (it also reads the
  // language of each page it fetches, but not of a page loaded before it ran).
  navigator.serviceWorker.ready.then((registration) => {
    if (registration.active) registration.active.postMessage({ language: document.documentElement.lang });
  });
  // After the load, when the page is idle: its install fetches every static file.
  const later = () => (window.requestIdleCallback ? requestIdleCallback(register, { timeout: 5000 }) : setTimeout(register, 1000));
  if (document.readyState === "complete") later();
  else window.addEventListener("load", later, { once: true });
}
