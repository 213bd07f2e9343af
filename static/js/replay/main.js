// The replay viewer: steps through an ended table's moves (buttons, ←/→, the move
// list, a hand picker) with the table page's own renderer, every hand face up, and
// checks each hand's deal against the fair deal's commitment in the browser.

import { formatNumber, gettext, interpolate, pgettext, seatDisplayName } from "../i18n.js";
import { TableUI } from "../table/ui.js";
import { tileEl, tileKey } from "../table/tiles.js";
import { verifyHand } from "../table/fair.js";
import { el } from "../dom.js";
import { formatPoints } from "../review/numbers.js";

const config = JSON.parse(document.getElementById("replay-config").textContent);
const parts = {
  app: document.getElementById("replay-app"),
  counter: document.getElementById("replay-counter"),
  handPick: document.getElementById("replay-hand"),
  faces: document.getElementById("replay-faces"),
  verify: document.getElementById("replay-verify"),
  review: document.getElementById("replay-review"),
  moves: document.getElementById("replay-moves"),
  status: document.getElementById("replay-loading"),
  buttons: {
    first: document.getElementById("replay-first"),
    prev: document.getElementById("replay-prev"),
    next: document.getElementById("replay-next"),
    last: document.getElementById("replay-last"),
    play: document.getElementById("replay-play"),
  },
};


const sameTiles = (a, b) =>
  a.length === b.length && a.map(tileKey).sort().join() === b.map(tileKey).sort().join();

class Replay {
  constructor(data) {
    this.data = data;
    this.at = 0;
    this.timer = null;
    this.checks = new Map(); // hand -> {state: "ok"|"bad"|"old"|"none", problems}
    this.reviews = new Map(); // hand -> the review's JSON (null while it loads)
    // No seat acts in a replay: the renderer's buttons have nothing to send.
    this.ui = new TableUI(document.getElementById("replay-table"), { ...config, stock_drawn: data.table.stock_drawn }, {
      act: () => {},
      back: () => {},
      leave: () => {},
    });
    this.ui.sounds = { click() {}, chime() {} };
  }

  frame(step) {
    // Until its last step the table was in play, with every seat at it.
    const last = step === this.data.steps[this.data.steps.length - 1];
    const status = last ? this.data.table.status : "playing";
    const table = { ...this.data.table, status, timer: null, fair: null };
    const seats = this.data.seats.map((seat) => ({ ...seat, connected: true, away: false }));
    return { type: "state", seq: step.seq, table, seats, you: null, view: step.view, events: [] };
  }

  go(index) {
    const steps = this.data.steps;
    if (!steps.length) return;
    this.at = Math.max(0, Math.min(steps.length - 1, index));
    const step = steps[this.at];
    this.ui.update(this.frame(step));
    this.renderCounter(step);
    this.renderFaces(step);
    this.renderVerify(step);
    this.renderReview(step);
    this.markMove();
    const url = new URL(window.location.href);
    url.hash = `step-${this.at}`;
    window.history.replaceState(null, "", url);
  }

  reviewUrl(hand, suffix) {
    const share = config.share ? `?share=${encodeURIComponent(config.share)}` : "";
    return `${config.review}${hand}${suffix}${share}`;
  }

  // The review of the step's hand, read once per hand (only read: opening the
  // review's page is what asks for one).
  async loadReview(hand) {
    if (this.reviews.has(hand)) return;
    this.reviews.set(hand, null);
    try {
      const response = await fetch(this.reviewUrl(hand, ".json"), { credentials: "same-origin" });
      this.reviews.set(hand, response.ok ? await response.json() : { status: "missing" });
    } catch {
      this.reviews.set(hand, { status: "missing" });
    }
    const step = this.data.steps[this.at];
    if (step && step.hand === hand) this.renderReview(step);
  }

  renderReview(step) {
    if (!parts.review || !config.review || !step.hand) return;
    const review = this.reviews.get(step.hand);
    if (review === undefined) {
      this.loadReview(step.hand);
      return;
    }
    const link = el("a", { href: this.reviewUrl(step.hand, "/"), text: gettext("Open this hand's review") });
    if (!review || review.status === "missing") {
      parts.review.replaceChildren();
      return;
    }
    if (review.status !== "done" || !review.moves) {
      parts.review.replaceChildren(el("p", { text: gettext("No review of this hand yet.") }), el("p", {}, link));
      return;
    }
    const move = review.moves.find((m) => m.seq === step.seq);
    const lines = [];
    if (!move) lines.push(el("p", { text: gettext("No decision to judge at this move.") }));
    else {
      const head = el("p", {}, interpolate(gettext("Chose to %(move)s"), { move: move.chosen }));
      if (move.label) head.append(" ", el("span", { class: `label label-${move.label}`, text: move.label_text }));
      lines.push(head);
      // Only a judged decision has a verdict (a best option): the server says which.
      if (move.match_point && !move.chance) {
        // A review of the older format (version 2): match points valued in points, no verdict.
        lines.push(el("p", { class: "muted", text: pgettext("a move that can decide the match", "Match point: valued, not judged.") }));
      } else {
        if (move.match_point) {
          lines.push(el("p", { class: "muted", text: pgettext("a move that can decide the match", "Match point: valued by the chance of winning the match.") }));
        }
        lines.push(this.verdictLine(move));
      }
    }
    lines.push(el("p", {}, link));
    parts.review.replaceChildren(...lines);
  }

