// The notifications page: subscribe this phone to the site's push messages (the site's
// service worker, /score-sw.js, shows them) or stop them.
"use strict";
(function () {
  var on = document.getElementById("push-on");
  var off = document.getElementById("push-off");
  var state = document.getElementById("push-state");
  if (!on || !state) return;
  function say(which) { state.textContent = state.getAttribute("data-" + which); }
  function csrf() {
    var m = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
    return m ? decodeURIComponent(m[1]) : "";
  }
  function key(base64) {
    var padded = (base64 + "===".slice((base64.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(padded), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) out[i] = raw.charCodeAt(i);
    return out;
  }
  function post(body) {
    return fetch(on.getAttribute("data-url"), {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
      body: JSON.stringify(body)
    });
  }
  if (!("serviceWorker" in navigator) || !("PushManager" in window)) { say("unsupported"); return; }
  if (window.Notification && Notification.permission === "denied") { say("denied"); return; }
  navigator.serviceWorker.register(on.getAttribute("data-worker"), {scope: "/"}).then(function (reg) {
    return reg.pushManager.getSubscription().then(function (sub) {
      on.hidden = !!sub; if (off) off.hidden = !sub; say(sub ? "on" : "off");
      on.addEventListener("click", function () {
        reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: key(on.getAttribute("data-key"))})
          .then(function (made) { return post(made.toJSON()); })
          .then(function () { on.hidden = true; if (off) off.hidden = false; say("on"); })
          .catch(function () { say(window.Notification && Notification.permission === "denied" ? "denied" : "off"); });
      });
      if (off) off.addEventListener("click", function () {
        reg.pushManager.getSubscription().then(function (current) {
          if (!current) return null;
          var endpoint = current.endpoint;
          return current.unsubscribe().then(function () { return post({endpoint: endpoint, drop: true}); });
        }).then(function () { on.hidden = false; off.hidden = true; say("off"); });
      });
    });
  }).catch(function () { say("unsupported"); });
})();
