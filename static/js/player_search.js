// Search-as-you-type on the players page: the search form works without this script
// (a GET with ?q=); with it, the matching players appear while the name is typed, each
// with a button that registers them (a plain POST, like the page's own forms).
(function () {
  "use strict";
  var form = document.getElementById("player-search");
  var list = document.getElementById("player-found");
  if (!form || !list || !window.fetch) return;
  var input = form.querySelector("input[name=q]");
  var token = document.querySelector("input[name=csrfmiddlewaretoken]");
  var timer = null;
  var asked = "";

  function item(player) {
    var li = document.createElement("li");
    var f = document.createElement("form");
    f.method = "post";
    f.action = list.dataset.addUrl;
    f.className = "inline";
    if (token) {
      var t = document.createElement("input");
      t.type = "hidden"; t.name = "csrfmiddlewaretoken"; t.value = token.value;
      f.appendChild(t);
    }
    var p = document.createElement("input");
    p.type = "hidden"; p.name = "player"; p.value = player.id;
    f.appendChild(p);
    var name = document.createElement("bdi");
    name.textContent = player.name;
    f.appendChild(name);
    if (player.club) f.appendChild(document.createTextNode(" (" + player.club + ")"));
    f.appendChild(document.createTextNode(" "));
    var b = document.createElement("button");
    b.type = "submit"; b.className = "secondary"; b.textContent = list.dataset.register;
    f.appendChild(b);
    li.appendChild(f);
    return li;
  }

  function show(data) {
    if (data.query !== input.value.slice(0, 120)) return; // an older answer
    list.textContent = "";
    data.results.forEach(function (p) { list.appendChild(item(p)); });
    if (!data.results.length && data.query.trim()) {
      var li = document.createElement("li");
      li.className = "muted"; li.textContent = list.dataset.none;
      list.appendChild(li);
    }
  }

  function ask() {
    var q = input.value;
    if (q === asked) return;
    asked = q;
    if (!q.trim()) { list.textContent = ""; return; }
    fetch(form.dataset.url + "?q=" + encodeURIComponent(q), {
      credentials: "same-origin", headers: { Accept: "application/json" }
    }).then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) { if (data) show(data); })
      .catch(function () { /* the plain form still works */ });
  }

  input.addEventListener("input", function () {
    clearTimeout(timer);
    timer = setTimeout(ask, 200);
  });
})();
