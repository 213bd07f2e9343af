// Tiles drawn with CSS: blanks empty, 1-6 as pips, 7-12 as digits.

// Cells of a 3×3 grid (1 = top left … 9 = bottom right) holding each count's pips.
const PIPS = {
  1: [5],
  2: [3, 7],
  3: [3, 5, 7],
  4: [1, 3, 7, 9],
  5: [1, 3, 5, 7, 9],
  6: [1, 3, 4, 6, 7, 9],
};
// On a tile lying across, the six runs along the tile.
const PIPS_ACROSS = { ...PIPS, 6: [1, 2, 3, 7, 8, 9] };

export const DASH = "\u2013";

export function tileLabel(tile) {
  return `${tile[0]}${DASH}${tile[1]}`;
}

export function tileKey(tile) {
  const [a, b] = tile[0] <= tile[1] ? tile : [tile[1], tile[0]];
  return `${a}-${b}`;
}

export function sameTile(x, y) {
  return tileKey(x) === tileKey(y);
}

function half(value, across) {
  const el = document.createElement("span");
  el.className = "half";
  if (value > 6) {
    el.classList.add("digit");
    el.textContent = String(value);
  } else if (value > 0) {
    for (const cell of (across ? PIPS_ACROSS : PIPS)[value]) {
      const pip = document.createElement("i");
      pip.className = `pip c${cell}`;
      el.append(pip);
    }
  }
  return el;
}

/**
 * A tile element. ``orient`` is "h" (halves side by side) or "v" (stacked).
 * The text label ("6–4") is for screen readers; the drawing is hidden from them.
 */
export function tileEl(tile, { orient = "h", label = true, extraClass = "" } = {}) {
  const el = document.createElement("span");
  el.className = `tile ${orient}${tile[0] === tile[1] ? " double" : ""} ${extraClass}`.trim();
  el.dataset.tile = tileKey(tile);
  const across = orient === "h";
  const a = half(tile[0], across);
  const b = half(tile[1], across);
  a.setAttribute("aria-hidden", "true");
  b.setAttribute("aria-hidden", "true");
  el.append(a, b);
  if (label) {
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", tileLabel(tile));
  } else {
    el.setAttribute("aria-hidden", "true");
  }
  return el;
}
