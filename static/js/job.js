// Follow a running job: ask the API for its state every second and a half, move the
// progress bar, and load the page again (with its result) once the job has finished.
(function () {
  "use strict";
  var box = document.getElementById("job");
  if (!box || !window.fetch || box.dataset.finished === "1") return;
  var bar = document.getElementById("job-progress");
  var count = document.getElementById("job-count");
  var stage = document.getElementById("job-stage");

  function poll() {
    fetch(box.dataset.statusUrl, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (job) {
        if (!job) return;
        if (job.status === "done" || job.status === "failed") {
          window.location.reload();
          return;
        }
        if (job.total) {
          bar.max = job.total;
          bar.value = job.done;
          count.textContent = job.done + " / " + job.total;
        }
        stage.textContent = job.stage_text; // in the page's language (Accept-Language)
        setTimeout(poll, 1500);
      })
      .catch(function () { setTimeout(poll, 5000); });
  }
  setTimeout(poll, 1000);
})();
