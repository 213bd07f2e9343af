// The Play form: offer only what the chosen variant allows (the server checks again).
const form = document.getElementById("play-form");
const specs = JSON.parse(document.getElementById("variant-specs").textContent);

const $ = (name) => form.elements.namedItem(name);

function limitSelect(select, allowed, fallback) {
  const values = allowed.map(String);
  for (const option of select.options) {
    const ok = option.value === "" || values.includes(option.value);
    option.disabled = !ok;
    option.hidden = !ok;
  }
  if (!values.includes(select.value)) select.value = String(fallback);
}

function update(changedVariant) {
  const spec = specs[$("variant").value];
  if (!spec) return;
  for (const rule of document.querySelectorAll("#variant-rules .rule")) {
    rule.hidden = rule.dataset.variant !== spec.id;
  }
  limitSelect($("set_max"), spec.sets, spec.default_set);
  limitSelect($("seats"), spec.seats, spec.seats[0]);
  limitSelect($("target"), spec.targets, spec.default_target);
  if (changedVariant) {
    $("set_max").value = String(spec.default_set);
    $("target").value = String(spec.default_target);
  }
  const seats = Number($("seats").value);
  const partner = $("partnership");
  const box = form.querySelector('[data-field="partnership"]');
  if (seats !== 4 || spec.partnership === "never") {
    partner.checked = false;
    partner.disabled = true;
    box.hidden = true;
  } else if (spec.partnership === "forced") {
    partner.checked = true;
    partner.disabled = true;
    box.hidden = false;
  } else {
    partner.disabled = false;
    box.hidden = false;
  }
  for (const field of form.querySelectorAll("[data-bot]")) {
    const on = Number(field.dataset.bot) < seats;
    field.hidden = !on;
    field.querySelector("select").disabled = !on;
  }
  let anyChoice = false;
  for (const field of form.querySelectorAll("[data-choice]")) {
    const name = field.dataset.choice;
    const allowed = spec.choices[name];
    const select = field.querySelector("select");
    field.hidden = !allowed;
    select.disabled = !allowed;
    if (allowed) {
      anyChoice = true;
      limitSelect(select, allowed, "");
    }
  }
  document.getElementById("variant-choices").hidden = !anyChoice;
}

form.addEventListener("change", (event) => update(event.target.name === "variant"));
// A disabled checkbox is not submitted: send the forced value explicitly.
form.addEventListener("submit", () => {
  const partner = $("partnership");
  if (partner.disabled && partner.checked) {
    const hidden = document.createElement("input");
    hidden.type = "hidden";
    hidden.name = "partnership";
    hidden.value = "on";
    form.append(hidden);
  }
});
update(false);
