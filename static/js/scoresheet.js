// The scoresheet fills in who starts a game as soon as the director begins its line: the
// server says who starts after each starter and winner of the line before (#starts-next,
// services/sheets.py::sheet_next_starters, the rule the entry checks). A line left
// untouched stays empty (an empty line is no game); a starter the director chose is kept.
(function () {
  "use strict";
  var form = document.getElementById("sheet-form");
  var data = document.getElementById("starts-next");
  if (!form || !data) return;
  var next = JSON.parse(data.textContent || "{}");
  var field = form.dataset.starterField || "white";

  function control(line, name) {
    return form.querySelector('[name="g' + line + "-" + name + '"]');
  }

  function suggest(line) {
    var starter = control(line, field);
    var before = control(line - 1, field);
    var winner = control(line - 1, "winner");
    if (!starter || !before || !before.value) return;
    if (starter.value && !starter.dataset.suggested) return; // chosen: kept
    var found = next[before.value + ":" + (winner ? winner.value : "")];
    if (found) {
      starter.value = found;
      starter.dataset.suggested = "1";
    }
  }

  form.addEventListener("focusin", function (event) {
    var set = event.target.closest && event.target.closest("fieldset[data-game]");
    if (!set) return;
    var line = Array.prototype.indexOf.call(form.querySelectorAll("fieldset[data-game]"), set) + 1;
    if (line > 1) suggest(line);
  });
  form.addEventListener("change", function (event) {
    var name = /^g(\d+)-(.+)$/.exec(event.target.name || "");
    if (!name) return;
    var line = Number(name[1]);
    if (name[2] === field) delete event.target.dataset.suggested; // the director's choice
    var following = control(line + 1, field);
    if (following && following.dataset.suggested) suggest(line + 1);
  });
})();
