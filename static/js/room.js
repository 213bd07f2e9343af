// The room page: name suggestions for the invite field, and a light poll that
// reloads the page when the room changes and takes seated players to the table
// when the game starts.
const root = document.getElementById("room");
if (root) {
  const input = document.getElementById("invite-name");
  const list = document.getElementById("invite-names");
  if (input && list) {
    let asked = "";
    input.addEventListener("input", async () => {
      const q = input.value.trim();
      if (!q || q === asked) return;
      asked = q;
      const url = `${root.dataset.usernamesUrl}?q=${encodeURIComponent(q)}`;
      const reply = await fetch(url, { headers: { Accept: "application/json" } });
      if (!reply.ok || asked !== q) return;
      const { usernames } = await reply.json();
      list.replaceChildren(...usernames.map((name) => Object.assign(document.createElement("option"), { value: name })));
    });
  }
  // A page that opens on a started game does not send its player to the table (they
  // may have come back on purpose), unless this tab saw the room waiting just before:
  // a reload that lands after the start must still take them there.
  const status = root.dataset.version.split(":")[2];
  const seenKey = `room-status:${location.pathname}`;
  const seenBefore = sessionStorage.getItem(seenKey);
  sessionStorage.setItem(seenKey, status);
  const startedWhileHere = status === "playing" && seenBefore !== null && seenBefore !== "playing";
  const poll = async () => {
    try {
      const reply = await fetch(root.dataset.stateUrl, { headers: { Accept: "application/json" } });
      if (reply.ok) {
        const state = await reply.json();
        if (state.table && (status !== "playing" || startedWhileHere)) {
          location.assign(state.table);
          return;
        }
        const typing = input && document.activeElement === input && input.value;
        if (state.version !== root.dataset.version && !typing) {
          location.reload();
          return;
        }
      }
    } catch (err) {
      // Offline for a moment: the next poll tries again.
    }
    setTimeout(poll, 2000);
  };
  setTimeout(poll, 2000);
}
