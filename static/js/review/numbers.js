// A review's points as the page's language writes them, the way the server
// writes them on the review page (games/reviews/numbers.py): one decimal,
// rounded half away from zero, the minus sign (U+2212) for a negative number, no
// thousands separator.

import { formatNumber } from "../i18n.js";

const MINUS = "\u2212";
const ONE_DECIMAL = { minimumFractionDigits: 1, maximumFractionDigits: 1, useGrouping: false };

/** Points to one decimal: "40,2" in Italian, "−2.8" in English. */
export function formatPoints(value) {
  if (typeof value !== "number" || !Number.isFinite(value)) return String(value ?? "");
  const text = formatNumber(Math.abs(value), ONE_DECIMAL);
  return value < 0 && /[1-9]/.test(text) ? `${MINUS}${text}` : text;
}
