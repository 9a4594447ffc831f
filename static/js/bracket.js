// Lights up one player's path through the bracket (templates/tournaments/_bracket.html):
// hovering a name shows that player's, hovering or focusing a box shows both players'.
// Delegated from the document, so a bracket swapped in by live.js works the same.
(function () {
  "use strict";
  function clear() {
    document.querySelectorAll(".bk-hl").forEach(function (el) { el.classList.remove("bk-hl"); });
  }
  function light(players) {
    clear();
    players.forEach(function (id) {
      if (!id) { return; }
      document.querySelectorAll('.bracket-svg [data-player="' + id + '"]').forEach(function (el) {
        el.classList.add("bk-hl");
      });
      document.querySelectorAll(".bracket-svg .bk-box").forEach(function (box) {
        if ((" " + box.getAttribute("data-players") + " ").indexOf(" " + id + " ") >= 0) {
          box.classList.add("bk-hl");
        }
      });
    });
  }
  function playersOf(target) {
    if (!(target instanceof Element)) { return null; }
    var name = target.closest(".bk-name[data-player]");
    if (name) { return [name.getAttribute("data-player")]; }
    var box = target.closest(".bk-box");
    if (box) { return (box.getAttribute("data-players") || "").split(" "); }
    return null;
  }
  document.addEventListener("mouseover", function (e) {
    var players = playersOf(e.target);
    if (players) { light(players); } else if (e.target instanceof Element && e.target.closest(".bracket-svg") === null) { clear(); }
  });
  document.addEventListener("focusin", function (e) {
    var players = playersOf(e.target);
    if (players) { light(players); }
  });
  document.addEventListener("focusout", function (e) {
    if (playersOf(e.target)) { clear(); }
  });
  function hint() {
    var scroll = document.getElementById("bracket-scroll");
    var text = document.getElementById("bracket-hint");
    if (scroll && text) { text.classList.toggle("fits", scroll.scrollWidth <= scroll.clientWidth); }
  }
  window.addEventListener("resize", hint);
  document.addEventListener("live:updated", hint);
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", hint); } else { hint(); }
}());
