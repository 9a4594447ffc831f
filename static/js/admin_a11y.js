// Django's admin widgets, named for assistive technology (loaded by
// templates/admin/base_site.html; the widgets are drawn by their scripts at various
// moments, so every change of the page is looked at):
// - the search icons of the two-list selector (SelectFilter2) carry an aria-label on a
//   plain span, which names nothing: they become images;
// - select2's autocomplete box is named by its current value only, empty when nothing is
//   chosen: it is named by the field's label too.
"use strict";

function nameAdminWidgets() {
  for (const icon of document.querySelectorAll(".help-tooltip[aria-label]:not([role])")) {
    icon.setAttribute("role", "img");
  }
  for (const select of document.querySelectorAll("select.admin-autocomplete")) {
    const label = select.id && document.querySelector(`label[for="${select.id}"]`);
    const box = select.nextElementSibling && select.nextElementSibling.querySelector(".select2-selection");
    if (!label || !box) continue;
    label.id = label.id || `${select.id}_label`;
    const shown = box.querySelector(".select2-selection__rendered");
    if (shown) {
      shown.setAttribute("aria-labelledby", label.id);
      box.setAttribute("aria-labelledby", `${label.id} ${shown.id}`);
    }
  }
}

nameAdminWidgets();
new MutationObserver(nameAdminWidgets).observe(document.body, {childList: true, subtree: true});
