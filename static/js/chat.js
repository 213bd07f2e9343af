// The quick chat of a table or a room (#chat): set phrases anyone seated may say,
// shown to each reader in their own language; in a friend room, typed lines between
// friends, each with Report. A club's page holds its club's chat the same way
// (data-club instead of data-table), every member may type, and the page brings
// the last lines kept (#club-chat-history). Sent and received over the presence socket
// (presence.js relays both ways). A player may mute someone, or the whole chat;
// both choices stay in this browser. The table page offers the chat only where
// another person sits: against computers nobody would read it.
import { gettext, interpolate } from "./i18n.js";
import { csrfToken, el } from "./dom.js";

const box = document.getElementById("chat");
const MUTED_KEY = "domino-chat-muted";
const OFF_KEY = "domino-chat";

const PHRASES = {
  good_luck: () => gettext("Good luck!"),
  well_played: () => gettext("Well played!"),
  thanks: () => gettext("Thanks!"),
  oops: () => gettext("Oops!"),
  your_turn: () => gettext("Your turn."),
  rematch: () => gettext("Rematch?"),
};

const muted = () => new Set(JSON.parse(localStorage.getItem(MUTED_KEY) || "[]"));
const chatOff = () => localStorage.getItem(OFF_KEY) === "off";


if (box) {
  const club = box.dataset.club ? Number(box.dataset.club) : null;
  const table = club === null ? Number(box.dataset.table) : null;
  const scope = club === null ? { type: "chat", table } : { type: "club_chat", club };
  const ours = (frame) => (club === null ? frame.type === "chat" && frame.table === table : frame.type === "club_chat" && frame.club === club);
  const me = box.dataset.me;
  const log = el("ol", { class: "chat-log", "aria-live": "polite", "aria-label": gettext("Chat") });
  const note = el("p", { class: "chat-note", role: "status" });
  let sentAt = 0;

  const send = (frame) => {
    sentAt = Date.now();
    note.textContent = "";
    document.dispatchEvent(new CustomEvent("presence-send", { detail: { ...scope, ...frame } }));
  };

  const phrases = el(
    "div",
    { class: "chat-phrases", role: "group", "aria-label": gettext("Quick phrases") },
    ...Object.entries(PHRASES).map(([id, text]) =>
      el("button", { type: "button", class: "button small ghost", "data-phrase": id, text: text(), onclick: () => send({ phrase: id }) }),
    ),
  );

  let form = null;
  if (box.dataset.text === "1") {
    const hint = club === null ? gettext("Message to your friends") : gettext("Message to the club");
    const input = el("input", { type: "text", maxlength: "200", "aria-label": hint, placeholder: hint });
    form = el(
      "form",
      {
        class: "chat-form",
        onsubmit: (event) => {
          event.preventDefault();
          if (!input.value.trim()) return;
          send({ text: input.value });
          input.value = "";
        },
      },
      input,
      el("button", { type: "submit", class: "button small", text: gettext("Send") }),
    );
  }

  const toggle = el("button", { type: "button", class: "link chat-toggle" });
  const showToggle = () => {
    toggle.textContent = chatOff() ? gettext("Chat: off") : gettext("Chat: on");
    toggle.setAttribute("aria-pressed", String(!chatOff()));
    for (const part of [phrases, form, log]) if (part) part.hidden = chatOff();
  };
  toggle.addEventListener("click", () => {
    localStorage.setItem(OFF_KEY, chatOff() ? "on" : "off");
    showToggle();
  });

  async function report(line, item) {
    const reply = await fetch(box.dataset.report.replace("/0/", `/${line}/`), {
      method: "POST",
      headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
      credentials: "same-origin",
    });
    const body = await reply.json().catch(() => ({}));
    item.querySelector(".chat-report")?.remove();
    note.textContent = body.message || gettext("Something went wrong.");
  }

  function add(frame) {
    if (chatOff() || muted().has(frame.from)) return;
    const said = frame.phrase ? PHRASES[frame.phrase]?.() : frame.text;
    if (!said) return;
    const item = el("li", { "data-from": frame.from }, el("strong", { text: `${frame.from}: ` }), el("span", { class: "chat-said", text: said }));
    if (frame.from !== me) {
      item.append(
        " ",
        el("button", {
          type: "button",
          class: "link chat-mute",
          text: interpolate(gettext("Mute %(name)s"), { name: frame.from }),
          onclick: () => {
            const set = muted();
            set.add(frame.from);
            localStorage.setItem(MUTED_KEY, JSON.stringify([...set]));
            for (const line of log.querySelectorAll("li")) if (line.dataset.from === frame.from) line.remove();
          },
        }),
      );
      if (frame.line) {
        item.append(" ", el("button", { type: "button", class: "link chat-report", text: gettext("Report"), onclick: () => report(frame.line, item) }));
      }
    }
    log.append(item);
    while (log.children.length > 30) log.firstElementChild.remove();
  }

  document.addEventListener("presence-frame", (event) => {
    const frame = event.detail;
    if (ours(frame)) add(frame);
    else if (frame.type === "error" && Date.now() - sentAt < 5000) note.textContent = frame.message;
  });

  // A table without typed lines has no form: only the parts that exist are shown.
  const parts = [el("h2", { class: "chat-title", text: gettext("Chat") }), toggle, phrases, form, log, note];
  box.replaceChildren(...parts.filter(Boolean));
  box.hidden = false;
  showToggle();
  const kept = document.getElementById("club-chat-history");
  if (kept) for (const frame of JSON.parse(kept.textContent)) add(frame);
}
