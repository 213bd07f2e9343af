// The site's WebSocket client, shared by every page that listens to the server
// (docs/protocol.md): it opens ws(s)://<this host><path>, keeps the socket alive with
// pings, reconnects with capped exponential backoff and jitter, and shows one
// "connecting…" line per page for all of the page's sockets.
//
//   (a page imports this module's ``connect``; no import line here, since
//   collectstatic rewrites anything shaped like one, comments included)
//   const socket = connect("/ws/lobby/", {
//     onFrame: (frame) => render(frame),          // every frame the page handles
//     onOpen: ({ reconnect }) => { if (reconnect) socket.send({ type: "sync" }); },
//     ping: 20000,                                // keep-alive, ms (0: none)
//   });
//   socket.send({ type: "search", pool: "draw-2" });  // false while not connected
//
// What the client handles itself:
// - a refusal (4401 signed out, 4403, 4404, 4429 too many pages): no more attempts;
//   the status line says why (for 4429 the server's own message, from the
//   `too_many_sockets` error frame sent just before the close);
// - 1001, the server stopping: "The server is restarting…", and a prompt new attempt;
// - any other loss (4500, the network): "reconnecting…", attempts with backoff; the
//   backoff starts over once a socket has stayed open STABLE_MS;
// - a `busy` error frame: the frame it refused is sent once more after `retry`
//   seconds (the page does not see that error unless the retry was refused too);
// - the page becoming visible again, or the network coming back: a socket waiting
//   for its next attempt tries at once.

import { gettext } from "./i18n.js";

const STABLE_MS = 5000;
// The first "connecting…" waits this long: most sockets open well within it.
const FIRST_NOTICE_MS = 700;
// A `busy` answer refers to a frame sent just before it, not to an older one.
const BUSY_WINDOW_MS = 10000;
const GOING_AWAY = 1001;
const SIGNED_OUT = 4401;
const TOO_MANY = 4429;
// Close codes after which another attempt would be refused again.
const REFUSED = new Set([SIGNED_OUT, 4403, 4404, TOO_MANY]);

const clients = new Set();

// --- the page's one status line

let statusElement = null;
let ownStatusElement = false;
let firstNotice = false; // the grace for the first "connecting…" is over

function element() {
  if (!statusElement) {
    statusElement = document.createElement("div");
    statusElement.className = "socket-status";
    statusElement.setAttribute("role", "status");
    ownStatusElement = true;
    document.body.append(statusElement);
  }
  return statusElement;
}

/**
 * Show the connection status in ``el`` (an element of the page with
 * ``role="status"``, e.g. the table's line above the seats) instead of the line the
 * client adds at the end of the page.
 */
export function useStatusElement(el) {
  if (!el || el === statusElement) return;
  if (statusElement && ownStatusElement) statusElement.remove();
  statusElement = el;
  ownStatusElement = false;
  renderStatus();
}

function loginLink() {
  const a = document.createElement("a");
  a.href = `/accounts/login/?next=${encodeURIComponent(window.location.pathname)}`;
  a.textContent = gettext("Log in");
  return a;
}

/** What the line says for one client, or null. */
function notice(client) {
  if (client.refusal) return client.refusal;
  if (client.stopped || client.state === "open") return null;
  if (client.state === "restarting") {
    return { rank: 3, text: client.texts.restarting?.() ?? gettext("The server is restarting…") };
  }
  if (client.state === "reconnecting") {
    return { rank: 2, text: client.texts.reconnecting?.() ?? gettext("reconnecting…") };
  }
  if (!firstNotice) return null;
  return { rank: 1, text: client.texts.connecting?.() ?? gettext("connecting…") };
}

function renderStatus() {
  let shown = null;
  for (const client of clients) {
    const n = notice(client);
    if (n && (!shown || n.rank > shown.rank)) shown = n;
  }
  const el = element();
  const text = shown ? shown.text : "";
  if (el.dataset.shown === text) return;
  el.dataset.shown = text;
  el.replaceChildren(text);
  if (shown?.login) el.append(" ", loginLink());
  // The page's own element shows and hides as its markup says; the added one stays
  // in the page (a live region is announced only if it exists before it changes)
  // and takes no room while empty.
  if (!ownStatusElement) el.hidden = !text;
}

window.setTimeout(() => {
  firstNotice = true;
  renderStatus();
}, FIRST_NOTICE_MS);

// --- the client

class SocketClient {
  constructor(path, options) {
    this.path = path;
    this.onFrame = options.onFrame || (() => {});
    this.onOpen = options.onOpen || (() => {});
    this.onClose = options.onClose || (() => {});
    this.ping = options.ping || 0;
    this.base = options.backoff?.base ?? 500;
    this.max = options.backoff?.max ?? 15000;
    this.texts = options.texts || {};
    this.refusals = options.refusals || {};
    this.ws = null;
    this.state = "connecting"; // connecting | open | reconnecting | restarting | refused
    this.opened = false; // a socket of this client has been open before
    this.attempt = 0;
    this.retryTimer = null;
    this.pingTimer = null;
    this.stableTimer = null;
    this.stopped = false;
    this.refusal = null; // {rank, text, login} once refused
    this.serverMessage = null; // the `too_many_sockets` frame's message
    this.lastSent = null; // {frame, at, retried, ws}
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    return `${scheme}://${window.location.host}${this.path}`;
  }

