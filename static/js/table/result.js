// Words for seats and events, and the end-of-hand breakdown.

import { formatNumber, gettext, interpolate, ngettext, pgettext, seatDisplayName } from "../i18n.js";
import { DASH, tileEl, tileLabel } from "./tiles.js";

export function seatName(seats, position, you) {
  if (position === you) return gettext("You");
  const seat = seats.find((s) => s.position === position);
  return seat ? seatDisplayName(seat) : interpolate(gettext("Seat %(number)s"), { number: formatNumber(position + 1) });
}

function sideName(view, seats, side, you) {
  const members = view.teams ? view.teams[side] : [side];
  return members.map((p) => seatName(seats, p, you)).join(" & ");
}

/** Whether a side is the player alone (the text then speaks to them). */
function sideIsYou(view, side, you) {
  const members = view.teams ? view.teams[side] : [side];
  return members.length === 1 && members[0] === you;
}

const WHERE = {
  root: () => pgettext("where a tile was played", "to open"),
  left: () => pgettext("where a tile was played", "on the left"),
  right: () => pgettext("where a tile was played", "on the right"),
  n: () => pgettext("where a tile was played", "on the north arm"),
  e: () => pgettext("where a tile was played", "on the east arm"),
  s: () => pgettext("where a tile was played", "on the south arm"),
  w: () => pgettext("where a tile was played", "on the west arm"),
};

/** Where a tile went, as a player says it. */
function whereWords(end) {
  if (WHERE[end]) return WHERE[end]();
  return interpolate(pgettext("where a tile was played", "beside the %(double)s"), {
    double: String(end).split(":")[0].replace("-", DASH),
  });
}

/** One line of the hand's story; "You …" when the player did it. */
export function describeEvent(event, seats, you) {
  const mine = event.seat === you;
  const values = {
    name: seatName(seats, event.seat, you),
    tile: event.tile ? tileLabel(event.tile) : "",
    where: event.type === "played" ? whereWords(event.end) : "",
    points: formatNumber(event.points),
  };
  let text;
  switch (event.type) {
    case "played":
      if (event.points) {
        text = mine
          ? gettext("You played %(tile)s %(where)s (%(points)s)")
          : gettext("%(name)s played %(tile)s %(where)s (%(points)s)");
      } else {
        text = mine ? gettext("You played %(tile)s %(where)s") : gettext("%(name)s played %(tile)s %(where)s");
      }
      break;
    case "drew":
      if (event.tile) text = mine ? gettext("You drew %(tile)s") : gettext("%(name)s drew %(tile)s");
      else text = mine ? gettext("You drew") : gettext("%(name)s drew");
      break;
    case "passed":
      text = mine ? gettext("You passed") : gettext("%(name)s passed");
      break;
    case "claimed":
      text = mine ? gettext("You claimed %(points)s") : gettext("%(name)s claimed %(points)s");
      break;
    case "declined":
      text = mine ? gettext("You did not claim %(points)s") : gettext("%(name)s did not claim %(points)s");
      break;
    case "muggins":
      text = mine ? gettext("You called Muggins: %(points)s") : gettext("%(name)s called Muggins: %(points)s");
      break;
    case "closed": {
      const count = event.ends.length;
      values.count = formatNumber(count);
      text = mine
        ? ngettext("You closed a double", "You closed %(count)s doubles", count)
        : ngettext("%(name)s closed a double", "%(name)s closed %(count)s doubles", count);
      break;
    }
    default:
      return "";
  }
  return interpolate(text, values);
}

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

