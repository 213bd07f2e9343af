// An arena's page (a team battle's too, with its clubs): the standings kept live
// over its socket, the countdown to the
// start and the end, and "your game is ready" (then the table) the moment the
// player is paired. Every text comes from the server, already translated, but for
// the words of a lost connection.
import { connect } from "../../socket.js";
import { formatNumber, gettext, interpolate } from "../../i18n.js";
import "./times.js";

const page = document.getElementById("arena");
const me = Number(page.dataset.me);
const body = document.querySelector("#arena-standings tbody");
const empty = document.getElementById("arena-empty");
const countdown = document.getElementById("arena-countdown");
let status = page.dataset.status;
let startsAt = new Date(page.dataset.starts);
let endsAt = new Date(page.dataset.ends);
let version = -1;

function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = String(s % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${r}` : `${m}:${r}`;
}

function tick() {
  const now = Date.now();
  let text = "";
  if (status === "finished") text = countdown.dataset.finished;
  else if (status === "ending") text = countdown.dataset.ending;
  else if (now < startsAt.getTime()) {
    text = interpolate(countdown.dataset.toStart, { time: clock((startsAt - now) / 1000) });
  } else if (now < endsAt.getTime()) {
    text = interpolate(countdown.dataset.toEnd, { time: clock((endsAt - now) / 1000) });
  } else text = countdown.dataset.ending;
  countdown.textContent = text;
}

function cell(text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text;
  return td;
}

function render(frame) {
  if (typeof frame.version === "number" && frame.version < version) return;
  version = frame.version;
  const statusChanged = frame.status !== status;
  status = frame.status;
  startsAt = new Date(frame.starts_at);
  endsAt = new Date(frame.ends_at);
  const rows = frame.rows.map(([rank, id, name, score, streak, games, performance, now]) => {
    const tr = document.createElement("tr");
    tr.dataset.user = id;
    if (id === me) tr.className = "me";
    const streakCell = cell(formatNumber(streak), "num");
    if (streak >= frame.fire_from) {
      const fire = document.createElement("span");
      fire.title = body.dataset.fire;
      fire.textContent = " 🔥";
      streakCell.append(fire);
    }
    tr.append(
      cell(rank == null ? "–" : formatNumber(rank), "num"),
      cell(name),
      cell(formatNumber(score), "num"),
      streakCell,
      cell(formatNumber(games), "num"),
      cell(performance == null ? "–" : formatNumber(performance), "num"),
      cell(now === "playing" ? body.dataset.playing : now === "paused" ? body.dataset.paused : ""),
    );
    return tr;
  });
  body.replaceChildren(...rows);
  empty.hidden = rows.length > 0;
  // A team battle's clubs, best first.
  const clubs = document.querySelector("#battle-standings tbody");
  if (clubs && Array.isArray(frame.clubs)) {
    clubs.replaceChildren(
      ...frame.clubs.map(([rank, id, name, score]) => {
        const tr = document.createElement("tr");
        tr.dataset.club = id;
        tr.append(cell(formatNumber(rank), "num"), cell(name), cell(formatNumber(score), "num"));
        return tr;
      }),
    );
  }
  tick();
  // The start or the end changes which buttons apply: the server draws them.
  if (statusChanged) window.location.reload();
}

function paired(frame) {
  const box = document.getElementById("arena-ready");
  const link = document.getElementById("arena-ready-link");
  link.href = frame.url;
  box.hidden = false;
  window.location.assign(frame.url);
}

// Join (or Resume) by script: the server's JSON answer stores no one-off message.
// A form post's "You are in. Keep this page open" would wait in the session for the
// next page, which, when the join pairs the player at once, is the table the socket
// sends them to. The page drawn again says it in its own words; its socket sends
// "paired" on connect if a table was made meanwhile.
const joinButton = document.getElementById("arena-join");
joinButton?.form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = joinButton.form;
  joinButton.disabled = true;
  let body = null;
  let ok = false;
  try {
    const reply = await fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    ok = reply.ok;
    body = await reply.json().catch(() => null);
  } catch {
    ok = false;
  }
  if (ok) {
    window.location.reload();
    return;
  }
  joinButton.disabled = false;
  let note = document.getElementById("arena-join-error");
  if (!note) {
    note = document.createElement("p");
    note.id = "arena-join-error";
    note.className = "error";
    note.setAttribute("role", "alert");
    form.after(note);
  }
  note.textContent = body?.error?.message || gettext("Something went wrong.");
});

tick();
window.setInterval(tick, 1000);
connect(page.dataset.socket, {
  ping: 25000,
  onFrame: (frame) => {
    if (frame.type === "standings") render(frame);
    else if (frame.type === "paired") paired(frame);
  },
});
