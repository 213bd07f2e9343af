// The online lobby over /ws/lobby/ (docs/protocol.md, "/ws/lobby/"): live pool
// counts, Find a table / Cancel at a chosen speed, the running search, open tables
// (seeks: open, join, leave, start) kept live, and the way to one's table.
// Whole messages come translated from the page (#lobby-strings); the ones with
// values in them from the JavaScript catalog.
import { computerLevel, formatNumber, formatSeconds, formatTime, gettext, interpolate, ngettext, variantTitle } from "./i18n.js";
import { connect } from "./socket.js";

const root = document.getElementById("lobby");
if (root) {
  const t = JSON.parse(document.getElementById("lobby-strings").textContent);
  const $ = (id) => document.getElementById(id);
  const searchBox = $("lobby-search");
  let socket = null;
  let search = null;
  let searchClock = null;
  let offset = 0; // server clock minus ours, from the search's start
  // Find stays disabled (as rendered) until the socket is open and has sent the
  // player's state: a click before that would be lost, or start a search on a page
  // whose socket then fails to open.
  let live = false;
  // Holding a seat at a live online or stake table: no search until it ends.
  let seated = null;
  // The open tables this player may see; whether they hold a place at one.
  let seeks = [];
  let inSeek = false;
  // "Find another table" on a finished table started this search on the server:
  // when it seats the player, go to the table as a Find click here would.
  const params = new URLSearchParams(location.search);
  if (params.has("searching")) {
    sessionStorage.setItem("lobby-searching", "1");
    history.replaceState(null, "", location.pathname);
  }

  const show = (el, text) => { el.hidden = !text; if (text) el.textContent = text; };
  const showError = (text) => show($("lobby-error"), text);

  const paintCounts = (pools) => {
    const online = root.querySelector('[data-count="online"]');
    if (online) online.textContent = formatNumber(pools.reduce((n, p) => n + p.waiting + p.playing, 0));
    for (const p of pools) {
      const li = root.querySelector(`li.pool[data-pool="${CSS.escape(p.key)}"]`);
      if (!li) continue;
      li.querySelector('[data-count="waiting"]').textContent = formatNumber(p.waiting);
      li.querySelector('[data-count="playing"]').textContent = formatNumber(p.playing);
    }
  };

  const paintSearch = () => {
    clearInterval(searchClock);
    searchBox.hidden = !search;
    for (const b of root.querySelectorAll("button.find, button.seek-open")) {
      b.disabled = !!search || !!seated || inSeek || !live;
    }
    if (!search) return;
    const field = (name) => searchBox.querySelector(`[data-field="${name}"]`);
    // The pool's title as this page rendered it: the frame's may be in another language.
    const pool = root.querySelector(`li.pool[data-pool="${CSS.escape(search.pool)}"] h2`);
    field("title").textContent = pool ? pool.textContent : search.title;
    field("estimate").textContent = search.estimate == null ? "—" : formatSeconds(search.estimate);
    field("range").textContent = `${formatNumber(search.range[0])}–${formatNumber(search.range[1])}`;
    const tick = () => {
      const waited = Math.max(0, Math.round(Date.now() / 1000 + offset - search.started_at));
      field("waited").textContent = formatSeconds(waited);
    };
    tick();
    searchClock = setInterval(tick, 1000);
  };

  const paintTables = (tables) => {
    const ul = $("lobby-tables");
    ul.replaceChildren();
    if (!tables.length) {
      const li = document.createElement("li");
      li.textContent = t.noTables;
      ul.append(li);
      return;
    }
    for (const table of tables) {
      const li = document.createElement("li");
      const a = document.createElement("a");
      a.href = `/tables/${table.id}/`;
      const players = table.seats
        .map((s) => {
          if (!s.computer) return s.name;
          return interpolate(gettext("%(name)s (computer)"), { name: s.name || computerLevel(s.level) });
        })
        .join(", ");
      const variant = variantTitle(table.variant);
      a.textContent = interpolate(gettext("%(variant)s: %(players)s"), { variant, players });
      li.append(a);
      ul.append(li);
    }
  };

  const poolTitle = (key, fallback) => {
    const h = root.querySelector(`li.pool[data-pool="${CSS.escape(key)}"] h2`);
    return h ? h.textContent : fallback;
  };

  const button = (text, cls, seekId) => {
    const b = document.createElement("button");
    b.type = "button";
    b.classList.add("button", "small", ...cls);
    b.textContent = text;
    b.dataset.seek = String(seekId);
    b.disabled = !live;
    return b;
  };

  const paintSeeks = (list) => {
    seeks = list;
    inSeek = seeks.some((s) => s.joined);
    const ul = $("lobby-seeks");
    ul.replaceChildren();
    if (!seeks.length) {
      const li = document.createElement("li");
      li.className = "seeks-empty";
      li.textContent = t.noSeeks;
      ul.append(li);
    }
    for (const seek of seeks) {
      const li = document.createElement("li");
      li.className = `card seek${seek.mine ? " mine" : ""}`;
      li.dataset.seek = String(seek.id);
      const title = document.createElement("strong");
      title.textContent = poolTitle(seek.pool, seek.title);
      const facts = document.createElement("span");
      const clock = interpolate(gettext("%(speed)s, %(clock)s a turn + %(bank)s bank"), {
        speed: seek.speed === "fast" ? t.fast : t.slow,
        clock: formatSeconds(seek.clock),
        bank: formatSeconds(seek.bank),
      });
      const stake = seek.stake
        ? interpolate(ngettext("%(n)s coin stake", "%(n)s coins stake", seek.stake), { n: formatNumber(seek.stake) })
        : t.noStake;
      facts.textContent = `${clock} · ${seek.rated ? t.rated : t.friendly} · ${stake}`;
      const players = document.createElement("span");
      players.className = "seek-players";
      players.textContent = interpolate(gettext("%(players)s (%(n)s of %(seats)s)"), {
        players: seek.players.map((p) => interpolate(gettext("%(name)s (%(rating)s)"), p)).join(", "),
        n: formatNumber(seek.players.length),
        seats: formatNumber(seek.seats),
      });
      li.append(title, facts, players);
      if (seek.mine) {
        if (seek.seats > 2 && seek.players.length >= 2) li.append(button(t.start, ["seek-start"], seek.id));
        li.append(button(t.cancelSeek, ["ghost", "seek-cancel"], seek.id));
      } else if (seek.joined) {
        li.append(button(t.leave, ["ghost", "seek-cancel"], seek.id));
      } else {
        const join = button(t.join, ["seek-join"], seek.id);
        join.disabled = !live || inSeek || !!search || !!seated;
        li.append(join);
      }
      ul.append(li);
    }
  };

  const speedOf = (pool) => {
    const select = root.querySelector(`select.speed[data-pool="${CSS.escape(pool)}"]`);
    return select ? select.value : "slow";
  };

  const paintState = (m) => {
    paintCounts(m.pools);
    search = m.search;
    seated = m.seated;
    if (search) offset = search.started_at + search.waited - Date.now() / 1000;
    paintSeeks(m.seeks || []);
    paintSearch();
    paintTables(m.tables);
    const cd = m.cooldown;
    const until = cd.until
      ? interpolate(gettext("You may search again at %(time)s."), { time: formatTime(new Date(cd.until * 1000)) })
      : "";
    show($("lobby-cooldown"), until);
    const warning = $("lobby-warning");
    warning.hidden = !cd.warning;
    warning.querySelector("span").textContent = t.warning;
    if (m.seated) {
      if (sessionStorage.getItem("lobby-searching")) {
        sessionStorage.removeItem("lobby-searching");
        location.assign(`/tables/${m.seated}/`);
        return;
      }
      const status = $("lobby-status");
      status.hidden = false;
      status.classList.add("banner");
      status.replaceChildren(`${t.seated} `);
      const a = document.createElement("a");
      a.href = `/tables/${m.seated}/`;
      a.textContent = t.back;
      status.append(a);
    } else {
      show($("lobby-status"), "");
    }
  };

  const send = (frame) => socket.send(frame);

  const onFrame = (m) => {
    if (m.type === "state") { live = true; showError(""); paintState(m); }
    else if (m.type === "counts") paintCounts(m.pools);
    else if (m.type === "seeks") { paintSeeks(m.seeks); paintSearch(); }
    else if (m.type === "seated") { sessionStorage.removeItem("lobby-searching"); location.assign(m.url); }
    else if (m.type === "error") showError(m.message);
  };

  root.addEventListener("click", (e) => {
    const find = e.target.closest("button.find");
    if (find) {
      sessionStorage.setItem("lobby-searching", "1");
      send({ type: "search", pool: find.dataset.pool, speed: speedOf(find.dataset.pool) });
      return;
    }
    const open = e.target.closest("button.seek-open");
    if (open) {
      const pool = open.dataset.pool;
      const rated = root.querySelector(`input.seek-rated[data-pool="${CSS.escape(pool)}"]`);
      const stake = root.querySelector(`select.seek-stake[data-pool="${CSS.escape(pool)}"]`);
      send({
        type: "seek_open",
        pool,
        speed: speedOf(pool),
        rated: rated ? rated.checked : true,
        stake: stake ? Number(stake.value) : 0,
      });
      return;
    }
    const join = e.target.closest("button.seek-join");
    if (join) { send({ type: "seek_join", seek: Number(join.dataset.seek) }); return; }
    const start = e.target.closest("button.seek-start");
    if (start) { send({ type: "seek_start", seek: Number(start.dataset.seek) }); return; }
    if (e.target.closest("button.seek-cancel")) send({ type: "seek_cancel" });
  });
  $("lobby-cancel").addEventListener("click", () => {
    sessionStorage.removeItem("lobby-searching");
    send({ type: "cancel" });
  });
  $("lobby-warning-ok").addEventListener("click", () => {
    send({ type: "warning_seen" });
    $("lobby-warning").hidden = true;
  });
  // The server sends the state on connect; the socket's status line (socket.js)
  // says when it is connecting. A lost socket keeps the search (docs/protocol.md).
  socket = connect(root.dataset.url, {
    name: "lobby",
    ping: 20000,
    backoff: { base: 1000, max: 15000 },
    texts: { reconnecting: () => t.lost },
    onFrame,
    onClose: () => {
      live = false;
      paintSeeks(seeks);
      paintSearch();
    },
  });
}
