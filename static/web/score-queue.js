// Offline score entry. A result typed while the phone has no connection is kept on the phone
// (localStorage) with its idempotency key, listed as waiting, and sent when the connection
// returns: on the "online" event, when any entry page opens, or with "Send now". The server
// records a key once, so a resend, a reload or a second tap never makes a second result; an
// entry leaves the phone only once the server has said it is recorded (or the scorekeeper
// discards one the server refused).
(function () {
  "use strict";

  var STORE = "ledger-score-queue";
  var sending = false;

  function load() {
    try { return JSON.parse(localStorage.getItem(STORE) || "[]"); } catch (e) { return []; }
  }
  function save(items) { localStorage.setItem(STORE, JSON.stringify(items)); }

  function freshKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID().replace(/-/g, "");
    return String(Date.now()) + Math.random().toString(16).slice(2);
  }

  // The keys this phone has sent or kept. A page keeps the key the server made when it
  // rendered it, so that a second tap, a resend or a page brought back with the browser's
  // Back button (its fields still typed) sends that key again and the server answers the
  // first result. Only a page whose key was used already and that was not brought back (the
  // offline copy the service worker keeps, loaded for the next hand) takes a fresh key.
  var USED = "ledger-score-used-keys";
  function used() {
    try { return JSON.parse(localStorage.getItem(USED) || "[]"); } catch (e) { return []; }
  }
  function markUsed(key) {
    var keys = used().filter(function (k) { return k !== key; });
    keys.push(key);
    try { localStorage.setItem(USED, JSON.stringify(keys.slice(-200))); } catch (e) { /* full */ }
  }
  function broughtBack() {
    var entries = window.performance && performance.getEntriesByType
      ? performance.getEntriesByType("navigation") : [];
    return entries.length > 0 && entries[0].type === "back_forward";
  }

  function words(box, name) { return box.getAttribute("data-" + name) || ""; }

  function render() {
    var box = document.getElementById("waiting");
    if (!box) return;
    var items = load();
    var list = box.querySelector("#waiting-list");
    list.innerHTML = "";
    items.forEach(function (item) {
      var li = document.createElement("li");
      li.className = "queued " + item.status;
      li.setAttribute("data-key", item.key);
      var when = new Date(item.at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
      var head = document.createElement("b");
      head.textContent = item.table + " · " + when;
      li.appendChild(head);
      var state = document.createElement("span");
      if (item.status === "refused") {
        state.textContent = " " + words(box, "refused") + " " + (item.problems || []).join(" ");
        var drop = document.createElement("button");
        drop.type = "button";
        drop.className = "secondary";
        drop.textContent = words(box, "discard");
        drop.addEventListener("click", function () {
          save(load().filter(function (i) { return i.key !== item.key; }));
          render();
        });
        li.appendChild(state);
        li.appendChild(drop);
      } else {
        state.textContent = " " + words(box, "waiting");
        li.appendChild(state);
      }
      list.appendChild(li);
    });
    box.hidden = items.length === 0;
    var note = box.querySelector("#waiting-note");
    note.textContent = navigator.onLine ? words(box, "online") : words(box, "offline");
  }

  function say(text) {
    var box = document.getElementById("waiting-sent");
    if (!box || !text) return;
    box.textContent = text;
    box.hidden = false;
  }

  function sendOne(item) {
    return fetch(item.url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Idempotency-Key": item.key, "Accept": "application/json" },
      body: new URLSearchParams(item.fields)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        var items = load();
        if (body.status === "recorded" || body.status === "already") {
          save(items.filter(function (i) { return i.key !== item.key; }));
          return 1;
        }
        if (response.status === 422) {
          items.forEach(function (i) {
            if (i.key === item.key) { i.status = "refused"; i.problems = body.problems || []; }
          });
          save(items);
        }
        return 0;  // anything else (logged out, server busy): it stays waiting
      });
    }).catch(function () { return 0; });  // no connection after all: it stays waiting
  }

  function flush() {
    if (sending || !navigator.onLine) return Promise.resolve(0);
    var waiting = load().filter(function (i) { return i.status === "waiting"; });
    if (!waiting.length) { render(); return Promise.resolve(0); }
    sending = true;
    var sent = 0;
    var chain = Promise.resolve();
    waiting.forEach(function (item) {
      chain = chain.then(function () { return sendOne(item); }).then(function (n) { sent += n; });
    });
    return chain.then(function () {
      sending = false;
      render();
      var box = document.getElementById("waiting");
      if (sent && box) say(words(box, "sent").replace("{n}", String(sent)));
      return sent;
    });
  }

  function keep(form) {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (typeof value === "string") fields.push([name, value]);
    });
    var token = form.querySelector('input[name="form_token"]');
    var key = token.value;
    markUsed(key);
    var items = load();
    if (!items.some(function (i) { return i.key === key; })) {
      items.push({
        key: key,
        url: form.action,
        table: form.getAttribute("data-table") || document.title,
        at: Date.now(),
        fields: fields,
        status: "waiting"
      });
      save(items);
    }
    // The form is ready for the next hand. It keeps the kept hand's key until something is
    // typed, so that a second tap on Record is the same hand, not an empty new one.
    form.reset();
    form.setAttribute("data-kept", key);
    form.dispatchEvent(new Event("change"));
    render();
    var box = document.getElementById("waiting");
    if (box) box.scrollIntoView({ block: "nearest" });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.querySelector("form.score-form[data-offline]");
    if (form) {
      // A new hand gets its own key when the page's key was used already (the phone's
      // copy of the page), never when the page was brought back to send the same hand.
      var token = form.querySelector('input[name="form_token"]');
      if (
        token && !form.querySelector(".invalid, #form-errors") && !broughtBack() &&
        used().indexOf(token.value) >= 0
      ) token.value = freshKey();
      var typed = function (event) {
        if (event.isTrusted && form.getAttribute("data-kept")) {
          form.removeAttribute("data-kept");
          token.value = freshKey();
        }
      };
      form.addEventListener("input", typed);
      form.addEventListener("change", typed);
      form.addEventListener("submit", function (event) {
        if (navigator.onLine || form.enctype === "multipart/form-data") {
          markUsed(token.value);
          return;
        }
        event.preventDefault();
        if (form.getAttribute("data-kept")) return;  // that hand is kept already
        if (!form.checkValidity()) { form.reportValidity(); return; }
        keep(form);
      });
      if ("serviceWorker" in navigator && form.getAttribute("data-worker")) {
        navigator.serviceWorker.register(form.getAttribute("data-worker")).catch(function () {});
      }
    }
    var now = document.getElementById("send-now");
    if (now) now.addEventListener("click", function () { flush(); });
    render();
    flush();
  });
  window.addEventListener("online", function () { render(); flush(); });
  window.addEventListener("offline", render);
})();
