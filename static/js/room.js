// The game room (templates/tournaments/online/room.html, docs/online.md). The server holds
// the truth: every message carries the room's sequence number, and every state the page
// shows is the server's (state JSON, drawn board included). Live over the WebSocket
// /ws/rooms/<id>/, reconnecting with backoff and asking "sync" (the state from the
// database); without a WebSocket it polls /state/ and POSTs /action/. A player moves by
// clicking (or dragging) a checker and then its target point, the candidate turns
// narrowed by the steps so far, with undo until the turn is sent; or from the list. A roll
// of too many turns to list (a crowded Lurč paš) is entered one die at a time: the steps
// door (state.steps_url) answers the engine's legal next steps of the steps so far. So is
// a Lurč houšek (Z8) once its paš is chosen: the door is asked with the paš, its 1 and 2
// come first, then the paš's moves.
(function () {
  "use strict";
  var root = document.getElementById("room");
  if (!root || !window.JSON) { return; }
  function data(id) { return JSON.parse(document.getElementById(id).textContent); }
  var state = data("room-state");
  var L = data("room-labels");
  var urls = data("room-urls");
  var $ = function (id) { return document.getElementById(id); };

  // board geometry of tournaments/board.py (viewBox units)
  var G = { margin: 18, point: 40, bar: 40, half: 240, height: 440, pointH: 175, tray: 56 };
  G.width = G.margin * 2 + G.half * 2 + G.bar + G.tray;
  var BAR = 25, START = 26, OFF = 0;

  function fill(text, values) {
    return String(text).replace(/\{(\w+)\}/g, function (m, k) {
      return values[k] !== undefined ? values[k] : m;
    });
  }

  // ---- talking to the server -------------------------------------------------------
  var socket = null, live = false, failures = 0, everOpened = false, pollTimer = null;
  var reconnectTimer = null, pending = false, pingedAt = 0;

  function csrf() {
    var input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  function setConnection(text) { $("room-connection").textContent = text; }

  function send(message) {
    message.seq = state.seq;
    hideError();
    if (live && socket && socket.readyState === 1) {
      socket.send(JSON.stringify(message));
      return;
    }
    fetch(urls.action, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(message)
    }).then(function (r) { return r.json(); }).then(receive).catch(function () {
      pending = false;
      setConnection(L.reconnecting);
    });
  }

  function receive(msg) {
    if (!msg) { return; }
    if (msg.type === "error") {
      // a stale sequence number: the page was behind; the state that follows says it all
      if (msg.code !== "stale-seq") { showError(msg.detail); }
      pending = false;
      if (msg.state) { render(msg.state); }
      return;
    }
    if (msg.type === "state" && msg.state) { render(msg.state); }
    if (msg.type === "pong" && typeof msg.seq === "number" && msg.seq > state.seq && live && socket) {
      socket.send(JSON.stringify({ action: "sync", seq: state.seq }));  // a change was missed
    }
    if (msg.type === "pong" && msg.present_ms) {  // the players' presence, as of now
      Object.keys(msg.present_ms).forEach(function (side) {
        var p = state.players[side];
        if (!p) { return; }
        p.present_ms = msg.present_ms[side];
        p.connected = p.present_ms === null || p.present_ms > 0;
        p.at = Date.now();
      });
      renderPlayers();
    }
  }

  // whether a player is in the room: the server's word, for as long as it said it holds
  function present(p) {
    if (!p.connected) { return false; }
    return p.present_ms === null || p.present_ms === undefined ||
      Date.now() - (p.at || received) < p.present_ms;
  }

  function poll() {
    clearTimeout(pollTimer);
    fetch(urls.state, { credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (s) { render(s); })
      .catch(function () {})
      .then(function () {
        var every = urls.poll_ms || 3000;
        if (!live) { pollTimer = setTimeout(poll, document.hidden ? every * 3 : every); }
      });
  }

  function connect() {
    if (!window.WebSocket) { setConnection(L.polling); poll(); return; }
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    try {
      socket = new WebSocket(scheme + location.host + urls.socket);
    } catch (e) {
      socket = null;
      retry();
      return;
    }
    socket.onopen = function () {
      live = true; everOpened = true; failures = 0;
      clearTimeout(pollTimer);
      setConnection(L.connected_live);
      pingedAt = 0;
      socket.send(JSON.stringify({ action: "sync", seq: state.seq }));
    };
    socket.onmessage = function (e) {
      pingedAt = 0;  // the server hears us
      try { receive(JSON.parse(e.data)); } catch (err) { /* a broken message: the next state heals */ }
    };
    socket.onclose = function () {
      live = false; socket = null;
      retry();
    };
  }

  function retry() {
    failures += 1;
    setConnection(everOpened ? L.reconnecting : L.polling);
    poll();  // the truth from the database meanwhile
    clearTimeout(reconnectTimer);
    var wait = Math.min(1000 * Math.pow(2, failures - 1), 30000);
    if (!everOpened && failures > 3) { wait = 60000; }
    reconnectTimer = setTimeout(connect, wait);
  }

  // the heartbeat (docs/online.md, "Presence"): a live page pings every ping_ms, and the
  // server keeps the player present while it hears them; a ping the server has not
  // answered within two beats and a half means a dead socket (a killed server process):
  // it is closed, and the page reconnects. Measured from the ping, not from the last
  // message, so that a background tab whose timers the browser slows is not cut off.
  // A page that polls beats by its polls.
  var beat = urls.ping_ms || 10000;
  setInterval(function () {
    if (!live || !socket || socket.readyState !== 1) { return; }
    if (pingedAt && Date.now() - pingedAt > beat * 2.5) { socket.close(); return; }
    if (!pingedAt) { pingedAt = Date.now(); }
    socket.send(JSON.stringify({ action: "ping" }));
  }, beat);

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      if (live && socket) { socket.send(JSON.stringify({ action: "sync", seq: state.seq })); }
      else { clearTimeout(reconnectTimer); connect(); }
    }
  });

  // ---- errors ------------------------------------------------------------------------
  function showError(text) { var el = $("room-error"); el.textContent = text; el.hidden = false; }
  function hideError() { $("room-error").hidden = true; }

  // ---- moving by clicking ------------------------------------------------------------
  var done = [], selected = null, targets = [];

  function norm(p) { return p === START ? BAR : p; }

  // the steps of ``steps`` left after the user's moves (each a chain of steps), or null
  function consume(steps, moves) {
    if (!moves.length) { return steps.slice(); }
    var a = moves[0][0], b = moves[0][1];
    function chain(rest, from) {
      for (var i = 0; i < rest.length; i += 1) {
        if (norm(rest[i][0]) !== from) { continue; }
        var left = rest.slice(0, i).concat(rest.slice(i + 1));
        var to = rest[i][1];
        if (to === b) {
          var after = consume(left, moves.slice(1));
          if (after) { return after; }
        }
        if (to !== OFF) {
          var further = chain(left, to);
          if (further) { return further; }
        }
      }
      return null;
    }
    return chain(steps, a);
  }

  function candidates() {
    return (state.legal || []).filter(function (t) { return consume(t.steps, done) !== null; });
  }

  function reach(steps, from, out) {
    steps.forEach(function (s, i) {
      if (norm(s[0]) !== from) { return; }
      if (out.indexOf(s[1]) < 0) { out.push(s[1]); }
      if (s[1] !== OFF) { reach(steps.slice(0, i).concat(steps.slice(i + 1)), s[1], out); }
    });
    return out;
  }

  function sourcesAndTargets(from) {
    var sources = [], ends = [];
    if (stepped()) {
      ((stepInfo && stepInfo.next) || []).forEach(function (s) {
        if (sources.indexOf(s[0]) < 0) { sources.push(s[0]); }
        if (s[0] === from && ends.indexOf(s[1]) < 0) { ends.push(s[1]); }
      });
      return { sources: sources, targets: ends };
    }
    candidates().forEach(function (t) {
      var rest = consume(t.steps, done);
      rest.forEach(function (s) { if (sources.indexOf(norm(s[0])) < 0) { sources.push(norm(s[0])); } });
      if (from !== null) { reach(rest, from, ends); }
    });
    return { sources: sources, targets: ends };
  }

  function complete() {
    if (stepped()) {
      return stepInfo && stepInfo.complete ? [{ shown: stepInfo.movetext, movetext: stepInfo.movetext }] : [];
    }
    return candidates().filter(function (t) { return consume(t.steps, done).length === 0; });
  }

  function spot(p) {
    if (p === BAR) { return { x: G.margin + G.half + G.bar / 2, y: G.height / 2 + 40 }; }
    if (p === OFF) { return { x: G.width - G.tray + (G.tray - G.margin) / 2, y: G.height - G.margin - 40 }; }
    var top = p >= 13, column = top ? p - 13 : 12 - p;
    var x = G.margin + column * G.point + G.point / 2 + (column >= 6 ? G.bar : 0);
    return { x: x, y: top ? G.margin + 20 : G.height - G.margin - 20, top: top };
  }

  function hit(evt, svg) {
    var pt = svg.createSVGPoint();
    pt.x = evt.clientX; pt.y = evt.clientY;
    var ctm = svg.getScreenCTM();
    if (!ctm) { return null; }
    var p = pt.matrixTransform(ctm.inverse());
    var barLeft = G.margin + G.half, barRight = barLeft + G.bar;
    if (p.x >= G.width - G.tray) {
      if (p.y <= G.height / 2) { return null; }
      return selected === null && (free() || mayEnterFromTray()) ? BAR : OFF;
    }
    if (p.x >= barLeft && p.x < barRight) { return BAR; }
    if (p.x < G.margin || p.x > G.width - G.tray) { return null; }
    var x = p.x - G.margin - (p.x >= barRight ? G.bar : 0);
    var column = Math.max(0, Math.min(11, Math.floor(x / G.point)));
    return p.y < G.height / 2 ? 13 + column : 12 - column;
  }

  // Lurč's checkers that never entered wait in the tray: a click there picks one up
  function mayEnterFromTray() {
    return sourcesAndTargets(null).sources.indexOf(BAR) >= 0 && selected === null;
  }

  function svgEl(name, attrs) {
    var el = document.createElementNS("http://www.w3.org/2000/svg", name);
    Object.keys(attrs).forEach(function (k) { el.setAttribute(k, attrs[k]); });
    return el;
  }

  function drawOverlay() {
    var svg = $("room-board").querySelector("svg");
    if (!svg) { return; }
    var old = svg.querySelector("#room-overlay");
    if (old) { old.remove(); }
    var g = svgEl("g", { id: "room-overlay", "pointer-events": "none" });
    var mine = state.you === "black" ? "#2b2b2b" : "#f4efe3";
    done.forEach(function (m) {
      var a = spot(norm(m[0])), b = spot(m[1]);
      g.appendChild(svgEl("line", { x1: a.x, y1: a.y, x2: b.x, y2: b.y, class: "room-move-line" }));
      g.appendChild(svgEl("circle", { cx: b.x, cy: b.y, r: 15, fill: mine, class: "room-ghost" }));
      g.appendChild(svgEl("circle", { cx: a.x, cy: a.y, r: 6, class: "room-from" }));
    });
    if (selected !== null) {
      var s = spot(selected);
      g.appendChild(svgEl("circle", { cx: s.x, cy: s.y, r: 19, class: "room-selected" }));
      (free() ? [] : targets).forEach(function (t) {
        var c = spot(t);
        g.appendChild(svgEl("circle", { cx: c.x, cy: c.y, r: 9, class: "room-target" }));
      });
    }
    svg.appendChild(g);
  }

  function canMove() { return (state.can || []).indexOf("move") >= 0 && !pending; }

  // too many turns to list and no steps door to ask (a page without one): the player
  // moves freely on the board and the server judges the turn written from it
  function free() { return state.legal === null && !stepped(); }

  // a turn entered one die at a time: the steps door's answer for the steps in ``done``
  // (a houšek's: once its paš is chosen, asked with it; the door is the page's own, the
  // state names one only for a roll it does not list)
  var stepInfo = null, stepsAsked = null, door = root.getAttribute("data-steps-url");
  function stepsUrl() { return state.steps_url || (housek() && door) || null; }
  function stepped() { return Boolean(stepsUrl()); }
  function pasChosen() { return housek() ? $("room-pas").value : ""; }
  function stepsText() {
    return done.map(function (m) { return pointText(m[0]) + "/" + pointText(m[1]); }).join(" ");
  }
  function stepsKey() { return state.seq + ":" + pasChosen() + ":" + stepsText(); }
  function askSteps() {
    stepInfo = null;
    root.removeAttribute("data-steps-ready");
    if (!stepped() || !canMove() || (housek() && !pasChosen())) { return; }
    var asked = stepsAsked = stepsKey();
    var url = stepsUrl() + "?steps=" + encodeURIComponent(stepsText());
    if (housek()) { url += "&pas=" + encodeURIComponent(pasChosen()); }
    fetch(url, { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (r) {
      if (asked !== stepsAsked) { return; }  // the steps changed meanwhile
      if (r.type === "steps") {
        stepInfo = r;
        root.setAttribute("data-steps-ready", String(done.length));
      } else { showError(r.detail); }
      updateMoving();
    }).catch(function () { setConnection(L.reconnecting); });
  }

  function pointText(p) { return p === BAR || p === START ? "bar" : p === OFF ? "off" : String(p); }

  function writtenTurn() {
    var moves = done.map(function (m) { return pointText(m[0]) + "/" + pointText(m[1]); }).join(" ");
    var pas = pasChosen();
    return pas ? "+" + pas + pas + ": " + moves : moves;
  }

  function housek() {
    return Boolean(state.pas_choice);
  }

  function updateMoving() {
    var moving = canMove() && (free() || stepped() || (state.legal || []).some(function (t) { return t.steps.length; }));
    var ready = moving && !free() ? complete() : [];
    $("room-undo").hidden = !(moving && done.length);
    $("room-send").hidden = !(moving && (ready.length || (free() && done.length)));
    $("room-pas-field").hidden = !(moving && housek());
    var note = $("room-moving");
    note.hidden = !moving;
    if (moving) {
      if (ready.length) { note.textContent = fill(L.chosen, { turn: ready[0].shown }); }
      else if (free() && done.length) { note.textContent = fill(L.chosen, { turn: writtenTurn() }); }
      else if (stepped() && housek() && !pasChosen()) { note.textContent = $("room-pas-field").getAttribute("data-first"); }
      else if (selected !== null) { note.textContent = targets.length ? L.pick_target : L.no_target; }
      else if (stepped()) { note.textContent = L.steps_note; }
      else { note.textContent = ""; note.hidden = true; }
    }
    drawOverlay();
  }

  function pick(p) {
    if (p === null || !canMove() || (stepped() && housek() && !pasChosen())) { return false; }
    if (selected !== null && targets.indexOf(p) >= 0) {
      done.push([selected, p]);
      selected = null; targets = [];
      if (stepped()) { askSteps(); }
      updateMoving();
      return true;
    }
    if (free()) {  // every point may be a target: the server judges
      selected = p;
      targets = [];
      for (var q = 0; q <= 24; q += 1) { if (q !== p) { targets.push(q); } }
      updateMoving();
      return false;
    }
    var found = sourcesAndTargets(p);
    if (found.sources.indexOf(p) >= 0) {
      selected = p; targets = found.targets;
    } else {
      selected = p; targets = [];
    }
    updateMoving();
    return false;
  }

  var downAt = null;
  $("room-board").addEventListener("pointerdown", function (e) {
    var svg = $("room-board").querySelector("svg");
    if (!svg || !canMove()) { return; }
    var p = hit(e, svg);
    downAt = p;
    if (pick(p)) { downAt = null; }
  });
  $("room-board").addEventListener("pointerup", function (e) {
    var svg = $("room-board").querySelector("svg");
    if (!svg || downAt === null || selected === null) { downAt = null; return; }
    var p = hit(e, svg);
    if (p !== null && p !== downAt && targets.indexOf(p) >= 0) { pick(p); }  // a drag
    downAt = null;
  });

  $("room-undo").addEventListener("click", function () {
    done.pop(); selected = null; targets = [];
    if (stepped()) { askSteps(); }
    updateMoving();
  });
  $("room-send").addEventListener("click", function () {
    if (free()) { sendTurn(writtenTurn()); return; }
    var ready = complete();
    if (ready.length) { sendTurn(ready[0].movetext); }
  });
  $("room-pas").addEventListener("change", function () {
    // another paš: another turn, its steps from the start (its 1 and 2 first)
    if (stepped()) { done = []; selected = null; targets = []; askSteps(); }
    updateMoving();
  });

  function sendTurn(movetext) {
    if (pending) { return; }
    pending = true;
    send({ action: "move", turn: movetext });
  }

  // ---- the page drawn from a state ---------------------------------------------------
  var received = Date.now();
  var boardDrawn = null;

  function render(s) {
    var moved = s.seq !== state.seq || s.status !== state.status ||
      String(s.dice) !== String(state.dice) || s.turn !== state.turn;
    state = s;
    received = Date.now();
    // the page's state element holds the latest state (what a test or a script reads)
    document.getElementById("room-state").textContent = JSON.stringify(s);
    if (moved) { done = []; selected = null; targets = []; pending = false; $("room-pas").value = ""; }
    if (moved || (stepped() && !stepInfo && stepsAsked !== stepsKey())) { askSteps(); }
    if (moved || boardDrawn !== s.board_svg) {
      $("room-board").innerHTML = s.board_svg;
      boardDrawn = s.board_svg;
    }
    $("room-board").setAttribute("data-seq", String(s.seq));
    renderStatus(); renderPlayers(); renderCube(); renderLast(); renderButtons();
    renderTurns(); renderGames(); renderChat(); renderDice(); updateMoving();
    renderBotGames();
    maybeSeed();
  }

  // a finished bot room's games, kept with the player's games against the bot
  function renderBotGames() {
    var kept = state.bot_games || [], box = $("room-bot-games-links");
    $("room-bot-games").hidden = !kept.length;
    box.textContent = "";
    kept.forEach(function (b, i) {
      if (i) { box.appendChild(document.createTextNode(", ")); }
      var a = document.createElement("a");
      a.href = b.url;
      a.textContent = fill(L.bot_game, { n: b.number });
      box.appendChild(a);
    });
  }

  function sideName(side) { return side ? L[side] : ""; }

  function renderStatus() {
    var s = state, text = "";
    if (s.status === "waiting") { text = L.status_waiting; }
    else if (s.status === "playing") {
      var can = s.can || [];
      if (s.you && s.turn === s.you) {
        if (can.indexOf("take") >= 0) { text = L.your_turn_answer; }
        else if (can.indexOf("move") >= 0 && s.dice) { text = fill(L.your_turn_move, { dice: s.dice.join("-") }); }
        else { text = L.your_turn_roll; }
      } else if (s.turn) {
        text = fill(L.their_turn, { name: s.players[s.turn].name });
      }
      text = fill(L.status_playing, { game: s.game }) + " " + text;
      if (!s.you) { text += " " + L.you_watch; }
    } else if (s.status === "finished") {
      text = L.status_finished + " " + (s.winner ? fill(L.winner, { name: s.players[s.winner].name }) : L.series_drawn);
    } else { text = L.status_aborted; }
    $("room-status").textContent = text;
  }

  function clockText(side) {
    var c = state.clock;
    if (!c) { return ""; }
    if (c.correspondence_days) {
      return c.running === side && c.deadline ? fill(L.days_left, { when: new Date(c.deadline).toLocaleString() }) : "";
    }
    var ms = c[side + "_ms"], delay = 0;
    if (c.running === side) {
      var elapsed = Date.now() - received;
      var delayLeft = c.delay_ms;
      if (c.turn_started && c.deadline) {
        // the deadline is the turn's start plus its delay and the reserve it began with
        var total = Date.parse(c.deadline) - Date.now();
        var reserveAtStart = Date.parse(c.deadline) - Date.parse(c.turn_started) - c.delay_ms;
        delayLeft = Math.max(0, Math.min(c.delay_ms, total - reserveAtStart));
        ms = Math.max(0, Math.min(reserveAtStart, total));
      } else {
        ms = Math.max(0, ms - Math.max(0, elapsed - delayLeft));
        delayLeft = Math.max(0, delayLeft - elapsed);
      }
      delay = delayLeft;
    }
    var secs = Math.ceil(ms / 1000), m = Math.floor(secs / 60), sec = secs % 60;
    var text = m + ":" + (sec < 10 ? "0" : "") + sec;
    if (delay > 0) { text = fill(L.delay, { s: Math.ceil(delay / 1000) }) + " · " + text; }
    return text;
  }

  function renderPlayers() {
    var bottom = state.you || "white", top = bottom === "white" ? "black" : "white";
    [["player-bottom", bottom], ["player-top", top]].forEach(function (pair) {
      var el = $(pair[0]), side = pair[1], p = state.players[side];
      el.setAttribute("data-side", side);
      el.querySelector(".side-mark").textContent = L[side] + ":";
      el.querySelector(".name").textContent = p.name + (p.bot ? " (" + L.bot + ")" : "");
      // the viewer's own line never says so: the connection's line tells them
      el.querySelector(".left-mark").hidden = present(p) || side === state.you || state.status === "finished" ||
        state.status === "aborted";
      el.querySelector(".score").textContent = L.score + " " + state.score[side];
      el.querySelector(".clock").textContent = clockText(side);
      el.classList.toggle("on-turn", state.turn === side);
    });
  }

  function renderCube() {
    var c = state.cube, parts = [];
    if (c) {
      parts.push(fill(L.cube, { value: c.value }));
      if (c.offered_by) { parts.push(fill(L.cube_offered, { side: sideName(c.offered_by), value: c.value * 2 })); }
    }
    if (state.crawford) { parts.push(L.crawford); }
    $("room-cube").textContent = parts.join(" · ");
  }

  function renderLast() {
    var last = state.last;
    if (!last) { $("room-last").textContent = ""; return; }
    var who = state.players[last.side].name;
    $("room-last").textContent = last.shown
      ? fill(L.last, { side: who, dice: last.dice.join("-"), turn: last.shown })
      : fill(L.last_nothing, { side: who, dice: last.dice.join("-") });
  }

  function renderButtons() {
    var can = state.can || [];
    ["roll", "double", "take", "drop"].forEach(function (a) { $("room-" + a).hidden = can.indexOf(a) < 0; });
    $("room-resign").hidden = can.indexOf("resign") < 0;
    $("room-abort").hidden = can.indexOf("abort") < 0;
    var over = state.status === "finished" || state.status === "aborted";
    var r = over ? state.rematch : null;
    $("room-rematch").hidden = !(state.you && over) || Boolean(r);
    renderRematch(r);
  }

  // a finished series' rematch: the opponent's offer to accept or decline, one's own
  // waiting, and once accepted the new room, where both players' pages go
  var followed = false;
  function renderRematch(r) {
    $("room-rematch-offer").hidden = !r;
    if (!r) { return; }
    var text = "", link = $("room-rematch-room");
    $("room-rematch-answer").hidden = !(r.by === "opponent" && !r.room);
    $("room-rematch-challenge").value = String(r.challenge);
    if (r.room) {
      link.href = r.room_url;
      link.textContent = fill(L.rematch_ready, { id: r.room });
      if (state.you && !followed) { followed = true; location.assign(r.room_url); }
    } else if (r.by === "you") { text = L.rematch_waiting; }
    else { text = fill(L.rematch_offered, { name: r.from }); }
    link.hidden = !r.room;
    $("room-rematch-text").textContent = text;
    $("room-rematch-text").hidden = !text;
  }

  function renderTurns() {
    var box = $("room-turns"), legal = state.legal || [];
    box.textContent = "";
    $("room-legal").hidden = !(canMove() || (state.can || []).indexOf("move") >= 0) || !legal.length;
    legal.forEach(function (t) {
      var b = document.createElement("button");
      b.type = "button"; b.className = "secondary turn-choice";
      b.textContent = t.shown || L.pass;
      b.addEventListener("click", function () { sendTurn(t.movetext); });
      box.appendChild(b);
    });
  }

  function renderGames() {
    var list = $("room-games");
    list.textContent = "";
    (state.games || []).forEach(function (g) {
      var li = document.createElement("li");
      var result;
      if (!g.winner) { result = L.draw; }
      else {
        var pts = g.points === 1 ? L.points_one
          : fill(g.points >= 2 && g.points <= 4 ? L.points_few : L.points_many, { n: g.points });
        var kind = L["kind_" + g.kind] || g.kind;
        if (g.ended && g.ended !== "played") { kind += ", " + (L["ended_" + g.ended] || g.ended); }
        result = fill(L.won, { side: g[g.winner] || sideName(g.winner), kind: kind, points: pts });
      }
      li.textContent = fill(L.game_row, { n: g.number, result: result }) + " ";
      var a = document.createElement("a");
      a.href = g.record_url; a.textContent = L.record; a.setAttribute("download", "");
      li.appendChild(a);
      list.appendChild(li);
    });
  }

  function renderChat() {
    // the players write; a spectator reads (and has no switch: it is the players' chat)
    var box = $("room-chat"), can = state.can || [];
    box.hidden = !state.you && !(state.chat && state.chat.length);
    var off = state.chat === null;
    $("room-chat-off").hidden = off || !state.you;
    $("room-chat-on").hidden = !off || !state.you;
    $("room-chat-form").hidden = off || can.indexOf("chat") < 0;
    var lines = $("room-chat-lines");
    lines.textContent = "";
    if (off) {
      var li0 = document.createElement("li"); li0.className = "muted"; li0.textContent = L.chat_off;
      lines.appendChild(li0);
      return;
    }
    state.chat.forEach(function (c) {
      var li = document.createElement("li");
      var b = document.createElement("strong"); b.textContent = c.from + ": ";
      li.appendChild(b); li.appendChild(document.createTextNode(c.text));
      lines.appendChild(li);
    });
  }

  function renderDice() {
    $("room-hash").textContent = state.dice_hash || "–";
    $("room-client-seed").textContent = state.client_seed || "–";
    $("room-server-seed").textContent = state.server_seed || "–";
    $("room-dice-check").hidden = !state.server_seed;
  }

  // the browser's part of the dice: random hex, sent once before the first roll
  var seededAt = -1;
  function maybeSeed() {
    // sent again at a newer seq if the first one crossed the opponent's (stale-seq)
    if (seededAt === state.seq || (state.can || []).indexOf("seed") < 0) { return; }
    seededAt = state.seq;
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    var hex = Array.prototype.map.call(bytes, function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
    // shown in the dice panel at once (the connection's line keeps saying how the page is
    // connected); the room's state confirms it once the server has it
    $("room-client-seed").textContent = hex;
    $("room-client-seed").title = fill(L.seed_sent, { seed: hex });
    send({ action: "seed", seed: hex });
  }

  // ---- buttons -------------------------------------------------------------------------
  root.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-action]");
    if (!b || !root.contains(b)) { return; }
    send({ action: b.getAttribute("data-action") });
    if (b.closest("details")) { b.closest("details").open = false; }
  });
  $("room-chat-form").addEventListener("submit", function (e) {
    e.preventDefault();
    var input = $("room-chat-text");
    if (!input.value.trim()) { return; }
    send({ action: "chat", text: input.value });
    input.value = "";
  });
  $("room-dice-check").addEventListener("click", function () {
    var out = $("room-dice-result");
    out.textContent = L.checking;
    fetch(urls.dice, { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (r) {
      out.textContent = "";
      out.className = r.ok ? "dice-ok" : "dice-bad";
      r.lines.forEach(function (line) {
        var li = document.createElement("li"); li.textContent = line; out.appendChild(li);
      });
    }).catch(function () { out.textContent = L.check_failed; });
  });

  setInterval(function () {
    // the clocks count down, and a player whose presence ran out is marked gone
    if (state.status === "playing" || state.status === "waiting") { renderPlayers(); }
  }, 500);

  render(state);
  connect();
}());
