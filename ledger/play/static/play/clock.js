/* The board's clocks: the running one counts down from the seconds the server gave with
   the board (never from the browser's own date), and when it reaches zero the board is
   asked for again, so that the server, which alone decides a flag, says what follows. */
(function () {
  "use strict";
  var script = document.currentScript;
  var boardUrl = script && script.getAttribute("data-board");
  var asked = null;

  function text(seconds) {
    var s = Math.max(0, Math.floor(seconds));
    var h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    var two = function (n) { return (n < 10 ? "0" : "") + n; };
    return h ? h + ":" + two(m) + ":" + two(r) : m + ":" + two(r);
  }

  function askBoard(el) {
    if (!boardUrl || asked === el) { return; }
    asked = el;
    fetch(boardUrl, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        if (window.playBoard && window.playBoard.offer) { window.playBoard.offer(html, 0); }
        else { window.location.reload(); }
      })
      .catch(function () { asked = null; });
  }

  function tick() {
    var now = Date.now();
    document.querySelectorAll(".clock.running[data-left]").forEach(function (el) {
      if (!el.dataset.t0) { el.dataset.t0 = String(now); }
      var left = parseInt(el.dataset.left, 10) - (now - parseInt(el.dataset.t0, 10)) / 1000;
      var shown = el.querySelector(".clock-time");
      if (shown) { shown.textContent = text(left); }
      el.classList.toggle("low", left <= 10);
      if (left <= -0.5) { askBoard(el); }
    });
  }
  setInterval(tick, 250);
})();
