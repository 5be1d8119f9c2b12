/* A digital table, live: a WebSocket tells this page when the table changed (its number
   of moves and its status, never a card); the page then fetches its own board, the view of
   its own seat. A dropped socket reconnects with a growing pause and catches up at once;
   where WebSockets cannot be had, the board's own polling (every 2 s) stays on. */
(function () {
  "use strict";
  var script = document.currentScript;
  var boardUrl = script.dataset.board;
  var socketPath = script.dataset.socket;
  var status = document.getElementById("live-status");
  var delay = 500;
  var fetching = false;
  var again = false;
  window.playLive = false;

  function board() { return document.getElementById("board"); }
  function movesOf(el) { return parseInt(el.getAttribute("data-moves") || "0", 10); }
  function show(state) {
    if (!status) { return; }
    status.dataset.state = state;
    status.textContent = status.dataset[state] || "";
  }

  // A board older than the one shown (an answer that crossed a newer one) is never swapped in.
  function older(html) {
    var current = board();
    if (!current) { return false; }
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    var incoming = tpl.content.querySelector("#board");
    return incoming !== null && movesOf(incoming) < movesOf(current);
  }
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    if (target && target.id === "board" && evt.detail.xhr && older(evt.detail.xhr.responseText)) {
      evt.detail.shouldSwap = false;
    }
  });

  function refresh() {
    if (fetching) { again = true; return; }
    fetching = true;
    fetch(boardUrl, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        var current = board();
        if (html && current && !older(html)) {
          htmx.swap(current, html, { swapStyle: "outerHTML" });
        }
      })
      .catch(function () { /* the next notice or the reconnection catches up */ })
      .finally(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
  }

  function changed(notice) {
    var current = board();
    if (!current) { return; }
    if (notice.moves > movesOf(current) || notice.status !== current.getAttribute("data-status") ||
        notice.kind === "seats") {
      refresh();
    }
  }

  function connect() {
    var socket;
    try {
      socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + socketPath);
    } catch (e) {
      show("offline");
      return;  // the board keeps polling
    }
    socket.onopen = function () { window.playLive = true; delay = 500; show("live"); };
    socket.onmessage = function (e) {
      try { changed(JSON.parse(e.data)); } catch (err) { /* not a notice */ }
    };
    socket.onclose = function () {
      window.playLive = false;
      show("reconnecting");
      setTimeout(connect, delay + Math.floor(Math.random() * delay / 2));
      delay = Math.min(delay * 2, 15000);
    };
  }

  if ("WebSocket" in window) { connect(); } else { show("offline"); }
})();
