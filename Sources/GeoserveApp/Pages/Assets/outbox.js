"use strict";
// The report form's outbox on this device, shared by the form (report.js) and its service worker
// (sw.js). A report that has not been answered waits here with its Idempotency-Key, so that it
// goes, once, even when its tab was closed before the network came back: the worker sends it when
// the browser fires a background sync, and the form sends it when it is next opened, whichever
// comes first (the key makes the second a replay). What the worker sent with no tab open waits in
// `delivered` until the form shows its receipt. IndexedDB, because a worker can read neither
// session nor local storage. Every entry is deleted as soon as it is settled: a report stays on
// the device no longer than it takes to send it and show its receipt.
(function (scope) {
  const NAME = "geoserve-report";
  const WAITING = "waiting";
  const DELIVERED = "delivered";
  // The background sync's tag: one for the whole outbox, which is sent in full each time.
  const SYNC_TAG = "send-reports";

  // What an answer to a send says of it: "stored" (the report exists: its receipt is in the
  // answer), "refused" (nothing was stored under its key, so it may be dropped), or "unknown"
  // (no answer, or the service was busy: keep it and ask again later).
  function attemptOutcome(status) {
    if (status === 201) return "stored";
    if (!status || status === 408 || status === 429 || status >= 500) return "unknown";
    return "refused";
  }

  function post(body, key) {
    return fetch("/v1/reports", {method: "POST", headers: {"Content-Type": "application/json", "Accept": "application/json", "Idempotency-Key": key}, body});
  }

  if (typeof indexedDB === "undefined") {
    // Node, for the tests of the pure functions.
    module.exports = {attemptOutcome};
    return;
  }

  function open() {
    return new Promise((resolve, reject) => {
      const request = indexedDB.open(NAME, 1);
      request.onupgradeneeded = () => {
        for (const store of [WAITING, DELIVERED]) request.result.createObjectStore(store, {keyPath: "key"});
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }

  // One transaction over `stores`; resolves with the result of the request `act` returns.
  async function run(stores, mode, act) {
    const db = await open();
    try {
      return await new Promise((resolve, reject) => {
        const tx = db.transaction(stores, mode);
        const request = act(tx);
        tx.oncomplete = () => resolve(request && request.result);
        tx.onerror = tx.onabort = () => reject(tx.error);
      });
    } finally {
      db.close();
    }
  }

  const all = (store) => run([store], "readonly", (tx) => tx.objectStore(store).getAll());
  const put = (store, entry) => run([store], "readwrite", (tx) => tx.objectStore(store).put(entry));
  const remove = (store, key) => run([store], "readwrite", (tx) => tx.objectStore(store).delete(key));

  // The answer to a waiting report, kept for the form, unless a tab settled the report meanwhile
  // (that tab has shown the receipt itself): one transaction, so that the two cannot both.
  const deliver = (answer) => run([WAITING, DELIVERED], "readwrite", (tx) => {
    const waiting = tx.objectStore(WAITING);
    const still = waiting.get(answer.key);
    still.onsuccess = () => {
      if (!still.result) return;
      waiting.delete(answer.key);
      tx.objectStore(DELIVERED).put(answer);
    };
  });

  // Sends one waiting report as it was first sent. Once the service has answered for it, the
  // answer moves to `delivered` and the report leaves the device.
  async function sendWaiting(entry) {
    let answer;
    try { answer = await post(entry.body, entry.key); } catch (e) { return {outcome: "unknown"}; }
    const outcome = attemptOutcome(answer.status);
    let report = {};
    try { report = await answer.json(); } catch (e) { /* an answer without JSON: its status says enough */ }
    if (outcome !== "unknown") await deliver({key: entry.key, kind: entry.kind, outcome, status: answer.status, report});
    return {outcome, status: answer.status, report};
  }

  // Every waiting report, sent once more; throws while any is unanswered, which tells the
  // browser to fire the sync again later.
  async function sendAll() {
    let unanswered = 0;
    for (const entry of await all(WAITING)) {
      if ((await sendWaiting(entry)).outcome === "unknown") unanswered++;
    }
    if (unanswered) throw new Error(unanswered + " report(s) still waiting for the network");
  }

  scope.reportOutbox = {
    attemptOutcome,
    post,
    SYNC_TAG,
    // A report about to go (or gone without an answer): kept until it is settled.
    wait: (entry) => put(WAITING, {key: entry.key, kind: entry.kind, body: entry.body}),
    settled: (key) => remove(WAITING, key),
    waiting: () => all(WAITING),
    delivered: () => all(DELIVERED),
    shown: (key) => remove(DELIVERED, key),
    // The receipt of `id` is on screen: whatever the worker kept of it is done.
    shownReport: async (id) => {
      for (const done of await all(DELIVERED)) if (done.report && done.report.id === id) await remove(DELIVERED, done.key);
    },
    sendAll,
  };
})(typeof self !== "undefined" ? self : globalThis);
