// The offline game's engine: a module Web Worker running the project's own Python
// (games.offline over games.engine and games.bots) under Pyodide, so the page
// never blocks while a computer player thinks and there is one engine, not a copy.
//
// Everything it loads is this site's: Pyodide's module from /static/ (its other
// files from the same folder, by their own names: `indexURL`) and the pure
// packages' zip, unpacked into Pyodide's file system. The service worker keeps
// them, so the game starts with no connection.
//
// Messages: {id, op, args} in, {id, ok: true, result} or {id, ok: false, error}
// out. Every op but "init" and "kept" calls the function of that name in
// games/offline/bridge.py, which says what it answers.

import { snapshotDrop, snapshotGet, snapshotKey, snapshotPut, snapshotRestored, snapshotTrying } from "./snapshot.js";

const PURE_DIR = "/home/pyodide/pure";
// Module names in constants: collectstatic reads a string call of `import` as a
// file to hash.
const SYS = "sys";
const BRIDGE = "games.offline.bridge";
const OPS = new Set(["start", "resume", "act", "computer", "speed", "states", "timings"]);

let bridge = null;
// Settles once the memory snapshot a first start made is kept (true) or could
// not be (false); the "kept" op answers it (the browser tests).
let saving = Promise.resolve(false);

/**
 * Start Python with the project's packages imported. A later start restores the
 * memory snapshot the first one kept (snapshot.js): Python's start and the
 * imports are most of the time a start takes. A snapshot that cannot be
 * restored is dropped and Python starts afresh.
 */
async function init({ pyodide: pyodideUrl, pure: pureUrl }) {
  const began = performance.now();
  const since = () => (performance.now() - began) / 1000;
  const pure = fetch(pureUrl).then((reply) => {
    if (!reply.ok) throw new Error(String(reply.status));
    return reply.arrayBuffer();
  });
  // Awaited below; until then a failure (offline before the zip was kept) is
  // not an unhandled rejection if Pyodide's own start fails first.
  pure.catch(() => {});
  const { loadPyodide, version } = await import(pyodideUrl);
  const indexURL = new URL(".", new URL(pyodideUrl, self.location.href)).href;
  const zip = await pure;
  const key = await snapshotKey(version, zip);
  const kept = await snapshotGet(key).catch(() => null);
  let py = null;
  if (kept) {
    try {
      await snapshotTrying(key);
      py = await loadPyodide({ indexURL, fullStdLib: false, _loadSnapshot: kept });
      snapshotRestored().catch(() => {});
    } catch {
      py = null;
      await snapshotDrop().catch(() => {});
    }
  }
  const restored = py !== null;
  if (!py) py = await loadPyodide({ indexURL, fullStdLib: false, _makeSnapshot: true });
  const loaded = since();
  // The files too: a module imported later (inside a function) is read from them.
  py.unpackArchive(zip, "zip", { extractDir: PURE_DIR });
  if (!restored) {
    const sys = py.pyimport(SYS);
    sys.path.insert(0, PURE_DIR);
    sys.destroy();
  }
  bridge = py.pyimport(BRIDGE);
  if (!restored) {
    let bytes = null;
    try {
      bytes = py.makeMemorySnapshot();
    } catch {
      bytes = null;
    }
    saving = bytes ? snapshotPut(key, bytes).then(() => true, () => false) : Promise.resolve(false);
  }
  // How long each step took, for bench/offline.py.
  return { seconds: since(), pyodide: loaded, version: py.version, snapshot: restored ? "restored" : "made" };
}

function call(name, args) {
  if (!bridge) throw new Error("init");
  const fn = bridge[name];
  try {
    return JSON.parse(fn(JSON.stringify(args ?? {})));
  } finally {
    fn.destroy();
  }
}

// One message at a time, in order: Python runs one call after the other anyway,
// and an "act" must see the game the "computer" before it left.
let queue = Promise.resolve();

self.addEventListener("message", (event) => {
  const { id, op, args } = event.data || {};
  queue = queue.then(async () => {
    try {
      let result;
      if (op === "init") result = await init(args);
      else if (op === "kept") result = await saving;
      else if (OPS.has(op)) result = call(op, args);
      else throw new Error(String(op));
      self.postMessage({ id, ok: true, result });
    } catch (error) {
      self.postMessage({ id, ok: false, error: String(error?.message || error) });
    }
  });
});
