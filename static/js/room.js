// The room page: name suggestions for the invite field, Copy link and Share, and the
// room kept live over its socket (docs/protocol.md, "/ws/rooms/<id>/"): a changed
// room reloads the page, a started game takes seated players to the table, and a
// player the host removed is told so. Only if the socket is refused for too many
// open pages does the page fall back to reading its state URL, slowly.
import { connect } from "./socket.js";
import { gettext } from "./i18n.js";

const FALLBACK_POLL_MS = 20000;
const TOO_MANY = 4429;
const NOT_A_MEMBER = 4404;

const root = document.getElementById("room");
if (root) {
  const input = document.getElementById("invite-name");
  const list = document.getElementById("invite-names");
  if (input && list) {
    let asked = "";
    input.addEventListener("input", async () => {
      const q = input.value.trim();
      if (!q || q === asked) return;
      asked = q;
      const url = `${root.dataset.usernamesUrl}?q=${encodeURIComponent(q)}`;
      const reply = await fetch(url, { headers: { Accept: "application/json" } });
      if (!reply.ok || asked !== q) return;
      const { usernames } = await reply.json();
      list.replaceChildren(...usernames.map((name) => Object.assign(document.createElement("option"), { value: name })));
    });
  }

  // --- Copy link and the phone's share sheet
  const link = document.getElementById("share-link");
  const copied = document.getElementById("copy-done");
  document.getElementById("copy-link")?.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(link.value);
    } catch (err) {
      link.select();
      document.execCommand("copy");
    }
    if (copied) {
      copied.textContent = gettext("Link copied.");
      copied.hidden = false;
    }
  });
  const share = document.getElementById("share-room");
  if (share && navigator.share) {
    share.hidden = false;
    share.addEventListener("click", () => {
      navigator.share({ title: document.title, text: share.dataset.text, url: link.value }).catch(() => {});
    });
  }

  // A page that opens on a started game does not send its player to the table (they
  // may have come back on purpose), unless this tab saw the room waiting just before:
  // a reload that lands after the start must still take them there.
  const status = root.dataset.version.split(":")[2];
  const seenKey = `room-status:${location.pathname}`;
  const seenBefore = sessionStorage.getItem(seenKey);
  sessionStorage.setItem(seenKey, status);
  const startedWhileHere = status === "playing" && seenBefore !== null && seenBefore !== "playing";

  let waiting = null; // a newer state seen while the player was typing a name
  const show = (state) => {
    if (state.table && (status !== "playing" || startedWhileHere)) {
      location.assign(state.table);
      return;
    }
    if (state.version === root.dataset.version) return;
    const typing = input && document.activeElement === input && input.value;
    if (typing) {
      waiting = state;
      return;
    }
    location.reload();
  };
  input?.addEventListener("blur", () => {
    if (waiting) show(waiting);
  });

  const removed = (message) => {
    const note = document.getElementById("room-removed");
    note.textContent = message;
    note.hidden = false;
    const me = root.dataset.me;
    for (const seat of document.querySelectorAll(`#room-seats li[data-user="${me}"]`)) {
      const free = Object.assign(document.createElement("span"), { className: "muted", textContent: gettext("free") });
      seat.replaceChildren(seat.querySelector("strong"), ": ", free);
    }
    for (const part of document.querySelectorAll("#room-bring, #room-playing, #leave-room")) part.remove();
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
