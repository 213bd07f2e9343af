// Words for seats and events, and the end-of-hand breakdown.

import { DASH, t, tileEl, tileLabel } from "./tiles.js";

export function seatName(seats, position, you) {
  if (position === you) return "You";
  const seat = seats.find((s) => s.position === position);
  return seat ? seat.name : `Seat ${position + 1}`;
}

function sideName(view, seats, side, you) {
  const members = view.teams ? view.teams[side] : [side];
  return members.map((p) => seatName(seats, p, you)).join(" & ");
}

const WHERE = {
  root: () => t("to open"),
  left: () => t("on the left"),
  right: () => t("on the right"),
  n: () => t("on the north arm"),
  e: () => t("on the east arm"),
  s: () => t("on the south arm"),
  w: () => t("on the west arm"),
};

/** Where a tile went, as a player says it. */
function whereWords(end) {
  if (WHERE[end]) return WHERE[end]();
  return t("beside the %(double)s", { double: String(end).split(":")[0].replace("-", DASH) });
}

export function describeEvent(event, seats, you) {
  const who = seatName(seats, event.seat, you);
  switch (event.type) {
    case "played":
      return `${who} played ${tileLabel(event.tile)} ${whereWords(event.end)}${event.points ? ` (${event.points})` : ""}`;
    case "drew":
      return `${who} drew${event.tile ? ` ${tileLabel(event.tile)}` : ""}`;
    case "passed":
      return `${who} passed`;
    case "claimed":
      return `${who} claimed ${event.points}`;
    case "declined":
      return `${who} did not claim ${event.points}`;
    case "muggins":
      return `${who} called Muggins: ${event.points}`;
    case "closed":
      return `${who} closed ${event.ends.length === 1 ? "a double" : `${event.ends.length} doubles`}`;
    default:
      return "";
  }
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const ROUNDING = {
  nearest_5_each: "each rounded to the nearest 5",
  nearest_5_total: "total rounded to the nearest 5",
  exact: "",
};

const SCORING_EVENTS = new Set(["claimed", "muggins", "scored"]);

/** Points each side took during the hand's play (claims, Muggins, Fives' end-sums). */
function handClaims(view) {
  const sides = view.scores.map(() => 0);
  for (const event of view.history || []) {
    if (!SCORING_EVENTS.has(event.type) || !event.points) continue;
    const side = view.side_of ? view.side_of[event.seat] : event.seat;
    sides[side] += event.points;
  }
  return sides;
}

/** The breakdown of the hand that just ended: why, every hand, pips and points. */
export function handResultEl(view, seats, you) {
  const r = view.hand_result;
  const box = el("div", "breakdown");
  const title = el("h2", null, `Hand ${view.hand_no}: `);
  title.id = "result-title";
  let why;
  if (r.reason === "out") why = `${seatName(seats, r.out_seat, you)} went out.`;
  else if (r.reason === "blocked" && r.tie) why = "Blocked — a tie for the lowest total, nobody scores.";
  else if (r.reason === "blocked")
    why = `Blocked — ${sideName(view, seats, r.winner_side, you)} had the lowest total.`;
  else why = "The target was reached.";
  title.append(why);
  box.append(title);

  const table = el("table", "list reveal");
  const head = el("tr");
  for (const text of ["Player", "Tiles left", "Pips"]) {
    const th = el("th", null, text);
    th.scope = "col";
    head.append(th);
  }
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  r.hands.forEach((tiles, position) => {
    const tr = el("tr");
    const name = el("th", null, seatName(seats, position, you));
    name.scope = "row";
    const cell = el("td", "tiles");
    if (!tiles.length) cell.append(el("span", "muted", "none"));
    for (const tile of tiles) cell.append(tileEl(tile, { orient: "v", extraClass: "mini" }));
    const charge = r.charged && r.charged[position] ? ` (charged ${r.charged[position]})` : "";
    tr.append(name, cell, el("td", "pips", `${r.pips[position]}${charge}`));
    body.append(tr);
  });
  table.append(body);
  box.append(table);

  const lines = el("ul", "points-list");
  const winner = r.winner_side !== null && r.winner_side !== undefined ? sideName(view, seats, r.winner_side, you) : null;
  for (const c of r.contributions || []) {
    const from = sideName(view, seats, c.side, you);
    let text;
    if (r.penalties) text = `${from}: charged ${c.points} penalty points`;
    else if (c.pips === c.points) text = `${from}: ${c.pips} pips → ${c.points} to ${winner}`;
    else text = `${from}: ${c.pips} pips → ${c.points} to ${winner} (rounded)`;
    lines.append(el("li", null, text));
  }
  const rounding = ROUNDING[r.rounding];
  if (rounding && (r.contributions || []).length) lines.append(el("li", "muted", `Hand bonus ${rounding}.`));
  if (!r.penalties) {
    const claimed = handClaims(view);
    const gained = r.points
      .map((p, side) => {
        const total = p + claimed[side];
        if (!total) return null;
        const parts = claimed[side] && p ? ` ${t("(%(play)s during play, %(bonus)s bonus)", { play: claimed[side], bonus: p })}` : "";
        return `${sideName(view, seats, side, you)} +${total}${parts}`;
      })
      .filter(Boolean);
    lines.append(
      el("li", "total", gained.length ? t("This hand: %(points)s.", { points: gained.join(", ") }) : t("This hand: no points.")),
    );
  }
  box.append(lines);
  const totals = r.scores.map((s, side) => `${sideName(view, seats, side, you)} ${s}`).join(" · ");
  box.append(el("p", "totals", `${r.penalties ? "Penalties" : "Scores"}: ${totals} (target ${view.target})`));
  return box;
}

// What an online or stake table adds to the match result: the player's rating
// change (RULES §6) and, at a stake table, the pot and who received what. Practice
// and friend tables ask for nothing. The answers are written by the finish
// receivers after the table's commit, so an empty answer is asked again a few times.
const EXTRAS = {
  online: (id) => ({ rating: `/play/online/tables/${id}/rating.json` }),
  stake: (id) => ({
    rating: `/play/online/tables/${id}/rating.json`,
    pot: `/play/stakes/tables/${id}/result.json`,
  }),
};
const EXTRA_TRIES = 4;
const EXTRA_PAUSE_MS = 1000;
const extrasAsked = new Map();

async function fetchJson(url, ready) {
  for (let attempt = 0; attempt < EXTRA_TRIES; attempt += 1) {
    try {
      const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!response.ok) return null;
      const body = await response.json();
      if (ready(body) || attempt === EXTRA_TRIES - 1) return body;
    } catch {
      return null;
    }
    await new Promise((resolve) => setTimeout(resolve, EXTRA_PAUSE_MS));
  }
  return null;
}

