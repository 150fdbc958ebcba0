// The dashboard's pure functions: formatting, the view from the address, class breaks, the
// table's order, the legend and when the numbers last moved.
import test from "node:test";
import assert from "node:assert/strict";
import dashboard from "../../Sources/GeoserveApp/Pages/Assets/dashboard.js";

const {number, signed, rate, distance, initialView, classBreaks, tableRows, nextSort, sortRows, legendRanges, lastMoved, seriesDays} = dashboard;

test("numbers: thousands separated, a dash when there is none, changes with their sign", () => {
  assert.equal(number(1234567), "1,234,567");
  assert.equal(number(0), "0");
  assert.equal(number(null), "–");
  assert.equal(number(undefined), "–");
  assert.equal(signed(1200), "+1,200");
  assert.equal(signed(-3), "−3");
  assert.equal(signed(0), "±0");
  assert.equal(signed(null), "");
  assert.equal(rate(2.25), "2.3");
  assert.equal(rate(null), "–");
});

test("distances: metres below a kilometre, kilometres to one decimal from there", () => {
  assert.equal(distance(12.4), "12 m");
  assert.equal(distance(999), "999 m");
  assert.equal(distance(1000), "1.0 km");
  assert.equal(distance(2345), "2.3 km");
});

test("the view comes from the address when it names a published layer and a known window", () => {
  assert.deepEqual(initialView(["halls", "zones"], "layer=zones&window=14d"), {layer: "zones", window: "14d"});
  assert.deepEqual(initialView(["halls", "zones"], "layer=nope&window=3d"), {layer: "halls", window: "7d"});
  assert.deepEqual(initialView(["zones", "blocks"], ""), {layer: "zones", window: "7d"});
  assert.deepEqual(initialView([], "window=28d"), {layer: undefined, window: "28d"});
  // Only the windows' own names: not what every object inherits.
  assert.deepEqual(initialView(["halls"], "window=toString"), {layer: "halls", window: "7d"});
});

test("class breaks: zero is a class of its own, the rest cut at quantiles of the areas with reports", () => {
  assert.deepEqual(classBreaks([]), [1]);
  assert.deepEqual(classBreaks([0, 0, 0]), [1]);
  assert.deepEqual(classBreaks([0, 0, 0, 0, 1, 1, 1, 1]), [1]);
  assert.deepEqual(classBreaks([0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20]), [1, 6, 12, 16, 20]);
  assert.deepEqual(classBreaks([undefined, 0, 5, 5, 5]), [1, 5]);
});

test("table rows read the chosen window's properties, named by id when a feature has no name", () => {
  const features = [{id: "H01", properties: {name: "Alder", verified_7d: 3, previous_7d: 1, change_7d: 2, rate_7d: 1.5, verified_14d: 9}},
                    {id: "H02", properties: {verified_7d: 0}}];
  const rows = tableRows(features, "7d");
  assert.deepEqual(rows.map((r) => [r.id, r.name, r.count, r.previous, r.change, r.rate]),
                   [["H01", "Alder", 3, 1, 2, 1.5], ["H02", "H02", 0, undefined, undefined, undefined]]);
  assert.equal(tableRows(features, "14d")[0].count, 9);
});

test("sorting: a header sorts names A to Z and numbers high to low, again reverses", () => {
  const start = {key: "count", dir: -1};
  assert.deepEqual(nextSort(start, "count"), {key: "count", dir: 1});
  assert.deepEqual(nextSort(start, "name"), {key: "name", dir: 1});
  assert.deepEqual(nextSort({key: "name", dir: 1}, "rate"), {key: "rate", dir: -1});
});

test("sorted rows: missing numbers below every number, ties by name, the input left as it was", () => {
  const rows = [{name: "Cedar", count: 2}, {name: "Alder", count: 2}, {name: "Birch", count: undefined}, {name: "Dove", count: 7}];
  const before = rows.map((r) => r.name);
  assert.deepEqual(sortRows(rows, {key: "count", dir: -1}).map((r) => r.name), ["Dove", "Alder", "Cedar", "Birch"]);
  assert.deepEqual(sortRows(rows, {key: "count", dir: 1}).map((r) => r.name), ["Birch", "Alder", "Cedar", "Dove"]);
  assert.deepEqual(sortRows(rows, {key: "name", dir: -1}).map((r) => r.name), ["Dove", "Cedar", "Birch", "Alder"]);
  assert.deepEqual(rows.map((r) => r.name), before);
});

test("the legend shows whole reports, each range once", () => {
  const classes = [{max: 1, color: "#eee"}, {min: 1, max: 3, color: "#ccc"}, {min: 3, max: 3.5, color: "#aaa"}, {min: 3.5, max: 1200, color: "#888"}];
  assert.deepEqual(legendRanges(classes), [{range: "0", color: "#eee"}, {range: "1–2", color: "#ccc"}, {range: "3", color: "#aaa"},
                                           {range: "4–1,200", color: "#888"}]);
  // Two classes covering the same counts (few distinct values) are one line.
  assert.deepEqual(legendRanges([{max: 1, color: "a"}, {min: 0.5, max: 1, color: "b"}, {min: 1, max: 1, color: "c"}]).map((l) => l.range), ["0", "1"]);
});

test("the numbers last moved at the newest publication whose all-time total changed", () => {
  const p = (day, all) => ({day, all});
  assert.equal(lastMoved([p("2026-11-01", 12), p("2026-11-02", 24), p("2026-11-03", 24)], false), "2026-11-02");
  assert.equal(lastMoved([p("2026-11-01", 12), p("2026-11-02", 12)], false), null);
  // The first publication of all moved them from nothing, if it published any.
  assert.equal(lastMoved([p("2026-11-01", 12), p("2026-11-02", 12)], true), "2026-11-01");
  assert.equal(lastMoved([p("2026-11-01", 0)], true), null);
  assert.equal(lastMoved([], true), null);
});

test("the series covers the last publications' days, once each, oldest first", () => {
  const publications = ["2026-11-03", "2026-11-01", "2026-11-02", "2026-11-03"].map((day) => ({day}));
  assert.deepEqual(seriesDays(publications, 14), {days: ["2026-11-01", "2026-11-02", "2026-11-03"], reachesFirst: true});
  assert.deepEqual(seriesDays(publications, 2), {days: ["2026-11-02", "2026-11-03"], reachesFirst: false});
});

test("a tap on an area says its name, its number in the window and the change, with missing numbers as a dash", () => {
  const {areaSummary} = dashboard;
  const f = {id: "H07", properties: {name: "Ginkgo Tower", verified_7d: 24, change_7d: -3}};
  assert.deepEqual(areaSummary(f, "7d"), {title: "Ginkgo Tower", lines: ["24 verified report(s) in the last 7 days", "−3 on the 7 days before"]});
  assert.deepEqual(areaSummary({id: "H08", properties: {verified_14d: null}}, "14d"), {title: "H08", lines: ["– verified report(s) in the last 14 days"]});
});

test("the point for an area's nearest sites is the middle of its outline's box, holes and parts included", () => {
  const {middleOf} = dashboard;
  assert.deepEqual(middleOf({type: "Polygon", coordinates: [[[0, 0], [4, 0], [4, 2], [0, 2], [0, 0]], [[1, 1], [2, 1], [2, 1.5], [1, 1]]]}), {lon: 2, lat: 1});
  assert.deepEqual(middleOf({type: "MultiPolygon", coordinates: [[[[0, 0], [1, 0], [1, 1], [0, 0]]], [[[9, 9], [10, 9], [10, 10], [9, 9]]]]}), {lon: 5, lat: 5});
});
