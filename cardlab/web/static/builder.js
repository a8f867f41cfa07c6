// The deck builder's progressive enhancement: an "add" form (class add-card) posts in the background
// and says what the deck holds, instead of reloading the page. Without this script the same forms
// post and come back (a plain 303 redirect). No inline script, no other site (the CSP allows 'self').
"use strict";
document.addEventListener("submit", async (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.classList.contains("add-card")) return;
  event.preventDefault();
  const status = document.getElementById("builder-status");
  try {
    const response = await fetch(form.action, {
      method: "POST",
      body: new URLSearchParams(new FormData(form)),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    });
    if (!response.ok) {
      form.submit(); // the server's own page says what is wrong
      return;
    }
    const data = await response.json();
    if (document.getElementById("deck-total")) {
      window.location.reload(); // the builder: show the new list and its verdict
      return;
    }
    const said = status && status.dataset.added ? status.dataset.added : "added {name}: {count} in the deck, {total} cards in all";
    if (status) status.textContent = said.replace("{name}", data.name).replace("{count}", data.count).replace("{total}", data.total);
  } catch (err) {
    form.submit();
  }
});
