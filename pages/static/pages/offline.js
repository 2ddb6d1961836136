// The offline page (pages/templates/pages/offline.html), shown by the service worker in
// place of a page that could not be reached: the same address is asked for again on
// "Try again", when the browser says the network is back, and once a quiet look at the
// server (every few seconds) finds it answering: the "online" event is not sent on
// every network that comes back. Opened at its own address (/offline/), it has nothing
// to go back to: "Try again" goes to the front door, and it does not reload itself.
const LOOK_MS = 3000;
const ownAddress = location.pathname === document.body.dataset.offlinePath;
const retry = () => (ownAddress ? location.assign("/") : location.reload());
document.getElementById("offline-retry").addEventListener("click", retry);
if (!ownAddress) {
  window.addEventListener("online", retry);
  setInterval(() => {
    fetch(location.href, { method: "HEAD", cache: "no-store" }).then((response) => {
      if (response.status < 500) retry();
    }, () => {});
  }, LOOK_MS);
}
