// The score-entry pages as an installable web app: a table's entry page and the files it
// uses are kept on the phone, so that the page opens again when the hall's wifi is down.
// Network first: with a connection the server's page is used (and kept); without one, the
// page kept last time. Nothing else on the site is touched.
"use strict";

var CACHE = "score-entry-v1";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

function entryPage(url) { return /\/t\/\d+\/score\/$/.test(url.pathname); }
function asset(url) { return url.pathname.indexOf("/static/") === 0; }

function networkFirst(request, key) {
  return fetch(request).then(function (response) {
    if (response.ok) {
      var copy = response.clone();
      caches.open(CACHE).then(function (cache) { cache.put(key, copy); });
    }
    return response;
  }).catch(function () {
    return caches.match(key).then(function (kept) { return kept || Response.error(); });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request;
  if (request.method !== "GET") return;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate" && entryPage(url)) {
    event.respondWith(networkFirst(request, url.origin + url.pathname));
  } else if (asset(url)) {
    event.respondWith(networkFirst(request, request.url));
  }
});

// Push messages from the club (ledger/notify): shown as a notification; a tap opens the
// page the message is about.
self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (e) { data = {body: event.data ? event.data.text() : ""}; }
  event.waitUntil(self.registration.showNotification(data.title || "", {
    body: data.body || "", lang: data.lang || "", data: {url: data.url || "/"}, icon: "/static/favicon.svg"
  }));
});
self.addEventListener("notificationclick", function (event) {
  event.notification.close();
  var url = (event.notification.data && event.notification.data.url) || "/";
  event.waitUntil(self.clients.openWindow(url));
});
