// The offline practice game's page (/play/offline/): the practice form, then the
// table page's own renderer (TableUI) fed by a local stand-in for the table's
// socket. The engine runs in a Web Worker (worker.js, Pyodide running the
// project's games.offline); it answers each move with the same `state` frame a
// practice table's socket sends, so the table looks and behaves the same.
//
// The game is kept in IndexedDB after every move (store.js) and resumed on load;
// the form's settings are kept the same way. A finished game is queued there and
// sent to the server's upload endpoint whenever the browser is online, until the
// server has it.

import { gettext } from "../i18n.js";
import { el } from "../dom.js";
import { TableUI } from "../table/ui.js";
import { Engine, seedNew, uuidNew } from "./engine.js";
import { finishKeep, keepDelete, keepGet, keepPut, uploadDelete, uploadsAll } from "./store.js";

const config = JSON.parse(document.getElementById("offline-config").textContent);
const setup = document.getElementById("offline-setup");
const root = document.getElementById("table-app");
const form = document.getElementById("play-form");

// How long a computer player "thinks" before it moves, by the form's speed, as at a
// practice table (games/speeds.py, BOT_SPEEDS).
const PACE_MS = { slow: 1600, normal: 900, fast: 350, instant: 0 };
const DEFAULT_PACE = "normal";
// Finished games waiting to be sent are tried again this often while the page is
// open (and at once when the browser comes back online).
const RETRY_MS = 60000;
const CHOICES = ["tiles_per_seat", "deal", "opening", "no_double"];
// The engine loads in seconds once its files are here (bench/offline.py); past
// this, the page says it cannot start rather than wait for ever.
const LOAD_LIMIT_MS = 90000;
// How long the engine waits for a service worker to be active (the first visit
// installs it in about a second), then for it to say it keeps the runtime.
const SW_WAIT_MS = 4000;
const KEEP_WAIT_MS = 20000;

let engine = null;
let ui = null;
// The engine's last answer: {frame, game, computer, over}; `game` is JSON text
// (worker.js), kept and resumed as it is.
let current = null;
let settings = null; // the form's values the game was started with
let pending = null; // the computer's timer
let generation = 0; // a new game or a leave makes older answers stale

// ---------------------------------------------------------------- the runtime

/**
 * Settles once the site's service worker has kept the runtime (it answers the
 * page's request, static/js/sw-register.js, with {type: "runtime"}), or soon
 * where there is none. On the visit that installs it, the engine's own
 * downloads would otherwise fetch the same megabytes a second time; after it,
 * the engine's requests are answered from what the service worker and the
 * browser keep. Listening starts here, before the answer can come.
 */
function runtimeKept() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return Promise.resolve();
  const wait = (ms) => new Promise((resolve) => window.setTimeout(resolve, ms));
  const answered = new Promise((resolve) => {
    const heard = (event) => {
      if (event.data?.type !== "runtime") return;
      navigator.serviceWorker.removeEventListener("message", heard);
      resolve();
    };
    navigator.serviceWorker.addEventListener("message", heard);
  });
  const active = navigator.serviceWorker.ready.then(() => true);
  return Promise.race([active, wait(SW_WAIT_MS).then(() => false)]).then((present) =>
    present ? Promise.race([answered, wait(KEEP_WAIT_MS)]) : undefined,
  );
}

const runtimeGate = config.runtime ? runtimeKept() : Promise.resolve();

// ---------------------------------------------------------------- settings

function formSettings() {
  const data = new FormData(form);
  const out = {};
  for (const [name, value] of data.entries()) out[name] = String(value);
  const partner = form.elements.namedItem("partnership");
  out.partnership = !!partner?.checked;
  return out;
}

function formRestore(saved) {
  for (const [name, value] of Object.entries(saved || {})) {
    const field = form.elements.namedItem(name);
    if (!field || field instanceof RadioNodeList) continue;
    if (field.type === "checkbox") field.checked = !!value;
    else field.value = String(value);
  }
  // static/js/play.js shows what the restored variant allows.
  form.dispatchEvent(new Event("change"));
}

