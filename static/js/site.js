// What the pages used to write in onclick=/onchange= attributes and inline <script>s, which the
// site's Content-Security-Policy refuses (ledger/web/csp.py). One listener per kind, so pages
// swapped in by htmx work without running anything of their own.
//   data-print           a link that prints the page
//   data-confirm="…"     a button (or link) that asks first; "Cancel" stops it
//   data-autosubmit      a select or box whose change sends its form
//   data-select-all      a field whose text is selected when it gets the focus
//   data-remember="key"  a checkbox kept in this browser (localStorage) under key
//   data-open-wide       a <details> opened on a screen wider than a phone's (folded on a phone)
(function () {
  "use strict";
  function remembered(root) {
    root.querySelectorAll("input[data-remember]").forEach(function (box) {
      try { box.checked = !!window.localStorage.getItem(box.dataset.remember); } catch (e) { /* private mode */ }
    });
  }
  document.addEventListener("click", function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    var print = target.closest("[data-print]");
    if (print) { event.preventDefault(); window.print(); return; }
    var ask = target.closest("[data-confirm]");
    if (ask && !window.confirm(ask.getAttribute("data-confirm"))) { event.preventDefault(); event.stopImmediatePropagation(); }
  }, true);
  document.addEventListener("change", function (event) {
    var target = event.target;
    if (!(target instanceof Element)) return;
    if (target.matches("input[data-remember]")) {
      try {
        if (target.checked) window.localStorage.setItem(target.dataset.remember, "1");
        else window.localStorage.removeItem(target.dataset.remember);
      } catch (e) { /* private mode */ }
    }
    if (target.matches("[data-autosubmit]") && target.form) target.form.submit();
  });
  document.addEventListener("focusin", function (event) {
    var target = event.target;
    if (target instanceof HTMLInputElement && target.matches("[data-select-all]")) target.select();
  });
  function openWide(root) {
    if (!window.matchMedia("(min-width: 40.01rem)").matches) return;
    root.querySelectorAll("details[data-open-wide]").forEach(function (d) { d.open = true; });
  }
  document.addEventListener("DOMContentLoaded", function () { remembered(document); openWide(document); });
  document.addEventListener("htmx:afterSwap", function (event) { remembered(event.target); });
})();