  /** What the review says of a decision it valued: unsettled, best, or better. */
  verdictLine(move) {
    if (!move.settled) return el("p", { class: "muted", text: gettext("Not settled: the search ran out of its budget.") });
    if (move.best_is_chosen) return el("p", { text: gettext("The best option, by what this player could see.") });
    if (move.chance) {
      return el("p", {
        text: interpolate(gettext("Better: %(move)s (%(chance)s more chance of winning the match)"), {
          move: move.best,
          chance: move.loss_text,
        }),
      });
    }
    return el("p", {
      text: interpolate(gettext("Better: %(move)s (expected %(loss)s points more)"), {
        move: move.best,
        loss: formatPoints(move.loss),
      }),
    });
  }

  renderCounter(step) {
    const total = this.data.steps.length - 1;
    parts.counter.textContent = interpolate(gettext("Move %(at)s of %(total)s"), {
      at: formatNumber(this.at),
      total: formatNumber(total),
    });
    parts.handPick.value = String(step.hand);
    parts.buttons.first.disabled = parts.buttons.prev.disabled = this.at === 0;
    parts.buttons.last.disabled = parts.buttons.next.disabled = this.at === total;
  }

  renderFaces(step) {
    const rows = this.data.seats.map((seat) =>
      el(
        "li",
        { dataset: { seat: String(seat.position) } },
        el("span", { class: "face-name", text: seatDisplayName(seat) }),
        el(
          "span",
          { class: "face-tiles" },
          ...(step.hands[seat.position] || []).map((t) => tileEl(t, { orient: "v" })),
        ),
      ),
    );
    if (this.data.table.stock_drawn && step.stock.length) {
      rows.push(
        el(
          "li",
          { class: "face-stock" },
          el("span", { class: "face-name", text: gettext("Stock, next draw first") }),
          el("span", { class: "face-tiles" }, ...step.stock.map((t) => tileEl(t, { orient: "v" }))),
        ),
      );
    }
    parts.faces.replaceChildren(...rows);
  }

  async checkAll() {
    const fair = this.data.fair;
    for (const entry of this.data.hands) {
      const hand = entry.hand;
      if (!fair.version) {
        this.checks.set(hand, { state: "old", problems: [] });
        continue;
      }
      const proof = (fair.hands || []).find((h) => h.hand === hand);
      if (!proof || !proof.server_seed) {
        this.checks.set(hand, { state: "none", problems: [] });
        continue;
      }
      const problems = await verifyHand(fair, proof);
      // The replay must show the deal that was proved: its first step's hands.
      const dealt = this.data.steps[entry.step].hands;
      if (!problems.length && !proof.dealt.every((tiles, seat) => sameTiles(tiles, dealt[seat] || []))) {
        problems.push(gettext("The hands shown here differ from the deal in the proof."));
      }
      this.checks.set(hand, { state: problems.length ? "bad" : "ok", problems });
    }
    this.renderVerify(this.data.steps[this.at]);
  }

  renderVerify(step) {
    if (!step) return;
    const check = this.checks.get(step.hand);
    const name = interpolate(pgettext("a deal of the match", "Hand %(number)s"), { number: formatNumber(step.hand) });
    let line;
    if (!check) line = el("p", { text: gettext("Checking the deal…") });
    else if (check.state === "old") line = el("p", { class: "fair-old", text: gettext("This table was dealt before fair deals.") });
    else if (check.state === "none") line = el("p", { text: `${name}: ${gettext("no proof was published for this deal.")}` });
    else if (check.state === "ok") line = el("p", { class: "fair-ok", text: `${name}: ${gettext("this deal matches the commitment.")}` });
    else {
      line = el(
        "div",
        {},
        el("p", { class: "fair-bad", text: `${name}: ${gettext("this deal does NOT match the commitment.")}` }),
        el("ul", {}, ...check.problems.map((p) => el("li", { text: p }))),
      );
    }
    parts.verify.replaceChildren(line);
    parts.verify.dataset.state = check ? check.state : "checking";
  }

