// The rating chart of the player page: the point under the pointer or the keyboard focus
// is written out below the chart (its <title> is the tooltip, its label what screen
// readers say).
(function () {
  "use strict";
  var chart = document.getElementById("rating-chart");
  var detail = document.getElementById("rating-detail");
  if (!chart || !detail) return;
  function show(event) {
    var point = event.target.closest && event.target.closest("a.point");
    if (point) detail.textContent = point.getAttribute("aria-label");
  }
  chart.addEventListener("mouseover", show);
  chart.addEventListener("focusin", show);
})();
