// The tournament form offers only the settings the chosen game and format have: each
// setting's wrapper carries data-games / data-formats (rendered by the server from the
// one rules source; empty: every game or format). Hidden settings are still posted and
// the server resets what the game lacks, so the page works the same without this script.
(function () {
  "use strict";
  var game = document.getElementById("id_variant");
  var format = document.getElementById("id_format");
  if (!game || !format) return;
  var rows = document.querySelectorAll(".settings-form .setting");

  function has(list, value) {
    return !list || list.split(" ").indexOf(value) !== -1;
  }

  function update() {
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      var shown = has(row.dataset.games, game.value) && has(row.dataset.formats, format.value);
      row.hidden = !shown;
    }
  }

  game.addEventListener("change", update);
  format.addEventListener("change", update);
  update();
})();
