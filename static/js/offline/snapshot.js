// The engine's memory snapshot, kept in this browser (IndexedDB): Pyodide's
// WebAssembly memory taken once the project's packages are imported, so a later
// start restores it instead of starting Python and importing them again (the
// offline game's start on a phone; bench/offline.py part 2 measures it).
//
// One snapshot at a time, under a key naming the Pyodide version and a digest
// of the pure packages' zip: a deploy that changes either makes a new one. A
// restore is marked before it starts and unmarked once it is done: Pyodide
// hangs on some spoilt snapshots instead of failing, so a snapshot whose last
// restore never finished is dropped rather than tried again.

const DB_NAME = "dominoes-engine";
const STORE = "snapshot";
const SLOT = "current";
const TRYING = "trying"; // the key of a restore under way

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function db() {
  const req = indexedDB.open(DB_NAME, 1);
  req.onupgradeneeded = () => req.result.createObjectStore(STORE);
  return request(req);
}

async function within(mode, work) {
  const base = await db();
  try {
    const tx = base.transaction(STORE, mode);
    const done = new Promise((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onabort = () => reject(tx.error);
      tx.onerror = () => reject(tx.error);
    });
    const result = await work(tx.objectStore(STORE));
    await done;
    return result;
  } finally {
    base.close();
  }
}

/** The key of a snapshot: the runtime's version and the zip's SHA-256. */
export async function snapshotKey(version, zip) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", zip));
  return `${version}:${Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * The kept snapshot's bytes if it was made under ``key``, is whole and its last
 * restore finished; else null (and a snapshot that fails these is dropped).
 */
export async function snapshotGet(key) {
  const [kept, trying] = await within("readonly", (store) =>
    Promise.all([request(store.get(SLOT)), request(store.get(TRYING))]),
  );
  if (!kept) return null;
  const whole = kept.bytes && kept.bytes.byteLength === kept.size;
  if (kept.key !== key || !whole || trying !== undefined) {
    await snapshotDrop();
    return null;
  }
  return kept.bytes;
}

/** Keep ``bytes`` as the snapshot of ``key``, replacing any other. */
export function snapshotPut(key, bytes) {
  return within("readwrite", (store) => request(store.put({ key, size: bytes.byteLength, bytes }, SLOT)));
}

/** Mark a restore of ``key`` as under way; ``snapshotRestored`` unmarks it. */
export function snapshotTrying(key) {
  return within("readwrite", (store) => request(store.put(key, TRYING)));
}

export function snapshotRestored() {
  return within("readwrite", (store) => request(store.delete(TRYING)));
}

export function snapshotDrop() {
  return within("readwrite", (store) => Promise.all([request(store.delete(SLOT)), request(store.delete(TRYING))]));
}
