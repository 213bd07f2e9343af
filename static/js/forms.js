// Behaviour of plain forms, kept out of the markup (the Content-Security-Policy
// allows no inline handlers): a <select data-submit-on-change> submits its form as
// soon as a choice is made (the language switcher; its <noscript> button does it
// without JavaScript).
document.addEventListener("change", (event) => {
  const field = event.target;
  if (field instanceof HTMLSelectElement && field.hasAttribute("data-submit-on-change") && field.form) {
    field.form.submit();
  }
});
