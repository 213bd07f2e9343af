// Small DOM helpers shared by the pages' modules.

/**
 * A new element: ``attrs`` sets ``class``, ``text`` (its text), ``on<event>``
 * listeners, ``dataset`` entries and plain attributes (``true``: present; null,
 * undefined and false: left out); the children that are not null, undefined or
 * false are appended.
 */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** The CSRF token Django set in its cookie, for a POST made by script. */
export function csrfToken() {
  return (document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/) || [])[1] || "";
}
