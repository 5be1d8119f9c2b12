// Counts a round's clock down between the server's answers. Elements with data-left
// (seconds) count down while their data-state is "running"; with data-source, the page
// asks that address every 10 seconds for the clock and each table's time.
(function () {
  function text(seconds) {
    var s = Math.abs(Math.trunc(seconds)), sign = seconds < 0 ? "-" : "";
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var mm = (h ? String(m).padStart(2, "0") : String(m).padStart(2, "0"));
    return sign + (h ? h + ":" : "") + mm + ":" + String(r).padStart(2, "0");
  }
  var started = Date.now();
  function tick() {
    var gone = (Date.now() - started) / 1000;
    document.querySelectorAll("[data-left]").forEach(function (el) {
      var left = parseFloat(el.dataset.left);
      if (isNaN(left)) return;
      var now = el.dataset.state === "running" ? left - gone : left;
      var out = el.querySelector("[data-countdown]") || (el.hasAttribute("data-countdown") ? el : null);
      if (out) out.textContent = text(Math.max(now, 0));
      el.classList.toggle("up", now <= 0 && el.dataset.state !== "ready");
    });
  }
  function refresh(source) {
    fetch(source, { headers: { Accept: "application/json" } })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) return;
        started = Date.now();
        var main = document.getElementById("clock-big");
        if (main && data.left !== null) { main.dataset.left = data.left; main.dataset.state = data.state; }
        var state = document.getElementById("clock-state");
        if (state && state.dataset[data.state]) state.textContent = state.dataset[data.state];
        Object.keys(data.tables || {}).forEach(function (id) {
          var el = document.getElementById("table-left-" + id);
          if (el && data.tables[id].left !== null) { el.dataset.left = data.tables[id].left; el.dataset.state = data.state; }
        });
        tick();
      })
      .catch(function () {});
  }
  document.addEventListener("DOMContentLoaded", function () {
    tick();
    setInterval(tick, 1000);
    var holder = document.querySelector("[data-source]");
    if (holder) setInterval(function () { refresh(holder.dataset.source); }, 10000);
  });
})();
