// Score entry: show only the fields the chosen outcome needs, and add formset rows.
// Without JavaScript every field stays visible and the fixed rows still work.
(function () {
  "use strict";

  function switchValue(form, name) {
    var checked = form.querySelector('[data-switch="' + name + '"]:checked');
    if (checked) return checked.value;
    var select = form.querySelector('select[data-switch="' + name + '"]');
    return select ? select.value : null;
  }

  function refresh(form) {
    var values = [];
    form.querySelectorAll("[data-switch]").forEach(function (el) {
      var v = switchValue(form, el.getAttribute("data-switch"));
      if (v !== null && values.indexOf(v) < 0) values.push(v);
    });
    form.querySelectorAll("[data-when]").forEach(function (el) {
      var wanted = el.getAttribute("data-when").split(" ");
      var show = wanted.some(function (w) { return values.indexOf(w) >= 0; });
      var box = el.matches("input, select, textarea") ? el.closest(".field") || el : el;
      box.hidden = !show;
    });
  }

  function addRow(form, button) {
    var prefix = button.getAttribute("data-add-row");
    var total = form.querySelector('input[name="' + prefix + '-TOTAL_FORMS"]');
    var most = form.querySelector('input[name="' + prefix + '-MAX_NUM_FORMS"]');
    var template = document.getElementById(button.getAttribute("data-template"));
    var target = document.getElementById(button.getAttribute("data-rows"));
    if (!total || !template || !target) return;
    var n = parseInt(total.value, 10);
    if (most && n >= parseInt(most.value, 10)) { button.disabled = true; return; }
    var html = template.innerHTML.replace(/__prefix__/g, String(n)).replace(/__n__/g, String(n + 1));
    var holder = document.createElement("tbody");
    holder.innerHTML = html;
    var row = holder.firstElementChild;
    target.appendChild(row);
    total.value = String(n + 1);
    var first = row.querySelector("input, select");
    if (first) first.focus();
    form.dispatchEvent(new Event("row-added"));
  }

  function setUp(form) {
    form.addEventListener("change", function (event) {
      if (event.target.matches("[data-switch]")) refresh(form);
    });
    form.addEventListener("click", function (event) {
      var button = event.target.closest("[data-add-row]");
      if (button) { event.preventDefault(); addRow(form, button); }
    });
    refresh(form);
    showFirstProblem(form);
  }

  // After a refused submit the page comes back with each message at its field: the cursor
  // goes to the first field in error, or to the message at the top when no field is to blame.
  function showFirstProblem(form) {
    var target = null;
    var invalid = form.querySelector(".invalid input, .invalid select, .invalid textarea");
    if (invalid && !invalid.closest("[hidden]")) target = invalid;
    if (!target) target = form.querySelector("#form-errors");
    if (!target) return;
    target.focus({ preventScroll: true });
    target.scrollIntoView({ block: "center" });
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("form.score-form").forEach(setUp);
  });
})();
