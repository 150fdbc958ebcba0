"use strict";
// The admin console's script: every action is a call of the JSON API with the page session's
// cookie and, for changes, its CSRF token; everything shown goes in through text nodes. The
// functions above the browser part are pure, so that node's tests can run them.
(function () {
  // Node, for the tests, has no window: it takes the pure functions and runs nothing.
  const inNode = typeof window === "undefined";
  const {$, el, say, jsonOf, errorMessage} = inNode ? require("./dom.js") : dom;
  const when = (iso) => iso ? new Date(iso).toLocaleString() : "–";
  const QUEUE_PAGE = 50;

  // The queue's request for a filter and a page's cursor.
  function queueQuery(filter, cursor) {
    const q = new URLSearchParams({status: filter.status, limit: String(QUEUE_PAGE)});
    if (filter.kind) q.set("kind", filter.kind);
    if (filter.layer) q.set("layer", filter.layer);
    if (filter.area) q.set("area", filter.area);
    if (cursor) q.set("cursor", cursor);
    return q.toString();
  }

  // Which reports of the queue a page shows, counted from 1.
  const queueCaption = (page, count) => count ? "Reports " + (page * QUEUE_PAGE + 1) + "–" + (page * QUEUE_PAGE + count) : "No reports match.";

  // What a bulk decision did, and whether any report stayed as it was.
  function bulkOutcome(transition, results) {
    const failed = results.filter((x) => !x.ok);
    return {text: (results.length - failed.length) + " report(s) " + (transition === "verify" ? "verified" : "rejected") +
              (failed.length ? "; not changed: " + failed.map((x) => x.id.slice(-8) + " (" + x.error + ")").join(", ") : "."),
            kind: failed.length ? "warn" : ""};
  }

  // The changes a verifier may make to a report in a status.
  const TRANSITIONS = {pending: ["verify", "reject"], verified: ["revoke"], rejected: ["reopen"], revoked: ["reopen"], withdrawn: []};
  const transitionsFor = (status) => Object.hasOwn(TRANSITIONS, status) ? TRANSITIONS[status] : [];

  // Who holds a report's claim, as the verifier `me` reads it.
  const claimText = (claim, me, format) => !claim ? "" : claim.holder === me ? "You hold this report until " + format(claim.expiresAt) + "."
    : "Another verifier holds this report until " + format(claim.expiresAt) + ".";

  // An instant as a datetime-local field shows it: this device's wall-clock time, to the minute.
  const localInput = (iso) => iso ? new Date(new Date(iso).getTime() - new Date(iso).getTimezoneOffset() * 60000).toISOString().slice(0, 16) : "";

  // An alert's or resource's body from its form's fields ({name, type, value}): blank ones are left
  // out, datetime-local values become instants.
  function noticeBody(fields) {
    const body = {};
    for (const input of fields) {
      if (!input.name || input.value.trim() === "") continue;
      body[input.name] = input.type === "datetime-local" ? new Date(input.value).toISOString() : input.value;
    }
    return body;
  }

  // The upload's query from the layer form's options (`value(name)`, `checked(name)`).
  function uploadQuery(value, checked) {
    const q = new URLSearchParams();
    for (const name of ["kind", "id_field", "name_field"]) if (value(name).trim()) q.set(name, value(name).trim());
    for (const name of ["skip_invalid", "publish"]) if (checked(name)) q.set(name, "true");
    return q.toString();
  }

  // What an upload's answer means: its message, and whether the layers (and the validation) are shown again.
  function uploadOutcome(status, body) {
    if (status === 201) {
      return {text: "Stored as version " + body.version + (body.published ? ", published" + (body.moved !== null ? "; " + body.moved + " report(s) changed area" : "") : ", staged") + ".",
              kind: "", reload: true};
    }
    if (status === 422 && body.problems) {
      return {text: "Nothing stored: " + body.rejectedCount + " feature(s) rejected. Fix them, or store the rest.", kind: "error", reload: true};
    }
    return {text: errorMessage(body) || ("The service answered " + status + "."), kind: "error", reload: false};
  }

  // One line of an upload's validation.
  const validationLine = (p) => "Feature " + p.index + (p.id ? " (" + p.id + ")" : "") + ": " + p.outcome + (p.reason ? " — " + p.reason : "") +
    (p.notes.length ? " (" + p.notes.join("; ") + ")" : "");

  // Which sections a role sees, and the one it opens on.
  const SECTIONS = {admin: ["queue", "publish", "export", "alerts", "resources", "accounts", "layers"], verifier: ["queue"], researcher: ["export"]};
  const sectionsFor = (role) => Object.hasOwn(SECTIONS, role) ? SECTIONS[role] : [];

  // The export's query from its form's values; `format` is csv or json.
  function exportQuery(v, format) {
    const q = new URLSearchParams({layer: v.layer, from: v.from, to: v.to, bucket: v.bucket, kind: v.kind});
    if (format !== "csv") q.set("format", format);
    return q.toString();
  }

  // An export's provenance, in words a researcher can quote.
  function provenanceText(p, rows) {
    const source = p.publication ? "publication " + p.publication + " (" + p.publicationDay + ")" : "no publication yet, so every count is 0";
    return rows + " row(s) of " + p.kind + " reports in " + p.layer + " (version " + p.layerVersion + "), " + p.from + " to " + p.to + " by " + p.bucket +
      ", from " + source + ". Only numbers already released to the public are in it: blocks of fewer than " + p.threshold +
      " reports were merged with their neighbours before release, so no row singles anyone out.";
  }

  // The last publication and the next scheduled one, as the publish section says them.
  function publicationText(listing, format) {
    const last = listing.publications.length ? listing.publications[listing.publications.length - 1] : null;
    return (last ? "Last publication: number " + last.id + ", for " + last.day + ", made " + format(last.publishedAt) + "." : "No publication yet.") + " " +
      (listing.schedule && listing.schedule.next ? "Next scheduled: " + format(listing.schedule.next) + "." : "No publication is scheduled.");
  }

  // The names the form shows for a report's fields; anything else is its name in words.
  const LABELS = {affiliation: "Affiliation", phone: "Phone", testDate: "Day of the test", lastOnCampus: "Last day on campus", age: "Age",
                  diagnosis: "Diagnosis", notes: "Notes", occurredAt: "When", officerName: "Officer's name", badgeNumber: "Badge number",
                  officerDescription: "The officer", incidentDescription: "What happened", anonymous: "Anonymous"};
  const VICTIM = {race: "Race", gender: "Gender", comments: "Comments"};
  const words = (key) => { const s = key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase(); return s.charAt(0).toUpperCase() + s.slice(1); };

  // Where a report happened, from its content: {lat, lon, accuracy} or {layer, areaID}; null when it says nothing.
  function placeOf(content) {
    const body = content && content[content.kind];
    const p = body && body.place;
    if (!p) return null;
    if (p.location) return {lat: p.location.lat, lon: p.location.lon, accuracy: p.location.accuracyM};
    if (p.area) return {layer: p.area.layer, areaID: p.area.id};
    return null;
  }
  const placeText = (p) => !p ? "not given" : p.areaID !== undefined ? "area " + p.areaID + " of " + p.layer
    : p.lat + ", " + p.lon + (p.accuracy ? " (within " + Math.round(p.accuracy) + " m)" : "");

  // A report's content (`{"kind", "<kind>": {...}}`) as [label, text] rows in the form's words:
  // a witness per row, the person's details each on its own, yes and no for flags.
  // The order the form asks in; anything else after, by name. Attachments have their own section.
  const ORDER = ["occurredAt", "testDate", "lastOnCampus", "affiliation", "age", "phone", "diagnosis", "place", "officerName", "badgeNumber",
                 "officerDescription", "incidentDescription", "witnesses", "victim", "anonymous", "notes"];
  const rank = (key) => ORDER.includes(key) ? ORDER.indexOf(key) : ORDER.length;

  function reportRows(content) {
    const body = (content && content[content.kind]) || {};
    const rows = [];
    const entries = Object.entries(body).filter(([key]) => key !== "attachments")
      .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b));
    for (const [key, value] of entries) {
      if (key === "place") { rows.push(["Where", placeText(placeOf(content))]); continue; }
      if (key === "witnesses" && Array.isArray(value)) {
        value.forEach((w, i) => rows.push(["Witness " + (i + 1), [w.contact, w.statement].filter(Boolean).join(" — ") || "(nothing given)"]));
        continue;
      }
      if (key === "victim" && value && typeof value === "object") {
        for (const [k, v] of Object.entries(value)) rows.push(["The person: " + (VICTIM[k] || words(k)).toLowerCase(), String(v)]);
        continue;
      }
      const text = typeof value === "boolean" ? (value ? "yes" : "no") : value !== null && typeof value === "object" ? JSON.stringify(value) : String(value);
      rows.push([LABELS[key] || words(key), text]);
    }
    return rows;
  }

  if (inNode) {
    module.exports = {queueQuery, queueCaption, bulkOutcome, transitionsFor, claimText, localInput, noticeBody, uploadQuery, uploadOutcome, validationLine,
                      sectionsFor, exportQuery, provenanceText, publicationText, reportRows, placeOf, placeText};
    return;
  }

  // MARK: the console

  const session = {account: null, csrf: null};
  // The limits the API applies, filled into the page by the server: the console keeps no copy.
  const limits = $("view").dataset;

  // MARK: the API with the session

  class Failure extends Error {
    constructor(status, error) { super(error.message || ("the service answered " + status)); this.status = status; this.error = error; }
  }

  async function api(method, path, body) {
    const headers = {"Accept": "application/json"};
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (method !== "GET") headers["X-CSRF-Token"] = session.csrf || "";
    const r = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin"});
    if (r.status === 204) return null;
    const data = await jsonOf(r);
    if (r.status === 401 && path !== "/v1/auth/session") { signedOut("Your session ended; sign in again."); throw new Failure(401, data.error || {}); }
    if (!r.ok) throw new Failure(r.status, data.error || {});
    return data;
  }

  async function start() {
    $("sign-in").addEventListener("submit", signIn);
    $("sign-out").addEventListener("click", signOut);
    window.addEventListener("hashchange", route);
    try {
      const s = await api("GET", "/v1/auth/session");
      signedIn(s);
    } catch (e) {
      signedOut("");
    }
  }

  async function signIn(e) {
    e.preventDefault();
    say("Signing in…");
    try {
      const s = await api("POST", "/v1/auth/session", {email: $("email").value.trim(), password: $("password").value});
      $("password").value = "";
      signedIn(s);
    } catch (err) {
      say(err.status === 429 ? err.message : "Email or password is wrong, or the account is disabled.", "error");
    }
  }

  async function signOut() {
    try { await api("DELETE", "/v1/auth/session"); } catch (e) {}
    session.account = null; session.csrf = null;
    // On a shared computer the next person should not find the last one's address.
    $("email").value = "";
    signedOut("Signed out.");
  }

  function signedIn(s) {
    session.account = s.account; session.csrf = s.csrfToken;
    $("sign-in").hidden = true;
    $("nav").hidden = false;
    $("who").hidden = false;
    $("who-name").textContent = s.account.email + " (" + s.account.role + ")";
    const sections = sectionsFor(s.account.role);
    for (const a of document.querySelectorAll("#nav a")) a.hidden = !sections.includes(a.dataset.view);
    say(sections.length ? "" : "The " + s.account.role + " role has nothing to do here.", sections.length ? "" : "error");
    route();
  }

  function signedOut(message) {
    $("sign-in").hidden = false;
    $("nav").hidden = true;
    $("who").hidden = true;
    $("view").replaceChildren();
    say(message);
    $("email").focus();
  }

  function route() {
    if (!session.account) return;
    const [asked, arg] = location.hash.slice(1).split("/");
    const sections = sectionsFor(session.account.role);
    if (!sections.length) { $("view").replaceChildren(); return; }
    // A section the role does not have opens the role's first one instead of a refusal.
    const view = asked === "report" && sections.includes("queue") ? "report" : sections.includes(asked) ? asked : sections[0];
    for (const a of document.querySelectorAll("#nav a")) a.setAttribute("aria-current", a.dataset.view === (view === "report" ? "queue" : view) ? "page" : "false");
    const views = {queue: showQueue, report: () => showReport(decodeURIComponent(arg || "")), alerts: showAlerts, resources: showResources, accounts: showAccounts,
                 layers: showLayers, publish: showPublish, export: showExport};
    say("");
    views[view]().catch((e) => say(e.message, "error"));
  }

  // MARK: the queue

  const queue = {filter: {status: "pending", kind: "", layer: "", area: ""}, cursors: [null], page: 0};

  async function showQueue() {
    const f = queue.filter;
    const form = el("form", {class: "filters", "aria-label": "Filter the queue", onsubmit: (e) => {
      e.preventDefault();
      f.status = form.status.value; f.kind = form.kind.value; f.layer = form.layer.value.trim(); f.area = form.area.value.trim();
      queue.cursors = [null]; queue.page = 0;
      showQueue().catch((err) => say(err.message, "error"));
    }},
      el("label", {}, "Status ", select("status", ["pending", "verified", "rejected", "revoked", "withdrawn", "pending,verified,rejected,revoked,withdrawn"], f.status,
                                       {"pending,verified,rejected,revoked,withdrawn": "any"})),
      el("label", {}, "Kind ", select("kind", ["", "covid", "misconduct"], f.kind, {"": "both"})),
      el("label", {}, "Layer ", el("input", {name: "layer", value: f.layer, size: "8"})),
      el("label", {}, "Area ", el("input", {name: "area", value: f.area, size: "8"})),
      el("button", {type: "submit"}, "Show"));
    const page = await api("GET", "/v1/verification/queue?" + queueQuery(f, queue.cursors[queue.page]));
    queue.cursors[queue.page + 1] = page.next || undefined;
    const rows = page.reports.map((r) => el("tr", {"data-id": r.id},
      el("td", {}, el("input", {type: "checkbox", "aria-label": "Select report " + r.id, value: r.id, disabled: r.status !== "pending"})),
      el("td", {}, el("a", {href: "#report/" + encodeURIComponent(r.id)}, r.id.slice(-8))),
      el("td", {}, r.kind), el("td", {}, r.status), el("td", {}, r.occurredOn),
      el("td", {}, r.areas.map((a) => a.layer + " " + a.areaID).join(", ")),
      el("td", {}, r.claim ? "claimed by " + (r.claim.holder === session.account.id ? "you" : "another verifier") : "")));
    // One box selects every report of the page that can still be decided.
    const selectAll = el("input", {type: "checkbox", id: "select-all", "aria-label": "Select every pending report on this page",
                                   disabled: !page.reports.some((r) => r.status === "pending"),
                                   onchange: () => { for (const box of table.querySelectorAll("tbody input:enabled")) box.checked = selectAll.checked; }});
    const table = el("table", {id: "queue"},
      el("caption", {}, queueCaption(queue.page, page.reports.length)),
      el("thead", {}, el("tr", {}, el("th", {scope: "col"}, selectAll),
                                ...["Report", "Kind", "Status", "Occurred", "Areas", "Claim"].map((h) => el("th", {scope: "col"}, h)))),
      el("tbody", {}, ...rows));
    const reason = el("input", {id: "bulk-reason", "aria-label": "Reason for the selected reports", placeholder: "Reason (needed to reject)"});
    const bulk = el("div", {class: "actions"},
      el("button", {type: "button", onclick: () => bulkDecide("verify", reason.value)}, "Verify selected"),
      reason,
      el("button", {type: "button", onclick: () => bulkDecide("reject", reason.value)}, "Reject selected"));
    const paging = el("div", {class: "actions"},
      el("button", {type: "button", disabled: queue.page === 0, onclick: () => { queue.page--; showQueue(); }}, "Previous page"),
      el("button", {type: "button", disabled: !page.next, onclick: () => { queue.page++; showQueue(); }}, "Next page"));
    $("view").replaceChildren(el("h2", {}, "Verification queue"), form, el("div", {class: "table-wrap"}, table), bulk, paging);
  }

  function select(name, values, chosen, labels, id) {
    return el("select", Object.assign({name}, id ? {id} : {}), ...values.map((v) => el("option", {value: v, selected: v === chosen}, (labels && labels[v]) || v)));
  }

  async function bulkDecide(transition, reason) {
    const ids = [...document.querySelectorAll("#queue tbody input:checked")].map((c) => c.value);
    if (!ids.length) { say("Select reports first.", "error"); return; }
    try {
      const r = await api("POST", "/v1/verification/bulk", Object.assign({ids, transition}, reason.trim() ? {reason: reason.trim()} : {}));
      const outcome = bulkOutcome(transition, r.results);
      say(outcome.text, outcome.kind);
      await showQueue();
    } catch (e) { say(e.message, "error"); }
  }

  // MARK: one report

  async function showReport(id) {
    const report = await api("GET", "/v1/reports/" + encodeURIComponent(id));
    // Claimed while open, so two verifiers do not work the same report.
    let claim = report.claim;
    if (report.status === "pending" && (!claim || claim.holder === session.account.id)) {
      try { claim = await api("POST", "/v1/reports/" + encodeURIComponent(id) + "/claim"); } catch (e) { claim = null; }
    }
    const [history, attachments, revisions] = await Promise.all([
      api("GET", "/v1/reports/" + encodeURIComponent(id) + "/history").catch(() => ({entries: []})),
      api("GET", "/v1/reports/" + encodeURIComponent(id) + "/attachments").catch(() => ({attachments: []})),
      api("GET", "/v1/reports/" + encodeURIComponent(id) + "/revisions").catch(() => ({revisions: []})),
    ]);
    const reason = el("input", {id: "reason", "aria-label": "Reason", placeholder: "Reason (needed to reject, revoke or reopen)"});
    const act = (transition) => el("button", {type: "button", "data-transition": transition, onclick: () => decide(report, transition, reason.value)},
                                   transition[0].toUpperCase() + transition.slice(1));
    const actions = transitionsFor(report.status);
    const place = placeOf(report.report);
    const map = el("div", {class: "small-map", role: "img", "aria-label": "Map of where: " + placeText(place)});
    const view = el("article", {class: "report-detail"},
      el("p", {}, el("a", {href: "#queue"}, "← Queue")),
      el("h2", {}, (report.kind === "covid" ? "COVID-19 self-report " : "Misconduct report ") + report.id.slice(-8)),
      el("p", {class: "mid state-" + report.status, id: "report-status"}, report.status),
      el("p", {class: "caption"}, claimText(claim, session.account.id, when)),
      el("div", {class: "actions"}, ...actions.map(act), actions.length ? reason : null),
      el("h3", {}, "What the report says"), fieldList(reportRows(report.report)),
      el("dl", {class: "facts"}, el("dt", {}, "Occurred"), el("dd", {}, report.occurredOn), el("dt", {}, "Submitted"), el("dd", {}, when(report.submittedAt)),
         el("dt", {}, "Areas"), el("dd", {}, report.areas.map((a) => a.layer + " " + a.areaID + " (v" + a.layerVersion + ")").join(", ") || "none")),
      place ? map : null,
      el("h3", {}, "Attachments"),
      attachments.attachments.length ? el("ul", {}, ...attachments.attachments.map((a) => el("li", {},
        el("a", {href: "/v1/attachments/" + encodeURIComponent(a.id), rel: "noopener"}, a.contentType + ", " + Math.round(a.size / 1024) + " KB")))) : el("p", {}, "None."),
      el("h3", {}, "History"),
      el("ol", {class: "history"}, ...history.entries.map((h) => el("li", {}, when(h.at) + " · " + h.action +
        (h.toStatus ? " → " + h.toStatus : "") + (h.reason ? " · " + h.reason : "") + " · " + h.actor))),
      el("h3", {}, "Revisions"),
      el("p", {}, revisions.revisions.length + " kept (newest first): " + revisions.revisions.map((r) => "#" + r.revision + " " + when(r.at)).join(", ")));
    $("view").replaceChildren(view);
    if (place && window.L) drawPlace(map, place, report.areas);
  }

  // The report's own place, quietly: its point, or the outline of the area it names, over the
  // outlines of its layer (no counts: the colours of the public map would say nothing here).
  // Not interactive, so the picture holds no control inside it.
  async function drawPlace(box, place, areas) {
    const m = L.map(box, {zoomControl: false, attributionControl: false, dragging: false, keyboard: false, scrollWheelZoom: false,
                          doubleClickZoom: false, touchZoom: false, boxZoom: false});
    const layer = place.layer || (areas[0] && areas[0].layer) || "halls";
    const outlines = await fetch("/collections/" + encodeURIComponent(layer) + "/items?f=json&limit=10000").then((r) => r.ok ? r.json() : null).catch(() => null);
    const own = place.areaID;
    const shapes = outlines ? L.geoJSON(outlines, {interactive: false, style: (f) => f.id === own
      ? {color: "#0b5394", weight: 3, fillColor: "#0b5394", fillOpacity: 0.35}
      : {color: "#767676", weight: 1, fillOpacity: 0.05}}).addTo(m) : null;
    if (place.lat !== undefined) {
      L.circleMarker([place.lat, place.lon], {radius: 8, color: "#0b5394", interactive: false}).addTo(m);
      m.setView([place.lat, place.lon], 16);
    } else if (shapes) {
      const mine = shapes.getLayers().find((l) => l.feature.id === own);
      m.fitBounds((mine || shapes).getBounds(), {maxZoom: 17});
    }
  }

  function fieldList(rows) {
    const list = el("dl", {class: "fields"});
    for (const [label, text] of rows) list.append(el("dt", {}, label), el("dd", {}, text));
    return list;
  }

  async function decide(report, transition, reason) {
    try {
      const body = Object.assign({transition, version: report.version}, reason.trim() ? {reason: reason.trim()} : {});
      const r = await api("POST", "/v1/reports/" + encodeURIComponent(report.id) + "/transitions", body);
      say("Report " + report.id.slice(-8) + " is now " + r.status + ".");
      await showReport(report.id);
    } catch (e) {
      say(e.status === 409 && e.error.current ? e.message + " (it is " + e.error.current + " now; reloaded)" : e.message, "error");
      if (e.status === 409) await showReport(report.id);
    }
  }

  // MARK: alerts and resources

  async function showAlerts() {
    const list = await api("GET", "/v1/alerts?state=all");
    const form = noticeForm("alert", null);
    const rows = list.alerts.map((a) => el("tr", {"data-id": a.id},
      el("td", {}, a.title), el("td", {}, a.severity), el("td", {}, a.state), el("td", {}, when(a.startsAt) + " – " + (a.endsAt ? when(a.endsAt) : "no end")),
      el("td", {class: "actions"},
         el("button", {type: "button", onclick: () => { $("view").replaceChildren(el("h2", {}, "Edit alert"), noticeForm("alert", a)); }}, "Edit"),
         a.state !== "expired" ? el("button", {type: "button", onclick: () => change("POST", "/v1/alerts/" + a.id + "/expire", undefined, showAlerts)}, "Expire") : null,
         el("button", {type: "button", onclick: () => confirm("Delete this alert?") && change("DELETE", "/v1/alerts/" + a.id, undefined, showAlerts)}, "Delete"))));
    $("view").replaceChildren(el("h2", {}, "Alerts"),
      el("div", {class: "table-wrap"}, el("table", {}, el("thead", {}, el("tr", {}, ...["Title", "Severity", "State", "Shown", "Actions"].map((h) => el("th", {scope: "col"}, h)))),
                                      el("tbody", {}, ...rows))),
      el("h3", {}, "New alert"), form);
  }

  async function showResources() {
    const list = await api("GET", "/v1/resources");
    const rows = list.resources.map((r) => el("tr", {"data-id": r.id},
      el("td", {}, r.category), el("td", {}, r.title), el("td", {}, r.link),
      el("td", {class: "actions"},
         el("button", {type: "button", onclick: () => { $("view").replaceChildren(el("h2", {}, "Edit resource"), noticeForm("resource", r)); }}, "Edit"),
         el("button", {type: "button", onclick: () => confirm("Delete this resource?") && change("DELETE", "/v1/resources/" + r.id, undefined, showResources)}, "Delete"))));
    $("view").replaceChildren(el("h2", {}, "Resources"),
      el("div", {class: "table-wrap"}, el("table", {}, el("thead", {}, el("tr", {}, ...["Category", "Title", "Link", "Actions"].map((h) => el("th", {scope: "col"}, h)))),
                                      el("tbody", {}, ...rows))),
      el("h3", {}, "New resource"), noticeForm("resource", null));
  }

  // One form for creating (POST) or replacing (PUT) an alert or a resource; the API's
  // problems appear next to their fields.
  function noticeForm(what, current) {
    const field = (name, label, input) => el("div", {class: "field"}, el("label", {for: what + "-" + name}, label), input);
    const input = (name, attrs) => el("input", Object.assign({id: what + "-" + name, name, value: current && current[name] ? current[name] : ""}, attrs || {}));
    const parts = what === "alert" ? [
      field("title", "Title", input("title", {maxlength: limits.alertTitle, required: true})),
      field("message", "Message", el("textarea", {id: "alert-message", name: "message", rows: "3", maxlength: limits.alertMessage}, current ? current.message : "")),
      field("severity", "Severity", select("severity", ["info", "warning", "critical"], current ? current.severity : "info", null, "alert-severity")),
      field("startsAt", "Shown from (empty: now)", el("input", {id: "alert-startsAt", name: "startsAt", type: "datetime-local", value: current ? localInput(current.startsAt) : ""})),
      field("endsAt", "Shown until (empty: until expired)", el("input", {id: "alert-endsAt", name: "endsAt", type: "datetime-local", value: current ? localInput(current.endsAt) : ""})),
    ] : [
      field("title", "Title", input("title", {maxlength: limits.resourceTitle, required: true})),
      field("category", "Category", input("category", {maxlength: limits.resourceCategory, required: true})),
      field("link", "Link (http or https)", input("link", {type: "url", maxlength: limits.resourceLink, required: true})),
    ];
    const form = el("form", {class: "report-form form-page", novalidate: true}, ...parts,
                    el("button", {type: "submit", class: "primary"}, current ? "Save" : (what === "alert" ? "Post alert" : "Add resource")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = noticeBody(form.elements);
      const path = "/v1/" + what + "s" + (current ? "/" + current.id : "");
      for (const p of form.querySelectorAll(".problem")) p.remove();
      try {
        await api(current ? "PUT" : "POST", path, body);
        say(current ? "Saved." : "Added.");
        (what === "alert" ? showAlerts : showResources)();
      } catch (err) {
        for (const p of (err.error.problems || [])) {
          const target = form.querySelector("[name='" + p.field + "']");
          if (target) target.closest(".field").append(el("p", {class: "problem"}, p.reason));
        }
        say(err.message, "error");
      }
    });
    return form;
  }

  async function change(method, path, body, then) {
    try { await api(method, path, body); say("Done."); await then(); } catch (e) { say(e.message, "error"); }
  }

  // MARK: publications

  async function showPublish() {
    const listing = await api("GET", "/v1/publications");
    const button = el("button", {type: "button", class: "primary", onclick: async () => {
      if (!confirm("Publish the numbers now? The public pages show them at once, and they cannot be taken back.")) return;
      button.disabled = true;
      try {
        const made = await api("POST", "/v1/publications");
        await showPublish();
        say("Published: number " + made.id + ", for " + made.day + ".");
      } catch (e) { say(e.message, "error"); button.disabled = false; }
    }}, "Publish now");
    $("view").replaceChildren(el("h2", {}, "Publish"),
      el("p", {id: "publication-state"}, publicationText(listing, when)),
      el("p", {class: "small"}, "A publication releases the verified reports up to today, with small areas protected as on the schedule. " +
         "Publishing now does not move the schedule."),
      button);
  }

  // MARK: researcher exports

  async function showExport() {
    const layers = (await api("GET", "/v1/layers")).layers.filter((l) => l.kind !== "points" && l.publishedVersion).map((l) => l.name);
    const today = new Date().toISOString().slice(0, 10), start = new Date(Date.now() - 84 * 86400000).toISOString().slice(0, 10);
    const row = (id, label, input) => el("div", {class: "field"}, el("label", {for: id}, label), input);
    const form = el("form", {class: "report-form", id: "export-form", novalidate: true},
      row("export-layer", "Areas", select("layer", layers, layers.includes("halls") ? "halls" : layers[0], null, "export-layer")),
      row("export-kind", "Reports", select("kind", ["covid", "misconduct"], "covid", {covid: "COVID-19 cases", misconduct: "Police misconduct"}, "export-kind")),
      row("export-from", "From", el("input", {id: "export-from", name: "from", type: "date", value: start, required: true})),
      row("export-to", "To", el("input", {id: "export-to", name: "to", type: "date", value: today, required: true})),
      row("export-bucket", "One row per area and", select("bucket", ["day", "week", "month"], "week", null, "export-bucket")),
      el("button", {type: "submit", class: "primary"}, "Prepare the export"));
    const result = el("div", {id: "export-result", "aria-live": "polite"});
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const v = {layer: form.layer.value, kind: form.kind.value, from: form.from.value, to: form.to.value, bucket: form.bucket.value};
      result.replaceChildren();
      say("Preparing…");
      try {
        const data = await api("GET", "/v1/exports/area-stats?" + exportQuery(v, "json"));
        const name = v.layer + "-" + v.kind + "-" + v.from + "-" + v.to + "-" + v.bucket;
        result.replaceChildren(
          el("p", {id: "provenance"}, provenanceText(data.provenance, data.rows.length)),
          el("p", {class: "actions"},
             el("a", {href: "/v1/exports/area-stats?" + exportQuery(v, "csv"), download: name + ".csv", class: "button", id: "download-csv"}, "Download CSV"),
             el("a", {href: "/v1/exports/area-stats?" + exportQuery(v, "json"), download: name + ".json", class: "button"}, "Download JSON")),
          el("p", {class: "small"}, "The CSV reads as-is in pandas and R; its provenance is in the JSON and in the answer's X-Publication, " +
             "X-Layer-Version and X-Disclosure-Threshold headers. Every export is recorded in the audit trail."));
        say("");
      } catch (err) { say(err.message, "error"); }
    });
    $("view").replaceChildren(el("h2", {}, "Export for research"),
      el("p", {}, "The published numbers per area over a period, one row per area and day, week or month, as CSV or JSON."), form, result);
  }

  // MARK: accounts

  async function showAccounts() {
    const list = await api("GET", "/v1/accounts");
    const roles = ["reporter", "verifier", "researcher", "viewer", "admin"];
    const rows = list.accounts.map((a) => {
      const role = select("role", roles, a.role);
      role.setAttribute("aria-label", "Role of " + a.email);
      role.addEventListener("change", () => change("PATCH", "/v1/accounts/" + a.id, {role: role.value}, showAccounts));
      return el("tr", {"data-id": a.id}, el("td", {}, a.email), el("td", {}, role), el("td", {}, a.disabled ? "disabled" : "active"),
        el("td", {class: "actions"},
           el("button", {type: "button", onclick: () => change("PATCH", "/v1/accounts/" + a.id, {disabled: !a.disabled}, showAccounts)}, a.disabled ? "Enable" : "Disable"),
           el("button", {type: "button", onclick: () => change("POST", "/v1/accounts/" + a.id + "/revoke-tokens", undefined, showAccounts)}, "Sign out everywhere")));
    });
    const form = el("form", {class: "report-form form-page", novalidate: true},
      el("div", {class: "field"}, el("label", {for: "new-email"}, "Email"), el("input", {id: "new-email", name: "email", type: "email", required: true})),
      el("div", {class: "field"}, el("label", {for: "new-role"}, "Role"), Object.assign(select("role", roles, "verifier"), {id: "new-role"})),
      el("div", {class: "field"}, el("label", {for: "new-password"}, "Password (at least " + limits.passwordMin + " characters)"),
         el("input", {id: "new-password", name: "password", type: "password", autocomplete: "new-password", required: true,
                      minlength: limits.passwordMin, maxlength: limits.passwordMax})),
      el("button", {type: "submit", class: "primary"}, "Create account"));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      change("POST", "/v1/accounts", {email: form.email.value.trim(), role: form.role.value, password: form.password.value}, showAccounts);
    });
    $("view").replaceChildren(el("h2", {}, "Accounts"),
      el("div", {class: "table-wrap"}, el("table", {}, el("thead", {}, el("tr", {}, ...["Email", "Role", "State", "Actions"].map((h) => el("th", {scope: "col"}, h)))),
                                      el("tbody", {}, ...rows))),
      el("h3", {}, "New account"), form);
  }

  // MARK: layers

  async function showLayers(report) {
    const list = await api("GET", "/v1/layers");
    const rows = [];
    for (const l of list.layers) {
      for (const v of l.versions.slice().reverse()) {
        const published = v.version === l.publishedVersion;
        rows.push(el("tr", {"data-layer": l.name, "data-version": String(v.version)},
          el("td", {}, l.name), el("td", {}, l.kind), el("td", {}, "v" + v.version + (published ? " (published)" : "")),
          el("td", {class: "n"}, v.featureCount), el("td", {class: "n"}, v.repairedCount), el("td", {class: "n"}, v.rejectedCount), el("td", {}, when(v.createdAt)),
          el("td", {}, published ? "" : el("button", {type: "button", onclick: () => {
            if (confirm("Publish " + l.name + " v" + v.version + "? Reports are re-assigned to its areas.")) {
              change("POST", "/v1/layers/" + encodeURIComponent(l.name) + "/versions/" + v.version + "/publish", undefined, showLayers);
            }
          }}, "Publish"))));
      }
    }
    const form = el("form", {class: "report-form form-page", novalidate: true},
      el("div", {class: "field"}, el("label", {for: "layer-name"}, "Layer (letters, digits, - and _)"),
         el("input", {id: "layer-name", name: "layer", required: true, pattern: limits.layerPattern})),
      el("div", {class: "field"}, el("label", {for: "layer-file"}, "GeoJSON FeatureCollection"),
         el("input", {id: "layer-file", name: "file", type: "file", accept: ".geojson,.json,application/geo+json,application/json", required: true})),
      el("div", {class: "field"}, el("label", {for: "layer-kind"}, "Kind"), Object.assign(select("kind", ["", "areas", "points"], "", {"": "detect"}), {id: "layer-kind"})),
      el("div", {class: "pair"},
         el("div", {class: "field"}, el("label", {for: "layer-id"}, "Id property (optional)"), el("input", {id: "layer-id", name: "id_field"})),
         el("div", {class: "field"}, el("label", {for: "layer-name-field"}, "Name property (optional)"), el("input", {id: "layer-name-field", name: "name_field"}))),
      el("label", {}, el("input", {type: "checkbox", name: "skip_invalid"}), " Store the valid features when some are rejected"),
      el("br"),
      el("label", {}, el("input", {type: "checkbox", name: "publish"}), " Publish at once (otherwise staged)"),
      el("p", {}, el("button", {type: "submit", class: "primary"}, "Upload")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const file = form.file.files[0];
      if (!form.layer.value.trim() || !file) { say("Name the layer and choose a file.", "error"); return; }
      const q = uploadQuery((name) => form[name].value, (name) => form[name].checked);
      say("Uploading and validating…");
      const r = await fetch("/v1/layers/" + encodeURIComponent(form.layer.value.trim()) + "/versions?" + q,
                            {method: "POST", headers: {"Content-Type": "application/geo+json", "X-CSRF-Token": session.csrf || "", "Accept": "application/json"}, body: file});
      const body = await jsonOf(r);
      const outcome = uploadOutcome(r.status, body);
      say(outcome.text, outcome.kind);
      if (outcome.reload) await showLayers(body);
    });
    const parts = [el("h2", {}, "Layers"),
      el("div", {class: "table-wrap"}, el("table", {id: "layers"}, el("thead", {}, el("tr", {}, ...["Layer", "Kind", "Version", "Features", "Repaired", "Rejected", "Stored", "Actions"].map((h) => el("th", {scope: "col"}, h)))),
                                      el("tbody", {}, ...rows)))];
    if (report && report.problems) {
      parts.push(el("h3", {}, "Validation of the upload"),
        el("p", {}, (report.validCount + report.repairedCount + report.rejectedCount) + " features read: " + report.validCount + " valid, " + report.repairedCount + " repaired, " + report.rejectedCount + " rejected."),
        el("ul", {id: "validation"}, ...report.problems.map((p) => el("li", {class: p.outcome === "rejected" ? "problem" : ""}, validationLine(p)))));
    }
    parts.push(el("h3", {}, "Upload a new version"), form);
    $("view").replaceChildren(...parts);
  }

  document.addEventListener("DOMContentLoaded", () => start().catch((e) => say(e.message, "error")));
})();