  get isOpen() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  open() {
    if (this.stopped || this.ws) return;
    window.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => this.opening(ws));
    ws.addEventListener("message", (event) => this.receive(ws, event.data));
    ws.addEventListener("close", (event) => this.closed(ws, event.code));
  }

  opening(ws) {
    if (this.ws !== ws) return;
    const reconnect = this.opened;
    this.opened = true;
    this.state = "open";
    this.serverMessage = null;
    window.clearTimeout(this.stableTimer);
    this.stableTimer = window.setTimeout(() => {
      this.attempt = 0;
    }, STABLE_MS);
    if (this.ping) {
      window.clearInterval(this.pingTimer);
      this.pingTimer = window.setInterval(() => this.send({ type: "ping" }), this.ping);
    }
    renderStatus();
    this.onOpen({ reconnect });
  }

  receive(ws, text) {
    if (this.ws !== ws) return;
    let frame;
    try {
      frame = JSON.parse(text);
    } catch {
      return;
    }
    if (frame?.type === "error" && frame.code === "too_many_sockets") {
      this.serverMessage = frame.message;
      return;
    }
    if (frame?.type === "error" && frame.code === "busy" && this.retryBusy(ws, frame)) return;
    this.onFrame(frame);
  }

  /** Send the frame a `busy` answer refused once more; whether one will be. */
  retryBusy(ws, frame) {
    const last = this.lastSent;
    if (!last || last.ws !== ws || last.retried || Date.now() - last.at > BUSY_WINDOW_MS) return false;
    last.retried = true;
    const seconds = Number(frame.retry) > 0 ? Number(frame.retry) : 2;
    window.setTimeout(() => {
      if (this.ws === ws && this.isOpen) this.transmit(last.frame, true);
    }, seconds * 1000);
    return true;
  }

  closed(ws, code) {
    if (this.ws !== ws) return;
    this.ws = null;
    window.clearInterval(this.pingTimer);
    window.clearTimeout(this.stableTimer);
    if (this.stopped) return;
    if (REFUSED.has(code)) {
      this.refuse(code);
      this.onClose({ code, retrying: false });
      return;
    }
    if (code === GOING_AWAY) {
      this.state = "restarting";
      this.attempt = 0;
    } else {
      this.state = this.opened ? "reconnecting" : "connecting";
    }
    this.onClose({ code, retrying: true });
    renderStatus();
    this.schedule();
  }

  refuse(code) {
    this.state = "refused";
    const own = this.refusals[code];
    let text = code === TOO_MANY ? this.serverMessage : null;
    text = text || (own ? own() : null);
    if (!text && code === SIGNED_OUT) text = gettext("You are signed out — log in again to play.");
    this.refusal = text ? { rank: 4, text, login: code === SIGNED_OUT } : null;
    renderStatus();
  }

  delay() {
    const ceiling = Math.min(this.max, this.base * 2 ** this.attempt);
    return ceiling * (0.5 + Math.random() / 2);
  }

  schedule() {
    const wait = this.delay();
    this.attempt += 1;
    this.retryTimer = window.setTimeout(() => this.open(), wait);
  }

  /** Try at once if waiting for the next attempt (the page is back, or the network). */
  wake() {
    if (this.retryTimer !== null && !this.ws && !this.stopped) this.open();
  }

  transmit(frame, retried) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(frame));
    this.lastSent = { frame, at: Date.now(), retried, ws: this.ws };
    return true;
  }

  /** Send a frame (an object); false when the socket is not open. */
  send(frame) {
    return this.transmit(frame, false);
  }

  /** Drop the connection as a network failure would: the client reconnects. */
  drop() {
    if (this.ws) this.ws.close();
  }

  /** Close for good. */
  close() {
    this.stopped = true;
    window.clearTimeout(this.retryTimer);
    window.clearInterval(this.pingTimer);
    window.clearTimeout(this.stableTimer);
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
    clients.delete(this);
    renderStatus();
  }
}

/**
 * Open a socket to ``path`` (e.g. "/ws/lobby/") that stays open.
 *
 * options:
 *   onFrame(frame)     each frame from the server, parsed (but `too_many_sockets`,
 *                      and a `busy` the client answers by sending again)
 *   onOpen({reconnect}) each time a socket opens; `reconnect` after a loss
 *   onClose({code, retrying}) each time one closes
 *   ping               milliseconds between `{"type": "ping"}` frames (0: none)
 *   backoff            {base, max}: the first wait and the longest, in ms
 *   texts              {connecting, reconnecting, restarting}: functions giving the
 *                      page's own words for the status line
 *   refusals           {<close code>: function giving the text shown when refused}
 *   name               the client's name in `window.dominoSockets` (browser tests)
 */
export function connect(path, options = {}) {
  const client = new SocketClient(path, options);
  clients.add(client);
  element();
  if (options.name) {
    window.dominoSockets = window.dominoSockets || {};
    window.dominoSockets[options.name] = client;
  }
  client.open();
  renderStatus();
  return client;
}

const wakeAll = () => {
  for (const client of clients) client.wake();
};
window.addEventListener("online", wakeAll);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") wakeAll();
});
// A page being left closes its sockets: that is no loss to show or repair.
window.addEventListener("pagehide", () => {
  for (const client of clients) {
    client.stoppedBefore = client.stopped;
    client.stopped = true;
  }
});
window.addEventListener("pageshow", (event) => {
  if (!event.persisted) return;
  for (const client of clients) {
    client.stopped = client.stoppedBefore;
    if (!client.stopped && client.state !== "refused") {
      client.ws = null;
      client.open();
    }
  }
});
