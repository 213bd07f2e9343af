// The league page: polls the group's standings and redraws them, counts down the week.
// Every string shown comes from the server, already translated.
(function () {
  "use strict";
  const root = document.getElementById("league");
  if (!root) return;
  const url = root.dataset.url;
  const every = Number(root.dataset.pollMs) || 5000;
  const table = document.getElementById("league-standings");
  const body = table.querySelector("tbody");
  const timeLeft = document.getElementById("league-time-left");
  const division = document.getElementById("league-division");

  function cell(text) {
    const td = document.createElement("td");
    td.textContent = text;
    return td;
  }

  function draw(data) {
    const rows = data.rows.map(function (row) {
      const tr = document.createElement("tr");
      tr.className = "zone-" + (row.zone || "safe") + (row.me ? " me" : "");
      tr.append(
        cell(row.rank === null ? "–" : String(row.rank)),
        cell(row.name),
        cell(row.points),
        cell(String(row.tables)),
        cell(row.zone_label)
      );
      return tr;
    });
    body.replaceChildren.apply(body, rows);
    if (rows.length) {
      table.hidden = false;
      const empty = document.getElementById("league-empty");
      if (empty) empty.hidden = true;
    }
    timeLeft.textContent = data.time_left;
    timeLeft.dataset.seconds = String(data.seconds_left);
    division.textContent = data.division;
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
  window.setTimeout(poll, every);
})();