const ROUNDING = {
  nearest_5_each: () => gettext("Hand bonus each rounded to the nearest 5."),
  nearest_5_total: () => gettext("Hand bonus total rounded to the nearest 5."),
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

/** Why the hand ended, in a sentence. */
function handEndWhy(view, seats, you) {
  const r = view.hand_result;
  if (r.reason === "out") {
    if (r.out_seat === you) return gettext("You went out.");
    return interpolate(gettext("%(name)s went out."), { name: seatName(seats, r.out_seat, you) });
  }
  if (r.reason === "blocked" && r.tie) return gettext("Blocked — a tie for the lowest total, nobody scores.");
  if (r.reason === "blocked") {
    if (sideIsYou(view, r.winner_side, you)) return gettext("Blocked — you had the lowest total.");
    return interpolate(gettext("Blocked — %(side)s had the lowest total."), {
      side: sideName(view, seats, r.winner_side, you),
    });
  }
  return gettext("The target was reached.");
}

/** One side's share of the hand bonus: what its tiles were worth and to whom. */
function contributionText(r, c, from, winner) {
  const values = { side: from, pips: formatNumber(c.pips), points: formatNumber(c.points), winner };
  if (r.penalties) {
    return interpolate(
      ngettext("%(side)s: charged %(points)s penalty point", "%(side)s: charged %(points)s penalty points", c.points),
      values,
    );
  }
  if (c.pips === c.points) {
    return interpolate(
      ngettext("%(side)s: %(pips)s pip → %(points)s to %(winner)s", "%(side)s: %(pips)s pips → %(points)s to %(winner)s", c.pips),
      values,
    );
  }
  return interpolate(
    ngettext(
      "%(side)s: %(pips)s pip → %(points)s to %(winner)s (rounded)",
      "%(side)s: %(pips)s pips → %(points)s to %(winner)s (rounded)",
      c.pips,
    ),
    values,
  );
}

/** The breakdown of the hand that just ended: why, every hand, pips and points. */
export function handResultEl(view, seats, you) {
  const r = view.hand_result;
  const box = el("div", "breakdown");
  const title = el(
    "h2",
    null,
    interpolate(gettext("Hand %(number)s: %(why)s"), {
      number: formatNumber(view.hand_no),
      why: handEndWhy(view, seats, you),
    }),
  );
  title.id = "result-title";
  box.append(title);

  const table = el("table", "list reveal");
  const head = el("tr");
  for (const text of [gettext("Player"), gettext("Tiles left"), gettext("Pips")]) {
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
    if (!tiles.length) cell.append(el("span", "muted", pgettext("no tiles left", "none")));
    for (const tile of tiles) cell.append(tileEl(tile, { orient: "v", extraClass: "mini" }));
    const pips = r.charged && r.charged[position]
      ? interpolate(gettext("%(pips)s (charged %(charged)s)"), {
        pips: formatNumber(r.pips[position]),
        charged: formatNumber(r.charged[position]),
      })
      : formatNumber(r.pips[position]);
    tr.append(name, cell, el("td", "pips", pips));
    body.append(tr);
  });
  table.append(body);
  box.append(table);

  const lines = el("ul", "points-list");
  const winner = r.winner_side !== null && r.winner_side !== undefined ? sideName(view, seats, r.winner_side, you) : null;
  for (const c of r.contributions || []) {
    lines.append(el("li", null, contributionText(r, c, sideName(view, seats, c.side, you), winner)));
  }
  const rounding = ROUNDING[r.rounding];
  if (rounding && (r.contributions || []).length) lines.append(el("li", "muted", rounding()));
  if (!r.penalties) {
    const claimed = handClaims(view);
    const gained = r.points
      .map((p, side) => {
        const total = p + claimed[side];
        if (!total) return null;
        const values = {
          side: sideName(view, seats, side, you),
          points: formatNumber(total),
          play: formatNumber(claimed[side]),
          bonus: formatNumber(p),
        };
        return claimed[side] && p
          ? interpolate(gettext("%(side)s +%(points)s (%(play)s during play, %(bonus)s bonus)"), values)
          : interpolate(gettext("%(side)s +%(points)s"), values);
      })
      .filter(Boolean);
    lines.append(
      el(
        "li",
        "total",
        gained.length
          ? interpolate(gettext("This hand: %(points)s."), { points: gained.join(", ") })
          : gettext("This hand: no points."),
      ),
    );
  }
  box.append(lines);
  const values = {
    totals: r.scores.map((s, side) => `${sideName(view, seats, side, you)} ${formatNumber(s)}`).join(" · "),
    target: formatNumber(view.target),
  };
  const totals = r.penalties
    ? gettext("Penalties: %(totals)s (target %(target)s)")
    : gettext("Scores: %(totals)s (target %(target)s)");
  box.append(el("p", "totals", interpolate(totals, values)));
  return box;
}

// What a paying table adds to the match result: the player's new rating and its
// change (online and stake tables, RULES §6), the coins and XP the table paid
// (friend, online and stake tables, RULES §5) and, at a stake table, the pot and
// who received what. Practice tables ask for nothing. These are written by the
// finish consequences after the table's commit, so the page fetches them and asks
// again while the server says the finish is still applying (``pending``).
const outcomeUrl = (id) => `/play/online/tables/${id}/outcome.json`;
const EXTRAS = {
  friend: (id) => ({ outcome: outcomeUrl(id) }),
  online: (id) => ({ outcome: outcomeUrl(id) }),
  stake: (id) => ({
    outcome: outcomeUrl(id),
    pot: `/play/stakes/tables/${id}/result.json`,
  }),
};
const EXTRA_TRIES = 8;
const EXTRA_PAUSE_MS = 750;
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
  if (change > 0) return `+${formatNumber(change)}`;
  if (change < 0) return formatNumber(change);
  return "±0";
}

