// Check a record as it is typed: the page's own check view answers with the engine's
// verdict (nothing is saved). Submitting the form checks it again on the server.
(function () {
  "use strict";
  var form = document.getElementById("record-form");
  if (!form || !window.fetch) return;
  var area = form.querySelector("textarea");
  var verdict = document.getElementById("record-verdict");
  var token = form.querySelector("input[name=csrfmiddlewaretoken]").value;
  var lineWord = document.documentElement.lang === "cs" ? "řádek " : "line ";
  var colWord = document.documentElement.lang === "cs" ? ", sloupec " : ", column ";
  var timer = null;
  var asked = 0;

  function check() {
    var body = new FormData();
    body.append("record", area.value);
    var number = form.querySelector("input[name=number]");
    if (number) body.append("number", number.value);  // the same check as saving
    var mine = ++asked;
    fetch(form.dataset.checkUrl, {
      method: "POST", body: body, credentials: "same-origin",
      headers: { "X-CSRFToken": token }
    }).then(function (r) { return r.json(); }).then(function (data) {
      if (mine !== asked) return;
      verdict.className = "verdict " + (data.ok ? "ok" : data.empty ? "" : "bad");
      var where = data.line ? lineWord + data.line + (data.col ? colWord + data.col : "") + ": " : "";
      verdict.textContent = data.empty ? "" : (data.ok ? "✔ " : "✘ ") + where + data.message;
    }).catch(function () { verdict.textContent = ""; });
  }
  area.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(check, 500);
  });
})();
