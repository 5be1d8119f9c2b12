/* A digital table, live: a WebSocket tells this page when the table changed (its number
   of moves and its status, never a card); the page then fetches its own board, the view of
   its own seat. A dropped socket reconnects with a growing pause and catches up at once;
   where WebSockets cannot be had, the board's own polling (every 2 s) stays on.
   The socket also says which seats have their person's page open ("presence"): each seat's
   mark changes in place (its attribute and word), the board is not drawn again for it. */
(function () {
  "use strict";
  var script = document.currentScript;
  var boardUrl = script.dataset.board;
  var socketPath = script.dataset.socket;
  var status = document.getElementById("live-status");
  var delay = 500;
  var fetching = false;
  var refetch = false;  // a notice came while fetching: fetch once more after
  var over = false;
  window.playLive = false;

  function board() { return document.getElementById("board"); }
  function movesOf(el) { return parseInt(el.getAttribute("data-moves") || "0", 10); }
  function show(state) {
    if (!status) { return; }
    if (over) { state = over; }  // a game over stays over, whatever the socket does
    status.dataset.state = state;
    status.textContent = status.dataset[state] || "";
  }
  // Once the board says the game ended (finished, or timed out), the line says so: no move
  // will appear any more. Checked after every swap, live or polled.
  function settle() {
    var current = board();
    var state = current ? current.getAttribute("data-status") : "";
    if (!over && (state === "finished" || state === "abandoned")) {
      over = state;
      show(state);
    }
  }
  document.body.addEventListener("htmx:afterSettle", settle);
  document.body.addEventListener("play:drawn", settle);  // a board play.js drew (see refresh)

  // ``seats``: the seats changed (moves and status may not have), so an equal board is
  // swapped in too; otherwise only a newer one, so that a board the player is using is
  // never replaced by the same board (a click on it would be lost).
  var seatsChanged = false;
  function refresh(seats) {
    if (seats) { seatsChanged = true; }
    if (fetching) { refetch = true; return; }
    fetching = true;
    var wanted = seatsChanged ? 0 : 1;
    seatsChanged = false;
    fetch(boardUrl, { headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        // Drawn through play.js: never while a finger is on the board, never an older one.
        if (html && board()) { window.playBoard.offer(html, wanted); }
      })
      .catch(function () { /* the next notice or the reconnection catches up */ })
      .finally(function () {
        fetching = false;
        if (refetch) { refetch = false; refresh(); }
      });
  }

  // Presence: the seats whose person has the table open, as the socket said last. The marks
  // the server drew are kept as they are until the socket says otherwise; once it has, a
  // board drawn again (fetched before the news) is set to what the socket said.
  var present = null;
  function marks() {
    if (!present) { return; }
    document.querySelectorAll("[data-presence-seat]").forEach(function (mark) {
      var was = mark.getAttribute("data-presence");
      if (was === "bot" || !was) { return; }
      var seat = parseInt(mark.getAttribute("data-presence-seat"), 10);
      var now = present.indexOf(seat) >= 0 ? "here" : "away";
      if (now === was) { return; }
      mark.setAttribute("data-presence", now);
      var word = mark.querySelector(".presence-word");
      if (word) { word.textContent = mark.getAttribute("data-" + now) || now; }
    });
  }
  document.body.addEventListener("htmx:afterSettle", marks);
  document.body.addEventListener("play:drawn", marks);

  function changed(notice) {
    if (notice.kind === "presence") {
      if (Array.isArray(notice.here)) { present = notice.here; marks(); }
      return;
    }
    var current = board();
    if (!current) { return; }
    if (notice.moves > movesOf(current) || notice.status !== current.getAttribute("data-status") ||
        notice.kind === "seats") {
      refresh(notice.kind === "seats");
    }
  }

  // The line says the truth about the connection: "live" only while the socket answers;
  // "offline" while the browser says it has no network (no socket is tried until it is
  // back: a move would not be sent either); "reconnecting" while the network is there but
  // the socket is not. The page asks the server every PING ms (any frame is answered with
  // the table as it is); no answer within ANSWER ms and a new socket is tried.
  var PING = 20000;
  var ANSWER = 10000;
  var socket = null;
  var pinger = null;
  var waiting = null;

  function drop() {
    if (pinger !== null) { clearInterval(pinger); pinger = null; }
    if (waiting !== null) { clearTimeout(waiting); waiting = null; }
    var old = socket;
    socket = null;
    window.playLive = false;
    if (old) {
      old.onopen = old.onmessage = old.onclose = null;
      try { old.close(); } catch (e) { /* already closed */ }
    }
  }
  function offline() { return navigator.onLine === false; }
  function again() {
    if (over) { return; }
    if (offline()) { show("offline"); return; }  // the "online" event connects again
    show("reconnecting");
    setTimeout(connect, delay + Math.floor(Math.random() * delay / 2));
    delay = Math.min(delay * 2, 15000);
  }
  function ping() {
    if (!socket || socket.readyState !== 1 || waiting !== null) { return; }
    try { socket.send("{}"); } catch (e) { /* the answer's absence says it */ }
    waiting = setTimeout(function () { waiting = null; drop(); again(); }, ANSWER);
  }

  function connect() {
    if (socket || over) { return; }
    if (offline()) { show("offline"); return; }
    var made;
    try {
      made = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + socketPath);
    } catch (e) {
      show("polling");
      return;  // the board keeps polling
    }
    socket = made;
    made.onopen = function () {
      window.playLive = true;
      delay = 500;
      show("live");
      pinger = setInterval(ping, PING);
    };
    made.onmessage = function (e) {
      if (waiting !== null) { clearTimeout(waiting); waiting = null; }
      if (!window.playLive) { window.playLive = true; show("live"); }
      try { changed(JSON.parse(e.data)); } catch (err) { /* not a notice */ }
    };
    made.onclose = function (e) {
      drop();
      if (over) { return; }  // nothing more to catch up with
      // Refused (not a seat nor a member of the club) or no such table: the board polls.
      if (e.code === 4403 || e.code === 4404) { show("polling"); return; }
      again();
    };
  }
  window.addEventListener("offline", function () { if (socket) { drop(); } show("offline"); });
  window.addEventListener("online", function () {
    delay = 500;
    if (!socket && !over) { show("reconnecting"); connect(); }
  });

  if ("WebSocket" in window) { connect(); } else { show("polling"); }
})();
