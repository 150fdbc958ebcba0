// The report form's pure functions: the draft as the API takes it, the offset of a local time,
// the bookkeeping that lets a send be repeated without a second report, and the receipt page's
// texts and kept reports.
import test from "node:test";
import assert from "node:assert/strict";
import report from "../../Sources/GeoserveApp/Pages/Assets/report.js";

const {draftFrom, withOffset, nextAttempt, attemptOutcome, problemText, refusal, receiptFragment, keeping, forgetting, uploadSummary, EXPLAIN} = report;
// The form's trimmed values by name; a field the form does not have reads as empty.
const fields = (values) => (name) => values[name] ?? "";

test("a COVID draft leaves empty fields out, sends the age as a number and the hall as layer and id", () => {
  const d = draftFrom("covid", fields({affiliation: "student", phone: "+1 555 0100", testDate: "2026-11-20", lastOnCampus: "2026-11-19",
                                       age: "20", "area.id": "halls|H 03|b", "location.lat": "41.8"}), [], "area");
  assert.deepEqual(d, {kind: "covid", affiliation: "student", phone: "+1 555 0100", testDate: "2026-11-20", lastOnCampus: "2026-11-19",
                       age: 20, area: {layer: "halls", id: "H 03|b"}});
});

test("with nothing chosen, neither an area nor a location is sent: the API says what is missing", () => {
  assert.deepEqual(draftFrom("covid", fields({}), [], "area"), {kind: "covid"});
  assert.deepEqual(draftFrom("covid", fields({}), [], "point"), {kind: "covid"});
});

test("a point with one coordinate is sent, the other as NaN, so that the API names it", () => {
  const d = draftFrom("covid", fields({"location.lat": "41.8", "area.id": "halls|H01"}), [], "point");
  assert.equal(d.location.lat, 41.8);
  assert.ok(Number.isNaN(d.location.lon));
  assert.equal(d.area, undefined);
});

test("a misconduct draft is anonymous, keeps witnesses with anything said and a victim with anything given", () => {
  process.env.TZ = "UTC";
  const d = draftFrom("misconduct", fields({occurredAt: "2026-11-20T21:15", officerDescription: "tall", incidentDescription: "pushed",
                                            "victim.gender": "f", "location.lat": "41.8", "location.lon": "-87.6"}),
                      [["", ""], ["555 0101", ""], ["", "saw it"]], "point");
  assert.deepEqual(d, {kind: "misconduct", occurredAt: "2026-11-20T21:15:00+00:00", officerDescription: "tall", incidentDescription: "pushed",
                       witnesses: [{contact: "555 0101"}, {statement: "saw it"}], victim: {gender: "f"}, anonymous: true,
                       location: {lat: 41.8, lon: -87.6}});
  const bare = draftFrom("misconduct", fields({}), [["", ""]], "area");
  assert.deepEqual(bare, {kind: "misconduct", anonymous: true});
});

test("a local time gets the device's offset as RFC 3339 writes it", () => {
  assert.equal(withOffset("2026-11-20T21:15", 60), "2026-11-20T21:15:00+01:00");
  assert.equal(withOffset("2026-11-20T21:15", 0), "2026-11-20T21:15:00+00:00");
  assert.equal(withOffset("2026-11-20T21:15", -330), "2026-11-20T21:15:00-05:30");
  assert.equal(withOffset("2026-11-20T21:15:30", 345), "2026-11-20T21:15:30+05:45");
});

test("a send keeps its key until answered; a different report (sent after the kept one is settled) gets a new key", () => {
  let made = 0;
  const newKey = () => "key" + ++made;
  const first = nextAttempt(undefined, "A", newKey);
  assert.deepEqual(first, {key: "key1", body: "A"});
  assert.equal(nextAttempt(first, "A", newKey), first);
  assert.deepEqual(nextAttempt(first, "B", newKey), {key: "key2", body: "B"});
  assert.equal(made, 2);
});

test("an answer to a kept send says whether the report exists, never was, or is still unknown", () => {
  assert.equal(attemptOutcome(201), "stored");
  // No answer at all, a busy service or a timeout: the send may have arrived; keep it and ask again.
  for (const status of [0, undefined, 408, 429, 500, 502, 503, 507]) assert.equal(attemptOutcome(status), "unknown", String(status));
  // Refusals store nothing under the key: the kept send may be dropped, and a corrected form gets a new key.
  for (const status of [400, 403, 409, 413, 415, 422]) assert.equal(attemptOutcome(status), "refused", String(status));
});

test("the problem summary names fields by the labels on screen, and by the API's name only without one", () => {
  assert.equal(problemText("Date of your test", "testDate", "is required"), "Date of your test: is required");
  assert.equal(problemText("", "testDate", "is required"), "testDate: is required");
  assert.equal(problemText("", "", "the body is not valid JSON"), "the body is not valid JSON");
});

test("refusals other than a field's problem are said in words", () => {
  assert.equal(refusal(429, {}), "Too many reports from this network just now; try again in a minute.");
  assert.equal(refusal(409, {message: "already withdrawn"}), "already withdrawn");
  assert.equal(refusal(500, {message: "disk full"}), "disk full");
  assert.equal(refusal(502, {}), "The service answered 502.");
});

test("the receipt travels in the fragment, encoded", () => {
  assert.equal(receiptFragment("r 1&x", "a/b=c"), "id=r%201%26x&receipt=a%2Fb%3Dc");
  assert.equal(new URLSearchParams(receiptFragment("r 1&x", "a/b=c")).get("receipt"), "a/b=c");
});

test("a report is kept on the device once, and forgotten by its id", () => {
  const a = {id: "a", receipt: "1"}, b = {id: "b", receipt: "2"};
  assert.deepEqual(keeping([a], b), [a, b]);
  assert.deepEqual(keeping([a, b], {id: "a", receipt: "3"}), [b, {id: "a", receipt: "3"}]);
  assert.deepEqual(forgetting([a, b], "a"), [b]);
  assert.deepEqual(forgetting([], "a"), []);
});

test("the receipt page says how the files fared and what each status means", () => {
  assert.equal(uploadSummary(null), "");
  assert.equal(uploadSummary({done: 2, failed: []}), "2 file(s) attached.");
  assert.equal(uploadSummary({done: 0, failed: ["a.jpg: too large", "b.mov: not sent"]}), "0 file(s) attached. Not attached: a.jpg: too large; b.mov: not sent");
  assert.deepEqual(Object.keys(EXPLAIN).sort(), ["pending", "rejected", "revoked", "verified", "withdrawn"]);
});