/** One line of the pot: what a player received from a stake table. */
export function potLineText(line, myName) {
  let outcome;
  if (line.payout) outcome = interpolate(gettext("won %(coins)s from the pot"), { coins: formatNumber(line.payout) });
  else if (line.refund) outcome = interpolate(gettext("refunded %(coins)s"), { coins: formatNumber(line.refund) });
  else outcome = gettext("nothing from the pot");
  if (line.reward) {
    outcome = interpolate(gettext("%(outcome)s, reward %(coins)s"), { outcome, coins: formatNumber(line.reward) });
  }
  if (line.forfeited) outcome = interpolate(gettext("%(outcome)s (forfeited)"), { outcome });
  const name = line.player === myName ? gettext("You") : line.player;
  return interpolate(gettext("%(name)s: %(outcome)s"), { name, outcome });
}

// Why a table of a rated kind changed no rating (the server's ``unrated`` codes).
const UNRATED = {
  computers: () => gettext("Unrated: computer players filled seats at this table, and only games between people change a rating."),
};

/** What the "?" after a provisional rating means, with how far it has to go. */
export function provisionalText(body) {
  const left = (body.needed || 0) - (body.tables || 0);
  if (left > 0) {
    return interpolate(
      ngettext(
        "?: a provisional rating, until %(needed)s rated tables (%(tables)s played): %(left)s more to go.",
        "?: a provisional rating, until %(needed)s rated tables (%(tables)s played): %(left)s more to go.",
        left,
      ),
      { needed: formatNumber(body.needed), tables: formatNumber(body.tables), left: formatNumber(left) },
    );
  }
  return gettext("?: a provisional rating, settled once your results are steady over more rated tables.");
}

/** "Your rating: 1605? (+105)" and "Earned here: 30 coins · 20 XP"; why a table
 * rated nobody, and what a provisional rating's "?" means. */
export function outcomeEls(body) {
  if (!body) return [];
  const parts = [];
  if (body.change !== null && body.change !== undefined) {
    const text = body.rating
      ? interpolate(gettext("Your rating: %(rating)s (%(change)s)"), {
        rating: body.rating,
        change: ratingChangeText(body.change),
      })
      : interpolate(gettext("Your rating: %(change)s"), { change: ratingChangeText(body.change) });
    const p = el("p", "rating-change", text);
    p.dataset.rating = "";
    parts.push(p);
    if (body.provisional) {
      // The "?" after the rating, said in words where everyone reads it (and
      // tied to the rating for a screen reader), and again in the line's tooltip.
      const legend = el("p", "muted rating-legend", provisionalText(body));
      legend.id = "rating-legend";
      legend.dataset.provisional = "";
      p.title = legend.textContent;
      p.setAttribute("aria-describedby", legend.id);
      parts.push(legend);
    }
  } else if (body.unrated && UNRATED[body.unrated]) {
    const p = el("p", "unrated", UNRATED[body.unrated]());
    p.dataset.unrated = "";
    parts.push(p);
  }
  if (body.coins || body.xp) {
    const earned = [];
    if (body.coins) earned.push(interpolate(ngettext("%(coins)s coin", "%(coins)s coins", body.coins), { coins: formatNumber(body.coins) }));
    if (body.xp) earned.push(interpolate(gettext("%(xp)s XP"), { xp: formatNumber(body.xp) }));
    const p = el("p", "earned", interpolate(gettext("Earned at this table: %(earned)s"), { earned: earned.join(" · ") }));
    p.dataset.earned = "";
    parts.push(p);
  }
  return parts;
}

function potEl(body, myName) {
  if (!body || !Array.isArray(body.lines)) return null;
  const box = el("div", "pot-result");
  const settled = body.state === "settled";
  const pot = settled
    ? interpolate(ngettext("Pot: %(coins)s coin", "Pot: %(coins)s coins", body.pot), { coins: formatNumber(body.pot) })
    : body.state_label;
  box.append(el("p", null, pot));
  const list = el("ul", "points-list");
  for (const line of body.lines) list.append(el("li", null, potLineText(line, myName)));
  box.append(list);
  return box;
}

// Why the player earned nothing at a table that pays (RULES §5, "Earning needs
// playing"); the reasons are the server's ``Seat.unpaid`` codes.
const UNPAID = {
  standin: () => gettext("You earned no coins, XP or league points: the computer played most of your moves."),
  alone: () => gettext("Nobody earned coins or XP: a friend room pays only when at least two people sat at its start."),
  bot: () => gettext("A bot account earns no coins, XP or league points."),
};

/** Say why the player earned nothing, if they did not. */
export function unpaidNoteInto(match, frame) {
  const me = frame.seats.find((s) => s.position === frame.you);
  const why = me?.unpaid ? UNPAID[me.unpaid] : null;
  let note = match.querySelector("[data-unpaid]");
  if (!why) {
    note?.remove();
    return;
  }
  if (!note) {
    note = el("p", "unpaid");
    note.dataset.unpaid = "";
    match.querySelector("[data-scores]")?.after(note);
  }
  note.textContent = why();
}

