// Step through a game: buttons, the move list, arrow keys, Home and End.
// The page carries only the position shown; every position's pieces (and the best play
// at a turn marked as an error) come as JSON from data-frames, relative to the page
// (views/replays.py, views/fragments.py replay_frames), fetched once the replay is used.
// Without this script, or if the fetch fails, the same controls are plain links to ?turn=N.
(function () {
  "use strict";
  var root = document.getElementById("replay");
  if (!root || !root.dataset.frames || !window.fetch) return;
  // the page's own address followed by frames/ (views/replays.py)
  var source = new URL(root.dataset.frames, window.location.origin + window.location.pathname).href;
  var board = document.getElementById("board");
  var pieces = board.querySelector("g.pieces");
  var info = document.getElementById("turn-info");
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
  var data = null; // {frames: [[label, pieces, pips white, pips black, to move]], best: {turn: [label, caption, pieces]}}
  var loading = null;
  var wanted = null; // the turn asked for while the positions load

  function load() {
    if (!loading) {
      loading = fetch(source, { credentials: "same-origin", headers: { Accept: "application/json" } })
        .then(function (response) {
          if (!response.ok) throw new Error(String(response.status));
          return response.json();
        })
        .then(function (json) { data = json; });
    }
    return loading;
  }

  function drawn(markup) {
    // the server's SVG markup as nodes of the board's namespace
    var holder = document.createElementNS("http://www.w3.org/2000/svg", "g");
    holder.innerHTML = markup;
    return Array.prototype.slice.call(holder.childNodes);
  }

  function showBest(index) {
    if (!best) return;
    var entry = data.best[String(index)];
    best.hidden = !entry;
    if (!entry) return;
    var bestPieces = bestBoard.querySelector("g.pieces");
    bestPieces.replaceChildren.apply(bestPieces, drawn(entry[2]));
    bestBoard.setAttribute("aria-label", entry[0]);
    bestCaption.textContent = entry[1];
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
    var frame = data.frames[index];
    var pw = document.createElement("b");
    pw.textContent = String(frame[2]);
    var pb = document.createElement("b");
    pb.textContent = String(frame[3]);
    nodes.push(document.createTextNode(words.pips + ": " + words.white + " "), pw,
      document.createTextNode(", " + words.black + " "), pb,
      document.createTextNode(" · " + words[frame[4] + "_to_move"]));
    return nodes;
  }

  function show(index) {
    index = Math.max(0, Math.min(last, index));
    current = index;
    if (data) {
      draw(index);
      return;
    }
    wanted = index;
    load().then(function () {
      if (wanted !== null) draw(wanted);
      wanted = null;
    }, function () {
      // no positions: the link without script does it
      window.location.assign("?turn=" + String(wanted) + "#replay");
    });
  }

  function draw(index) {
    root.dataset.current = String(index);
    var frame = data.frames[index];
    pieces.replaceChildren.apply(pieces, drawn(frame[1]));
    board.setAttribute("aria-label", frame[0]);
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
  // the positions come before the first step where the reader shows they may use it
  ["pointerover", "focusin", "touchstart"].forEach(function (name) {
    root.addEventListener(name, function () { load().catch(function () {}); }, { once: true, passive: true });
  });
  root.classList.add("enhanced");
})();
