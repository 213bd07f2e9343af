// The table page: renders the latest state frame and turns clicks, drags and keys
// into one of the view's legal actions.

import { formatList, formatNumber, gettext, interpolate, ngettext, pgettext, seatDisplayName } from "../i18n.js";
import { DASH, sameTile, tileEl, tileKey, tileLabel } from "./tiles.js";
import { describeEvent, handResultEl, matchExtrasInto, rematchInto, seatName, unpaidNoteInto } from "./result.js";
import { snake, spinnerArms } from "./board.js";
import { Sounds, soundToggle } from "./sound.js";
import { el } from "../dom.js";

/** The last tile each seat played this hand, and the newest play of all. */
function lastPlays(history) {
  const bySeat = new Map();
  let newest = null;
  for (const event of history) {
    if (event.type !== "played") continue;
    bySeat.set(event.seat, event);
    newest = event;
  }
  return { seats: [...bySeat.values()], newest };
}


// An open end, named as in "left end, 5" (a tile's side for the arms off a double).
const END_NAMES = {
  left: () => pgettext("end of the layout", "left"),
  right: () => pgettext("end of the layout", "right"),
  n: () => pgettext("end of the layout", "north"),
  e: () => pgettext("end of the layout", "east"),
  s: () => pgettext("end of the layout", "south"),
  w: () => pgettext("end of the layout", "west"),
};

function endName(id) {
  if (END_NAMES[id]) return END_NAMES[id]();
  const [tile, side] = id.split(":");
  const values = { tile: tile.replace("-", DASH) };
  return side === "l"
    ? interpolate(pgettext("end of the layout", "%(tile)s left side"), values)
    : interpolate(pgettext("end of the layout", "%(tile)s right side"), values);
}

// An arm of the layout, named on its own, as in "North · 6–6".
const ARM_NAMES = {
  line: () => pgettext("arm of the layout", "Line"),
  left: () => pgettext("arm of the layout", "Left"),
  right: () => pgettext("arm of the layout", "Right"),
  n: () => pgettext("arm of the layout", "North"),
  e: () => pgettext("arm of the layout", "East"),
  s: () => pgettext("arm of the layout", "South"),
  w: () => pgettext("arm of the layout", "West"),
};

function armName(arm) {
  const compass = arm.compass || arm.id;
  if (ARM_NAMES[compass]) return ARM_NAMES[compass]();
  return endName(arm.id);
}