/** The engine's arguments for a game of these settings. */
function gameOf(saved) {
  const spec = config.variants[saved.variant] || { choices: {}, partnership: "never" };
  const seats = Number(saved.seats);
  const options = {
    set_max: Number(saved.set_max),
    seats,
    partnership: seats === 4 && (spec.partnership === "forced" || !!saved.partnership),
    target: Number(saved.target),
  };
  for (const name of CHOICES) {
    const allowed = (spec.choices || {})[name];
    const raw = saved[name];
    if (!allowed || !raw) continue;
    const value = allowed.find((v) => String(v) === String(raw));
    if (value !== undefined) options[name] = value;
  }
  const levels = [];
  for (let i = 1; i < seats; i++) levels.push(saved[`bot_${i}`] || "medium");
  return { variant: saved.variant, options, levels };
}

// ---------------------------------------------------------------- what is shown

function status(text) {
  let line = document.getElementById("offline-engine-status");
  if (!line) {
    line = el("p", { id: "offline-engine-status", class: "muted", role: "status", "aria-live": "polite" });
    form.append(line);
  }
  line.textContent = text;
  line.hidden = !text;
}

function showTable(variant) {
  const spec = config.variants[variant] || {};
  Object.assign(ui.config, {
    title: spec.title || variant,
    stock_drawn: spec.stock !== "none",
    practice: true,
    review: null,
  });
  setup.hidden = true;
  root.hidden = false;
}

function showSetup({ focus = true } = {}) {
  root.hidden = true;
  setup.hidden = false;
  if (focus) document.getElementById("offline-start")?.focus();
}

/** The engine's frame as TableUI reads it: the person's seat named, and the
 * computer that is about to move shown thinking (the live table's timer). */
function frameShown(answer) {
  const frame = answer.frame;
  frame.seats[0].name = gettext("Player");
  if (answer.computer !== null && !answer.over) {
    frame.table.timer = { kind: "bot", seat: answer.computer, deadline: null, seconds: null };
  }
  return frame;
}

// ---------------------------------------------------------------- the game

function stop() {
  generation += 1;
  window.clearTimeout(pending);
  pending = null;
}

/** Keep, show and follow up the engine's answer to a move. */
async function take(answer, made) {
  if (made !== generation) return;
  if (answer.refused) {
    ui.error({
      message: answer.refused === "wait"
        ? gettext("Wait for the computer players.")
        : gettext("That move is not allowed."),
    });
    return;
  }
  // Kept before it is shown: what the player sees is never ahead of what a
  // reload resumes.
  if (answer.over) await finished(answer.game);
  else await keepPut("game", { game: answer.game, settings });
  if (made !== generation) return;
  current = answer;
  ui.update(frameShown(answer));
  window.clearTimeout(pending);
  pending = null;
  if (answer.computer !== null && !answer.over) {
    const pace = PACE_MS[settings?.bot_speed] ?? PACE_MS[DEFAULT_PACE];
    pending = window.setTimeout(() => {
      pending = null;
      engine.computer(answer.computer).then((next) => take(next, made), failed);
    }, pace);
  }
}

function failed(error) {
  ui.error({ message: gettext("The game engine stopped: reload the page to go on.") });
  console.error(error);
}

async function start(saved) {
  stop();
  const made = generation;
  settings = saved;
  const { variant, options, levels } = gameOf(saved);
  status(gettext("Loading the game…"));
  const answer = await engine.start(variant, options, levels, seedNew());
  status("");
  if (answer.refused) {
    status(gettext("These settings cannot be played: choose others."));
    return;
  }
  showTable(variant);
  ui.frame = null;
  await take(answer, made);
}

async function resume(kept) {
  try {
    await engine.ready;
  } catch {
    return false; // no engine here now: the game stays kept for a later visit
  }
  stop();
  const made = generation;
  settings = kept.settings || null;
  ui.frame = null;
  try {
    const answer = await engine.resume(kept.game);
    showTable(JSON.parse(kept.game).variant);
    await take(answer, made);
    return true;
  } catch (error) {
    // A kept game this version cannot read: it is dropped, the form is shown.
    console.error(error);
    await keepDelete("game");
    return false;
  }
}

function personAct(action) {
  if (!current || current.over) return;
  const made = generation;
  engine.act(0, action).then((answer) => take(answer, made), failed);
}

async function leave() {
  if (!window.confirm(gettext("Leave this game? It is not kept and not counted."))) return;
  stop();
  current = null;
  await keepDelete("game");
  showSetup();
}