  renderMoves() {
    const groups = this.data.hands.map((entry, i) => {
      const end = i + 1 < this.data.hands.length ? this.data.hands[i + 1].step : this.data.steps.length;
      const items = [];
      for (let index = entry.step; index < end; index += 1) {
        const step = this.data.steps[index];
        const who = step.who ? `${step.who} ` : "";
        const clock = step.actor === "clock" ? ` (${gettext("clock ran out")})` : "";
        items.push(
          el(
            "li",
            { dataset: { step: String(index) } },
            el("button", { type: "button", class: "link", text: `${who}${step.text}${clock}`, onclick: () => this.go(index) }),
          ),
        );
      }
      const title = interpolate(pgettext("a deal of the match", "Hand %(number)s"), { number: formatNumber(entry.hand) });
      return el("li", {}, el("h3", { text: title }), el("ol", { class: "moves" }, ...items));
    });
    parts.moves.replaceChildren(...groups);
    parts.handPick.replaceChildren(
      ...this.data.hands.map((entry) =>
        el("option", { value: String(entry.hand), text: interpolate(pgettext("a deal of the match", "Hand %(number)s"), { number: formatNumber(entry.hand) }) }),
      ),
    );
  }

  markMove() {
    for (const item of parts.moves.querySelectorAll("[aria-current]")) item.removeAttribute("aria-current");
    const now = parts.moves.querySelector(`[data-step="${this.at}"]`);
    if (now) {
      now.setAttribute("aria-current", "step");
      now.scrollIntoView({ block: "nearest" });
    }
  }

  toggle() {
    if (this.timer) {
      window.clearInterval(this.timer);
      this.timer = null;
    } else {
      if (this.at === this.data.steps.length - 1) this.go(0);
      this.timer = window.setInterval(() => {
        if (this.at >= this.data.steps.length - 1) this.toggle();
        else this.go(this.at + 1);
      }, 900);
    }
    parts.buttons.play.textContent = this.timer ? pgettext("replay", "Pause") : pgettext("replay", "Play");
    parts.buttons.play.setAttribute("aria-pressed", String(!!this.timer));
  }

  wire() {
    const b = parts.buttons;
    b.first.addEventListener("click", () => this.go(0));
    b.prev.addEventListener("click", () => this.go(this.at - 1));
    b.next.addEventListener("click", () => this.go(this.at + 1));
    b.last.addEventListener("click", () => this.go(this.data.steps.length - 1));
    b.play.addEventListener("click", () => this.toggle());
    parts.handPick.addEventListener("change", () => {
      const entry = this.data.hands.find((h) => String(h.hand) === parts.handPick.value);
      if (entry) this.go(entry.step);
    });
    document.addEventListener("keydown", (event) => {
      const target = event.target;
      if (target instanceof HTMLElement && target.closest("input, select, textarea")) return;
      if (event.key === "ArrowLeft") this.go(this.at - 1);
      else if (event.key === "ArrowRight") this.go(this.at + 1);
      else if (event.key === "Home") this.go(0);
      else if (event.key === "End") this.go(this.data.steps.length - 1);
      else return;
      event.preventDefault();
    });
  }
}

async function start() {
  let data;
  try {
    const response = await fetch(config.data, { credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    data = await response.json();
  } catch {
    parts.status.textContent = gettext("The replay could not be loaded. Reload the page to try again.");
    parts.app.hidden = true;
    return;
  }
  const replay = new Replay(data);
  if (!data.steps.length) {
    parts.status.textContent = gettext("This game ended before the first deal: there is nothing to replay.");
    parts.app.hidden = true;
    return;
  }
  parts.status.hidden = true;
  parts.app.removeAttribute("data-loading");
  replay.renderMoves();
  replay.wire();
  // #step-<index> (the viewer's own links) or #seq-<log entry> (the review's).
  const wanted = /^#step-(\d+)$/.exec(window.location.hash);
  const bySeq = /^#seq-(\d+)$/.exec(window.location.hash);
  const atSeq = bySeq ? data.steps.findIndex((s) => s.seq === Number(bySeq[1])) : -1;
  replay.go(wanted ? Number(wanted[1]) : Math.max(0, atSeq));
  window.dominoReplay = replay; // for the browser tests
  await replay.checkAll();
}

// The share link: copied on a click (the text stays selected if the clipboard refuses).
const copy = document.getElementById("replay-copy");
if (copy) {
  copy.addEventListener("click", async () => {
    const input = document.getElementById("replay-link");
    input.select();
    try {
      await navigator.clipboard.writeText(input.value);
      copy.textContent = copy.dataset.done;
    } catch {
      // Selected: the player copies it by hand.
    }
  });
}

start();
