// Pages that follow the results (templates/tournaments/_live.html, docs/live.md).
// Polls the tournament's version every few seconds with If-None-Match (a 304 costs the
// server one query); when it changes, fetches this page again and swaps each element
// marked data-live-part (by id), keeping the scroll position and the focus. Slower while
// the tab is hidden; "offline" while polling fails, retrying less and less often.
(function () {
  "use strict";
  var root = document.getElementById("live");
  if (!root || !window.fetch || !window.DOMParser) { return; }
  var url = root.getAttribute("data-live-url");
  var version = root.getAttribute("data-live-version");
  var interval = parseInt(root.getAttribute("data-live-interval"), 10) || 10000;
  var state = root.querySelector(".live-state");
  var announce = document.getElementById("live-announce");
  var etag = null;
  var failures = 0;
  var timer = null;
  var busy = false;

  function show(name) {
    root.hidden = false;
    root.setAttribute("data-state", name);
    state.textContent = root.getAttribute("data-label-" + name);
  }

  function schedule() {
    clearTimeout(timer);
    var wait = failures ? Math.min(interval * Math.pow(2, failures), 120000) : interval;
    if (document.hidden) { wait = Math.max(wait, interval * 6); }
    timer = setTimeout(poll, wait);
  }

  function focusKey(el) {
    if (!el || el === document.body) { return null; }
    if (el.id) { return { id: el.id }; }
    var href = el.getAttribute && el.getAttribute("href");
    return href ? { href: href } : null;
  }

  function refocus(key) {
    if (!key || (document.activeElement && document.activeElement !== document.body)) { return; }
    var el = key.id ? document.getElementById(key.id) : null;
    if (!el && key.href) {
      el = Array.prototype.find.call(document.querySelectorAll("[data-live-part] [href]"), function (a) {
        return a.getAttribute("href") === key.href;
      });
    }
    if (el && el.focus) { el.focus({ preventScroll: true }); }
  }

  function swap(html) {
    var fresh = new DOMParser().parseFromString(html, "text/html");
    var key = focusKey(document.activeElement);
    var x = window.scrollX, y = window.scrollY;
    var changed = false;
    document.querySelectorAll("[data-live-part][id]").forEach(function (part) {
      var next = fresh.getElementById(part.id);
      if (!next || next.innerHTML === part.innerHTML) { return; }
      var scrolled = {};
      part.querySelectorAll("[id][data-scrolls]").forEach(function (el) { scrolled[el.id] = el.scrollLeft; });
      part.innerHTML = next.innerHTML;
      Object.keys(scrolled).forEach(function (id) {
        var el = document.getElementById(id);
        if (el) { el.scrollLeft = scrolled[id]; }
      });
      part.classList.remove("live-flash");
      void part.offsetWidth;
      part.classList.add("live-flash");
      changed = true;
    });
    window.scrollTo(x, y);
    refocus(key);
    if (changed) {
      announce.textContent = "";
      setTimeout(function () { announce.textContent = root.getAttribute("data-label-updated"); }, 50);
      document.dispatchEvent(new CustomEvent("live:updated"));
    }
  }

  function refresh() {
    return fetch(window.location.href, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) {
        if (!r.ok) { throw new Error("page " + r.status); }
        return r.text();
      })
      .then(swap);
  }

  function poll() {
    if (busy) { return; }
    busy = true;
    var headers = { "Accept": "application/json" };
    if (etag) { headers["If-None-Match"] = etag; }
    var tag = null;
    fetch(url, { cache: "no-store", credentials: "same-origin", headers: headers })
      .then(function (r) {
        if (r.status === 304) { return null; }
        if (!r.ok) { throw new Error("live " + r.status); }
        tag = r.headers.get("ETag");
        return r.json();
      })
      .then(function (body) {
        if (!body) { return null; }
        var seen = String(body.version);
        if (seen === version) { etag = tag; return null; }
        // the ETag is kept only once the page shows that version: a failed refresh is retried
        return refresh().then(function () { version = seen; etag = tag; });
      })
      .then(function () { failures = 0; show("live"); }, function () { failures += 1; show("offline"); })
      .then(function () { busy = false; schedule(); });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) { clearTimeout(timer); poll(); }
  });
  show("live");
  schedule();
}());
