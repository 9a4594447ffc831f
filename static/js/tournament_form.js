// The tournament form offers only the settings the chosen game and format have: each
// setting's wrapper carries data-games / data-formats, and each choice of who starts
// later games data-games (rendered by the server from the one rules source,
// tournaments/services/setup.py; empty: every game or format). A hidden setting with
// data-reset goes back to that value (the tie-breaks to none), so that it is not posted
// as a choice; the server refuses a setting the game or format does not have, so the
// page works the same without this script.
(function () {
  "use strict";
  var game = document.getElementById("id_variant");
  var format = document.getElementById("id_format");
  if (!game || !format) return;
  var rows = document.querySelectorAll(".settings-form .setting");
  var options = document.querySelectorAll(".settings-form option[data-games]");

  function has(list, value) {
    return !list || list.split(" ").indexOf(value) !== -1;
  }

  function update() {
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      var shown = has(row.dataset.games, game.value) && has(row.dataset.formats, format.value);
      row.hidden = !shown;
      if (!shown && row.dataset.reset !== undefined) {
        var controls = row.querySelectorAll("select");
        for (var k = 0; k < controls.length; k++) controls[k].value = row.dataset.reset;
      }
    }
    for (var j = 0; j < options.length; j++) {
      var option = options[j];
      var offered = has(option.dataset.games, game.value);
      option.hidden = !offered;
      option.disabled = !offered;
      if (!offered && option.selected) {
        var select = option.parentNode;
        for (var n = 0; n < select.options.length; n++) {
          if (!select.options[n].disabled) { select.selectedIndex = n; break; }
        }
      }
    }
  }

  game.addEventListener("change", update);
  format.addEventListener("change", update);
  update();
})();
