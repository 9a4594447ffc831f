// The rating charts of the player page, one for each game: the point under the pointer
// or the keyboard focus is written out below its chart (its <title> is the tooltip, its
// label what screen readers say).
(function () {
  "use strict";
  var charts = document.querySelectorAll("svg.rating-svg[data-detail]");
  Array.prototype.forEach.call(charts, function (chart) {
    var detail = document.getElementById(chart.getAttribute("data-detail"));
    if (!detail) return;
    function show(event) {
      var point = event.target.closest && event.target.closest("a.point");
      if (point) detail.textContent = point.getAttribute("aria-label");
    }
    chart.addEventListener("mouseover", show);
    chart.addEventListener("focusin", show);
  });
})();
