// The fair deal on the table page (RULES.md §1.1, docs/fairness.md): the badge with
// the commitment and the client seeds, this player's seed (sent before the first
// deal), and the Verify button that recomputes every revealed deal in the browser
// with WebCrypto from fair.json alone.

import { formatNumber, gettext, interpolate, pgettext } from "../i18n.js";
import { DASH } from "./tiles.js";
import { el } from "../dom.js";

const CHAIN_LENGTH = 256;
const WORD = 2 ** 32;
const SEED_KEY = "dominoes.fairSeed";
const encoder = new TextEncoder();

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function unhex(text) {
  if (typeof text !== "string" || !/^([0-9a-f]{2})+$/i.test(text)) throw new TypeError();
  const out = new Uint8Array(text.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(text.slice(2 * i, 2 * i + 2), 16);
  return out;
}

async function sha256(bytes) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

/** A random client seed: 16 random bytes as 32 hex digits. */
export function randomSeed() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return hex(bytes);
}

/** 1 to 64 printable ASCII characters, as the server requires. */
export function seedValid(seed) {
  return typeof seed === "string" && /^[\x20-\x7e]{1,64}$/.test(seed);
}

/** The 4-byte words of HMAC-SHA-256(key, "<prefix>|0") ‖ HMAC(key, "<prefix>|1") ‖ … */
function words(cryptoKey, prefix) {
  let block = null;
  let at = 8;
  let i = 0;
  return async () => {
    if (at === 8) {
      const mac = await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(`${prefix}|${i}`));
      block = new DataView(mac);
      i += 1;
      at = 0;
    }
    const word = block.getUint32(4 * at, false);
    at += 1;
    return word;
  };
}

/**
 * The deal of one hand by RULES.md §1.1: {hands: [[[a, b], …] per seat], stock}.
 * @param {{serverSeed: string, table: number, hand: number, redeal: number,
 *          seeds: string[], setMax: number, seats: number, perSeat: number}} deal
 */
