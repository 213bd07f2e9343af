// A sit-and-go's page: polls its state and reloads when something a player acts
// on changed (seats taken, the start, a new table, the result).
const page = document.getElementById("sitgo-page");
const POLL_MS = 3000;

async function poll() {
  try {
    const reply = await fetch(page.dataset.stateUrl, {
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    if (reply.ok) {
      const now = await reply.json();
      const seen = [page.dataset.state, page.dataset.taken, page.dataset.table];
      const fresh = [now.state, String(now.taken), String(now.current_table ?? "")];
      if (seen.some((value, i) => value !== fresh[i])) {
        window.location.reload();
        return;
      }
    }
  } catch {
    // Offline for a moment: the next poll tries again.
  }
  if (page.dataset.state === "open" || page.dataset.state === "running") {
    window.setTimeout(poll, POLL_MS);
  }
}

if (page) {
  window.setTimeout(poll, POLL_MS);
}
