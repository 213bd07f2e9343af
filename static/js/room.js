// The room page: name suggestions for the invite field, Copy link and Share, and the
// room kept live over its socket (docs/protocol.md, "/ws/rooms/<id>/"): a changed
// room is redrawn in place (one read of the page), a started game takes seated
// players to the table, and a player the host removed is told so. Only if the
// socket is refused for too many open pages does the page fall back to reading its
// state URL, slowly.
import { connect } from "./socket.js";
import { gettext } from "./i18n.js";

const FALLBACK_POLL_MS = 20000;
const TOO_MANY = 4429;
const NOT_A_MEMBER = 4404;

const root = document.getElementById("room");
if (root) {
  // Listeners sit on the root: the room's parts are replaced when it changes.
  const byId = (id) => document.getElementById(id);
  let asked = "";
  root.addEventListener("input", async (event) => {
    const input = event.target;
    const list = byId("invite-names");
    if (input.id !== "invite-name" || !list) return;
    const q = input.value.trim();
    if (!q || q === asked) return;
    asked = q;
    const url = `${root.dataset.usernamesUrl}?q=${encodeURIComponent(q)}`;
    const reply = await fetch(url, { headers: { Accept: "application/json" } });
    if (!reply.ok || asked !== q) return;
    const { usernames } = await reply.json();
    list.replaceChildren(...usernames.map((name) => Object.assign(document.createElement("option"), { value: name })));
  });

  // --- Copy link and the phone's share sheet
  const shareReady = () => {
    const share = byId("share-room");
    if (share && navigator.share) share.hidden = false;
  };
  shareReady();
  root.addEventListener("click", async (event) => {
    const link = byId("share-link");
    if (event.target.closest("#copy-link")) {
      try {
        await navigator.clipboard.writeText(link.value);
      } catch (err) {
        link.select();
        document.execCommand("copy");
      }
      const copied = byId("copy-done");
      copied.textContent = gettext("Link copied.");
      copied.hidden = false;
    } else if (event.target.closest("#share-room")) {
      const text = byId("share-room").dataset.text;
      navigator.share({ title: document.title, text, url: link.value }).catch(() => {});
    }
  });

  // A page that opens on a started game does not send its player to the table (they
  // may have come back on purpose), unless this tab saw the room waiting just before:
  // a reload that lands after the start must still take them there.
  const status = root.dataset.version.split(":")[2];
  const seenKey = `room-status:${location.pathname}`;
  const seenBefore = sessionStorage.getItem(seenKey);
  sessionStorage.setItem(seenKey, status);
  const startedWhileHere = status === "playing" && seenBefore !== null && seenBefore !== "playing";

  // The room changed: one read of this page, and its parts replaced in place.
  let waiting = null; // a newer state seen while the player was typing a name
  let reading = false;
  const redraw = async (state) => {
    if (reading) {
      waiting = state;
      return;
    }
    reading = true;
    try {
      const reply = await fetch(location.href, { headers: { Accept: "text/html" } });
      if (!reply.ok) {
        location.reload(); // no longer a member: the page says so
        return;
      }
      const fresh = new DOMParser().parseFromString(await reply.text(), "text/html").getElementById("room");
      if (fresh) {
        root.replaceChildren(...fresh.childNodes);
        root.dataset.version = fresh.dataset.version;
        shareReady();
      }
    } finally {
      reading = false;
    }
    if (waiting) {
      const next = waiting;
      waiting = null;
      show(next);
    }
  };
  const show = (state) => {
    if (state.table && (status !== "playing" || startedWhileHere)) {
      location.assign(state.table);
      return;
    }
    if (state.version === root.dataset.version) return;
    const input = byId("invite-name");
    if (input && document.activeElement === input && input.value) {
      waiting = state;
      return;
    }
    redraw(state).catch(() => {});
  };
  root.addEventListener("focusout", (event) => {
    if (event.target.id === "invite-name" && waiting && !reading) {
      const next = waiting;
      waiting = null;
      show(next);
    }
  });

  const removed = (message) => {
    const note = byId("room-removed");
    note.textContent = message;
    note.hidden = false;
    const me = root.dataset.me;
    for (const seat of document.querySelectorAll(`#room-seats li[data-user="${me}"]`)) {
      const free = Object.assign(document.createElement("span"), { className: "muted", textContent: gettext("free") });
      seat.replaceChildren(seat.querySelector("strong"), ": ", free);
      delete seat.dataset.user;
    }
    for (const part of document.querySelectorAll("#room-bring, #room-playing")) part.remove();
  };

  let polling = false;
  const poll = async () => {
    try {
      const reply = await fetch(root.dataset.stateUrl, { headers: { Accept: "application/json" } });
      if (reply.status === 404) {
        location.reload();
        return;
      }
      if (reply.ok) show(await reply.json());
    } catch (err) {
      // Offline for a moment: the next read tries again.
    }
    window.setTimeout(poll, FALLBACK_POLL_MS);
  };

  connect(`/ws/rooms/${root.dataset.room}/`, {
    name: "room",
    ping: 25000,
    onFrame: (frame) => {
      if (frame.type === "state") show(frame);
      else if (frame.type === "removed") removed(frame.message);
    },
    onClose: ({ code }) => {
      if (code === NOT_A_MEMBER) location.reload(); // no longer invited: the page says so
      if (code === TOO_MANY && !polling) {
        polling = true;
        window.setTimeout(poll, FALLBACK_POLL_MS);
      }
    },
    refusals: { 4403: () => "", 4404: () => "" },
  });
}