/** "1:05": seconds as minutes and seconds. */
function minutes(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/** "time bank 0:45": what is left of a seat's time bank. */
function bankText(seconds) {
  return interpolate(gettext("time bank %(time)s"), { time: minutes(seconds) });
}

export class TableUI {
  constructor(root, config, send) {
    this.root = root;
    this.config = config;
    this.send = send; // {act(action), back(), leave()}
    this.frame = null;
    this.selected = null; // tile key of the chosen tile
    this.showMatchResult = false;
    this.connection = "connecting";
    this.errorTimer = null;
    this.parts = {
      seats: root.querySelector("#seats"),
      info: root.querySelector("#info"),
      board: root.querySelector("#board"),
      status: root.querySelector("#status"),
      error: root.querySelector("#error"),
      result: root.querySelector("#result"),
      match: root.querySelector("#match-result"),
      actions: root.querySelector("#actions"),
      hand: root.querySelector("#hand"),
    };
    this.sounds = new Sounds();
    soundToggle(document.getElementById("sound-toggle"), this.sounds);
    this.seenPlays = null; // plays of the hand already shown (no animation for them)
    this.handKeys = null; // tiles of the hand already shown
    window.setInterval(() => this.tickClocks(), 250);
    // Rows snake to the board's width: lay them out again whenever it changes, the
    // window resized or not (a scrollbar that comes as the page grows at a hand's
    // end narrows the board too). Only the width counts: laying out changes the
    // height, which would otherwise come back here.
    let boardWidth = null;
    new ResizeObserver((entries) => {
      const width = Math.round(entries[entries.length - 1].contentRect.width);
      if (width === boardWidth) return;
      const laid = boardWidth !== null;
      boardWidth = width;
      if (laid && this.frame) this.renderBoard();
    }).observe(this.parts.board);
    root.addEventListener("keydown", (event) => this.onKey(event));
  }

  // --- inputs from the socket

  update(frame) {
    const before = this.frame;
    this.frame = frame;
    const view = frame.view;
    if (this.selected && !(view?.hand || []).some((t) => tileKey(t) === this.selected)) {
      this.selected = null;
    }
    if (before?.view && view && before.view.hand_no !== view.hand_no) this.selected = null;
    if (view?.phase !== "match_over") this.showMatchResult = false;
    const wasMyTurn = before ? this.isMyTurnIn(before) : false;
    this.render();
    this.motion(before);
    if (!wasMyTurn && this.isMyTurnIn(frame) && before) this.sounds.chime();
  }

  /** Animate (and click for) a tile played since the last frame; drop in drawn tiles. */
  motion(before) {
    const view = this.frame.view;
    if (!view) return;
    const plays = (view.history || []).filter((h) => h.type === "played").length;
    const sameHand = before?.view && before.view.hand_no === view.hand_no;
    if (sameHand && this.seenPlays !== null && plays > this.seenPlays) {
      this.parts.board.querySelector(".tile.newest")?.classList.add("arrive");
      this.sounds.click();
    }
    this.seenPlays = plays;
    const keys = (view.hand || []).map((t) => tileKey(t));
    if (sameHand && this.handKeys) {
      for (const key of keys) {
        if (!this.handKeys.includes(key)) this.parts.hand.querySelector(`[data-tile="${key}"]`)?.classList.add("arrive");
      }
    }
    this.handKeys = keys;
  }

  isMyTurnIn(frame) {
    const view = frame?.view;
    return !!view && view.seat !== null && view.seat !== undefined && view.to_move === view.seat
      && ["play", "claim", "close"].includes(view.phase) && (view.legal || []).length > 0;
  }

  error(frame) {
    // The server's messages come in the connection's language: shown as sent.
    const text = frame.message || gettext("Something went wrong.");
    const box = this.parts.error;
    box.textContent = text;
    box.hidden = false;
    window.clearTimeout(this.errorTimer);
    this.errorTimer = window.setTimeout(() => {
      box.hidden = true;
    }, 6000);
  }

  /** The table socket's state ("open", "reconnecting", "restarting", "refused"):
   * the shared client's status line says it in words; moves wait for "open". */
  setConnection(status) {
    this.connection = status;
    this.root.classList.toggle("offline", status !== "open");
  }

  // --- what the player may do

  legal() {
    return this.frame?.view?.legal || [];
  }

  playsFor(key) {
    return this.legal().filter((a) => a.type === "play" && tileKey(a.tile) === key);
  }

  act(action) {
    this.selected = null;
    this.parts.error.hidden = true;
    // Plays in ``legal`` carry the points they would make; the server's action
    // parser refuses that extra field, so send the bare action.
    const { points, ...bare } = action;
    this.send.act(action.type === "play" ? bare : action);
  }

  chooseTile(key, { fromKeyboard = false } = {}) {
    const plays = this.playsFor(key);
    if (!plays.length) {
      if (this.isMyTurn() && this.legal().some((a) => a.type === "play")) {
        this.error({ message: interpolate(gettext("%(tile)s fits no open end."), { tile: key.replace("-", DASH) }) });
      }
      return;
    }
    if (plays.length === 1) {
      this.act(plays[0]);
      return;
    }
    this.selected = this.selected === key ? null : key;
    this.render();
    if (this.selected && fromKeyboard) {
      this.root.querySelector(".end.fits")?.focus();
    }
  }

  chooseEnd(endId) {
    if (!this.selected) return;
    const play = this.playsFor(this.selected).find((a) => a.end === endId);
    if (play) this.act(play);
  }

  isMyTurn() {
    const view = this.frame?.view;
    return !!view && view.seat !== null && view.seat !== undefined && view.to_move === view.seat;
  }

  // --- rendering

  render() {
    const frame = this.frame;
    if (!frame) return;
    // The first state shows what was laid out unseen (table.css).
    this.root.removeAttribute("data-loading");
    const focusKey = this.root.contains(document.activeElement)
      ? document.activeElement.dataset.key
      : null;
    this.renderSeats();
    this.renderInfo();
    this.renderBoard();
    this.renderStatus();
    this.renderResult();
    this.renderActions();
    this.renderHand();
    const leave = document.getElementById("leave");
    if (leave) leave.hidden = frame.table.status !== "playing";
    if (focusKey) {
      const again = this.root.querySelector(`[data-key="${focusKey}"]:not([disabled])`);
      const fallback =
        this.root.querySelector(".hand .tile-btn.playable") ||
        this.root.querySelector("#main-action:not([disabled])") ||
        this.root.querySelector(".hand .tile-btn");
      (again || fallback)?.focus({ preventScroll: true });
    }
  }

  renderSeats() {
    const { seats, view, table } = this.frame;
    const list = this.parts.seats;
    list.replaceChildren();
    const timer = table.timer;
    for (const seat of seats) {
      const pos = seat.position;
      const toMove = view && view.to_move === pos && !["hand_over", "match_over"].includes(view.phase);
      const side = view?.side_of ? view.side_of[pos] : pos;
      const score = view?.scores ? view.scores[side] : null;
      const count = view?.hand_counts?.[pos] ?? null;
      const you = pos === this.frame.you;
      const item = el(
        "li",
        {
          class: `seat${toMove ? " to-move" : ""}${you ? " you" : ""}`,
          "aria-current": toMove ? "true" : null,
          dataset: { seat: String(pos) },
        },
        el("span", { class: "seat-name", text: you ? interpolate(gettext("%(name)s (you)"), { name: seatDisplayName(seat) }) : seatDisplayName(seat) }),
        seat.bot || seat.program
          ? el("span", { class: "badge bot", text: pgettext("seat badge", "computer"), title: gettext("computer player") })
          : null,
        seat.team !== null && seat.team !== undefined && view?.options?.partnership
          ? el("span", {
            class: `badge team t${seat.team}`,
            text: seat.team ? pgettext("seat badge", "team B") : pgettext("seat badge", "team A"),
          })
          : null,
        seat.away ? el("span", { class: "badge away", text: pgettext("seat badge", "away") }) : null,
        !seat.connected ? el("span", { class: "badge off", text: pgettext("seat badge", "offline") }) : null,
        el("span", { class: "seat-stat" },
          el("span", { class: "seat-tiles", text: count === null ? "–" : formatNumber(count) }),
          el("span", { class: "unit", text: ` ${ngettext("tile", "tiles", count ?? 0)}` }),
          el("span", { class: "sep", "aria-hidden": "true", text: " · " }),
          el("span", { class: "seat-score", text: score === null ? "–" : formatNumber(score) }),
          el("span", {
            class: "unit",
            text: ` ${view?.variant === "spider" ? pgettext("score unit", "penalty") : pgettext("score unit", "pts")}`,
          }),
        ),
        toMove && timer && timer.seat === pos && timer.kind === "clock"
          ? el("span", {
            class: "clock",
            dataset: { deadline: String(timer.deadline), bankFrom: timer.bank_from ? String(timer.bank_from) : "" },
            "aria-label": gettext("turn clock"),
          })
          : null,
        // The seat's time bank for the match, used once its turn clock runs out.
        seat.bank_ms !== null && seat.bank_ms !== undefined && !(toMove && timer && timer.seat === pos && timer.kind === "clock")
          ? el("span", { class: "bank", text: bankText(Math.ceil(seat.bank_ms / 1000)) })
          : null,
        toMove && timer && timer.seat === pos && timer.kind === "bot"
          ? el("span", { class: "thinking", text: gettext("thinking…") })
          : null,
        toMove ? el("span", { class: "sr-only", text: ` ${gettext("(to move)")}` }) : null,
      );
      list.append(item);
    }
    this.tickClocks();
  }

  tickClocks() {
    const now = Date.now() / 1000;
    for (const clock of this.root.querySelectorAll("[data-deadline]")) {
      // With a time bank the deadline is the bank's end: the clock runs until
      // ``bankFrom``, then the bank counts down.
      const bankFrom = Number(clock.dataset.bankFrom || 0);
      const inBank = bankFrom > 0 && now >= bankFrom;
      const end = bankFrom > 0 && !inBank ? bankFrom : Number(clock.dataset.deadline);
      const left = Math.max(0, Math.ceil(end - now));
      const text = inBank ? bankText(left) : minutes(left);
      if (clock.textContent !== text) clock.textContent = text;
      clock.classList.toggle("in-bank", inBank);
      clock.classList.toggle("low", left <= 5 && (inBank || bankFrom <= 0));
    }
  }

  renderInfo() {
    const { view, table } = this.frame;
    const bits = [this.config.title];
    if (view) {
      bits.push(interpolate(pgettext("a deal of the match", "Hand %(number)s"), { number: formatNumber(view.hand_no) }));
      bits.push(interpolate(gettext("Target %(points)s"), { points: formatNumber(view.target) }));
      if (this.config.stock_drawn) {
        bits.push(interpolate(gettext("Stock %(count)s"), { count: formatNumber(view.stock_count) }));
      }
      if (view.end_sum !== null && view.end_sum !== undefined) {
        bits.push(interpolate(gettext("Ends %(sum)s"), { sum: formatNumber(view.end_sum) }));
      }
    }
    if (table.status === "cancelled") bits.push(pgettext("table state", "abandoned"));
    this.parts.info.replaceChildren(
      ...bits.map((text, i) => el("span", { class: i === 0 ? "variant" : "fact", text })),
    );
  }

  endFits(endId) {
    return !!this.selected && this.playsFor(this.selected).some((a) => a.end === endId);
  }

  endButton(end, direction) {
    const view = this.frame.view;
    if (end.state === "closed") {
      return el("span", {
        class: "end closed",
        title: gettext("closed end"),
        "aria-label": interpolate(gettext("%(end)s end closed"), { end: endName(end.id) }),
      },
      el("span", { "aria-hidden": "true", text: "✕" }), el("span", { class: "end-word", text: pgettext("end of the layout", "closed") }));
    }
    const play = this.selected ? this.playsFor(this.selected).find((a) => a.end === end.id) : null;
    const anyPlay = this.legal().some((a) => a.type === "play" && a.end === end.id);
    const scoring = play && play.points !== undefined && play.points !== null;
    const label = this.endLabel(end, play, scoring);
    const button = el(
      "button",
      {
        type: "button",
        class: `end ${direction}${play ? " fits" : ""}${anyPlay ? " open" : ""}${end.double ? " dbl" : ""}`,
        disabled: !play,
        "aria-label": label,
        dataset: { end: end.id, key: `end:${end.id}` },
        onclick: () => this.chooseEnd(end.id),
        ondragover: (event) => {
          if (play) event.preventDefault();
        },
        ondrop: (event) => {
          event.preventDefault();
          this.chooseEnd(end.id);
        },
      },
      direction === "left" ? el("span", { class: "arrow", "aria-hidden": "true", text: "◀" }) : null,
      el("span", { class: "end-value", "aria-hidden": "true", text: String(end.value) }),
      direction !== "left" ? el("span", { class: "arrow", "aria-hidden": "true", text: "▶" }) : null,
      scoring ? el("span", { class: `points${play.points ? " scores" : ""}`, "aria-hidden": "true", text: `+${formatNumber(play.points)}` }) : null,
    );
    return button;
  }

  /** What a screen reader hears for an end button: the end, and the play it offers. */
  endLabel(end, play, scoring) {
    const values = { end: endName(end.id), value: formatNumber(end.value) };
    const where = end.double
      ? interpolate(gettext("%(end)s end, %(value)s (double)"), values)
      : interpolate(gettext("%(end)s end, %(value)s"), values);
    if (!play) return where;
    const offer = { end: where, tile: tileLabel(play.tile), points: formatNumber(play.points) };
    if (!scoring) return interpolate(gettext("%(end)s: play %(tile)s here"), offer);
    return interpolate(
      ngettext("%(end)s: play %(tile)s here, %(points)s point", "%(end)s: play %(tile)s here, %(points)s points", play.points),
      offer,
    );
  }

  renderBoard() {
    const view = this.frame.view;
    const board = this.parts.board;
    board.replaceChildren();
    board.classList.remove("with-spinner");
    if (!view) return;
    const layout = view.layout;
    if (!layout.root) {
      const rootPlays = this.legal().filter((a) => a.type === "play" && a.end === "root");
      board.append(
        el("p", { class: "board-empty", text: rootPlays.length ? gettext("Open the hand: choose a tile.") : gettext("Waiting for the opening tile…") }),
      );
      return;
    }
    const ends = Object.fromEntries(layout.ends.map((e) => [e.id, e]));
    const lastBySeat = lastPlays(view.history || []);
    const spun = spinnerArms(layout);
    if (spun) {
      board.classList.add("with-spinner");
      const centre = el("div", { class: "spinner-centre", role: "img", "aria-label": interpolate(gettext("Spinner %(tile)s, in the centre"), { tile: tileLabel(layout.spinner) }) },
        tileEl(layout.spinner, { orient: "v", label: false, extraClass: `spinner${this.lastClass(layout.spinner, lastBySeat)}` }),
        el("span", { class: "arm-name", text: gettext("spinner") }),
      );
      board.append(centre);
      for (const arm of spun) {
        // A cross on every screen: the west arm grows leftwards from the spinner.
        this.armRow(board, arm, ends, lastBySeat, { reverse: arm.compass === "w", spinner: layout.spinner });
      }
      return;
    }
    for (const arm of layout.arms) this.armRow(board, arm, ends, lastBySeat, {});
  }

  /** Classes marking the last tile each seat played, and the newest of all. */
  lastClass(tile, lastBySeat) {
    const hit = lastBySeat.seats.find((p) => sameTile(p.tile, tile));
    if (!hit) return "";
    const newest = lastBySeat.newest && sameTile(lastBySeat.newest.tile, tile);
    const classes = ["last", `by-seat-${hit.seat}`];
    if (newest) classes.push("newest");
    return ` ${classes.join(" ")}`;
  }

  armRow(board, arm, ends, lastBySeat, { reverse = false, spinner = null }) {
    const view = this.frame.view;
    const layout = view.layout;
    const compass = arm.compass || arm.id;
    const name = armName(arm);
    const row = el("div", {
      class: `arm${arm.id === "line" ? " line" : ""}${spinner ? ` spin-arm arm-${compass}` : ""}${arm.waiting ? " waiting" : ""}`,
      role: "group",
      "aria-label": interpolate(gettext("%(arm)s arm from %(tile)s"), { arm: name, tile: tileLabel(arm.start) }),
    });
    const hubClass = spinner ? " spinner" : arm.id !== "line" && sameTile(arm.start, layout.root) && view.variant !== "fives" ? " hub" : "";
    const head = el("div", { class: "arm-label" },
      // The spinner is drawn once, in the centre: its arms are labelled by name only.
      spinner ? null : tileEl(arm.start, { orient: "v", label: false, extraClass: `mini${hubClass}` }),
      el("span", {
        class: "arm-name",
        text: arm.id === "line" ? interpolate(gettext("from %(tile)s"), { tile: tileLabel(arm.start) }) : `${name} · ${tileLabel(arm.start)}`,
      }),
    );
    const box = el("div", { class: "arm-tiles", dataset: { arm: arm.id } });
    const tiles = arm.tiles.map((tile) => {
      const isDouble = tile[0] === tile[1];
      const classes = [];
      if (layout.spinner && sameTile(layout.spinner, tile) && isDouble) classes.push("spinner");
      if (arm.id === "line" && sameTile(tile, layout.root)) classes.push("root");
      return tileEl(tile, { orient: isDouble ? "v" : "h", extraClass: classes.join(" ") + this.lastClass(tile, lastBySeat) });
    });
    if (!tiles.length) {
      tiles.push(el("span", { class: "arm-empty", text: arm.waiting ? gettext("opens when both long sides are covered") : pgettext("arm of the layout", "empty") }));
    }
    const armEnds = arm.ends.map((id) => ends[id]).filter(Boolean);
    let items;
    if (arm.id === "line") {
      const left = armEnds.find((e) => e.id === "left");
      const right = armEnds.find((e) => e.id === "right");
      items = [left ? this.endButton(left, "left") : null, ...tiles, right ? this.endButton(right, "right") : null];
    } else {
      const end = armEnds[0];
      items = [...tiles, end ? this.endButton(end, reverse ? "left" : "right") : null];
    }
    row.append(head, box);
    board.append(row);
    snake(box, items.filter(Boolean), { reverse });
  }

  renderStatus() {
    const { view, seats, table } = this.frame;
    let text = "";
    if (table.status === "cancelled") text = gettext("This game was abandoned.");
    else if (!view && table.fair?.seeding) text = gettext("Shuffling: waiting for the players' seeds…");
    else if (!view) text = gettext("Waiting for players…");
    else if (view.phase === "match_over") text = gettext("The match is over.");
    else if (view.phase === "hand_over") {
      text = table.timer?.kind === "next_hand"
        ? gettext("The next hand starts shortly.")
        : gettext("Hand over — see the scoring above.");
    } else if (this.isMyTurn()) {
      const legal = this.legal();
      if (view.phase === "claim") {
        text = interpolate(gettext("Your ends add up to %(points)s: claim them before you go on."), {
          points: formatNumber(view.claim?.points),
        });
      } else if (view.phase === "close") text = gettext("You may close the doubles you just laid.");
      else if (this.selected) {
        text = interpolate(gettext("Choose an end for %(tile)s."), { tile: this.selected.replace("-", DASH) });
      } else if (legal.some((a) => a.type === "play")) text = gettext("Your turn: choose a tile.");
      else if (legal.some((a) => a.type === "draw")) text = gettext("No tile fits: draw.");
      else if (legal.some((a) => a.type === "pass")) text = gettext("No tile fits and nothing to draw: pass.");
      else text = gettext("Your turn.");
    } else if (view.to_move !== null && view.to_move !== undefined) {
      text = interpolate(gettext("%(name)s to move."), { name: seatName(seats, view.to_move, this.frame.you) });
    }
    const last = (view?.history || []).filter((h) => ["played", "drew", "passed", "claimed", "declined", "muggins", "closed"].includes(h.type)).slice(-3);
    const recent = last.map((h) => describeEvent(h, seats, this.frame.you)).filter(Boolean);
    // replaceChildren writes a null child as the text "null": pass only nodes.
    const parts = [el("span", { class: "now", text })];
    if (recent.length) parts.push(el("span", { class: "recent", text: recent.join(" · ") }));
    this.parts.status.replaceChildren(...parts);
  }

  renderResult() {
    const { view, seats, table } = this.frame;
    const box = this.parts.result;
    const match = this.parts.match;
    const ended = view && ["hand_over", "match_over"].includes(view.phase) && view.hand_result;
    box.hidden = !ended || this.showMatchResult;
    box.replaceChildren();
    if (ended && !this.showMatchResult) {
      box.append(handResultEl(view, seats, this.frame.you));
      // A practice player may read each hand's review at once; elsewhere the
      // review opens with the match's end (the match box's link).
      if (this.config.review && this.config.practice && this.frame.you !== null && this.frame.you !== undefined) {
        box.append(el("p", {}, el("a", { href: `${this.config.review}${view.hand_no}/`, dataset: { reviewHand: "" }, text: gettext("Review this hand") })));
      }
    }
    const showMatch = (view?.phase === "match_over" && this.showMatchResult) || table.status === "cancelled";
    match.hidden = !showMatch;
    if (showMatch) {
      const headline = match.querySelector("[data-headline]");
      const scores = match.querySelector("[data-scores]");
      const reviewLink = match.querySelector("[data-review]");
      if (reviewLink) reviewLink.hidden = table.status === "cancelled";
      if (table.status === "cancelled") {
        headline.textContent = gettext("This game was abandoned.");
        scores.textContent = "";
      } else {
        const winners = view.winners || [];
        const won = winners.includes(this.frame.you);
        headline.textContent = won
          ? gettext("You won the match!")
          : interpolate(ngettext("%(names)s won the match.", "%(names)s won the match.", winners.length), {
            names: formatList(winners.map((p) => seatName(seats, p, this.frame.you))),
          });
        scores.textContent = seats
          .map((s) => {
            const values = {
              name: seatName(seats, s.position, this.frame.you),
              score: formatNumber(view.scores[view.side_of[s.position]]),
              place: formatNumber(s.place),
            };
            return s.place
              ? interpolate(gettext("%(name)s: %(score)s (place %(place)s)"), values)
              : interpolate(gettext("%(name)s: %(score)s"), values);
          })
          .join(" · ");
        if (reviewLink && this.config.review) reviewLink.href = `${this.config.review}${view.hand_no}/`;
        unpaidNoteInto(match, this.frame);
        matchExtrasInto(match, this.frame);
        rematchInto(match, this.frame);
      }
    }
  }

  actionButton(label, action, { main = false, key } = {}) {
    return el("button", {
      type: "button",
      class: `button${main ? " main" : " secondary"}`,
      id: main ? "main-action" : null,
      dataset: { key: key || (main ? "main" : `act:${label}`) },
      onclick: () => (typeof action === "function" ? action() : this.act(action)),
      text: label,
    });
  }

  renderActions() {
    const { view, seats } = this.frame;
    const bar = this.parts.actions;
    bar.replaceChildren();
    const me = seats.find((s) => s.position === this.frame.you);
    if (me?.away) {
      bar.append(this.actionButton(gettext("I'm back"), () => this.send.back(), { key: "back" }));
    }
    if (!view || this.frame.you === null || this.frame.you === undefined) return;
    const legal = this.legal();
    const find = (type) => legal.find((a) => a.type === type);
    const extra = [];
    let main = null;
    if (view.phase === "match_over") {
      if (!this.showMatchResult) {
        main = [gettext("Finish"), () => {
          this.showMatchResult = true;
          this.render();
          this.parts.match.querySelector("button, a")?.focus();
        }];
      }
    } else if (find("next_hand")) main = [gettext("Next hand"), find("next_hand")];
    else if (find("muggins")) {
      const points = view.claim?.points;
      const label = points === null || points === undefined
        ? gettext("Muggins")
        : interpolate(gettext("Muggins %(points)s"), { points: formatNumber(points) });
      main = [label, find("muggins")];
    } else if (find("claim")) {
      main = [interpolate(gettext("Claim %(points)s"), { points: formatNumber(find("claim").points) }), find("claim")];
      if (find("continue")) extra.push([gettext("Don't claim"), find("continue")]);
    } else if (view.phase === "close") {
      if (find("continue")) main = [gettext("Continue"), find("continue")];
      for (const close of legal.filter((a) => a.type === "close")) {
        const names = close.ends.map((id) => {
          const arm = view.layout.arms.find((a) => a.ends.includes(id));
          const last = arm?.tiles?.[arm.tiles.length - 1] || arm?.start;
          return last ? tileLabel(last) : endName(id);
        });
        extra.push([interpolate(gettext("Close %(doubles)s"), { doubles: formatList(names) }), close]);
      }
    } else if (find("draw")) main = [pgettext("draw from the stock", "Draw"), find("draw")];
    else if (find("pass")) main = [gettext("Pass (knock)"), find("pass")];
    for (const multi of legal.filter((a) => a.type === "play_doubles")) {
      const plays = multi.plays.map((p) => interpolate(gettext("%(tile)s (%(end)s)"), { tile: tileLabel(p.tile), end: endName(p.end) }));
      extra.push([interpolate(gettext("Lay %(plays)s together"), { plays: plays.join(" + ") }), multi]);
    }
    if (main) bar.append(this.actionButton(main[0], main[1], { main: true }));
    else {
      const idle = this.isMyTurn()
        ? gettext("Play a tile")
        : view.phase === "match_over" ? gettext("Match over") : gettext("Waiting…");
      bar.append(el("button", { type: "button", class: "button main idle", id: "main-action", disabled: true, text: idle }));
    }
    for (const [label, action] of extra) bar.append(this.actionButton(label, action));
  }

  renderHand() {
    const { view } = this.frame;
    const box = this.parts.hand;
    box.replaceChildren();
    if (!view || !view.hand) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const hand = view.hand;
    const heading = el("h2", {
      class: "hand-title",
      text: interpolate(ngettext("Your hand · %(count)s tile", "Your hand · %(count)s tiles", hand.length), {
        count: formatNumber(hand.length),
      }),
    });
    const row = el("div", { class: "hand-tiles", role: "group", "aria-label": gettext("Your tiles") });
    const myTurnToPlay = this.legal().some((a) => a.type === "play");
    for (const tile of hand) {
      const key = tileKey(tile);
      const plays = this.playsFor(key);
      const playable = plays.length > 0;
      const best = plays.reduce((m, a) => Math.max(m, a.points ?? -1), -1);
      const button = el(
        "button",
        {
          type: "button",
          class: `tile-btn${playable ? " playable" : myTurnToPlay ? " dim" : ""}${this.selected === key ? " selected" : ""}`,
          "aria-label": tileLabel(tile),
          "aria-pressed": playable ? String(this.selected === key) : null,
          "aria-disabled": playable ? null : "true",
          draggable: playable ? "true" : null,
          dataset: { key: `tile:${key}`, tile: key },
          onclick: () => this.chooseTile(key, { fromKeyboard: false }),
          ondragstart: (event) => {
            this.selected = key;
            event.dataTransfer.setData("text/plain", key);
            event.dataTransfer.effectAllowed = "move";
            this.renderBoard();
          },
          ondragend: () => {
            if (this.selected === key) {
              // Dropped nowhere useful: keep it selected for a click.
              this.render();
            }
          },
        },
        tileEl(tile, { orient: "v", label: false }),
        best > 0 && playable ? el("span", { class: "points scores", "aria-hidden": "true", text: `+${formatNumber(best)}` }) : null,
      );
      row.append(button);
    }
    box.append(heading, row);
    // A hand's first tile has no end to drop on: the board takes it.
    const board = this.parts.board;
    board.ondragover = (event) => {
      if (this.selected && this.playsFor(this.selected).some((a) => a.end === "root")) event.preventDefault();
    };
    board.ondrop = (event) => {
      const play = this.selected && this.playsFor(this.selected).find((a) => a.end === "root");
      if (play) {
        event.preventDefault();
        this.act(play);
      }
    };
  }

  // --- keyboard: arrows move between tiles or between ends; Escape drops a choice

  onKey(event) {
    const target = event.target;
    if (!(target instanceof HTMLElement)) return;
    const arrows = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1 };
    if (event.key === "Escape" && this.selected) {
      const key = this.selected;
      this.selected = null;
      this.render();
      this.root.querySelector(`[data-key="tile:${key}"]`)?.focus();
      event.preventDefault();
      return;
    }
    if (target.classList.contains("tile-btn") && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      this.chooseTile(target.dataset.tile, { fromKeyboard: true });
      return;
    }
    if (!(event.key in arrows)) return;
    let group = null;
    if (target.classList.contains("tile-btn")) group = [...this.root.querySelectorAll(".hand .tile-btn")];
    else if (target.classList.contains("end")) group = [...this.root.querySelectorAll(".board .end:not([disabled]):not(.none):not(.closed)")];
    if (!group || group.length < 2) return;
    event.preventDefault();
    const i = group.indexOf(target);
    const next = group[(i + arrows[event.key] + group.length) % group.length];
    next.focus();
    next.scrollIntoView({ block: "nearest", inline: "nearest" });
  }
}
