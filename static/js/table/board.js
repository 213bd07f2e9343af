// The board: one labelled row per arm, long arms snaking onto more rows, and the
// Fives spinner drawn once in the centre with its four arms around it.

import { sameTile, tileKey } from "./tiles.js";

const GAP = 3; // px between the items of a row, as in table.css (.snake-row)

/**
 * The Fives layout once its spinner is down, as four arms read outward from it:
 * west and east are the two long sides (the line on either side of the spinner),
 * north and south its short sides (open once both long sides are covered).
 * ``null`` when there is no spinner yet (the board is then a plain line).
 */
export function spinnerArms(layout) {
  const spinner = layout.spinner;
  const line = layout.arms.find((a) => a.id === "line");
  if (!spinner || !line) return null;
  const at = line.tiles.findIndex((t) => t[0] === t[1] && sameTile(t, spinner));
  if (at < 0) return null;
  const key = tileKey(spinner);
  const short = (side, compass) => {
    const arm = layout.arms.find((a) => a.id === `${key}:${side}`);
    return arm
      ? { ...arm, compass }
      : { id: `${key}:${side}`, compass, start: spinner, tiles: [], ends: [], waiting: true };
  };
  return [
    {
      id: "spin-w",
      compass: "w",
      start: spinner,
      // Outward from the spinner: the line's left part, each tile turned round.
      tiles: line.tiles.slice(0, at).reverse().map((t) => [t[1], t[0]]),
      ends: ["left"],
    },
    { id: "spin-e", compass: "e", start: spinner, tiles: line.tiles.slice(at + 1), ends: ["right"] },
    short("l", "n"),
    short("r", "s"),
  ];
}

function turn(tile) {
  // A tile lying across shows its halves the other way round in a reversed row.
  if (tile.classList.contains("tile") && tile.classList.contains("h") && tile.children.length === 2) {
    tile.append(tile.firstElementChild);
  }
}

/**
 * Lay ``items`` (end button, tiles…, end button, in reading order) in ``box`` as a
 * snake: as many as fit on a row, the next row running back the other way, so each
 * end button stays beside the tile at its end. ``reverse``: the first row runs
 * right to left (an arm growing leftwards from the centre).
 */
export function snake(box, items, { reverse = false } = {}) {
  const first = document.createElement("div");
  first.className = `snake-row${reverse ? " rev" : ""}`;
  first.append(...items);
  box.replaceChildren(first);
  const style = getComputedStyle(first);
  const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
  let width = first.clientWidth - padding;
  if (width <= 0) return 1;
  // Items do not shrink in a row (table.css), so these are the widths they keep.
  const widths = items.map((node) => node.getBoundingClientRect().width);
  // Fonts and rounding can leave a row a few pixels wider than the sum: the rows
  // are laid again a little narrower until none overflows.
  for (let attempt = 0; ; attempt += 1) {
    const rows = rowsOf(items, widths, width);
    if (rows.length < 2 && !reverse) {
      if (first.scrollWidth <= first.clientWidth + 1 || attempt > 2) return 1;
      width -= first.scrollWidth - first.clientWidth;
      continue;
    }
    const divs = rows.map((nodes, r) => {
      const back = (r % 2 === 1) !== reverse;
      const div = document.createElement("div");
      div.className = `snake-row${back ? " rev" : ""}`;
      div.append(...nodes);
      return div;
    });
    box.replaceChildren(...divs);
    const over = Math.max(...divs.map((d) => d.scrollWidth - d.clientWidth));
    if (over <= 1 || attempt > 2) {
      rows.forEach((nodes, r) => {
        if ((r % 2 === 1) !== reverse) nodes.forEach(turn);
      });
      return rows.length;
    }
    width -= over;
  }
}

/** Items into rows of at most ``width`` px, an end button never alone on the last. */
function rowsOf(items, widths, width) {
  const rows = [];
  let row = [];
  let used = 0;
  items.forEach((node, i) => {
    const need = widths[i] + (row.length ? GAP : 0);
    if (row.length && used + need > width) {
      rows.push(row);
      row = [];
      used = 0;
    }
    row.push(node);
    used += widths[i] + (row.length > 1 ? GAP : 0);
  });
  if (row.length) rows.push(row);
  // An end button alone on the last row would point away from the tile it extends:
  // the tile goes down with it.
  const last = rows[rows.length - 1];
  if (rows.length > 1 && last.length === 1 && last[0].classList.contains("end")) {
    const before = rows[rows.length - 2];
    if (before.length > 1) last.unshift(before.pop());
  }
  return rows;
}
