// Step through a game: buttons, the move list, arrow keys, Home and End.
// The server drew every position's pieces into <template id="frames">; without this
// script the same controls are plain links to ?turn=N.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  var template = document.getElementById("frames");
  if (!root || !template) return;
  var board = document.getElementById("board");
  var pieces = board.querySelector("g.pieces");
  var info = document.getElementById("turn-info");
  var frames = template.content.querySelectorAll("g[data-turn]");
  var links = document.querySelectorAll("#moves a[data-turn]");
  var last = parseInt(root.dataset.last, 10);
  var current = parseInt(root.dataset.current, 10);

  var words = JSON.parse(root.dataset.words);
  // the pip-count chart (_stats_game.html): its marker follows the turn shown
  var chart = document.getElementById("pip-chart");
  var marker = document.getElementById("pip-marker");
  var chartXs = chart ? chart.dataset.xs.split(",") : [];
  // the best play beside the board at a turn marked as an error (_replay.html)
  var best = document.getElementById("best-turn");
  var bestBoard = document.getElementById("best-board");
  var bestCaption = document.getElementById("best-turn-caption");
  var bestTemplate = document.getElementById("best-frames");
  var bestFrames = {};
  if (best && bestTemplate) {
    bestTemplate.content.querySelectorAll("g[data-turn]").forEach(function (g) {
      bestFrames[g.dataset.turn] = g;
    });
  }

  function showBest(index) {
    if (!best) return;
    var g = bestFrames[String(index)];
    best.hidden = !g;
    if (!g) return;
    var bestPieces = bestBoard.querySelector("g.pieces");
    bestPieces.replaceChildren.apply(bestPieces, Array.prototype.map.call(g.childNodes, function (n) {
      return n.cloneNode(true);
    }));
    bestBoard.setAttribute("aria-label", g.dataset.label);
    bestCaption.textContent = g.dataset.caption;
  }

  // the same sentence as _turn_info.html, built from the move link's data
  function describe(a, index) {
    var nodes = [];
    if (index === 0) {
      nodes.push(document.createTextNode(words.start));
    } else {
      var head = document.createElement("strong");
      head.textContent = words.turn + " " + a.querySelector(".n").textContent.replace(".", "");
      var side = a.parentNode.classList.contains("white") ? words.white : words.black;
      var text = a.textContent.replace(/^\s*\d+\.\s*/, "");
      nodes.push(head, document.createTextNode(", " + side + " " + text));
    }
    nodes.push(document.createElement("br"));
    var pw = document.createElement("b");
    pw.textContent = a.dataset.pw;
    var pb = document.createElement("b");
    pb.textContent = a.dataset.pb;
    nodes.push(document.createTextNode(words.pips + ": " + words.white + " "), pw,
      document.createTextNode(", " + words.black + " "), pb,
      document.createTextNode(" · " + words[a.dataset.to + "_to_move"]));
    return nodes;
  }

  function show(index) {
    index = Math.max(0, Math.min(last, index));
    current = index;
    root.dataset.current = String(index);
    var frame = frames[index];
    var copies = Array.prototype.map.call(frame.childNodes, function (n) {
      return n.cloneNode(true);
    });
    pieces.replaceChildren.apply(pieces, copies);
    board.setAttribute("aria-label", frame.dataset.label);
    links.forEach(function (a) {
      if (parseInt(a.dataset.turn, 10) === index) {
        a.setAttribute("aria-current", "step");
        info.replaceChildren.apply(info, describe(a, index));
        a.scrollIntoView({ block: "nearest" });
      } else {
        a.removeAttribute("aria-current");
      }
    });
    showBest(index);
    if (marker && chartXs[index] !== undefined) {
      marker.setAttribute("x1", chartXs[index]);
      marker.setAttribute("x2", chartXs[index]);
    }
    var url = new URL(window.location.href);
    url.searchParams.set("turn", String(index));
    window.history.replaceState(null, "", url.pathname + url.search + "#replay");
  }

  var steps = {
    first: function () { return 0; },
    last: function () { return last; },
    prev: function () { return current - 1; },
    next: function () { return current + 1; }
  };
  root.querySelectorAll("[data-go]").forEach(function (a) {
    a.addEventListener("click", function (event) {
      event.preventDefault();
      show(steps[a.dataset.go]());
    });
  });
  var chartLinks = chart ? Array.prototype.slice.call(chart.querySelectorAll("a[data-turn]")) : [];
  // the equity chart's dots and the list of marked turns (_equity_chart.html, _analysis_game.html)
  Array.prototype.slice.call(links).concat(chartLinks).forEach(function (a) {
    a.addEventListener("click", function (event) {
      event.preventDefault();
      show(parseInt(a.dataset.turn, 10));
    });
  });
  // below the replay: the board is brought into view as the link without script would
  document.querySelectorAll("#equity-chart a[data-turn], #analysis-marks a[data-turn]").forEach(function (a) {
    a.addEventListener("click", function (event) {
      event.preventDefault();
      show(parseInt(a.dataset.turn, 10));
      root.scrollIntoView({ block: "start" });
    });
  });
  document.addEventListener("keydown", function (event) {
    var tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select" || event.altKey ||
        event.ctrlKey || event.metaKey) return;
    var keys = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };
    var go = keys[event.key];
    if (!go) return;
    event.preventDefault();
    show(steps[go]());
  });
  root.classList.add("enhanced");
})();
