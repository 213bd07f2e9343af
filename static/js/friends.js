// The friends page: a friend coming online or going offline (a frame on the
// presence socket, relayed by presence.js) updates their line at once; removing a
// friend asks first.

document.addEventListener("presence-frame", (event) => {
  const frame = event.detail;
  if (frame.type !== "friend") return;
  const row = [...document.querySelectorAll("#friend-list [data-friend]")].find((li) => li.dataset.friend === frame.name);
  if (!row) return;
  row.classList.toggle("online", frame.online);
  row.classList.toggle("offline", !frame.online);
  const state = row.querySelector("[data-state]");
  state.textContent = frame.online ? state.dataset.onlineText : state.dataset.offlineText;
});

for (const form of document.querySelectorAll("form[data-confirm]")) {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}
