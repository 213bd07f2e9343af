// The league page: polls the group's standings and my tables and redraws them, counts
// down the week, and shows its moments in the reader's own time zone.
// Every string shown comes from the server, already translated.
import { formatDateTime } from "./i18n.js";

// "long": the week's end ("Sunday, May 3, 7:00 PM EDT"); "short": a table's finish.
const MOMENT_FORMATS = {
  long: { weekday: "long", day: "numeric", month: "long", hour: "numeric", minute: "2-digit", timeZoneName: "short" },
  short: { weekday: "short", day: "numeric", month: "short", hour: "numeric", minute: "2-digit" },
};

/** Rewrite a <time datetime> in the reader's time zone; the server's UTC text stays
 * as its title, and as its text when the browser cannot read the moment. */
function localise(time) {
  const moment = new Date(time.dateTime);
  if (Number.isNaN(moment.getTime())) return;
  const options = MOMENT_FORMATS[time.dataset.style] || MOMENT_FORMATS.short;
  if (!time.title) time.title = time.textContent;
  time.textContent = formatDateTime(moment, options);
}

function moment(iso, text, style) {
  const time = document.createElement("time");
  time.className = "local-time";
  time.dataset.style = style;
  time.dateTime = iso;
  time.textContent = text;
  localise(time);
  return time;
}

function cell(content, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  if (typeof content === "string") td.textContent = content;
  else td.append(content);
  return td;
}

/** A link when there is somewhere to go, else the bare text. */
function linkOrText(text, url) {
  if (!url) return document.createTextNode(text);
  const a = document.createElement("a");
  a.href = url;
  a.textContent = text;
  return a;
}

function standingRow(row) {
  const tr = document.createElement("tr");
  tr.className = "zone-" + (row.zone || "safe") + (row.me ? " me" : "");
  tr.append(
    cell(row.rank === null ? "–" : String(row.rank)),
    cell(linkOrText(row.name, row.profile_url)),
    cell(row.points, "num"),
    cell(String(row.tables), "num"),
    cell(row.zone_label)
  );
  return tr;
}

function tableRow(t) {
  const tr = document.createElement("tr");
  tr.className = t.counted ? "counted" : "not-counted";
  const what = cell(linkOrText(t.title, t.url));
  if (t.shape) {
    const shape = document.createElement("span");
    shape.className = "muted";
    shape.textContent = "(" + t.shape + ")";
    what.append(" ", shape);
  }
  tr.append(
    cell(moment(t.finished, t.finished_text, "short")),
    what,
    cell(String(t.place), "num"),
    cell(t.points, "num"),
    cell(t.weight, "num"),
    cell(t.status)
  );
  return tr;
}

function drawMyTables(tables) {
  const section = document.getElementById("league-my-tables");
  const list = section.querySelector("table");
  list.tBodies[0].replaceChildren(...tables.map(tableRow));
  list.hidden = tables.length === 0;
  document.getElementById("league-my-tables-empty").hidden = tables.length > 0;
}

function start(root) {
  const url = root.dataset.url;
  const every = Number(root.dataset.pollMs) || 5000;
  const table = document.getElementById("league-standings");
  const body = table.querySelector("tbody");
  const timeLeft = document.getElementById("league-time-left");
  const division = document.getElementById("league-division");
  const weekEnd = document.getElementById("league-week-end");

  function draw(data) {
    const rows = data.rows.map(standingRow);
    body.replaceChildren(...rows);
    if (rows.length) {
      table.hidden = false;
      const empty = document.getElementById("league-empty");
      if (empty) empty.hidden = true;
    }
    drawMyTables(data.my_tables);
    timeLeft.textContent = data.time_left;
    timeLeft.dataset.seconds = String(data.seconds_left);
    division.textContent = data.division;
    if (weekEnd.dateTime !== data.week_end) {
      weekEnd.dateTime = data.week_end;
      weekEnd.title = "";
      weekEnd.textContent = data.week_end_text;
      localise(weekEnd);
    }
  }

  async function poll() {
    try {
      const reply = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (reply.ok) draw(await reply.json());
    } catch (err) {
      // A missed poll is retried at the next tick.
    }
    window.setTimeout(poll, every);
  }

  root.querySelectorAll("time.local-time").forEach(localise);
  window.setTimeout(poll, every);
}

const root = document.getElementById("league");
if (root) start(root);
