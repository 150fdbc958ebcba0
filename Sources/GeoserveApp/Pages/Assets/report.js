"use strict";
// The script of the report form and the receipt page. The form is sent as the API's JSON with an
// Idempotency-Key made on the page and kept (with what was sent) in the tab's session storage
// until an answer arrives, so a send that met no network is sent again with the same key and can
// never make two reports. A kept send is settled by the page itself — sent again, unchanged, when
// the page loads, when the network returns, or before a different report goes — so nobody is
// asked to type a report twice. The API's problems are shown next to their fields, named by their
// labels. The limits on what may be typed come with the page from the server (maxlength,
// data-max): none is written here.
// The functions above the browser part are pure, so that node's tests can run them.
(function () {
  // Node, for the tests, has no window: it takes the pure functions and runs nothing.
  const inNode = typeof window === "undefined";
  const {$, el, say, getJSON, jsonOf, errorMessage} = inNode ? require("./dom.js") : dom;
  const {attemptOutcome} = inNode ? require("./outbox.js") : reportOutbox;

  // The draft as the API takes it, from the form's trimmed values (`value(name)`), its witnesses'
  // [contact, statement] pairs and where it happened ("area" or "point"): empty fields left out,
  // numbers as numbers.
  function draftFrom(kind, value, witnessRows, mode) {
    const d = {kind};
    const put = (name, v) => { if (v !== "") d[name] = v; };
    if (kind === "covid") {
      for (const name of ["affiliation", "phone", "testDate", "lastOnCampus", "diagnosis", "notes"]) put(name, value(name));
      if (value("age") !== "") d.age = Number(value("age"));
    } else {
      const local = value("occurredAt");
      if (local) d.occurredAt = withOffset(local, -new Date(local).getTimezoneOffset());
      for (const name of ["officerName", "badgeNumber", "officerDescription", "incidentDescription"]) put(name, value(name));
      const witnesses = [];
      for (const [contact, statement] of witnessRows) {
        if (contact || statement) witnesses.push(Object.assign({}, contact ? {contact} : {}, statement ? {statement} : {}));
      }
      if (witnesses.length) d.witnesses = witnesses;
      const victim = {};
      for (const k of ["race", "gender", "comments"]) if (value("victim." + k)) victim[k] = value("victim." + k);
      if (Object.keys(victim).length) d.victim = victim;
      d.anonymous = true;
    }
    // Nothing chosen: neither is sent, and the API's problem says what is missing.
    if (mode === "area") {
      const chosen = value("area.id");
      if (chosen) { const cut = chosen.indexOf("|"); d.area = {layer: chosen.slice(0, cut), id: chosen.slice(cut + 1)}; }
    } else {
      const lat = value("location.lat"), lon = value("location.lon");
      if (lat !== "" || lon !== "") d.location = {lat: Number(lat || NaN), lon: Number(lon || NaN)};
    }
    return d;
  }

  // A datetime-local value with an offset east of UTC in minutes, as RFC 3339 wants it.
  function withOffset(local, minutes) {
    const pad = (n) => String(Math.floor(Math.abs(n))).padStart(2, "0");
    return local + (local.length === 16 ? ":00" : "") + (minutes >= 0 ? "+" : "-") + pad(minutes / 60) + ":" + pad(minutes % 60);
  }

  // The attempt to send `body`, after `kept` (the tab's unanswered one, if any, already settled
  // when its body differs). The key stays until an answer arrives: the same key again means the
  // service stores at most one report, whatever the network did with the earlier sends.
  function nextAttempt(kept, body, newKey) {
    return kept && kept.body === body ? kept : {key: newKey(), body};
  }

  // A problem as the summary above the form says it: by the field's label on screen, not the
  // API's name for it.
  const problemText = (label, field, reason) => ((label || field) ? (label || field) + ": " : "") + reason;

  // What a refusal other than a field's problem tells the reporter.
  function refusal(status, error) {
    const messages = {409: error.message, 429: "Too many reports from this network just now; try again in a minute.",
                      413: "A field is too long.", 503: "The service is busy; try again in a moment (your report is kept)."};
    return messages[status] || error.message || ("The service answered " + status + ".");
  }

  // The receipt page's address fragment: browsers send it to no server and put it in no Referer.
  const receiptFragment = (id, receipt) => "id=" + encodeURIComponent(id) + "&receipt=" + encodeURIComponent(receipt);

  // The reports kept on this device, with `report` kept (once) or forgotten.
  const keeping = (list, report) => list.filter((k) => k.id !== report.id).concat([report]);
  const forgetting = (list, id) => list.filter((k) => k.id !== id);

  // How the files sent after the report fared, as the receipt page says it.
  const uploadSummary = (uploads) => uploads ? (uploads.done + " file(s) attached." + (uploads.failed.length ? " Not attached: " + uploads.failed.join("; ") : "")) : "";

  const EXPLAIN = {
    pending: "Received. It waits for a verifier; this page shows when that changes.",
    verified: "Verified. It counts towards the published numbers from the next publication (once enough reports have gathered in its area).",
    rejected: "Not verified: a verifier could not confirm it. It is not counted.",
    revoked: "Its verification was withdrawn. It is no longer counted.",
    withdrawn: "You withdrew it. It is not counted.",
  };

  if (inNode) {
    module.exports = {draftFrom, withOffset, nextAttempt, attemptOutcome, problemText, refusal, receiptFragment, keeping, forgetting, uploadSummary, EXPLAIN};
    return;
  }

  // MARK: the form

  function setupForm() {
    for (const radio of document.querySelectorAll("input[name=kind-choice]")) {
      radio.addEventListener("change", () => showKind(radio.value));
    }
    const wanted = new URLSearchParams(location.hash.slice(1)).get("kind");
    if (wanted === "misconduct") { document.querySelector("input[value=misconduct]").checked = true; showKind("misconduct"); }
    for (const form of document.querySelectorAll("form.report-form")) {
      setupPlace(form);
      form.addEventListener("submit", (e) => { e.preventDefault(); send(form).catch((err) => say(err.message, "error")); });
    }
    $("add-witness").addEventListener("click", addWitness);
    loadAreas();
    fromOutbox().catch(() => undefined).then(settleKept);
    window.addEventListener("online", settleKept);
  }

  // What the device's outbox holds from tabs that are gone: a report the service worker sent
  // meanwhile shows its receipt (or why it was refused); one still waiting becomes this tab's
  // kept send, which settleKept sends with its own key.
  async function fromOutbox() {
    if (typeof reportOutbox === "undefined" || typeof indexedDB === "undefined") return;
    for (const done of await reportOutbox.delivered()) {
      await reportOutbox.shown(done.key);
      const mine = attempts()[done.kind];
      if (mine && mine.key === done.key) keep(done.kind, null);
      if (done.outcome === "stored" && done.report.id) { await toReceipt(done.kind, done.report, []); return; }
      say("A report sent earlier from this device was not accepted: " + refusal(done.status, done.report.error || {}), "error");
    }
    for (const waiting of await reportOutbox.waiting()) {
      if (!attempts()[waiting.kind]) keep(waiting.kind, {key: waiting.key, body: waiting.body});
    }
  }

  // A report this tab sent without hearing back (the answer was lost, or the tab was reloaded
  // while it went): sent again unchanged with its key, which stores it at most once and answers
  // with its receipt either way.
  async function settleKept() {
    clearTimeout(settleKept.timer);
    for (const kind of Object.keys(attempts())) {
      const kept = attempts()[kind];
      if (!kept) continue;
      say("A report sent from this tab was not confirmed; checking with the service…", "warn");
      const outcome = await settle(kind, kept);
      if (outcome.result === "stored") { await toReceipt(kind, outcome.report, []); return; }
      if (outcome.result === "unknown") {
        say("A report sent from this tab is kept here and goes by itself when the service can be reached (it will not be counted twice).", "warn");
        retryLater();
        return;
      }
      say("A report sent earlier from this tab was not accepted: " + refusal(outcome.status, outcome.error), "error");
    }
  }

  // Sends a kept attempt again, unchanged; forgets it once the service has answered for it.
  async function settle(kind, kept) {
    let answer;
    try { answer = await post(kept.body, kept.key); } catch (e) { return {result: "unknown"}; }
    const result = attemptOutcome(answer.status);
    const body = await jsonOf(answer);
    if (result !== "unknown") keep(kind, null);
    return {result, status: answer.status, report: body, error: body.error || {}};
  }

  function showKind(kind) {
    for (const form of document.querySelectorAll("form.report-form")) form.hidden = form.dataset.kind !== kind;
    clearProblems();
    say("");
    for (const map of maps) map.invalidateSize();
  }

  // A witness's fields, as many as the server takes and as long as it takes them (the box's data-).
  function addWitness() {
    const box = $("witnesses");
    const n = box.children.length;
    if (n >= Number(box.dataset.max)) return;
    const row = el("div", {class: "witness"});
    const contact = el("div", {class: "field"});
    contact.append(el("label", {for: "w" + n + "-contact"}, "Witness " + (n + 1) + ": how to reach them"),
                   el("input", {id: "w" + n + "-contact", name: "witnesses[" + n + "].contact", maxlength: box.dataset.contactMaxlength}));
    const statement = el("div", {class: "field"});
    statement.append(el("label", {for: "w" + n + "-statement"}, "What they saw"),
                     el("textarea", {id: "w" + n + "-statement", name: "witnesses[" + n + "].statement", rows: "2", maxlength: box.dataset.statementMaxlength}));
    row.append(contact, statement);
    box.append(row);
    row.querySelector("input").focus();
  }

  // The published area layers' names.
  async function areaLayers() {
    const {body} = await getJSON("/v1/layers");
    return body.layers.filter((l) => l.kind === "areas" && l.publishedVersion).map((l) => l.name);
  }

  // A layer's areas, fetched once per page however many lists and maps show them.
  const fetched = new Map();
  const areasOf = (layer) => {
    if (!fetched.has(layer)) {
      // A failed fetch is not kept: the next list or map asks again.
      fetched.set(layer, getJSON("/collections/" + encodeURIComponent(layer) + "/items?limit=10000&f=json", {accept: "application/geo+json"})
        .catch((e) => { fetched.delete(layer); throw e; }));
    }
    return fetched.get(layer);
  };

  // The area lists: the COVID form's halls, the misconduct form's areas of every layer.
  async function loadAreas() {
    let layers = [];
    try { layers = await areaLayers(); } catch (e) { return; }
    for (const select of document.querySelectorAll("select[data-layer-choice]")) {
      const preferred = select.dataset.layerChoice;
      const chosen = preferred && layers.includes(preferred) ? [preferred] : layers;
      for (const layer of chosen) {
        let features = [];
        try { features = (await areasOf(layer)).body.features; } catch (e) { continue; }
        const group = chosen.length > 1 ? el("optgroup", {label: layer}) : select;
        features.map((f) => ({id: f.id, name: f.properties.name || f.id})).sort((a, b) => a.name.localeCompare(b.name))
          .forEach((a) => group.append(el("option", {value: layer + "|" + a.id}, a.name)));
        if (group !== select) select.append(group);
      }
    }
  }

  // Where: an area from the list or a point (the map fills the numbers; they can be typed).
  const maps = [];
  function setupPlace(form) {
    const place = form.querySelector("[data-place]");
    if (!place) return;
    const radios = place.querySelectorAll("input[type=radio]");
    const show = () => {
      const mode = [...radios].find((r) => r.checked).value;
      for (const part of place.querySelectorAll("[data-mode]")) part.hidden = part.dataset.mode !== mode;
      for (const map of maps) map.invalidateSize();
    };
    for (const r of radios) r.addEventListener("change", show);
    show();
    const box = place.querySelector(".small-map");
    if (!window.L || !box) { if (box) box.hidden = true; return; }
    const map = L.map(box, {zoomControl: true});
    maps.push(map);
    // The areas' outlines, named, to find one's way: no numbers on a map for picking a place.
    outlines().then((collection) => {
      if (!collection || !collection.features.length) { map.setView([0, 0], 2); return; }
      const drawn = L.geoJSON(collection, {style: {weight: 1, color: "#555", fillColor: "#0b5394", fillOpacity: 0.08}}).addTo(map);
      // A node, not a string: Leaflet puts a string in as markup, and area names come from uploads.
      drawn.eachLayer((l) => l.bindTooltip(el("span", {}, l.feature.properties.name || l.feature.id)));
      map.fitBounds(drawn.getBounds());
    }).catch(() => map.setView([0, 0], 2));
    let marker = null;
    map.on("click", (e) => {
      form.querySelector("[name='location.lat']").value = e.latlng.lat.toFixed(6);
      form.querySelector("[name='location.lon']").value = e.latlng.lng.toFixed(6);
      if (marker) marker.setLatLng(e.latlng); else marker = L.circleMarker(e.latlng, {radius: 8}).addTo(map);
    });
  }

  // The campus's outlines, read once for every map: the halls, or the first area layer.
  let outlinesRead = null;
  function outlines() {
    if (!outlinesRead) {
      outlinesRead = areaLayers().then((names) => {
        const layer = names.includes("halls") ? "halls" : names[0];
        return layer ? areasOf(layer).then((answer) => answer.body) : null;
      });
    }
    return outlinesRead;
  }

  function draft(form) {
    const value = (name) => { const e = form.querySelector("[name='" + name + "']"); return e ? e.value.trim() : ""; };
    const witnesses = [...form.querySelectorAll(".witness")].map((row) => [row.querySelector("input").value.trim(), row.querySelector("textarea").value.trim()]);
    const mode = [...form.querySelectorAll("[data-place] input[type=radio]")].find((r) => r.checked).value;
    return draftFrom(form.dataset.kind, value, witnesses, mode);
  }

  // MARK: sending, safely more than once

  const STORE = "geoserve.report.attempts";
  // A changed form whose first version had already arrived: offered on the receipt page as a new report.
  const OFFER = "geoserve.report.offer";
  function attempts() { try { return JSON.parse(sessionStorage.getItem(STORE) || "{}"); } catch (e) { return {}; } }
  // The outbox's writes, one after the other in the order keep() asked for them: each opens a
  // connection of its own, so the removal of a report that went, asked for after its put, could
  // land first and leave the report on the device (5 of 16 sends), and the next visit jumped to
  // its old receipt.
  let outboxWrites = Promise.resolve();
  function inOrder(write) { outboxWrites = outboxWrites.then(write).catch(() => undefined); }
  // The tab's kept send, mirrored in the device's outbox so that it outlives the tab (a browser
  // without IndexedDB, or one that refuses it, still has the tab's copy).
  function keep(kind, attempt) {
    const all = attempts();
    const earlier = all[kind];
    if (attempt) all[kind] = attempt; else delete all[kind];
    sessionStorage.setItem(STORE, JSON.stringify(all));
    if (typeof reportOutbox === "undefined") return;
    if (earlier && (!attempt || earlier.key !== attempt.key)) inOrder(() => reportOutbox.settled(earlier.key));
    if (attempt) inOrder(() => reportOutbox.wait({key: attempt.key, kind, body: attempt.body}));
  }
  function newKey() {
    const bytes = new Uint8Array(24);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  const post = (body, key) => reportOutbox.post(body, key);

  async function send(form) {
    const kind = form.dataset.kind;
    clearProblems();
    const body = JSON.stringify(draft(form));
    const button = form.querySelector("button[type=submit]");
    // A second tap while a send is under way sends nothing more.
    if (button.disabled) return;
    button.disabled = true;
    try { await sendBody(form, kind, body); } finally { button.disabled = false; }
  }

  async function sendBody(form, kind, body) {
    const files = kind === "misconduct" ? [...$("m-files").files] : [];
    let kept = attempts()[kind];
    if (kept && kept.body !== body) {
      // An earlier send from this tab is unanswered and the form has changed since: settle the
      // earlier one first. If it arrived, its receipt is the answer, and the changes are offered
      // as a new report there; if it never did, the new form goes on its own.
      say("Checking an earlier report from this tab…");
      const earlier = await settle(kind, kept);
      if (earlier.result === "stored") {
        sessionStorage.setItem(OFFER, JSON.stringify({kind, body}));
        await toReceipt(kind, earlier.report, []);
        return;
      }
      if (earlier.result === "unknown") { notSent(); return; }
      kept = undefined;
    }
    const attempt = nextAttempt(kept, body, newKey);
    keep(kind, attempt);
    say("Sending…");
    let answer;
    try { answer = await post(body, attempt.key); } catch (e) { notSent(); return; }
    const result = await jsonOf(answer);
    const error = result.error || {};
    const outcome = attemptOutcome(answer.status);
    if (outcome === "stored") { keep(kind, null); await toReceipt(kind, result, files); return; }
    if (outcome === "unknown") { say(refusal(answer.status, error), "error"); return; }
    // Refused: nothing was stored under the key, so the corrected report gets a new one.
    keep(kind, null);
    if (answer.status === 422 && error.code === "invalid") {
      showProblems(form, error.problems || [{field: error.field || "", reason: error.message}]);
      say("Please correct the fields marked below.", "error");
      return;
    }
    say(refusal(answer.status, error), "error");
  }

  // The device may be online while the service is not: look again every 20 seconds as well as
  // when the browser says the network is back.
  function retryLater() {
    clearTimeout(settleKept.timer);
    settleKept.timer = setTimeout(settleKept, 20000);
  }

  function notSent() {
    retryLater();
    // The browser's background sync sends the outbox through the worker when the network is
    // back, the tab closed or not; where there is none, the form does when it is next opened.
    if ("serviceWorker" in navigator) {
      navigator.serviceWorker.ready.then((r) => r.sync && r.sync.register(reportOutbox.SYNC_TAG)).catch(() => undefined);
    }
    say("Not sent: the service could not be reached. Your report is kept on this device and goes by itself when you are online, " +
        "even if you close this page (or press Send report again) — it will not be counted twice.", "error");
  }

  async function toReceipt(kind, report, files) {
    await uploadLater(report, files);
    // The outbox's writes finish before the page goes: one still queued when it leaves is lost,
    // and the report that went would stay on the device.
    await outboxWrites;
    location.assign("/report/receipt#" + receiptFragment(report.id, report.receipt || ""));
  }

  // Files go up one by one after the report, with its receipt; the receipt page says how it went.
  async function uploadLater(report, files) {
    if (!files.length) return;
    let done = 0, failed = [];
    for (const file of files) {
      try {
        const r = await fetch("/v1/reports/" + encodeURIComponent(report.id) + "/attachments",
                              {method: "POST", headers: {"Content-Type": file.type || "application/octet-stream", "X-Receipt-Token": report.receipt}, body: file});
        if (r.ok) done++; else failed.push(file.name + ": " + (errorMessage(await jsonOf(r)) || r.status));
      } catch (e) { failed.push(file.name + ": not sent"); }
    }
    sessionStorage.setItem("geoserve.report.uploads", JSON.stringify({done, failed}));
  }

  // MARK: problems next to their fields

  function fieldFor(form, path) {
    const exact = form.querySelector("[name='" + CSS.escape(path) + "']");
    if (exact) return exact;
    // "Where" as a whole (neither given): the control the person is looking at.
    if (path === "location" || path === "area") {
      const mode = [...form.querySelectorAll("[data-place] input[type=radio]")].find((r) => r.checked);
      return form.querySelector(mode && mode.value === "point" ? "[name='location.lat']" : "[name='area.id']");
    }
    if (path.startsWith("area")) return form.querySelector("[name='area.id']");
    if (path.startsWith("location")) return form.querySelector("[name='location.lat']");
    if (path.startsWith("witnesses")) return form.querySelector(".witness input") || $("add-witness");
    return null;
  }

  function showProblems(form, problems) {
    const summary = $("summary");
    const list = el("ul");
    problems.forEach((p, i) => {
      const field = fieldFor(form, p.field);
      const text = problemText(labelText(field), p.field, p.reason);
      if (field) {
        const id = "problem-" + i;
        const message = el("p", {class: "problem", id}, p.reason);
        const holder = field.closest(".field") || field.parentElement;
        holder.classList.add("invalid");
        holder.append(message);
        field.setAttribute("aria-invalid", "true");
        field.setAttribute("aria-describedby", ((field.getAttribute("aria-describedby") || "") + " " + id).trim());
        const link = el("a", {href: "#" + (field.id || "")}, text);
        const li = el("li");
        li.append(link);
        list.append(li);
      } else {
        list.append(el("li", {}, text));
      }
    });
    summary.replaceChildren(el("strong", {}, "The report was not sent:"), list);
    summary.hidden = false;
    summary.focus();
  }

  // A field's label as read on screen, without its hint ("for the health office to reach you").
  function labelText(field) {
    const label = field && field.labels && field.labels[0];
    if (!label) return "";
    const copy = label.cloneNode(true);
    for (const hint of copy.querySelectorAll(".hint")) hint.remove();
    return copy.textContent.trim();
  }

  function clearProblems() {
    for (const p of document.querySelectorAll(".problem")) p.remove();
    for (const f of document.querySelectorAll(".invalid")) f.classList.remove("invalid");
    for (const f of document.querySelectorAll("[aria-invalid]")) { f.removeAttribute("aria-invalid"); f.removeAttribute("aria-describedby"); }
    const summary = $("summary");
    if (summary) { summary.hidden = true; summary.replaceChildren(); }
  }

  // MARK: the receipt page

  const KEPT = "geoserve.receipts";
  function kept() { try { return JSON.parse(localStorage.getItem(KEPT) || "[]"); } catch (e) { return []; } }
  function setKept(list) { localStorage.setItem(KEPT, JSON.stringify(list)); renderKept(); }

  function setupReceipt() {
    const hash = new URLSearchParams(location.hash.slice(1));
    $("lookup").addEventListener("submit", (e) => {
      e.preventDefault();
      const id = $("r-id").value.trim(), receipt = $("r-receipt").value.trim();
      if (id && receipt) { location.hash = receiptFragment(id, receipt); }
    });
    window.addEventListener("hashchange", () => show(new URLSearchParams(location.hash.slice(1))));
    renderKept();
    if (hash.get("id")) show(hash);
  }

  function renderKept() {
    const list = kept();
    $("kept-box").hidden = list.length === 0;
    $("kept").replaceChildren(...list.map((k) => {
      const li = el("li");
      li.append(el("a", {href: "#" + receiptFragment(k.id, k.receipt)},
                   (k.kind === "misconduct" ? "Misconduct report" : "COVID-19 self-report") + " sent " + new Date(k.sent).toLocaleDateString()));
      return li;
    }));
  }

  let current = null;
  async function show(hash) {
    const id = hash.get("id"), receipt = hash.get("receipt");
    if (!id || !receipt) return;
    let r;
    try {
      r = await fetch("/v1/reports/" + encodeURIComponent(id), {headers: {Accept: "application/json", "X-Receipt-Token": receipt}});
    } catch (e) { say("The service could not be reached; try again when you are online.", "error"); return; }
    if (r.status === 404) { $("receipt").hidden = true; say("No report matches this report and receipt.", "error"); return; }
    if (!r.ok) { say("The service answered " + r.status + ".", "error"); return; }
    const report = await r.json();
    current = {id, receipt, kind: report.kind, sent: report.submittedAt};
    $("receipt").hidden = false;
    $("receipt-status").textContent = report.status;
    $("receipt-status").className = "mid state-" + report.status;
    $("receipt-explain").textContent = EXPLAIN[report.status] || "";
    $("receipt-id").textContent = id;
    if (typeof reportOutbox !== "undefined" && typeof indexedDB !== "undefined") reportOutbox.shownReport(id).catch(() => undefined);
    $("receipt-token").textContent = receipt;
    $("receipt-sent").textContent = new Date(report.submittedAt).toLocaleString();
    $("withdraw").hidden = report.status !== "pending";
    const isKept = kept().some((k) => k.id === id);
    $("remember").hidden = isKept;
    $("forget").hidden = !isKept;
    const uploads = JSON.parse(sessionStorage.getItem("geoserve.report.uploads") || "null");
    sessionStorage.removeItem("geoserve.report.uploads");
    $("upload-status").textContent = uploadSummary(uploads);
    say("");
    $("offer").hidden = !sessionStorage.getItem(OFFER);
    // While it waits, the page looks again every minute: the reporter sees the change.
    clearTimeout(show.timer);
    if (report.status === "pending") show.timer = setTimeout(() => show(new URLSearchParams(location.hash.slice(1))), 60000);
  }

  function setupReceiptActions() {
    // The changes made after a first version had arrived: sent as a report of their own through
    // the form, which sends a kept report by itself when it opens (with its own key, once).
    $("offer-send").addEventListener("click", () => {
      const offer = JSON.parse(sessionStorage.getItem(OFFER) || "null");
      sessionStorage.removeItem(OFFER);
      if (!offer) return;
      keep(offer.kind, {key: newKey(), body: offer.body});
      outboxWrites.then(() => location.assign("/report#kind=" + encodeURIComponent(offer.kind)));
    });
    $("offer-discard").addEventListener("click", () => { sessionStorage.removeItem(OFFER); $("offer").hidden = true; });
    $("remember").addEventListener("click", () => {
      if (!current) return;
      setKept(keeping(kept(), current));
      $("remember").hidden = true; $("forget").hidden = false;
    });
    $("forget").addEventListener("click", () => {
      if (!current) return;
      setKept(forgetting(kept(), current.id));
      $("remember").hidden = false; $("forget").hidden = true;
    });
    $("withdraw").addEventListener("click", async () => {
      if (!current || !confirm("Withdraw this report? It will not be counted.")) return;
      const r = await fetch("/v1/reports/" + encodeURIComponent(current.id) + "/withdraw", {method: "POST", headers: {"X-Receipt-Token": current.receipt}});
      if (r.ok) show(new URLSearchParams(receiptFragment(current.id, current.receipt)));
      else say(errorMessage(await jsonOf(r)) || "Not withdrawn.", "error");
    });
  }

  document.addEventListener("DOMContentLoaded", () => {
    // The form and the receipt page open without a network once visited (sw.js); a browser
    // without service workers, or one that refuses this one, still has the whole form.
    if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js", {scope: "/report", updateViaCache: "all"}).catch(() => {});
    if ($("covid")) setupForm();
    if ($("receipt-page")) { setupReceipt(); setupReceiptActions(); }
  });
})();
