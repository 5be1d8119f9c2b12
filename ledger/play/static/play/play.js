/* A digital table under a finger: every tap on a choice of the board sends exactly one move,
   or the board says why not.

   - The board is never redrawn while a finger (or a mouse button) is down on it, nor in the
     moment after it is lifted, when the browser turns the touch into a click: a board that
     arrives then (the poll, a live refresh, the answer to a move) waits until the finger is
     lifted, so that the click meets the element the finger touched. A board older than the
     one shown is never drawn.
   - While a move is on its way the board's choices are disabled (a second tap cannot send a
     second move) and the board says that the move is being sent; if it could not be sent,
     it says so and the choices come back.
   live.js hands the boards it fetches to ``window.playBoard.offer``. */
(function () {
  "use strict";
  // A touch becomes a click a few milliseconds after the finger is lifted; a slow phone may
  // take longer. A finger held longer than HOLD_MAX (a press that went nowhere) holds no more.
  var AFTER_LIFT = 350;
  var HOLD_MAX = 8000;
  var pressed = false;
  var lifted = null;
  var pressedAt = 0;
  var sending = 0;
  var waiting = null;  // {html, wanted}: the newest board that arrived while held

  function board() { return document.getElementById("board"); }
  function movesOf(el) { return parseInt(el.getAttribute("data-moves") || "0", 10); }
  function fingerDown() {
    if (pressed && performance.now() - pressedAt > HOLD_MAX) { pressed = false; }
    return pressed || lifted !== null;
  }

  // How far a fragment's board is, compared with the board shown: -1 older, 0 as far, 1 newer.
  function compare(html) {
    var current = board();
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    var incoming = tpl.content.querySelector("#board");
    if (!current || !incoming) { return 1; }
    var a = movesOf(incoming), b = movesOf(current);
    if (a !== b) { return a < b ? -1 : 1; }
    return incoming.getAttribute("data-status") === current.getAttribute("data-status") ? 0 : 1;
  }

  // What the player set on a board (cards ticked, a move chosen in a list, a number typed)
  // is set again on the same board drawn anew (a seat's presence changed, nothing else).
  function keyOf(el) {
    var holder = el.closest("[id], [data-card]");
    var where = holder ? holder.id || holder.getAttribute("data-card") : "";
    var which = el.type === "checkbox" || el.type === "radio" ? el.value : "";
    return where + "|" + el.name + "|" + which;
  }
  function carried(html) {
    var current = board();
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    var set = {};
    current.querySelectorAll("input[name], select[name]").forEach(function (el) {
      if (el.type === "hidden") { return; }
      set[keyOf(el)] = el.type === "checkbox" || el.type === "radio" ? el.checked : el.value;
    });
    tpl.content.querySelectorAll("input[name], select[name]").forEach(function (el) {
      var was = set[keyOf(el)];
      if (was === undefined || el.type === "hidden") { return; }
      if (el.type === "checkbox" || el.type === "radio") {
        if (was) { el.setAttribute("checked", ""); } else { el.removeAttribute("checked"); }
      } else if (el.tagName === "SELECT") {
        el.querySelectorAll("option").forEach(function (o) {
          if (o.value === was) { o.setAttribute("selected", ""); } else { o.removeAttribute("selected"); }
        });
      } else {
        el.setAttribute("value", was);
      }
    });
    // The player is already at this choice: focusing its first control again would scroll
    // the page under a finger about to land.
    tpl.content.querySelectorAll("[autofocus]").forEach(function (el) { el.removeAttribute("autofocus"); });
    return tpl.innerHTML;
  }

  function swapIn(html, wanted) {
    var current = board();
    var how = current ? compare(html) : -1;
    if (how < wanted) { return false; }
    htmx.swap(current, how === 0 ? carried(html) : html, { swapStyle: "outerHTML" });
    document.body.dispatchEvent(new CustomEvent("play:drawn"));
    return true;
  }

  function movesIn(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    var b = tpl.content.querySelector("#board");
    return b ? movesOf(b) : -1;
  }
  // Of the boards that arrive while held, the newest is kept (an equal one replaces it:
  // the seats may have changed).
  function keep(html, wanted) {
    if (!waiting || movesIn(html) >= movesIn(waiting.html)) {
      waiting = { html: html, wanted: waiting ? Math.min(wanted, waiting.wanted) : wanted };
    }
  }

  function release() {
    if (fingerDown() || sending || !waiting) { return; }
    var next = waiting;
    waiting = null;
    swapIn(next.html, next.wanted);
  }

  // A board fetched by the page's script (live.js): drawn now if no finger is on the board
  // and no move is on its way, otherwise once they are done. ``wanted``: 1 to draw only a
  // newer board, 0 an equal one too. Returns whether it was drawn now.
  function offer(html, wanted) {
    if (fingerDown() || sending) { keep(html, wanted); return false; }
    return swapIn(html, wanted);
  }

  function down(event) {
    var b = board();
    if (!b || !(event.target instanceof Node) || !b.contains(event.target)) { return; }
    pressed = true;
    pressedAt = performance.now();
    if (lifted !== null) { clearTimeout(lifted); lifted = null; }
  }
  function up() {
    if (!pressed) { return; }
    pressed = false;
    if (lifted !== null) { clearTimeout(lifted); }
    lifted = setTimeout(function () { lifted = null; release(); }, AFTER_LIFT);
  }
  document.addEventListener("pointerdown", down, true);
  document.addEventListener("pointerup", up, true);
  document.addEventListener("pointercancel", up, true);

  function isMove(elt) {
    return elt instanceof Element && elt.tagName === "FORM" && !!elt.closest("#board") &&
      /\/act\/?$/.test(elt.getAttribute("hx-post") || "");
  }
  function say(key) {
    var line = document.getElementById("tap-status");
    if (!line) { return; }
    line.textContent = key ? line.dataset[key] || "" : "";
    line.hidden = !key;
  }
  function choices(disabled) {
    var b = board();
    if (!b) { return; }
    b.querySelectorAll("button.play-action, #your-turn select, #hand select").forEach(function (el) {
      el.disabled = disabled;
    });
    b.classList.toggle("sending", disabled);
  }

  document.body.addEventListener("htmx:beforeRequest", function (evt) {
    if (!isMove(evt.detail.elt)) { return; }
    sending += 1;
    choices(true);
    say("sending");
  });
  document.body.addEventListener("htmx:afterRequest", function (evt) {
    if (!isMove(evt.detail.elt)) { return; }
    sending = Math.max(0, sending - 1);
    if (!evt.detail.successful) {
      // Nothing came back (the connection dropped, the server failed): the move may not
      // have been made. The choices come back; the same tap sends the same move id, so a
      // move that was made after all is not made twice.
      choices(false);
      say("failed");
    }
    release();
  });

  // Every board htmx is about to draw in place of the board shown: the poll's and the
  // answer to a move. An older board is dropped; while a finger is on the board it waits.
  document.body.addEventListener("htmx:beforeSwap", function (evt) {
    var target = evt.detail.target;
    var xhr = evt.detail.xhr;
    if (!target || target.id !== "board" || !xhr || !evt.detail.shouldSwap) { return; }
    var html = xhr.responseText;
    if (compare(html) < 0) { evt.detail.shouldSwap = false; return; }
    var own = isMove(evt.detail.elt);
    if (fingerDown() || (sending && !own)) {
      evt.detail.shouldSwap = false;
      keep(html, 0);
    }
  });

  // A move that got no answer within this long is said to have failed (the connection may
  // be gone): the choices come back, and the same tap sends the same move id again.
  if (!htmx.config.timeout) { htmx.config.timeout = 20000; }

  // The move list: beside the board and open on a wide screen, under it and folded on a
  // phone; a list the player opened or closed stays so across redraws. Its newest move is
  // in sight: the list scrolls to its end whenever the board is drawn.
  var WIDE = window.matchMedia("(min-width: 1000px)");
  var logOpen = null;
  function moveLog() {
    var log = document.getElementById("move-log");
    if (!log) { return; }
    log.open = logOpen !== null ? logOpen : WIDE.matches;
    var list = log.querySelector("ol.moves");
    if (list) { list.scrollTop = list.scrollHeight; }
  }
  document.addEventListener("toggle", function (evt) {
    var log = evt.target;
    if (log instanceof Element && log.id === "move-log" && log.dataset.set === "1") {
      logOpen = log.open;
    }
  }, true);
  document.addEventListener("click", function (evt) {
    var summary = evt.target instanceof Element ? evt.target.closest("#move-log > summary") : null;
    if (summary) { summary.parentElement.dataset.set = "1"; }
  }, true);
  document.body.addEventListener("htmx:afterSettle", moveLog);
  document.body.addEventListener("play:drawn", moveLog);
  moveLog();

  window.playBoard = { offer: offer, compare: compare };
})();
