// Follow a game's rollouts on its page: ask for their progress every two seconds, move
// each one's bar, and load the page again (with the results) once one has finished.
(function () {
  "use strict";
  var box = document.getElementById("rollouts");
  if (!box || !window.fetch) return;
  var done = Number(box.dataset.done);

  function poll() {
    fetch(box.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (state) {
        if (!state) return;
        if (state.done !== done || state.waiting.length === 0) {
          window.location.reload();
          return;
        }
        state.waiting.forEach(function (job) {
          var line = box.querySelector('[data-job="' + job.job + '"]');
          if (!line || !job.total) return;
          var bar = line.querySelector("progress");
          bar.max = job.total;
          bar.value = job.done;
          line.querySelector(".rollout-count").textContent = job.done + " / " + job.total;
        });
        setTimeout(poll, 2000);
      })
      .catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 1000);
})();
