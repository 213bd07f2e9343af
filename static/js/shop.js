// The shop asks before spending coins (the question comes translated from the page).
for (const form of document.querySelectorAll("form.buy-form[data-confirm]")) {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}