// The event that seated the table (an arena, a sit-and-go) pays its own prize by
// final place when it ends: the table's result says where the player stands, with
// a link to the standings. The words by kind of event (the server's ``kind``).
const EVENT_WORDS = {
  arena: {
    running: () => gettext("Your arena prize is decided by the final standings when the arena ends."),
    place: () => gettext("The arena is over. Your final place: %(place)s."),
    none: () => gettext("The arena is over: you took no place."),
  },
  sitgo: {
    running: () => gettext("Your sit-and-go prize is decided when the sit-and-go ends."),
    place: () => gettext("The sit-and-go is over. Your final place: %(place)s."),
    none: () => gettext("The sit-and-go is over."),
    cancelled: () => gettext("The sit-and-go was cancelled: entries were refunded."),
  },
};

/** The lines of the player's standing in the event, and the way to its standings. */
export function eventStandingEl(body) {
  const words = body && EVENT_WORDS[body.kind];
  if (!words) return null;
  const box = el("div", "event-standing");
  box.dataset.eventStanding = body.state;
  let text;
  if (body.state === "finished") {
    text = body.place
      ? interpolate(words.place(), { place: formatNumber(body.place) })
      : words.none();
  } else if (body.state === "cancelled" && words.cancelled) text = words.cancelled();
  else text = words.running();
  box.append(el("p", null, text));
  if (body.state === "finished") {
    const prize = [];
    if (body.coins) prize.push(interpolate(ngettext("%(coins)s coin", "%(coins)s coins", body.coins), { coins: formatNumber(body.coins) }));
    if (body.xp) prize.push(interpolate(gettext("%(xp)s XP"), { xp: formatNumber(body.xp) }));
    const line = prize.length
      ? el("p", "event-prize", interpolate(gettext("Your prize: %(prize)s"), { prize: prize.join(" · ") }))
      : el("p", "event-prize", gettext("No prize at this place."));
    line.dataset.eventPrize = "";
    box.append(line);
  }
  const link = el("a", null, gettext("See the standings"));
  link.href = body.url;
  link.dataset.standings = "";
  const linkLine = el("p");
  linkLine.append(link);
  box.append(linkLine);
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
  if (urls.outcome && me) asks.push(fetchJson(urls.outcome, (b) => !b.pending).then(outcomeEls));
  if (urls.pot) {
    asks.push(fetchJson(urls.pot, (b) => b.state === "settled" || b.state === "cancelled").then((b) => potEl(b, me && seatDisplayName(me))));
  }
  const standing = match.dataset.standing;
  if (standing && me) asks.push(fetchJson(standing, (b) => !b.pending).then(eventStandingEl));
  Promise.all(asks).then((parts) => holder.replaceChildren(...parts.flat().filter(Boolean)));
}

// A rematch both players accept (online tables of two people): the page asks the
// server every two seconds who has offered it, and goes to the new table once
// both have. The form (rendered only where a rematch can exist) posts the offer.
const REMATCH_POLL_MS = 2000;
let rematchTimer = null;

function rematchPaint(form, status, body) {
  const button = form.querySelector("button");
  if (!body || !body.available) {
    form.hidden = true;
    status.hidden = true;
    return;
  }
  if (body.table) {
    clearInterval(rematchTimer);
    window.location.assign(`/tables/${body.table}/`);
    return;
  }
  const others = body.offered || [];
  form.hidden = body.mine;
  status.hidden = !body.mine && !others.length;
  button.textContent = others.length ? gettext("Accept the rematch") : gettext("Offer a rematch");
  if (body.mine) status.textContent = gettext("Rematch offered: waiting for the other player to accept.");
  else if (others.length) status.textContent = interpolate(gettext("%(name)s offers a rematch."), { name: others.join(", ") });
}

/** Offer and follow a rematch from the match result, once per page. */
export function rematchInto(match, frame) {
  const form = match.querySelector("form[data-rematch]");
  if (!form || frame.table.status !== "finished" || form.dataset.live) return;
  form.dataset.live = "1";
  const status = match.querySelector("[data-rematch-status]");
  const ask = async () => {
    try {
      const reply = await fetch(form.action, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (reply.ok) rematchPaint(form, status, await reply.json());
    } catch {
      // A lost answer is asked again at the next tick.
    }
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const reply = await fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    const body = await reply.json().catch(() => null);
    if (!reply.ok) {
      status.hidden = false;
      status.classList.add("error");
      status.textContent = body?.error?.message || gettext("That did not work; reload the page and try again.");
      return;
    }
    status.classList.remove("error");
    rematchPaint(form, status, body);
  });
  ask();
  rematchTimer = setInterval(ask, REMATCH_POLL_MS);
}
