// The review page: while the review waits or runs, polls its JSON every 1.5 s and
// shows the progress; when it is done, loads the page again to show it.

import { formatNumber, gettext, interpolate } from "../i18n.js";

const config = JSON.parse(document.getElementById("review-config").textContent);
const bar = document.getElementById("review-bar");
const status = document.getElementById("review-status");
const POLL_MS = 1500;

async function poll() {
  let body;
  try {
    const response = await fetch(config.poll, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) throw new Error(String(response.status));
    body = await response.json();
  } catch {
    status.textContent = gettext("The review's progress could not be read; trying again…");
    window.setTimeout(poll, POLL_MS * 2);
    return;
  }
  if (body.status === "done" || body.status === "failed") {
    window.location.reload();
    return;
  }
  bar.value = body.progress;
  status.textContent =
    body.status === "queued"
      ? gettext("Waiting for the worker…")
      : interpolate(gettext("%(p)s % done"), { p: formatNumber(body.progress) });
  window.setTimeout(poll, POLL_MS);
}

if (config.waiting && bar) window.setTimeout(poll, POLL_MS);
