// TV: the best live game of a channel, drawn by the table page's own TableUI from
// the spectators' frames. The page asks the server what its channel shows every
// few seconds (``/tv/<channel>/now``); while the watched game is on, the same
// table; once it has ended, its end stays a moment, then the next best live game.
import { gettext, interpolate } from "./i18n.js";
import { TableUI } from "./table/ui.js";

const config = JSON.parse(document.getElementById("tv-config").textContent);
const app = document.getElementById("table-app");
const status = document.getElementById("tv-status");
const about = document.getElementById("tv-about");
const openLine = document.getElementById("tv-open-line");
const open = document.getElementById("tv-open");

let ui = null;
let watching = null; // the table shown
let endedAt = null; // when the shown table was first seen ended (ms)
let lastFrame = null; // the last frame drawn, as text: a frame unchanged is not redrawn

// A spectator cannot act: the drawing's inputs go nowhere.
const nothing = { act() {}, back() {}, leave() {} };

function say(text) {
  if (status.textContent !== text) status.textContent = text;
}

function switchTo(data) {
  watching = data.table;
  endedAt = null;
  lastFrame = null;
  if (ui === null) {
    ui = new TableUI(app, data.config, nothing);
    ui.setConnection("open");
    window.dominoTV.ui = ui;
  } else {
    // A new table in the same drawing: forget what the last one had shown.
    ui.config = data.config;
    ui.frame = null;
    ui.seenPlays = null;
    ui.handKeys = null;
    ui.showMatchResult = false;
  }
  if (config.signed_in) {
    open.href = `${config.table}${data.table}/`;
    openLine.hidden = false;
  }
  app.hidden = false;
  about.hidden = false;
}

function nothingLive() {
  watching = null;
  endedAt = null;
  lastFrame = null;
  app.hidden = true;
  about.hidden = true;
  openLine.hidden = true;
  say(gettext("No game is live on this channel right now. TV keeps looking and shows the next one as it starts."));
}

function show(data) {
  window.dominoTV.table = data.table;
  if (data.table === null) {
    nothingLive();
    return;
  }
  if (data.table !== watching) switchTo(data);
  const text = JSON.stringify(data.frame);
  if (text !== lastFrame) {
    lastFrame = text;
    ui.update(data.frame);
  }
  if (data.live) {
    endedAt = null;
    say(interpolate(gettext("Live: %(variant)s, table %(id)s."), { variant: data.config.title, id: data.table }));
  } else {
    if (endedAt === null) endedAt = Date.now();
    say(gettext("This game has ended. The next live game comes on in a moment."));
  }
}

async function ask() {
  const url = new URL(config.now, window.location.href);
  // Keep the game on screen while it lasts, and its end for a moment after.
  const keep = watching !== null && (endedAt === null || Date.now() - endedAt < config.ended_pause_ms);
  if (keep) url.searchParams.set("watching", String(watching));
  try {
    const response = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (response.ok) show(await response.json());
  } catch {
    // Offline for a moment: the next question will do.
  }
  window.setTimeout(ask, config.poll_ms);
}

// For the browser tests: the table shown and its drawing.
window.dominoTV = { table: undefined, ui: null };
ask();
