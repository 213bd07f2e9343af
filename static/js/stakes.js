// The stake lobby: sit down and stand up without leaving the page, refresh the open
// tables when the server says they changed (docs/protocol.md, "/ws/stakes/"), and go
// to the table the moment yours starts. Every text comes from the server, already
// translated.
import { connect } from "./socket.js";

const app = document.getElementById("stakes-app");
const errorBox = document.getElementById("stakes-error");
const REGIONS = ["stakes-balance", "stakes-unlock", "stakes-you", "stakes-groups", "stakes-recent"];
const STATE_URL = "/play/stakes/state.json";

function showError(message) {
  errorBox.textContent = message || "";
  errorBox.hidden = !message;
}

async function refresh() {
  const state = await (await fetch(STATE_URL, { headers: { Accept: "application/json" } })).json();
  if (state.you && state.you.state === "playing") {
    window.location.assign(state.you.url);
    return;
  }
  const page = new DOMParser().parseFromString(await (await fetch(window.location.href)).text(), "text/html");
  for (const id of REGIONS) {
    const fresh = page.getElementById(id);
    if (fresh) document.getElementById(id).replaceWith(fresh);
  }
}

app.addEventListener("submit", async (event) => {
  const form = event.target.closest("form[data-action]");
  if (!form) return;
  event.preventDefault();
  showError("");
  const reply = await fetch(form.action, {
    method: "POST",
    body: new FormData(form),
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  });
  const body = await reply.json().catch(() => null);
  if (!reply.ok) showError(body?.error?.message || errorBox.dataset.fallback);
  await refresh().catch(() => {});
});

// One refresh for a burst of changes; a slow read only while the socket is refused.
let soon = null;
const refreshSoon = () => {
  if (soon) return;
  soon = window.setTimeout(() => {
    soon = null;
    refresh().catch(() => {});
  }, 150);
};
connect("/ws/stakes/", {
  ping: 25000,
  onOpen: refreshSoon, // what changed before this socket opened
  onFrame: (frame) => {
    if (frame.type === "changed") refreshSoon();
  },
  onClose: ({ code }) => {
    if (code === 4429) window.setInterval(refreshSoon, 20000);
  },
});
