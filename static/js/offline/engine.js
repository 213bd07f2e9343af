// The page's side of the engine's Web Worker (worker.js): each call a promise.

export class Engine {
  /**
   * @param {{worker: string, pyodide: string, pure: string}} runtime the static
   *   URLs of the worker script, Pyodide's module and the pure packages' zip.
   * @param {Promise} gate the engine loads its runtime once this settles.
   */
  constructor(runtime, gate = Promise.resolve()) {
    this.runtime = runtime;
    this.worker = new Worker(runtime.worker, { type: "module" });
    this.next = 1;
    this.waiting = new Map();
    this.worker.addEventListener("message", (event) => {
      const { id, ok, result, error } = event.data || {};
      const pending = this.waiting.get(id);
      if (!pending) return;
      this.waiting.delete(id);
      if (ok) pending.resolve(result);
      else pending.reject(new Error(error));
    });
    this.worker.addEventListener("error", (event) => {
      const failure = new Error(event.message || event.type);
      for (const pending of this.waiting.values()) pending.reject(failure);
      this.waiting.clear();
    });
    this.ready = gate.then(() => this.call("init", { pyodide: runtime.pyodide, pure: runtime.pure }));
  }

  call(op, args) {
    const id = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, op, args });
    });
  }

  /** A new game: ``seed`` is the deal's secret, 64 hex digits. */
  async start(variant, options, levels, seed) {
    await this.ready;
    return this.call("start", { variant, options, levels, seed });
  }

  /** Go on with a game kept as the engine gave it (JSON text). */
  async resume(game) {
    await this.ready;
    return this.call("resume", { game });
  }

  async act(seat, action) {
    await this.ready;
    return this.call("act", { seat, action });
  }

  async computer(seat) {
    await this.ready;
    return this.call("computer", { seat });
  }

  /** The state after each action of a log, as JSON text (the differential test). */
  async states(variant, options, levels, seed, actions) {
    await this.ready;
    return this.call("states", { variant, options, levels, seed, actions });
  }

  /** Milliseconds each position's decision took (bench/offline.py). */
  async timings(positions) {
    await this.ready;
    return this.call("timings", { positions });
  }
}

/** The deal's secret: 32 random bytes from the browser, as 64 hex digits. */
export function seedNew() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A version-4 UUID: the id the server knows a finished game by. */
export function uuidNew() {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const b = new Uint8Array(16);
  crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
