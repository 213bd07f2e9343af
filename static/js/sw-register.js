// Install the site's service worker (/sw.js: config.webapp), which keeps the
// offline game's app shell. Then tell it this page's language, so that it keeps
// the catalog and rules guide the player reads; a page offering the offline game
// (``data-offline-runtime``) also has it keep the game's runtime.
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  navigator.serviceWorker.ready.then((registration) => {
    const worker = registration.active;
    if (!worker) return;
    worker.postMessage({ type: "language", language: document.documentElement.lang });
    if (document.querySelector("[data-offline-runtime]")) {
      worker.postMessage({ type: "runtime" });
    }
  });
}
