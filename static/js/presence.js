// The presence socket on every signed-in page: keeps the "N players online" line
// live where the page has one, and shows room invitations (Accept, Decline) and
// friend requests as toasts with a sound (unless the player turned sounds off), a
// badge in the navigation, and a browser notification when the page is in the
// background and the player allowed them (the "Notify me" button, NOTIFY_KEY).
import { formatNumber, gettext, interpolate, ngettext, variantTitle } from "./i18n.js";
import { connect } from "./socket.js";
import { Sounds } from "./table/sound.js";
import { csrfToken } from "./dom.js";

const el = document.getElementById("online");
const toasts = document.getElementById("invitation-toasts");
const presenceUrl = (el || toasts)?.dataset.presenceUrl;


async function answer(url, toast) {
  const reply = await fetch(url, {
    method: "POST",
    headers: { Accept: "application/json", "X-CSRFToken": csrfToken() },
    credentials: "same-origin",
  });
  const body = await reply.json().catch(() => ({}));
  if (body.url) {
    location.assign(body.url);
    return;
  }
  toast.querySelector(".toast-text").textContent = body.error || "";
  for (const button of toast.querySelectorAll("button")) button.remove();
}

function showInvitation(inv) {
  if (!toasts || toasts.querySelector(`[data-invitation="${inv.id}"]`)) return;
  const toast = document.createElement("div");
  toast.className = "toast card";
  toast.setAttribute("role", "alert");
  toast.dataset.invitation = String(inv.id);
  const text = document.createElement("p");
  text.className = "toast-text";
  text.textContent = interpolate(
    ngettext(
      "Room invitation from %(host)s: %(variant)s, %(seats)s seat.",
      "Room invitation from %(host)s: %(variant)s, %(seats)s seats.",
      inv.seats,
    ),
    { host: inv.host, variant: variantTitle(inv.variant), seats: formatNumber(inv.seats) },
  );
  const accept = Object.assign(document.createElement("button"), { className: "button small", textContent: gettext("Accept") });
  const decline = Object.assign(document.createElement("button"), { className: "link", textContent: gettext("Decline") });
  accept.addEventListener("click", () => answer(inv.accept, toast));
  decline.addEventListener("click", () => answer(inv.decline, toast));
  toast.append(text, accept, decline);
  toasts.append(toast);
  bumpBadge("nav-invitations", "invitation-count");
  sounds.bell();
  notify(text.textContent, `invitation-${inv.id}`);
}

const NOTIFY_KEY = "domino-notify";

/** A browser notification, if the player asked for them and the page is hidden. */
function notify(text, tag) {
  if (!document.hidden || typeof window.Notification !== "function" || Notification.permission !== "granted") return;
  if (localStorage.getItem(NOTIFY_KEY) !== "on") return;
  try {
    new Notification(text, { tag });
  } catch {
    // Some browsers allow notifications only from a service worker: the toast stays.
  }
}

/** The "Notify me" buttons ([data-notify-toggle]) on the friends and invitations pages. */
function notifyToggles() {
  for (const button of document.querySelectorAll("[data-notify-toggle]")) {
    const show = () => {
      const on = localStorage.getItem(NOTIFY_KEY) === "on" && Notification.permission === "granted";
      button.textContent = on ? gettext("Browser notifications: on") : gettext("Notify me in the browser");
      button.setAttribute("aria-pressed", String(on));
    };
    if (typeof window.Notification !== "function" || Notification.permission === "denied") {
      button.hidden = true;
      continue;
    }
    button.hidden = false;
    button.addEventListener("click", async () => {
      if (localStorage.getItem(NOTIFY_KEY) === "on" && Notification.permission === "granted") {
        localStorage.setItem(NOTIFY_KEY, "off");
      } else if ((await Notification.requestPermission()) === "granted") {
        localStorage.setItem(NOTIFY_KEY, "on");
      }
      show();
    });
    show();
  }
}

function bumpBadge(linkId, badgeId) {
  const link = document.getElementById(linkId);
  if (!link) return;
  let badge = document.getElementById(badgeId);
  if (!badge) {
    badge = Object.assign(document.createElement("span"), { id: badgeId, className: "badge", textContent: "0" });
    link.append(" ", badge);
  }
  badge.textContent = String(Number(badge.textContent) + 1);
}

function showFriendRequest(frame) {
  if (!toasts) return;
  const toast = document.createElement("div");
  toast.className = "toast card";
  toast.setAttribute("role", "alert");
  const text = document.createElement("p");
  text.className = "toast-text";
  text.textContent = interpolate(gettext("%(name)s wants to be your friend."), { name: frame.from });
  const open = Object.assign(document.createElement("a"), { className: "button small", href: frame.url, textContent: gettext("Answer") });
  toast.append(text, open);
  toasts.append(toast);
  bumpBadge("nav-friends", "friend-request-count");
  sounds.bell();
  notify(text.textContent, "friend-request");
}


const sounds = new Sounds();

const showCount = (n) => {
  if (el) el.textContent = interpolate(ngettext("%(count)s player online", "%(count)s players online", n), { count: formatNumber(n) });
};

notifyToggles();

if (presenceUrl) {
  // Other scripts of the page (the quick chat) send over this socket.
  document.addEventListener("presence-send", (event) => socket.send(event.detail));
  const socket = connect(presenceUrl, {
    name: "presence",
    ping: 60000,
    backoff: { base: 1000, max: 30000 },
    onOpen: () => socket.send({ type: "ping" }),
    onFrame: (m) => {
      if (m.type === "invitation") showInvitation(m.invitation);
      else if (m.type === "friend_request") showFriendRequest(m);
      else if ("online" in m) showCount(m.online);
      // Pages with more to show (the friends list) listen for every frame.
      document.dispatchEvent(new CustomEvent("presence-frame", { detail: m }));
    },
  });
}
