// The site's service worker, served at /sw.js by config.webapp, which fills in
// CONFIG: what it may keep, and the version in its cache's name. It keeps the
// offline game's app shell and never a page with a session or a player's data;
// every other request goes to the network, and a page that cannot be reached
// while offline gets the offline notice.
const CONFIG = {{ config|safe }};
const PREFIX = "shell-";
const CACHE = PREFIX + CONFIG.version;
// The language whose catalog, rules guide and offline pages the cache holds.
const LANGUAGE_KEY = "/sw.js?cached-language";

const SHELL = new Set([CONFIG.pages.offline, CONFIG.pages.notice, ...CONFIG.shell]);
const RUNTIME = new Set(CONFIG.runtime);
const PUBLIC = new Set([
  ...Object.values(CONFIG.catalogs),
  ...Object.values(CONFIG.rules).flat(),
]);

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll([...SHELL].map((url) => new Request(url, { cache: "reload" })));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

// What may be kept: the lists above, nothing else (a public file of this site).
function keepable(url) {
  const path = url.pathname;
  return url.search === "" && (SHELL.has(path) || RUNTIME.has(path) || PUBLIC.has(path));
}

async function fromCache(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok && response.type === "basic") {
    await cache.put(request, response.clone());
  }
  return response;
}

async function page(request, url) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    // The two offline pages carry nothing of a session: the copy is refreshed
    // whenever they are reached. Any other page is never kept from a visit.
    if (response.ok && !response.redirected && (url.pathname === CONFIG.pages.offline
        || url.pathname === CONFIG.pages.notice) && url.search === "") {
      await cache.put(url.pathname, response.clone());
    }
    return response;
  } catch (error) {
    const kept = keepable(url) ? await cache.match(url.pathname) : undefined;
    if (kept) return kept;
    // The installed app starts at the Play page, which needs the server: offline,
    // the offline game stands in for it.
    if (url.pathname === CONFIG.play) {
      const game = await cache.match(CONFIG.pages.offline);
      if (game) return game;
    }
    const notice = await cache.match(CONFIG.pages.notice);
    if (notice) return notice;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request, url));
  } else if (keepable(url)) {
    event.respondWith(fromCache(request));
  }
});

// A page in ``language`` was shown: keep that language's catalog and rules guide
// (as a signed-out reader gets them: no cookie is sent) and the offline pages
// in it, once per language change.
async function languageKeep(language) {
  if (!(language in CONFIG.catalogs)) return;
  const cache = await caches.open(CACHE);
  const marked = await cache.match(LANGUAGE_KEY);
  if (marked && (await marked.text()) === language) return;
  const anonymous = [CONFIG.catalogs[language], ...CONFIG.rules[language]];
  await Promise.all([
    ...anonymous.map(async (url) => {
      const response = await fetch(url, { credentials: "omit", cache: "no-cache" });
      if (response.ok) await cache.put(url, response);
    }),
    ...[CONFIG.pages.offline, CONFIG.pages.notice].map(async (url) => {
      const response = await fetch(url, { cache: "no-cache" });
      if (response.ok) await cache.put(url, response);
    }),
  ]);
  await cache.put(LANGUAGE_KEY, new Response(language));
}

// A page offering the offline game: keep its runtime (some megabytes, once).
async function runtimeKeep() {
  const cache = await caches.open(CACHE);
  for (const url of RUNTIME) {
    if (!(await cache.match(url))) await cache.add(url);
  }
}

self.addEventListener("message", (event) => {
  const data = event.data || {};
  const reply = (message) => event.source && event.source.postMessage(message);
  if (data.type === "language") {
    event.waitUntil(languageKeep(String(data.language)).catch(() => {}));
  } else if (data.type === "runtime") {
    event.waitUntil(
      runtimeKeep().then(
        () => reply({ type: "runtime", ready: true }),
        () => reply({ type: "runtime", ready: false }),
      ),
    );
  }
});
