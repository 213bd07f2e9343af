// The snippet builder (/embed/code/): the <iframe> code from the chosen options,
// a live preview and a copy button.

import { gettext } from "../i18n.js";

const config = JSON.parse(document.getElementById("embed-code-config").textContent);
const form = document.getElementById("embed-code-form");
const snippet = document.getElementById("embed-snippet");
const preview = document.getElementById("embed-preview");
const copied = document.getElementById("embed-copied");

function optionsInto(select, values, fallback) {
  const wanted = values.includes(Number(select.value)) ? Number(select.value) : fallback;
  select.replaceChildren(
    ...values.map((value) => {
      const option = document.createElement("option");
      option.value = String(value);
      option.textContent = String(value);
      option.selected = value === wanted;
      return option;
    }),
  );
}

function frameUrl() {
  const params = new URLSearchParams({
    variant: form.variant.value,
    seats: form.seats.value,
    target: form.target.value,
    level: form.level.value,
  });
  if (form.lang.value) params.set("lang", form.lang.value);
  return `${config.frame}?${params}`;
}

function height() {
  const value = Math.round(Number(form.height.value));
  return Number.isFinite(value) ? Math.min(1600, Math.max(400, value)) : 680;
}

const FRAME_TAG = "iframe";

// An attribute's value as HTML text (what outerHTML would write).
function attributeText(value) {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll('"', "&quot;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;");
}

function update() {
  const url = frameUrl();
  // Written as text, each value escaped: an <iframe> element made here to be
  // serialised would need a style attribute, which this page's Content Security
  // Policy refuses (and reports) even on an element never shown.
  const attributes = {
    src: url,
    width: "100%",
    height: String(height()),
    style: "max-width:900px;border:0",
    title: config.title,
    loading: "lazy",
  };
  const text = Object.entries(attributes)
    .map(([name, value]) => `${name}="${attributeText(value)}"`)
    .join(" ");
  snippet.value = `<${FRAME_TAG} ${text}></${FRAME_TAG}>`;
  const previewUrl = new URL(url);
  if (preview.src !== previewUrl.href) preview.src = previewUrl.pathname + previewUrl.search;
  copied.textContent = "";
}

form.variant.addEventListener("change", () => {
  const spec = config.variants[form.variant.value];
  if (spec) {
    optionsInto(form.seats, spec.seats, spec.seats[0]);
    optionsInto(form.target, spec.targets, spec.default_target);
  }
  update();
});
for (const name of ["seats", "target", "level", "lang", "height"]) {
  form[name].addEventListener("change", update);
}
form.addEventListener("submit", (event) => event.preventDefault());

document.getElementById("embed-copy").addEventListener("click", async () => {
  try {
    await navigator.clipboard.writeText(snippet.value);
  } catch {
    // No clipboard permission: select the text so Ctrl+C copies it.
    snippet.select();
    document.execCommand("copy");
  }
  copied.textContent = gettext("Copied.");
});

update();
