// The game in a frame on another site (templates/embed/frame.html).
//
// No cookie is needed: a game is started or resumed by a fetch that answers with
// its signed token and the table's config, and the table socket is opened with the
// token. The token is kept where the frame may keep it, so a reload continues the
// game: in the frame's URL fragment, in its storage (partitioned per embedding
// site; blocked in some browsers along with third-party cookies) and in a
// partitioned cookie the server sets (read back into the page as `saved`).

import { gettext } from "../i18n.js";
import { useStatusElement } from "../socket.js";
import { FairPanel, dealOf, verifyAll, verifyHand } from "../table/fair.js";
import { TableSocket } from "../table/socket.js";
import { TableUI } from "../table/ui.js";

const config = JSON.parse(document.getElementById("embed-config").textContent);
const setup = document.getElementById("embed-setup");
const form = document.getElementById("embed-form");
const formError = document.getElementById("embed-error");
const root = document.getElementById("table-app");
// One saved game per preset game, so a page with two frames of different games,
// or a changed snippet, does not resume another game.
const STORE_KEY = `dominoes.embed.game:${config.preset}`;
const HASH_KEY = "game";

// A refused table socket: the token's game is over or gone (purged, or the token
// was not ours). The frame then offers a new game.
const REFUSALS = {
  4401: () => gettext("This game can no longer be continued. Start a new game."),
  4403: () => gettext("This game can no longer be continued. Start a new game."),
  4404: () => gettext("This game can no longer be continued. Start a new game."),
  4429: () => gettext("Too many game pages are open. Close some of them, then reload this page."),
};

// --- where the token is kept

function stored() {
  try {
    return window.localStorage.getItem(STORE_KEY) || "";
  } catch {
    return ""; // storage blocked in this frame
  }
}

function store(token) {
  try {
    if (token) window.localStorage.setItem(STORE_KEY, token);
    else window.localStorage.removeItem(STORE_KEY);
  } catch {
    // Blocked: the URL fragment still holds the token.
  }
}

function fromHash() {
  const params = new URLSearchParams(window.location.hash.slice(1));
  return params.get(HASH_KEY) || "";
}

function hashSet(token) {
  const url = new URL(window.location.href);
  url.hash = token ? `${HASH_KEY}=${encodeURIComponent(token)}` : "";
  window.history.replaceState(null, "", url.href.replace(/#$/, ""));
}

function keep(token) {
  store(token);
  hashSet(token);
}

// --- the form

function optionsInto(select, values, wanted, fallback) {
  const chosen = values.includes(Number(wanted)) ? Number(wanted) : fallback;
  select.replaceChildren(
    ...values.map((value) => {
      const option = document.createElement("option");
      option.value = String(value);
      option.textContent = String(value);
      option.selected = value === chosen;
      return option;
    }),
  );
}

function variantChanged() {
  const spec = config.variants[form.variant.value];
  if (!spec) return;
  optionsInto(form.seats, spec.seats, form.seats.value, spec.seats[0]);
  optionsInto(form.target, spec.targets, form.target.value, spec.default_target);
}

function showError(message) {
  formError.textContent = message;
  formError.hidden = !message;
}

function withLanguage(path) {
  return `${path}?${new URLSearchParams({ lang: config.language })}`;
}

async function post(path, body) {
  const response = await fetch(withLanguage(path), {
    method: "POST",
    body,
    credentials: "same-origin",
    headers: { Accept: "application/json" },
  });
  const data = await response.json().catch(() => null);
  return { ok: response.ok, data };
}

async function startNew(event) {
  event.preventDefault();
  const button = document.getElementById("embed-start");
  button.disabled = true;
  showError("");
  try {
    const { ok, data } = await post(config.new, new FormData(form));
    if (!ok || !data?.game) {
      showError(data?.error?.message || gettext("The game could not be started. Try again."));
      return;
    }
    play(data.token, data.game);
  } catch {
    showError(gettext("The game could not be started. Try again."));
  } finally {
    button.disabled = false;
  }
}

// --- the game

let socket = null;

function backToForm(message) {
  keep("");
  root.hidden = true;
  setup.hidden = false;
  showError(message || "");
}

function play(token, game) {
  keep(token);
  setup.hidden = true;
  root.hidden = false;
  const ui = new TableUI(root, game, {
    act: (action) => socket.act(action),
    back: () => socket.send({ type: "back" }),
    leave: () => socket.send({ type: "leave" }),
  });
  const fair = new FairPanel(document.getElementById("fair"), game, (frame) => socket.send(frame));
  socket = new TableSocket(
    game.ws,
    {
      onState: (frame) => {
        ui.update(frame);
        fair.update(frame);
      },
      onError: (frame) => ui.error(frame),
      onStatus: (status) => ui.setConnection(status),
      onRefused: (code) => {
        if (code !== 4429) backToForm(REFUSALS[code]?.() || REFUSALS[4404]());
      },
    },
    { refusals: REFUSALS },
  );
  useStatusElement(document.getElementById("conn"));
  ui.setConnection("connecting");
  socket.connect();
  // For the browser tests, as on the table page.
  window.dominoTable = { socket, ui, fair, token };
}

async function resume(token) {
  try {
    const { ok, data } = await post(config.resume, new URLSearchParams({ token }));
    if (ok && data?.game) {
      play(data.token, data.game);
      return;
    }
    backToForm(data?.error?.message || "");
  } catch {
    backToForm(gettext("The game could not be loaded. Reload to try again."));
  }
}

form.variant.addEventListener("change", variantChanged);
form.addEventListener("submit", startNew);
// A new game: the form again, the same presets; `new=1` tells the server not to
// offer the game its cookie holds.
document.getElementById("embed-again").addEventListener("click", () => {
  store("");
  const url = new URL(window.location.href);
  url.hash = "";
  url.searchParams.set("new", "1");
  window.location.replace(url.href.replace(/#$/, ""));
});
document.getElementById("leave").addEventListener("click", () => {
  if (window.confirm(gettext("Leave this game? A practice game is abandoned and counts as a loss."))) {
    socket?.send({ type: "leave" });
  }
});
window.dominoFair = { dealOf, verifyAll, verifyHand };

const saved = fromHash() || stored() || config.saved;
if (saved) {
  setup.hidden = true;
  resume(saved);
}
