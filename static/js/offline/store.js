// What the offline game keeps in this browser (IndexedDB): the game in progress,
// saved after every move so a reload, a closed tab or a restarted phone goes on
// where it was; the practice form's settings; and the finished games waiting to
// be sent to the server (kept until it has them).

const DB_NAME = "dominoes-offline";
const DB_VERSION = 1;
const KEEP = "keep"; // key -> value: "game", "settings"
const UPLOADS = "uploads"; // finished games to send, by their id

function request(req) {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

let opened = null;

function db() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB_NAME, DB_VERSION);
      req.onupgradeneeded = () => {
        const base = req.result;
        if (!base.objectStoreNames.contains(KEEP)) base.createObjectStore(KEEP);
        if (!base.objectStoreNames.contains(UPLOADS)) base.createObjectStore(UPLOADS, { keyPath: "id" });
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
  }
  return opened;
}

/** Run ``work(store)`` in one transaction; resolves once it is committed. */
async function within(name, mode, work) {
  const tx = (await db()).transaction(name, mode);
  const done = new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error);
    tx.onerror = () => reject(tx.error);
  });
  const result = await work(tx.objectStore(name));
  await done;
  return result;
}

export function keepGet(key) {
  return within(KEEP, "readonly", (store) => request(store.get(key)));
}

export function keepPut(key, value) {
  return within(KEEP, "readwrite", (store) => request(store.put(value, key)));
}

export function keepDelete(key) {
  return within(KEEP, "readwrite", (store) => request(store.delete(key)));
}

/**
 * A finished game: the game in progress is dropped and its upload queued in one
 * transaction, so the game is never lost between the two nor sent twice.
 */
export async function finishKeep(upload) {
  const tx = (await db()).transaction([KEEP, UPLOADS], "readwrite");
  const done = new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onabort = () => reject(tx.error);
    tx.onerror = () => reject(tx.error);
  });
  tx.objectStore(UPLOADS).put(upload);
  tx.objectStore(KEEP).delete("game");
  await done;
}

export function uploadsAll() {
  return within(UPLOADS, "readonly", (store) => request(store.getAll()));
}

export function uploadDelete(id) {
  return within(UPLOADS, "readwrite", (store) => request(store.delete(id)));
}
