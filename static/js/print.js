// The print button of the pairings sheet: no inline handler, as the
// Content-Security-Policy allows scripts from our own files only.
document.querySelectorAll("[data-print]").forEach((button) => {
  button.addEventListener("click", () => window.print());
});
