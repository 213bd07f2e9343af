// A Swiss event's page: the standings and the rounds kept live over its socket,
// and "your game is ready" (then the table) the moment the player is paired. The
// socket's frames carry no words: the page holds them in the reader's language.
import { connect } from "../../socket.js";
import { formatNumber, gettext, interpolate } from "../../i18n.js";

const page = document.getElementById("swiss-event");
const me = Number(page.dataset.me);
const standings = document.getElementById("swiss-standings");
const rounds = document.getElementById("swiss-rounds");
const list = document.getElementById("swiss-rounds-list");
let state = page.dataset.state;
let round = Number(page.dataset.round);

for (const form of document.querySelectorAll("form[data-confirm]")) {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}

function cell(text, className) {
  const td = document.createElement("td");
  if (className) td.className = className;
  td.textContent = text;
  return td;
}

function renderStandings(rows) {
  const body = standings.querySelector("tbody");
  const prizes = standings.querySelectorAll("thead th").length > 5;
  if (prizes) return; // a finished event's page is drawn whole by the server
  body.replaceChildren(
    ...rows.map(([rank, id, name, score, buchholz, berger, withdrawn]) => {
      const tr = document.createElement("tr");
      tr.dataset.user = id;
      if (id === me) tr.className = "me";
      const who = cell(name);
      if (withdrawn) {
        const note = document.createElement("span");
        note.className = "muted";
        note.textContent = ` (${standings.dataset.withdrawn})`;
        who.append(note);
      }
      tr.append(cell(formatNumber(rank), "num"), who, cell(formatNumber(score), "num"), cell(formatNumber(buchholz), "num"), cell(formatNumber(berger), "num"));
      return tr;
    }),
  );
}

function gameText(game) {
  const words = rounds.dataset;
  if (game.result === "bye") return `${game.first}: ${words.bye}`;
  if (game.result === "absent") return `${game.first}: ${words.absent}`;
  const score = game.points === 2 ? "1–0" : game.points === 1 ? "½–½" : "0–1";
  let outcome = game.result === "playing" ? words.playing : score;
  if (game.result === "forfeit") outcome += ` (${words.forfeit})`;
  return `${game.first} – ${game.second}: ${outcome}`;
}

function renderRounds(games) {
  const parts = [];
  for (const r of games) {
    const title = document.createElement("h3");
    title.textContent = interpolate(gettext("Round %(n)s"), { n: r.number });
    const items = document.createElement("ul");
    for (const game of r.games) {
      const li = document.createElement("li");
      li.textContent = gameText(game);
      items.append(li);
    }
    parts.push(title, items);
  }
  if (parts.length) list.replaceChildren(...parts);
}

connect(page.dataset.socket, {
  ping: 25000,
  onFrame: (frame) => {
    if (frame.type === "paired") {
      window.location.assign(frame.url);
    } else if (frame.type === "update") {
      // A new round or the finish changes the buttons and the links: the server
      // draws the page again; a game's end only moves the tables.
      if (frame.state !== state || frame.round !== round) {
        state = frame.state;
        round = frame.round;
        window.location.reload();
        return;
      }
      renderStandings(frame.rows);
      renderRounds(frame.games);
    }
  },
});
