// The "scroll sideways" hint before a scrolling container (class "scroll") shows only
// while the container is wider than the screen. Without this script the hint stays.
(function () {
  "use strict";
  function update() {
    document.querySelectorAll(".scroll").forEach(function (box) {
      var hint = box.previousElementSibling;
      if (hint && hint.classList.contains("scroll-hint")) {
        hint.hidden = box.scrollWidth <= box.clientWidth + 1;
      }
    });
  }
  update();
  window.addEventListener("resize", update);
  window.addEventListener("load", update);
})();
