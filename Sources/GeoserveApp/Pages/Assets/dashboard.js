"use strict";
// The dashboard's script: reads the public API only (layers, items, TileJSON, the nearest testing
// sites, past publications through `datetime`, alerts and resources), writes text with
// `textContent` only, and checks for new numbers every minute with the items' ETag, so the page
// follows publications without a reload. The functions above the browser part are pure, so that
// node's tests can run them.
(function () {
  // Node, for the tests, has no window: it takes the pure functions and runs nothing.
  const inNode = typeof window === "undefined";
  const {$, el, getJSON, escaped} = inNode ? require("./dom.js") : dom;
  const WINDOWS = {"7d": "7 days", "14d": "14 days", "28d": "28 days"};

  const number = (v) => v === null || v === undefined ? "–" : Number(v).toLocaleString("en-US");
  const signed = (v) => v === null || v === undefined ? "" : (v > 0 ? "+" : v < 0 ? "−" : "±") + Math.abs(v).toLocaleString("en-US");
  const rate = (v) => v === null || v === undefined ? "–" : Number(v).toFixed(1);
  const distance = (metres) => metres >= 1000 ? (metres / 1000).toFixed(1) + " km" : Math.round(metres) + " m";

  // What a tap on an area says: its name, its number in the window and the change on the window before.
  function areaSummary(feature, w) {
    const p = feature.properties;
    const change = p["change_" + w];
    return {title: p.name || feature.id,
            lines: [number(p["verified_" + w]) + " verified report(s) in the last " + WINDOWS[w],
                    change === null || change === undefined ? "" : signed(change) + " on the " + WINDOWS[w] + " before"].filter(Boolean)};
  }

  // A point inside an area's outline for the nearest-sites query: the middle of its bounding box
  // (the sites are hundreds of metres apart; a hall is tens of metres across).
  function middleOf(geometry) {
    let west = Infinity, south = Infinity, east = -Infinity, north = -Infinity;
    const visit = (c) => {
      if (typeof c[0] === "number") { west = Math.min(west, c[0]); east = Math.max(east, c[0]); south = Math.min(south, c[1]); north = Math.max(north, c[1]); return; }
      for (const inner of c) visit(inner);
    };
    visit(geometry.coordinates);
    return {lon: (west + east) / 2, lat: (south + north) / 2};
  }

  // The layer and window to show: the address keeps the choice (#layer=zones&window=14d), so a
  // view can be linked to; else the halls, else the first layer, over 7 days.
  function initialView(layerNames, hash) {
    const wanted = new URLSearchParams(hash);
    const layer = layerNames.includes(wanted.get("layer")) ? wanted.get("layer")
      : layerNames.includes("halls") ? "halls" : layerNames[0];
    return {layer, window: Object.hasOwn(WINDOWS, wanted.get("window")) ? wanted.get("window") : "7d"};
  }

  // Class breaks for the map: no reports is a class of its own, the areas with reports are cut
  // at their quantiles (quantiles over every area would put zero and a dozen in one class when
  // most areas have none). Tiles and legend both come from these breaks.
  function classBreaks(counts) {
    const values = counts.filter((v) => v > 0).sort((a, b) => a - b);
    const cuts = [1];
    for (const q of [0.25, 0.5, 0.75, 0.9]) {
      const v = values.length ? values[Math.min(values.length - 1, Math.floor(q * values.length))] : 0;
      if (v > cuts[cuts.length - 1]) cuts.push(v);
    }
    return cuts;
  }

  function tableRows(features, w) {
    return features.map((f) => ({
      id: f.id, name: f.properties.name || f.id, feature: f,
      count: f.properties["verified_" + w], previous: f.properties["previous_" + w],
      change: f.properties["change_" + w], rate: f.properties["rate_" + w],
    }));
  }

  // A click on a column's header sorts by it, again reverses; names start A to Z, numbers high to low.
  function nextSort(current, key) {
    return {key, dir: current.key === key ? -current.dir : (key === "name" ? 1 : -1)};
  }

  // Missing numbers sort below every number; ties go by name.
  function sortRows(rows, {key, dir}) {
    return rows.slice().sort((a, b) => {
      const x = a[key], y = b[key];
      if (key === "name") return dir * String(x).localeCompare(String(y));
      return dir * ((x ?? -Infinity) - (y ?? -Infinity)) || a.name.localeCompare(b.name);
    });
  }

  // The legend's lines: a class holds counts from its min up to below its max (the last one up to
  // its max), whole reports, so min to max − 1; classes that cover the same counts (few distinct
  // values) are shown once.
  function legendRanges(classes) {
    const lines = [];
    let previous = null;
    classes.forEach((c, k) => {
      const last = k === classes.length - 1;
      const low = c.min === undefined ? 0 : Math.ceil(c.min);
      const high = c.max === undefined ? low : (last ? Math.floor(c.max) : Math.ceil(c.max) - 1);
      if (high < low) return;
      const range = low === high ? number(low) : number(low) + "–" + number(high);
      if (range === previous) return;
      previous = range;
      lines.push({range, color: c.color});
    });
    return lines;
  }

  // When the numbers last moved: the newest publication whose all-time total differs from the
  // one before (windows also move as days leave them, which is not news); the first day of all,
  // when `points` reach back to it and it had numbers. null when they did not move in `points`.
  function lastMoved(points, reachesFirst) {
    for (let i = points.length - 1; i > 0; i--) {
      if (points[i].all !== points[i - 1].all) return points[i].day;
    }
    return points.length > 0 && points[0].all > 0 && reachesFirst ? points[0].day : null;
  }

  // The last publications' days, one each, oldest first, and whether they reach back to the first.
  function seriesDays(publications, count) {
    const all = [...new Set(publications.map((p) => p.day))].sort();
    const days = all.slice(-count);
    return {days, reachesFirst: days.length === all.length};
  }

  if (inNode) {
    module.exports = {number, signed, rate, distance, areaSummary, middleOf, initialView, classBreaks, tableRows, nextSort, sortRows, legendRanges, lastMoved, seriesDays};
    return;
  }

  // MARK: the page

  const state = {layer: null, window: "7d", etag: null, data: null, tilejson: null, sort: {key: "count", dir: -1},
                 map: null, tiles: null, outlines: null, seriesFor: null, byId: new Map(), lastMoved: undefined};

  async function start() {
    const layers = (await getJSON("/v1/layers")).body.layers.filter((l) => l.kind === "areas" && l.publishedVersion);
    const select = $("layer");
    for (const l of layers) select.append(el("option", {value: l.name}, l.name));
    const view = initialView(layers.map((l) => l.name), location.hash.slice(1));
    state.layer = view.layer;
    state.window = view.window;
    for (const radio of document.querySelectorAll("input[name=window]")) radio.checked = radio.value === state.window;
    select.value = state.layer;
    select.addEventListener("change", () => { state.layer = select.value; state.etag = null; state.seriesFor = null; refresh(true); });
    for (const radio of document.querySelectorAll("input[name=window]")) {
      radio.addEventListener("change", () => { state.window = radio.value; state.seriesFor = null; loadTiles().then(drawSeries).catch(showError); });
    }
    for (const button of document.querySelectorAll("th button")) {
      button.addEventListener("click", () => {
        state.sort = nextSort(state.sort, button.dataset.key);
        renderTable();
      });
    }
    setupMap();
    setupNearest();
    loadNotices().catch(() => {});
    setInterval(() => loadNotices().catch(() => {}), 60000);
    if (!state.layer) { $("caption").textContent = "No area layer is published yet."; return; }
    await refresh(true);
    setInterval(() => refresh(false).catch(showError), 60000);
  }

  // Alerts and resources, polled with their ETags like the numbers. Text goes in through
  // textContent and links only when they are http(s), so an admin's words never become markup.
  const notices = {alerts: null, resources: null};
  async function loadNotices() {
    const [alerts, resources] = await Promise.all([getJSON("/v1/alerts", {etag: notices.alerts}), getJSON("/v1/resources", {etag: notices.resources})]);
    if (!alerts.notModified) { notices.alerts = alerts.etag; renderAlerts(alerts.body.alerts); }
    if (!resources.notModified) { notices.resources = resources.etag; renderResources(resources.body.resources); }
  }

  function renderAlerts(alerts) {
    $("alerts").replaceChildren(...alerts.map((a) => {
      const box = el("article", {class: "alert " + a.severity, "data-id": a.id});
      box.append(el("strong", {}, a.title));
      if (a.message) box.append(el("p", {}, a.message));
      box.append(el("span", {class: "since"}, (a.severity === "info" ? "" : a.severity + " · ") + "since " + new Date(a.startsAt).toLocaleDateString("en-US", {month: "short", day: "numeric"})));
      return box;
    }));
  }

  function renderResources(resources) {
    const groups = new Map();
    for (const r of resources) {
      if (!groups.has(r.category)) groups.set(r.category, []);
      groups.get(r.category).push(r);
    }
    const parts = [];
    for (const [category, items] of groups) {
      const list = el("ul");
      for (const r of items) {
        const li = el("li");
        if (/^https?:\/\//i.test(r.link)) li.append(el("a", {href: r.link, rel: "noopener noreferrer external"}, r.title));
        else li.append(document.createTextNode(r.title));
        list.append(li);
      }
      const group = el("div", {class: "group"});
      group.append(el("h3", {}, category), list);
      parts.push(group);
    }
    $("resources").replaceChildren(...parts);
    $("resources-box").hidden = resources.length === 0;
  }

  function showError(e) { $("caption").textContent = "The numbers could not be loaded: " + e.message; }

  async function refresh(force) {
    const url = "/collections/" + encodeURIComponent(state.layer) + "/items?limit=10000&f=json";
    const answer = await getJSON(url, {etag: force ? null : state.etag});
    if (answer.notModified) return;
    state.etag = answer.etag;
    // A large layer comes in pages: follow them (same origin only) into one collection.
    const data = answer.body;
    let next = (data.links || []).find((l) => l.rel === "next");
    for (let pages = 1; next && pages < 50; pages++) {
      const page = (await getJSON(new URL(next.href).pathname + new URL(next.href).search)).body;
      data.features.push(...page.features);
      next = (page.links || []).find((l) => l.rel === "next");
    }
    state.data = data;
    state.byId = new Map(data.features.map((f) => [f.id, f]));
    await loadTiles();
    state.seriesFor = null;
    drawSeries();
  }

  // The TileJSON of the chosen window's metric and breaks: its tile URLs and its legend.
  async function loadTiles() {
    const counts = state.data.features.map((f) => f.properties["verified_" + state.window]);
    state.tilejson = (await getJSON("/tiles/" + encodeURIComponent(state.layer) + ".json?metric=verified_" + state.window +
      "&method=fixed&breaks=" + classBreaks(counts).join(","))).body;
    render();
    refreshTiles();
  }

  function render() {
    if (!state.data) return;
    history.replaceState(null, "", "#layer=" + encodeURIComponent(state.layer) + "&window=" + state.window);
    const s = state.data.statistics, w = state.window;
    $("window-label").textContent = WINDOWS[w];
    $("total").textContent = number(s.total.counts[w]);
    const change = s.total.change[w];
    const changeText = $("change");
    // An empty campus says why, rather than showing a bare zero.
    changeText.textContent = !s.total.counts.all ? "No reports published yet: an area's reports appear once more than " + s.threshold + " have gathered."
      : change === undefined ? "" : signed(change) + " on the " + WINDOWS[w] + " before";
    changeText.className = "change" + (change > 0 ? " up" : change < 0 ? " down" : "");
    const p = s.publication;
    $("published").textContent = p ? p.day : "not yet";
    showPublished();
    // Why a small area may show 0, in plain words and with the threshold in force.
    $("zero-note").textContent = "An area shows 0, or fewer than it has, until more than " + s.threshold +
      " of its reports have gathered since its number last moved: they are then published together, so that no one can be" +
      " singled out. On a quiet campus that can take weeks.";
    $("caption").textContent = (s.kind === "covid" ? "COVID-19 self-reports" : "Reports") + " verified by the campus health office, by area (" +
      state.layer + "). Counted on the day they were released" + (p ? ", as of " + p.day : "") + ".";
    $("table-caption").textContent = "Verified reports per area in the " + WINDOWS[w] + " to " + (p ? p.day : "today") + ".";
    renderTable();
    renderLegend();
    if (state.outlines) updateLabels();
    fillNearChoices();
  }

  // The publication shown, and when the numbers last moved (from the series of publications).
  function showPublished() {
    const p = state.data && state.data.statistics.publication;
    $("updated").textContent = !p ? "numbers appear at the first publication" :
      "publication " + p.id + (state.lastMoved ? "; numbers last moved " + state.lastMoved : state.lastMoved === null ? "; numbers have not moved in the last publications" : "");
  }

  function renderTable() {
    const {key, dir} = state.sort;
    const list = sortRows(tableRows(state.data.features, state.window), state.sort);
    const body = document.querySelector("#areas tbody");
    body.replaceChildren(...list.map((r) => {
      const tr = el("tr", {"data-id": r.id});
      tr.append(el("th", {scope: "row"}, r.name), el("td", {class: "n"}, number(r.count)), el("td", {class: "n optional"}, number(r.previous)),
                el("td", {class: "n"}, signed(r.change)), el("td", {class: "n"}, rate(r.rate)));
      return tr;
    }));
    for (const th of document.querySelectorAll("#areas thead th")) {
      const k = th.querySelector("button").dataset.key;
      th.setAttribute("aria-sort", k === key ? (dir > 0 ? "ascending" : "descending") : "none");
    }
  }

  function renderLegend() {
    const box = $("legend");
    const legend = state.tilejson && state.tilejson.legend;
    if (!legend) { box.replaceChildren(); return; }
    const list = el("ul");
    for (const line of legendRanges(legend.classes)) {
      const swatch = el("span", {class: "swatch"});
      swatch.style.background = line.color;
      list.append(el("li", {}, swatch, line.range));
    }
    box.replaceChildren(el("strong", {}, "Verified reports, " + WINDOWS[state.window]), list);
  }

  // The outlines keep the features they were drawn from: the numbers come from the newest data.
  function tooltip(feature) {
    const current = state.byId.get(feature.id) || feature;
    return (current.properties.name || current.id) + ": " + number(current.properties["verified_" + state.window]);
  }

  // A tap (or a click) on an area opens what it holds; the map's own click then asks for the
  // nearest testing sites to that point, as before.
  function popupFor(feature) {
    const s = areaSummary(state.byId.get(feature.id) || feature, state.window);
    return el("div", {class: "area-popup"}, el("strong", {}, s.title), ...s.lines.map((line) => el("p", {}, line)));
  }

  // From zoom 17 on, the halls carry their names; further out they would cover each other.
  const LABEL_ZOOM = 17;
  function updateLabels() {
    if (!state.outlines) return;
    const show = state.map.getZoom() >= LABEL_ZOOM;
    state.outlines.eachLayer((layer) => {
      layer.unbindTooltip();
      const name = layer.feature.properties.name || layer.feature.id;
      // Nodes, not strings: Leaflet puts a string in as markup, and area names come from uploads.
      if (show) layer.bindTooltip(el("span", {}, name), {permanent: true, direction: "center", className: "area-label"});
      else layer.bindTooltip(el("span", {}, tooltip(layer.feature)), {sticky: true});
    });
  }

  function setupMap() {
    if (!window.L) { $("map").hidden = true; $("map-missing").hidden = false; return; }
    state.map = L.map("map", {zoomControl: true, attributionControl: true});
    state.map.on("click", (e) => nearest(e.latlng));
    state.map.on("zoomend", updateLabels);
    // An operator's base map under the numbers (--basemap): off by default, so the service runs
    // without the internet.
    const base = $("map").dataset;
    // Attributions are text: the control takes markup, and a refresh planted there sent visitors away.
    if (base.basemap) L.tileLayer(base.basemap, {attribution: escaped(base.basemapAttribution || ""), maxZoom: 19}).addTo(state.map);
  }

  // The nearest testing sites from the keyboard: to a chosen area, or to where the device is.
  function setupNearest() {
    const form = $("near-form");
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const f = state.byId && state.byId.get(form.area.value);
      if (f) { const m = middleOf(f.geometry); nearest({lat: m.lat, lng: m.lon}, f.properties.name || f.id); }
    });
    $("near-me").hidden = !navigator.geolocation;
    $("near-me").addEventListener("click", () => {
      $("nearest").replaceChildren(el("p", {}, "Finding where you are…"));
      navigator.geolocation.getCurrentPosition(
        (p) => nearest({lat: p.coords.latitude, lng: p.coords.longitude}, "you"),
        () => $("nearest").replaceChildren(el("p", {}, "Your location is not available; choose an area instead.")),
        {timeout: 10000, maximumAge: 60000});
    });
  }

  function fillNearChoices() {
    const select = $("near-form").area;
    const chosen = select.value;
    const rows = state.data.features.map((f) => ({id: f.id, name: f.properties.name || f.id})).sort((a, b) => a.name.localeCompare(b.name));
    select.replaceChildren(...rows.map((r) => el("option", {value: r.id, selected: r.id === chosen}, r.name)));
  }

  function refreshTiles() {
    if (!state.map || !state.tilejson) return;
    const t = state.tilejson;
    const url = t.tiles[0];
    if (state.tiles) state.map.removeLayer(state.tiles);
    state.tiles = L.tileLayer(url, {attribution: escaped(t.attribution || ""), maxZoom: 20, minZoom: t.minzoom});
    state.tiles.addTo(state.map);
    if (!state.outlines || state.outlines.layerName !== state.layer) {
      if (state.outlines) state.map.removeLayer(state.outlines);
      state.outlines = L.geoJSON(state.data, {style: {weight: 1, color: "#444", fillOpacity: 0}});
      state.outlines.layerName = state.layer;
      state.outlines.eachLayer((layer) => layer.bindPopup(() => popupFor(layer.feature)));
      state.outlines.addTo(state.map);
      updateLabels();
      const b = t.bounds;
      state.map.fitBounds([[b[1], b[0]], [b[3], b[2]]]);
    }
  }

  async function nearest(latlng, from) {
    const box = $("nearest");
    try {
      const r = (await getJSON("/v1/places/nearest?lon=" + latlng.lng.toFixed(6) + "&lat=" + latlng.lat.toFixed(6) + "&k=3")).body;
      const list = el("ol");
      for (const p of r.places) list.append(el("li", {}, p.name + " — " + distance(p.distanceMetres)));
      box.replaceChildren(el("strong", {}, "Nearest testing sites" + (from ? " to " + from : "")), list);
    } catch (e) {
      box.replaceChildren(el("p", {}, "Testing sites could not be loaded."));
    }
  }

  // The window's total at each of the last publications, read through `datetime` (a past
  // publication is frozen, so each answer is cached for good).
  async function drawSeries() {
    const key = state.layer + "|" + state.window;
    if (state.seriesFor === key) return;
    state.seriesFor = key;
    const box = $("chart");
    let publications;
    try { publications = (await getJSON("/v1/publications")).body.publications || []; } catch (e) { publications = []; }
    const {days, reachesFirst} = seriesDays(publications, 14);
    const points = await Promise.all(days.map(async (day) => {
      const r = await getJSON("/collections/" + encodeURIComponent(state.layer) + "/items?limit=1&f=json&datetime=" + day);
      return {day, value: r.body.statistics.total.counts[state.window] || 0, all: r.body.statistics.total.counts.all || 0};
    }));
    if (state.seriesFor !== key) return;
    state.lastMoved = lastMoved(points, reachesFirst);
    showPublished();
    if (points.length === 0) { box.replaceChildren(el("p", {}, "No publication yet.")); return; }
    // Bars of height zero under a "max 1" say nothing: say it in words.
    if (points.every((p) => p.value === 0)) {
      box.replaceChildren(el("p", {}, "No verified reports in the " + WINDOWS[state.window] + " at any of the last " + points.length + " publication(s)."));
      return;
    }
    const w = 560, h = 160, pad = 28, max = Math.max(1, ...points.map((p) => p.value));
    const ns = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(ns, "svg");
    svg.setAttribute("viewBox", "0 0 " + w + " " + h);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Verified reports in the " + WINDOWS[state.window] + " to each publication: " +
      points.map((p) => p.day + " " + p.value).join(", "));
    const step = Math.min(48, (w - 2 * pad) / points.length);
    points.forEach((p, i) => {
      const bh = (h - 2 * pad) * p.value / max;
      const rect = document.createElementNS(ns, "rect");
      rect.setAttribute("class", "bar");
      rect.setAttribute("x", pad + i * step + 2);
      rect.setAttribute("y", h - pad - bh);
      rect.setAttribute("width", Math.max(2, step - 4));
      rect.setAttribute("height", bh);
      const title = document.createElementNS(ns, "title");
      title.textContent = p.day + ": " + p.value;
      rect.append(title);
      svg.append(rect);
      if (i === 0 || i === points.length - 1) {
        const label = document.createElementNS(ns, "text");
        label.setAttribute("x", pad + i * step + 2);
        label.setAttribute("y", h - 8);
        label.textContent = p.day.slice(5);
        svg.append(label);
      }
    });
    const top = document.createElementNS(ns, "text");
    top.setAttribute("x", 2);
    top.setAttribute("y", pad - 8);
    top.textContent = "max " + max;
    svg.append(top);
    box.replaceChildren(svg);
  }

  document.addEventListener("DOMContentLoaded", () => start().catch(showError));
})();