export async function dealOf(deal) {
  const key = await crypto.subtle.importKey(
    "raw",
    unhex(deal.serverSeed),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const prefix = ["v1", String(deal.table), String(deal.hand), String(deal.redeal), ...deal.seeds].join("|");
  const next = words(key, prefix);
  const tiles = [];
  for (let a = 0; a <= deal.setMax; a += 1) for (let b = a; b <= deal.setMax; b += 1) tiles.push([a, b]);
  for (let i = tiles.length - 1; i > 0; i -= 1) {
    const m = i + 1;
    const limit = WORD - (WORD % m);
    let u = await next();
    while (u >= limit) u = await next();
    const j = u % m;
    [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
  }
  const hands = [];
  for (let s = 0; s < deal.seats; s += 1) hands.push(tiles.slice(s * deal.perSeat, (s + 1) * deal.perSeat));
  return { hands, stock: tiles.slice(deal.seats * deal.perSeat) };
}

function tileText(tile) {
  return Array.isArray(tile) ? `${tile[0]}${DASH}${tile[1]}` : String(tile);
}

function tilesText(tiles) {
  return (tiles || []).map(tileText).join(" ");
}

function sameTiles(a, b) {
  return JSON.stringify((a || []).map((t) => [...t])) === JSON.stringify((b || []).map((t) => [...t]));
}

/**
 * Check one revealed hand of fair.json: its server seed hashes back to its chain's
 * commitment, and the recomputed deal is the published one. Returns the problems
 * found, as sentences for the player (empty when the deal matches).
 */
export async function verifyHand(data, entry) {
  const problems = [];
  const hand = Number(entry.hand);
  const chain = Math.floor((hand - 1) / CHAIN_LENGTH);
  const position = ((hand - 1) % CHAIN_LENGTH) + 1;
  const commitments = data.commitments && data.commitments.length ? data.commitments : [data.commitment];
  let link;
  try {
    link = unhex(entry.server_seed);
  } catch {
    return [gettext("The server seed is not a hexadecimal number.")];
  }
  for (let k = 0; k < position; k += 1) link = await sha256(link);
  if (hex(link) !== commitments[chain]) {
    problems.push(gettext("The server seed does not hash back to the commitment."));
  }
  const setMax = data.set_max;
  const seats = data.seats;
  const perSeat = data.tiles_per_seat;
  const deal = await dealOf({
    serverSeed: entry.server_seed,
    table: data.table,
    hand,
    redeal: Number(entry.redeal),
    seeds: data.client_seeds.map((s) => s ?? ""),
    setMax,
    seats,
    perSeat,
  });
  for (let s = 0; s < seats; s += 1) {
    const shown = (entry.dealt || [])[s];
    if (!sameTiles(shown, deal.hands[s])) {
      problems.push(
        interpolate(gettext("Seat %(seat)s was shown %(shown)s, but the commitment deals %(dealt)s."), {
          seat: formatNumber(s + 1),
          shown: tilesText(shown),
          dealt: tilesText(deal.hands[s]),
        }),
      );
    }
  }
  if (!sameTiles(entry.stock, deal.stock)) {
    problems.push(
      interpolate(gettext("The stock was shown as %(shown)s, but the commitment deals %(dealt)s."), {
        shown: tilesText(entry.stock),
        dealt: tilesText(deal.stock),
      }),
    );
  }
  return problems;
}

/** Every revealed hand of fair.json: [{hand, redeal, problems}]. */
export async function verifyAll(data) {
  const out = [];
  for (const entry of data.hands || []) {
    if (!entry.server_seed) continue;
    out.push({ hand: entry.hand, redeal: entry.redeal, problems: await verifyHand(data, entry) });
  }
  return out;
}


function storedSeed() {
  try {
    const seed = window.localStorage.getItem(SEED_KEY);
    return seedValid(seed) ? seed : null;
  } catch {
    return null;
  }
}

function storeSeed(seed) {
  try {
    window.localStorage.setItem(SEED_KEY, seed);
  } catch {
    // Private browsing: the seed is used for this table only.
  }
}

/** The "Fair deal" badge: commitment, seeds, this player's seed, Verify. */
export class FairPanel {
  /**
   * @param {HTMLElement} root the badge's <section>
   * @param {object} config the table page's config (fair: the fair.json URL)
   * @param {(frame: object) => boolean} send sends a frame on the table socket
   */
  constructor(root, config, send) {
    this.root = root;
    this.config = config;
    this.send = send;
    this.frame = null;
    this.sentFor = null; // the table whose seed this page has sent
    this.seed = storedSeed() || randomSeed();
    this.result = null; // the last verification, shown until the next hand ends
    this.resultHand = null;
    this.busy = false;
  }

  update(frame) {
    this.frame = frame;
    const fair = frame.table.fair;
    const you = frame.you;
    if (
      fair &&
      fair.seeding &&
      you !== null &&
      you !== undefined &&
      fair.seeds[you] === null &&
      this.sentFor !== frame.table.id
    ) {
      // Before the first deal: send this page's seed at once.
      this.sentFor = frame.table.id;
      this.send({ type: "seed", seed: this.seed });
    }
    this.render();
  }

  canVerify() {
    const { view, table } = this.frame;
    if (!table.fair) return false;
    if (["finished", "cancelled"].includes(table.status)) return true;
    return !!view && (view.hand_no > 1 || ["hand_over", "match_over"].includes(view.phase));
  }

  useSeed(seed) {
    if (!seedValid(seed)) {
      this.result = { error: gettext("A seed is 1 to 64 printable ASCII characters (no accents).") };
      this.render();
      return;
    }
    this.seed = seed;
    storeSeed(seed);
    const fair = this.frame?.table.fair;
    if (fair && fair.seeding) this.send({ type: "seed", seed });
    this.result = null;
    this.render();
  }

  async verify() {
    this.busy = true;
    this.render();
    try {
      const response = await fetch(this.config.fair, { credentials: "same-origin" });
      if (!response.ok) throw new Error(String(response.status));
      const data = await response.json();
      const hands = await verifyAll(data);
      this.result = { hands };
    } catch {
      this.result = { error: gettext("The deals could not be fetched. Try again.") };
    } finally {
      this.busy = false;
      this.resultHand = this.frame?.view?.hand_no ?? null;
      this.render();
    }
  }

  render() {
    if (!this.frame) return;
    const fair = this.frame.table.fair;
    const seats = this.frame.seats;
    const you = this.frame.you;
    this.root.hidden = false;
    const body = [];
    if (!fair) {
      body.push(el("p", { class: "fair-old", text: gettext("This table was dealt before fair deals.") }));
      this.root.replaceChildren(el("details", {}, el("summary", { text: gettext("Fair deal") }), ...body));
      this.root.dataset.state = "old";
      return;
    }
    const commitments = fair.commitments.map((c, i) =>
      el("code", { class: "fair-hash", title: c, text: c, "data-chain": String(i + 1) }),
    );
    body.push(el("p", {}, gettext("Commitment:"), " ", ...commitments));
    const seedRows = seats.map((seat) => {
      const seed = fair.seeds[seat.position];
      const text =
        seed === null ? (fair.seeding ? gettext("waiting…") : gettext("none")) : seed === "" ? gettext("none") : seed;
      return el("li", {}, `${seat.name}: `, el("code", { text }));
    });
    body.push(el("p", { text: gettext("Client seeds:") }), el("ul", { class: "fair-seeds" }, ...seedRows));
    if (fair.seeding && you !== null && you !== undefined) {
      const input = el("input", {
        type: "text",
        id: "fair-seed",
        maxlength: "64",
        value: this.seed,
        "aria-label": gettext("Your seed"),
      });
      body.push(
        el(
          "p",
          { class: "fair-own" },
          el("label", { for: "fair-seed", text: gettext("Your seed") }),
          " ",
          input,
          " ",
          el("button", { type: "button", class: "button ghost", text: gettext("Use this seed"), onclick: () => this.useSeed(input.value) }),
          " ",
          el("button", {
            type: "button",
            class: "link",
            text: gettext("New random seed"),
            onclick: () => {
              input.value = randomSeed();
            },
          }),
        ),
      );
    }
    if (this.canVerify()) {
      body.push(
        el("p", {}, el("button", {
          type: "button",
          id: "fair-verify",
          class: "button",
          disabled: this.busy,
          text: this.busy ? gettext("Verifying…") : gettext("Verify"),
          onclick: () => this.verify(),
        })),
      );
    }
    if (this.result) body.push(this.resultEl());
    const summary = el("summary", {}, gettext("Fair deal"), " ", el("code", { text: fair.commitments[0].slice(0, 8) }));
    const open = this.root.querySelector("details")?.open ?? false;
    const typing = document.activeElement?.id === "fair-seed" ? document.activeElement.value : null;
    const details = el("details", { open: open || !!this.result }, summary, ...body);
    this.root.replaceChildren(details);
    const again = this.root.querySelector("#fair-seed");
    if (typing !== null && again) {
      again.value = typing;
      again.focus();
    }
    this.root.dataset.state = fair.seeding ? "seeding" : "dealt";
  }

  resultEl() {
    const box = el("div", { id: "fair-result", class: "fair-result", role: "status" });
    if (this.result.error) {
      box.append(el("p", { class: "error", text: this.result.error }));
      return box;
    }
    if (!this.result.hands.length) {
      box.append(el("p", { text: gettext("No hand has ended yet.") }));
      return box;
    }
    for (const { hand, problems } of this.result.hands) {
      const name = interpolate(pgettext("a deal of the match", "Hand %(number)s"), { number: formatNumber(hand) });
      if (!problems.length) {
        box.append(el("p", { class: "fair-ok", text: `${name}: ${gettext("this deal matches the commitment.")}` }));
      } else {
        box.append(
          el("p", { class: "fair-bad", text: `${name}: ${gettext("this deal does NOT match the commitment.")}` }),
          el("ul", {}, ...problems.map((p) => el("li", { text: p }))),
        );
      }
    }
    return box;
  }
}
