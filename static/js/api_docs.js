// The API documentation pages (Swagger UI, Redoc) draw their markup from the schema and
// redraw parts of it whenever a reader opens an operation, tries it out or signs in:
// what that markup lacks for assistive technology is added here, after the first drawing
// and after every redraw. Both draw English text (the container says lang="en").
(function () {
  "use strict";
  function set(name, value) {
    return function (el) {
      el.setAttribute(name, typeof value === "function" ? value(el) : value);
    };
  }
  function unset(name) {
    return function (el) {
      el.removeAttribute(name);
    };
  }
  function operation(el) {
    // "POST /api/series/{id}/games/quick/", from the operation that holds el
    var block = el.closest(".opblock");
    var method = block && block.querySelector(".opblock-summary-method");
    var path = block && block.querySelector(".opblock-summary-path");
    return method && path ? method.textContent + " " + path.getAttribute("data-path") : "";
  }
  var FIXES = [
    // Swagger UI: its header (title, version, description) is the page's banner, the
    // "Authorize" button and its dialog a region named after the button
    ["#swagger-ui .information-container:not([role])", set("role", "banner")],
    ["#swagger-ui .scheme-container .btn.authorize:not([id])", set("id", "api-authorize")],
    ["#swagger-ui .scheme-container:has(.btn.authorize):not([role])", set("role", "region")],
    ["#swagger-ui .scheme-container:has(.btn.authorize):not([aria-labelledby])", set("aria-labelledby", "api-authorize")],
    ["#swagger-ui .modal-ux:not([role])", set("role", "dialog")],
    ["#swagger-ui .modal-ux:not([aria-modal])", set("aria-modal", "true")],
    ["#swagger-ui .modal-ux-header h3:not([id])", set("id", "api-authorizations")],
    ["#swagger-ui .modal-ux:not([aria-labelledby])", set("aria-labelledby", "api-authorizations")],
    ["#swagger-ui .modal-ux-header .close-modal:not([aria-label])", set("aria-label", "Close")],
    // Swagger UI: under its h1 the operations' headings start at h3: one level up each
    ["#swagger-ui :is(main, .modal-ux) :is(h2, h3, h4, h5, h6):not([aria-level])",
      set("aria-level", function (el) {
        return String(Math.max(2, Number(el.tagName.charAt(1)) - 1));
      })],
    // Swagger UI: each operation's responses table is a live region: name it apart
    ["#swagger-ui table.responses-table[role=region]:not([aria-label])",
      set("aria-label", function (el) {
        return "Responses " + operation(el);
      })],
    // Swagger UI: deep linking puts a link to the operation inside the button that opens
    // it (a control nested in a control): plain text there; opening the operation writes
    // its address (#/tag/operation) all the same
    ["#swagger-ui .opblock-summary-control a[href]", unset("href")],
    // Swagger UI: a parameter's choices (true/false, an enumeration) have no label
    ["#swagger-ui tr[data-param-name] select:not([aria-label])",
      set("aria-label", function (el) {
        return el.closest("tr").getAttribute("data-param-name");
      })],
    // Swagger UI: code examples and answers scroll (up to their height): by keyboard too
    ["#swagger-ui pre:not([tabindex])", set("tabindex", "0")],
    // Redoc: "Authorizations", "Parameters", "Request Body schema" are h5 under an h2
    ["redoc h5:not([aria-level])", set("aria-level", "3")],
  ];
  function fix() {
    FIXES.forEach(function (pair) {
      document.querySelectorAll(pair[0]).forEach(pair[1]);
    });
  }
  // attributes are not observed: setting them does not call fix again
  new MutationObserver(fix).observe(document.body, { childList: true, subtree: true });
  fix();
})();
