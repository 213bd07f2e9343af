// The table's socket over the site's shared client (../socket.js): numbered state
// frames and patches of them, resync on gaps and after a reconnect, and asking
// again when quiet.

import { gettext } from "../i18n.js";
import { connect } from "../socket.js";
import { patchApply } from "./patch.js";

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
// Close codes of a refused socket and what the page tells the player; the shared
// client stops trying after them. For 4429 the server's own message comes first.
const REFUSALS = {
  4401: () => gettext("You are signed out — log in again to play."),
  4403: () => gettext("You may not open this table."),
  4404: () => gettext("This table does not exist."),
  4429: () => gettext("Too many game pages are open. Close some of them, then reload this page."),
};
// A server that is stopping closes with 1001 ("going away"): say so, and reconnect.
const GOING_AWAY = 1001;
// A patch that does not fit the state shown asks for the whole state; while that
// answer is on its way, further patches do not ask again for this long.
const RESYNC_MS = 1000;

export class TableSocket {
  /**
   * @param {string} path e.g. "/ws/tables/7/"
   * @param {{onState: Function, onError: Function, onStatus: Function, onRefused?: Function}} handlers
   *   onStatus gets "open", "reconnecting", "restarting" or "refused"; onRefused,
   *   if given, the close code of a refused socket.
   * @param {{refusals?: Object}} options the texts of refused sockets by close code
   *   (the embedded game has no sign-in to offer).
   */
  constructor(path, handlers, { refusals = REFUSALS } = {}) {
    this.path = path;
    this.handlers = handlers;
    this.refusals = refusals;
    this.seq = null;
    this.shown = null; // the state frame shown: the base of the next patch
    this.resyncAt = 0;
    this.client = null;
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
    if (this.client?.stopped || this.client?.state === "refused") return;
    this.quietTimer = window.setTimeout(() => {
      if (this.client.isOpen) this.client.send({ type: "sync" });
      this.quietReset();
    }, this.quietDelay());
  }

  connect() {
    this.client = connect(this.path, {
      name: "table",
      backoff: { base: 400, max: 8000 },
      refusals: this.refusals,
      onOpen: ({ reconnect }) => {
        this.handlers.onStatus("open");
        // The server sends the state on connect; ask again after a reconnect anyway.
        // A spectator's states are numbered by their connection (docs/protocol.md),
        // so a new one starts again: its first state is taken whatever its number.
        if (reconnect) {
          this.seq = null;
          this.send({ type: "sync" });
        }
      },
      onClose: ({ code, retrying }) => {
        if (!retrying) window.clearTimeout(this.quietTimer);
        if (!retrying && this.handlers.onRefused) this.handlers.onRefused(code);
        this.handlers.onStatus(!retrying ? "refused" : code === GOING_AWAY ? "restarting" : "reconnecting");
      },
      onFrame: (frame) => this.receive(frame),
    });
  }

  receive(frame) {
    if (frame.type === "state" || frame.type === "patch") {
      this.receiveState(frame);
    } else if (frame.type === "error") {
      this.quietReset();
      if (frame.code === "stale_seq") this.send({ type: "sync" });
      this.handlers.onError(frame);
    } else if (frame.type === "watching") {
      this.quietReset();
      this.handlers.onWatching?.(frame.count);
    } else {
      this.quietReset();
    }
  }

  /** A `state` frame, or a `patch` applied to the state shown (it names it). */
  receiveState(frame) {
    if (this.seq !== null && frame.seq < this.seq) {
      this.quietReset();
      return; // older than shown
    }
    const state = frame.type === "patch" ? patchApply(this.shown, frame) : frame;
    if (state === null) {
      // Not a patch of what is shown (a frame was missed): ask for the whole state,
      // once in a while however many such patches come meanwhile.
      this.quietReset();
      if (Date.now() - this.resyncAt > RESYNC_MS) {
        this.resyncAt = Date.now();
        this.send({ type: "sync" });
      }
      return;
    }
    const timer = state.table && state.table.timer;
    this.dueAt = timer && timer.deadline ? timer.deadline * 1000 : null;
    this.quietReset();
    // A patch of the state shown leaves nothing out, whatever its seq; a state
    // frame after a gap in seq is followed by a sync (frames were lost on the way).
    const gap = frame.type === "state" && this.seq !== null && frame.seq > this.seq + 1;
    this.seq = state.seq;
    this.shown = state;
    this.handlers.onState(state);
    if (gap) this.send({ type: "sync" });
  }

  send(frame) {
    if (!this.client || !this.client.send(frame)) {
      this.handlers.onError({ code: "offline", message: gettext("Not connected — reconnecting…") });
      return false;
    }
    return true;
  }

  act(action) {
    return this.send({ type: "act", seq: this.seq, action });
  }

  /** Drop the connection on purpose, e.g. to test that it comes back. */
  drop() {
    this.client?.drop();
  }
}
