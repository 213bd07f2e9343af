// Entry point of the table page.
import { TableSocket } from "./socket.js";
import { gettext, interpolate, ngettext } from "../i18n.js";
import { useStatusElement } from "../socket.js";
import { TableUI } from "./ui.js";
import { FairPanel, dealOf, verifyAll, verifyHand } from "./fair.js";

const config = JSON.parse(document.getElementById("table-config").textContent);
const root = document.getElementById("table-app");

let socket = null;
const ui = new TableUI(root, config, {
  act: (action) => socket.act(action),
  back: () => socket.send({ type: "back" }),
  leave: () => socket.send({ type: "leave" }),
});
const fair = new FairPanel(document.getElementById("fair"), config, (frame) => socket.send(frame));
socket = new TableSocket(config.ws, {
  onState: (frame) => {
    ui.update(frame);
    fair.update(frame);
  },
  onError: (frame) => ui.error(frame),
  onStatus: (status) => ui.setConnection(status),
  onWatching: (count) => showWatching(count),
});
/** "3 watching" under the seats: how many people watch this table now. */
function showWatching(count) {
  const line = document.getElementById("watching");
  if (!line) return;
  line.hidden = count < 1;
  line.textContent = interpolate(ngettext("%(count)s watching", "%(count)s watching", count), { count });
}

// The page's sockets (this one, presence) say how they are doing above the seats.
useStatusElement(document.getElementById("conn"));
ui.setConnection("connecting");
socket.connect();

const leave = document.getElementById("leave");
if (leave) {
  leave.addEventListener("click", () => {
    if (window.confirm(gettext("Leave this game? A practice game is abandoned and counts as a loss."))) {
      socket.send({ type: "leave" });
    }
  });
}
// For the browser tests and the curious: the live socket and renderer.
window.dominoTable = { socket, ui, fair };
// The in-browser verifier, callable on any fair.json (the browser tests compare it
// with the server's deals).
window.dominoFair = { dealOf, verifyAll, verifyHand };
