// The stake lobby: sit down and stand up without leaving the page, refresh the open
// tables every two seconds, and go to the table the moment yours starts. Every text
// comes from the server, already translated.
const app = document.getElementById("stakes-app");
const errorBox = document.getElementById("stakes-error");
const REGIONS = ["stakes-balance", "stakes-you", "stakes-groups", "stakes-recent"];
const STATE_URL = "/play/stakes/state.json";

function showError(message) {
  errorBox.textContent = message || "";
  errorBox.hidden = !message;
}

async function refresh() {
  const state = await (await fetch(STATE_URL, { headers: { Accept: "application/json" } })).json();
  if (state.you && state.you.state === "playing") {
    window.location.assign(state.you.url);
    return;
  }
  const page = new DOMParser().parseFromString(await (await fetch(window.location.href)).text(), "text/html");
  for (const id of REGIONS) {
    const fresh = page.getElementById(id);
    if (fresh) document.getElementById(id).replaceWith(fresh);
  }
}

app.addEventListener("submit", async (event) => {
  const form = event.target.closest("form[data-action]");
  if (!form) return;
  event.preventDefault();
  showError("");
  const reply = await fetch(form.action, {
    method: "POST",
    body: new FormData(form),
    headers: { Accept: "application/json" },
    credentials: "same-origin",
  });
  const body = await reply.json().catch(() => null);
  if (!reply.ok) showError(body?.error?.message || errorBox.dataset.fallback);
  await refresh().catch(() => {});
});

setInterval(() => refresh().catch(() => {}), 2000);
