"use strict";
// The report form's service worker, registered for /report and /report/receipt only (the
// dashboard's numbers never come from a kept copy). It keeps the form, the receipt page and their files on the
// device, so that the form opens with no network at all; a report written then waits in the
// device's outbox with its Idempotency-Key (outbox.js) and goes, once, when the network returns:
// sent from here on the browser's background sync, or by the form when it is next open. Besides
// the files, only what the form's lists are made of is kept (the layers and their areas' outlines,
// public data): a student can still pick a hall. Network first, so a new version shows at once,
// and the kept copy is used only when the network fails.
const SHELL = "geoserve-report-shell-2";
const FILES = ["/report", "/report/receipt", "/assets/dom.js", "/assets/outbox.js", "/assets/report.js", "/assets/pages.css", "/assets/icon.svg",
               "/manifest.webmanifest"];

importScripts("/assets/outbox.js");

// The network is back (or the browser tries again after a failed sync, with its own back-off):
// every waiting report goes with its key; the form shows the receipt when it is next opened.
self.addEventListener("sync", (event) => {
  if (event.tag === self.reportOutbox.SYNC_TAG) event.waitUntil(self.reportOutbox.sendAll());
});

// The form's lists: the published layers, and one layer's areas as the form asks for them.
const isFormList = (url) => url.pathname === "/v1/layers"
  || (/^\/collections\/[^/]+\/items$/.test(url.pathname) && url.search === "?limit=10000&f=json");

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== SHELL).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin) return;
  const key = FILES.includes(url.pathname) ? url.pathname : isFormList(url) ? url.pathname + url.search : null;
  if (!key) return;
  event.respondWith(fetch(event.request)
    .then((answer) => {
      if (answer.ok) {
        const copy = answer.clone();
        event.waitUntil(caches.open(SHELL).then((cache) => cache.put(key, copy)));
      }
      return answer;
    })
    .catch(() => caches.match(key).then((kept) => kept || Response.error())));
});
