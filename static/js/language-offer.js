// The offer of the page in the reader's language (accounts/language_offer.py):
// "No, thanks" writes the cookie the server reads (name, value and attributes come
// from the server) and takes the line away at once, with no trip to the server;
// without JavaScript its form does the same there.
const form = document.getElementById("language-offer-dismiss");
if (form) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    document.cookie = form.dataset.cookie;
    form.closest("aside")?.remove();
    // The next stop on the page for a keyboard reader, now the line is gone.
    document.querySelector(".brand")?.focus();
  });
}