// ---------------------------------------------------------------- uploads

/** A finished game: queued for the server (the game in progress goes with it). */
async function finished(text) {
  const game = JSON.parse(text); // what is read here are small numbers only
  await finishKeep({
    id: uuidNew(),
    variant: game.variant,
    options: game.options,
    levels: game.levels,
    seed: game.seed,
    actions: game.log,
    finished_at: new Date().toISOString(),
  });
  flush();
}

function say(text, link = null) {
  for (const line of [document.getElementById("offline-upload-status"), root.querySelector("[data-upload]")]) {
    if (!line) continue;
    line.replaceChildren(text);
    if (link) line.append(" ", el("a", { href: link, text: gettext("See the game") }));
  }
}

let flushing = false;

/** Send every queued game; a game leaves the queue once the server has it, or
 * has refused it for good (an illegal or duplicate game is never accepted). */
async function flush() {
  if (flushing || !config.upload) return;
  flushing = true;
  try {
    const queued = await uploadsAll();
    if (!queued.length) return;
    if (!navigator.onLine) {
      say(gettext("Your finished game will be sent when you are back online."));
      return;
    }
    const asked = await fetch(config.upload, { credentials: "same-origin", headers: { Accept: "application/json" } });
    const token = await asked.json().catch(() => null);
    if (!asked.ok || !token?.csrf) {
      // Signed out (the server says so in words): kept until the player signs in.
      say(token?.error?.message || gettext("Your finished game will be sent when you are back online."));
      return;
    }
    for (const upload of queued) {
      const reply = await fetch(config.upload, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": token.csrf },
        body: JSON.stringify(upload),
      });
      const body = await reply.json().catch(() => null);
      if (reply.ok) {
        await uploadDelete(upload.id);
        say(body?.message || gettext("Your offline game is in your practice record."), body?.history || null);
      } else if (body?.error && reply.status !== 403 && reply.status !== 429 && reply.status < 500) {
        await uploadDelete(upload.id);
        say(body.error.message);
      } else {
        say(body?.error?.message || gettext("Your finished game will be sent when you are back online."));
        break;
      }
    }
  } catch {
    say(gettext("Your finished game will be sent when you are back online."));
  } finally {
    flushing = false;
  }
}

// ---------------------------------------------------------------- start

async function boot() {
  const startButton = document.getElementById("offline-start");
  ui = new TableUI(root, { title: "", practice: true, review: null }, {
    act: personAct,
    back: () => {},
    leave,
  });
  ui.setConnection("open");
  // The table page's name for its renderer, which the browser tests read.
  window.dominoTable = { ui };
  engine = new Engine(config.runtime, runtimeGate);
  if (startButton) startButton.disabled = true;
  status(gettext("Loading the game…"));
  const slow = window.setTimeout(() => {
    status(gettext("The game could not start in this browser: play against the computer online."));
  }, LOAD_LIMIT_MS);
  engine.ready.then(
    () => {
      window.clearTimeout(slow);
      if (startButton) startButton.disabled = false;
      status("");
    },
    (error) => {
      window.clearTimeout(slow);
      console.error(error);
      status(gettext("The game could not start in this browser: play against the computer online."));
    },
  );

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const saved = formSettings();
    await keepPut("settings", saved);
    start(saved).catch(failed);
  });
  document.getElementById("leave")?.addEventListener("click", () => leave());
  root.querySelector("[data-again]")?.addEventListener("click", () => {
    if (settings) start(settings).catch(failed);
  });
  root.querySelector("[data-new]")?.addEventListener("click", () => {
    stop();
    current = null;
    showSetup();
  });
  window.addEventListener("online", () => flush());
  window.setInterval(() => flush(), RETRY_MS);

  const saved = await keepGet("settings").catch(() => null);
  if (saved) formRestore(saved);
  const kept = await keepGet("game").catch(() => null);
  if (!kept || !(await resume(kept))) showSetup({ focus: false });
  flush();
}

// For the browser tests and the benchmark: the engine, the renderer, the game,
// and `booted`, settled once the page has resumed its game or shown the form.
window.dominoOffline = { state: () => current, engine: () => engine, ui: () => ui, flush };
if (config.runtime && setup && root && form) window.dominoOffline.booted = boot();
