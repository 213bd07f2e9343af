// Rewrites every <time class="local-time"> of the page in the reader's own time
// zone and language; the server's UTC text stays as its title.
import { formatDateTime } from "../../i18n.js";

const FORMATS = {
  short: { weekday: "short", day: "numeric", month: "short", hour: "numeric", minute: "2-digit" },
  time: { hour: "numeric", minute: "2-digit" },
};

export function localise(time) {
  const moment = new Date(time.dateTime);
  if (Number.isNaN(moment.getTime())) return;
  if (!time.title) time.title = time.textContent;
  time.textContent = formatDateTime(moment, FORMATS[time.dataset.style] || FORMATS.short);
}

for (const time of document.querySelectorAll("time.local-time")) localise(time);
