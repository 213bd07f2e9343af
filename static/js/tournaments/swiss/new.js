// The form that schedules a Swiss event: the start is typed in the reader's own
// time; the browser's offset from UTC goes with it, so the server stores the
// instant meant (without this script the start is read as UTC).
for (const form of document.querySelectorAll("form[data-offset]")) {
  form.addEventListener("submit", () => {
    const local = form.elements.starts_at.value;
    const at = local ? new Date(local) : new Date();
    form.elements.offset.value = String(at.getTimezoneOffset());
  });
}
