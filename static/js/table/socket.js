// The table's WebSocket: numbered state frames, resync on gaps, reconnect with backoff.

import { gettext } from "../i18n.js";

const MAX_BACKOFF_MS = 8000;
// Frames are delivered at most once (Redis pub/sub): a lost frame shows as a gap in
// `seq` when the next one arrives, but a lost *last* frame would not, so a socket
// that has heard nothing for this long asks for the state again.
const QUIET_SYNC_MS = 20000;
// While a timed job (a computer's move, a turn clock, the next hand) is due, its
// frame should come at once: if nothing came this long after the deadline, a frame
// was lost (a channel-layer outage) or the job waits for the sweep, so ask again
// every so often until a frame arrives. Within a couple of seconds of recovery the
// screen is current, without a reload.
const DUE_GRACE_MS = 1500;
const DUE_SYNC_MS = 2000;
// Close codes of a refused socket and what the page tells the player.
const REFUSALS = { 4401: "signed_out", 4403: "forbidden", 4404: "no_table", 4429: "too_many" };
// A server that is stopping closes with 1001 ("going away"): say so, and reconnect.
const GOING_AWAY = 1001;

export class TableSocket {
  /**
   * @param {string} path e.g. "/ws/tables/7/"
   * @param {{onState: Function, onError: Function, onStatus: Function}} handlers
   */
  constructor(path, handlers) {
    this.path = path;
    this.handlers = handlers;
    this.seq = null;
    this.attempt = 0;
    this.ws = null;
    this.stopped = false;
    this.opened = false;
    this.quietTimer = null;
    this.dueAt = null; // when the shown state's timed job falls due (ms, local clock)
  }

  quietDelay() {
    if (this.dueAt === null) return QUIET_SYNC_MS;
    const untilDue = this.dueAt + DUE_GRACE_MS - Date.now();
    return Math.min(QUIET_SYNC_MS, Math.max(DUE_SYNC_MS, untilDue));
  }

  quietReset() {
    window.clearTimeout(this.quietTimer);
    if (this.stopped) return;
    this.quietTimer = window.setTimeout(() => {
      if (this.ws && this.ws.readyState === WebSocket.OPEN) this.send({ type: "sync" });
      this.quietReset();
    }, this.quietDelay());
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${window.location.host}${this.path}`;
  }

  connect() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      const reconnect = this.opened;
      this.opened = true;
      this.attempt = 0;
      this.handlers.onStatus("open");
      // The server sends the state on connect; ask again after a reconnect anyway.
      if (reconnect) this.send({ type: "sync" });
    });
    ws.addEventListener("message", (event) => this.receive(event.data));
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.stopped) return;
      // The server accepts, then closes with a code saying why it will not serve
      // this page (docs/protocol.md): reconnecting would not help.
      const refused = REFUSALS[event.code];
      if (refused) {
        this.handlers.onStatus(refused);
        return;
      }
      this.handlers.onStatus(event.code === GOING_AWAY ? "restarting" : "reconnecting");
      const delay = Math.min(MAX_BACKOFF_MS, 400 * 2 ** this.attempt);
      this.attempt += 1;
      window.setTimeout(() => this.connect(), delay * (0.75 + Math.random() / 2));
    });
  }

  receive(text) {
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      this.quietReset();
      return;
    }
    if (frame.type === "state" && !(this.seq !== null && frame.seq < this.seq)) {
      const timer = frame.table && frame.table.timer;
      this.dueAt = timer && timer.deadline ? timer.deadline * 1000 : null;
    }
    this.quietReset();
    if (frame.type === "state") {
      if (this.seq !== null && frame.seq < this.seq) return; // older than shown
      const gap = this.seq !== null && frame.seq > this.seq + 1;
      this.seq = frame.seq;
      this.handlers.onState(frame);
      if (gap) this.send({ type: "sync" });
    } else if (frame.type === "error") {
      if (frame.code === "stale_seq") this.send({ type: "sync" });
      this.handlers.onError(frame);
    }
  }

  send(frame) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) {
      this.handlers.onError({ code: "offline", message: gettext("Not connected — reconnecting…") });
      return false;
    }
    this.ws.send(JSON.stringify(frame));
    return true;
  }

  act(action) {
    return this.send({ type: "act", seq: this.seq, action });
  }

  /** Drop the connection on purpose, e.g. to test that it comes back. */
  drop() {
    if (this.ws) this.ws.close();
  }
}