/** "+14", "-3" or "±0": a displayed rating change. */
export function ratingChangeText(change) {
  if (change > 0) return `+${change}`;
  if (change < 0) return `${change}`;
  return "±0";
}

/** One line of the pot: what a player received from a stake table. */
export function potLineText(line, myName) {
  const who = line.player === myName ? t("You") : line.player;
  let got;
  if (line.payout) got = t("won %(n)s from the pot", { n: line.payout });
  else if (line.refund) got = t("refunded %(n)s", { n: line.refund });
  else got = t("nothing from the pot");
  const reward = line.reward ? `, ${t("reward %(n)s", { n: line.reward })}` : "";
  const forfeited = line.forfeited ? ` (${t("forfeited")})` : "";
  return `${who}: ${got}${reward}${forfeited}`;
}

function ratingEl(body) {
  if (!body || body.change === null || body.change === undefined) return null;
  return el("p", "rating-change", t("Your rating: %(change)s", { change: ratingChangeText(body.change) }));
}

function potEl(body, myName) {
  if (!body || !Array.isArray(body.lines)) return null;
  const box = el("div", "pot-result");
  const settled = body.state === "settled";
  box.append(el("p", null, settled ? t("Pot: %(pot)s coins", { pot: body.pot }) : body.state_label));
  const list = el("ul", "points-list");
  for (const line of body.lines) list.append(el("li", null, potLineText(line, myName)));
  box.append(list);
  return box;
}

/** Fill the match result's extras (rating change, pot) once per table. */
export function matchExtrasInto(match, frame) {
  const { table, seats, you } = frame;
  const urls = EXTRAS[table.mode]?.(table.id);
  if (!urls || table.status !== "finished" || extrasAsked.has(table.id)) return;
  extrasAsked.set(table.id, true);
  let holder = match.querySelector("[data-extras]");
  if (!holder) {
    holder = el("div", "match-extras");
    holder.dataset.extras = "";
    holder.setAttribute("aria-live", "polite");
    match.querySelector("[data-scores]")?.after(holder);
  }
  const me = seats.find((s) => s.position === you);
  const asks = [];
  if (urls.rating && me) asks.push(fetchJson(urls.rating, (b) => b.change !== null).then(ratingEl));
  if (urls.pot) {
    asks.push(fetchJson(urls.pot, (b) => b.state === "settled" || b.state === "cancelled").then((b) => potEl(b, me?.name)));
  }
  Promise.all(asks).then((parts) => holder.replaceChildren(...parts.filter(Boolean)));
}
