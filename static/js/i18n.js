// The page's words and numbers in the page's language.
//
// Thin wrappers over Django's JavaScript catalog, which base.html loads before any
// module. Call sites pass string literals to functions named gettext, ngettext and
// pgettext, which `manage.py makemessages -d djangojs` (xgettext) extracts; a
// variable passed instead would never reach the catalog. Without the catalog the
// English text is shown.

function catalog() {
  return typeof window.gettext === "function" ? window : null;
}

export function gettext(msgid) {
  const c = catalog();
  return c ? c.gettext(msgid) : msgid;
}

/** The form for ``count`` (Polish has three: 1 kamień, 2 kamienie, 5 kamieni). */
export function ngettext(singular, plural, count) {
  const c = catalog();
  if (c) return c.ngettext(singular, plural, count);
  return count === 1 ? singular : plural;
}

/** A text whose translation depends on where it is used ("left" end, "left" side…). */
export function pgettext(context, msgid) {
  const c = catalog();
  return c && typeof c.pgettext === "function" ? c.pgettext(context, msgid) : msgid;
}

/** Fill the named ``%(name)s`` placeholders of a translated text. */
export function interpolate(format, values) {
  return format.replace(/%\((\w+)\)s/g, (_, key) => String(values[key] ?? ""));
}

/** The page's language, as Django rendered it on <html lang>. */
export function pageLanguage() {
  return document.documentElement.lang || "en";
}

const formats = new Map();

function cached(kind, options, make) {
  const key = `${kind}|${pageLanguage()}|${JSON.stringify(options)}`;
  if (!formats.has(key)) {
    try {
      formats.set(key, make(pageLanguage(), options));
    } catch {
      // A language tag the browser does not know: its default locale then.
      formats.set(key, make(undefined, options));
    }
  }
  return formats.get(key);
}

/** A number as the page's language writes it (1,000 · 1.000 · 1 000). */
export function formatNumber(value, options = {}) {
  if (typeof value !== "number" || !Number.isFinite(value)) return String(value ?? "");
  return cached("number", options, (lang, o) => new Intl.NumberFormat(lang, o)).format(value);
}

/** A duration in whole seconds, short ("12 s", "12 sek."). */
export function formatSeconds(seconds) {
  return formatNumber(seconds, { style: "unit", unit: "second", unitDisplay: "short" });
}

/** A time of day (hours and minutes) as the page's language writes it. */
export function formatTime(date) {
  return cached("time", {}, (lang) => new Intl.DateTimeFormat(lang, { hour: "numeric", minute: "2-digit" }))
    .format(date);
}

/** A date and time in the reader's own time zone, as the page's language writes it. */
export function formatDateTime(date, options) {
  return cached("datetime", options, (lang, o) => new Intl.DateTimeFormat(lang, o)).format(date);
}

/** Names joined as the page's language lists them ("Ana and Ben", "Ana y Ben"). */
export function formatList(items) {
  return cached("list", {}, (lang) => new Intl.ListFormat(lang, { type: "conjunction" })).format(items);
}

/** A computer player's level in the page's language. */
export function computerLevel(level) {
  if (level === "easy") return pgettext("computer level", "easy");
  if (level === "medium") return pgettext("computer level", "medium");
  if (level === "hard") return pgettext("computer level", "hard");
  return level;
}

/**
 * A seat's name in the page's language. One frame goes to every connection of a
 * table, built in the language of whoever caused it, so a computer seat is named
 * here from its parts (docs/protocol.md): "Computer 2 · easy", "Vera42 · computer".
 */
export function seatDisplayName(seat) {
  if (seat.program && seat.alias) return interpolate(gettext("%(name)s · BOT"), { name: seat.alias });
  if (seat.alias) return interpolate(gettext("%(alias)s · computer"), { alias: seat.alias });
  if (seat.bot) {
    return interpolate(gettext("Computer %(number)s · %(level)s"), {
      number: formatNumber(seat.position + 1),
      level: computerLevel(seat.bot),
    });
  }
  return seat.name;
}

let variantTitles = null;

/** A variant's name in the page's language, from the page's ``variant-titles`` data
 * (base.html, signed-in pages): frames carry the variant's id. */
export function variantTitle(id) {
  if (variantTitles === null) {
    variantTitles = JSON.parse(document.getElementById("variant-titles")?.textContent || "{}");
  }
  return variantTitles[id] || id;
}
