// The admin console's pure functions: the queue's requests and captions, what decisions and
// uploads did, and the notice forms' bodies.
import test from "node:test";
import assert from "node:assert/strict";
import admin from "../../Sources/GeoserveApp/Pages/Assets/admin.js";

const {queueQuery, queueCaption, bulkOutcome, transitionsFor, claimText, localInput, noticeBody, uploadQuery, uploadOutcome, validationLine} = admin;

test("the queue's query holds the filter's set parts and the page's cursor", () => {
  assert.equal(queueQuery({status: "pending", kind: "", layer: "", area: ""}, null), "status=pending&limit=50");
  assert.equal(queueQuery({status: "verified,rejected", kind: "covid", layer: "halls", area: "H 1"}, "c/1"),
               "status=verified%2Crejected&limit=50&kind=covid&layer=halls&area=H+1&cursor=c%2F1");
});

test("a queue page counts its reports from 1", () => {
  assert.equal(queueCaption(0, 50), "Reports 1–50");
  assert.equal(queueCaption(2, 7), "Reports 101–107");
  assert.equal(queueCaption(1, 0), "No reports match.");
});

test("a bulk decision says how many changed and which did not, and why", () => {
  assert.deepEqual(bulkOutcome("verify", [{id: "r-0000000001", ok: true}, {id: "r-0000000002", ok: true}]), {text: "2 report(s) verified.", kind: ""});
  assert.deepEqual(bulkOutcome("reject", [{id: "r-0000000001", ok: true}, {id: "r-0000000002", ok: false, error: "not pending"}]),
                   {text: "1 report(s) rejected; not changed: 00000002 (not pending)", kind: "warn"});
});

test("a report's status decides the changes offered", () => {
  assert.deepEqual(transitionsFor("pending"), ["verify", "reject"]);
  assert.deepEqual(transitionsFor("verified"), ["revoke"]);
  assert.deepEqual(transitionsFor("withdrawn"), []);
  assert.deepEqual(transitionsFor("constructor"), []);
  assert.deepEqual(transitionsFor("unheard-of"), []);
});

test("a claim reads as the verifier's own or another's", () => {
  const at = (iso) => "at " + iso;
  assert.equal(claimText(null, "me", at), "");
  assert.equal(claimText({holder: "me", expiresAt: "T"}, "me", at), "You hold this report until at T.");
  assert.equal(claimText({holder: "you", expiresAt: "T"}, "me", at), "Another verifier holds this report until at T.");
});

test("instants show in datetime-local fields as the device's wall-clock time", () => {
  process.env.TZ = "America/Chicago";
  assert.equal(localInput("2026-11-20T21:15:00Z"), "2026-11-20T15:15");
  assert.equal(localInput(""), "");
  assert.equal(localInput(null), "");
});

test("a notice's body leaves blank fields out and sends times as instants", () => {
  process.env.TZ = "UTC";
  const body = noticeBody([{name: "title", type: "text", value: "Testing moved"}, {name: "message", type: "textarea", value: "  "},
                           {name: "startsAt", type: "datetime-local", value: "2026-11-20T08:00"}, {name: "", type: "submit", value: "Save"}]);
  assert.deepEqual(body, {title: "Testing moved", startsAt: "2026-11-20T08:00:00.000Z"});
});

test("an upload's query holds the options given", () => {
  const values = {kind: "", id_field: " code ", name_field: ""};
  assert.equal(uploadQuery((n) => values[n], (n) => n === "publish"), "id_field=code&publish=true");
  assert.equal(uploadQuery(() => "", () => false), "");
});

test("an upload's answer: stored (published or staged), refused with the features, or an error", () => {
  assert.deepEqual(uploadOutcome(201, {version: 3, published: true, moved: 2}), {text: "Stored as version 3, published; 2 report(s) changed area.", kind: "", reload: true});
  assert.deepEqual(uploadOutcome(201, {version: 4, published: true, moved: null}), {text: "Stored as version 4, published.", kind: "", reload: true});
  assert.deepEqual(uploadOutcome(201, {version: 5, published: false}), {text: "Stored as version 5, staged.", kind: "", reload: true});
  assert.deepEqual(uploadOutcome(422, {problems: [], rejectedCount: 2}),
                   {text: "Nothing stored: 2 feature(s) rejected. Fix them, or store the rest.", kind: "error", reload: true});
  assert.deepEqual(uploadOutcome(413, {error: {message: "too large"}}), {text: "too large", kind: "error", reload: false});
  assert.deepEqual(uploadOutcome(502, {}), {text: "The service answered 502.", kind: "error", reload: false});
});

test("a validation line names the feature, the outcome, the reason and the repairs", () => {
  assert.equal(validationLine({index: 3, id: "H03", outcome: "repaired", notes: ["ring closed", "orientation"]}), "Feature 3 (H03): repaired (ring closed; orientation)");
  assert.equal(validationLine({index: 0, outcome: "rejected", reason: "not a polygon", notes: []}), "Feature 0: rejected — not a polygon");
});

test("each role sees its sections and opens on the first: a researcher the export, a verifier the queue", () => {
  const {sectionsFor} = admin;
  assert.deepEqual(sectionsFor("researcher"), ["export"]);
  assert.deepEqual(sectionsFor("verifier"), ["queue"]);
  assert.ok(["queue", "publish", "export", "layers"].every((s) => sectionsFor("admin").includes(s)));
  assert.deepEqual(sectionsFor("viewer"), []);
  assert.deepEqual(sectionsFor("toString"), []);
});

test("the export's query names the form's choices; CSV is the API's default format", () => {
  const {exportQuery} = admin;
  const v = {layer: "halls", kind: "covid", from: "2026-09-01", to: "2026-11-30", bucket: "week"};
  assert.equal(exportQuery(v, "csv"), "layer=halls&from=2026-09-01&to=2026-11-30&bucket=week&kind=covid");
  assert.equal(new URLSearchParams(exportQuery({...v, layer: "a&b"}, "json")).get("layer"), "a&b");
  assert.equal(new URLSearchParams(exportQuery(v, "json")).get("format"), "json");
});

test("an export's provenance and the publication state are said in words", () => {
  const {provenanceText, publicationText} = admin;
  const p = {layer: "halls", layerVersion: 2, publication: 7, publicationDay: "2026-11-26", threshold: 5, kind: "covid", bucket: "week", from: "2026-09-01", to: "2026-11-30"};
  const text = provenanceText(p, 546);
  for (const part of ["546 row(s)", "halls (version 2)", "publication 7 (2026-11-26)", "fewer than 5 reports"]) assert.ok(text.includes(part), part);
  assert.ok(provenanceText({...p, publication: null}, 0).includes("no publication yet"));
  const format = (iso) => "at " + iso;
  assert.equal(publicationText({publications: [], schedule: {next: null}}, format), "No publication yet. No publication is scheduled.");
  assert.equal(publicationText({publications: [{id: 1, day: "2026-11-25", publishedAt: "x"}, {id: 2, day: "2026-11-26", publishedAt: "y"}], schedule: {next: "z"}}, format),
               "Last publication: number 2, for 2026-11-26, made at y. Next scheduled: at z.");
});

test("a report's content reads in the form's words: labels, a witness per row, the person's details, yes and no", () => {
  const {reportRows, placeOf, placeText} = admin;
  const covid = {kind: "covid", covid: {affiliation: "staff", phone: "+1 336 555 0199", lastOnCampus: "2026-11-25", testDate: "2026-11-25",
                                        place: {area: {id: "H09", layer: "halls"}}}};
  assert.deepEqual(reportRows(covid), [["Day of the test", "2026-11-25"], ["Last day on campus", "2026-11-25"], ["Affiliation", "staff"],
                                       ["Phone", "+1 336 555 0199"], ["Where", "area H09 of halls"]]);
  const misconduct = {kind: "misconduct", misconduct: {occurredAt: "2026-11-20T21:15:00Z", witnesses: [{contact: "555 0101"}, {contact: "x", statement: "saw it"}, {}],
                                                       victim: {gender: "f"}, anonymous: true, extraField: 3, attachments: [],
                                                       place: {location: {lat: 41.79, lon: -87.6, accuracyM: 12.4}}}};
  // In the form's order whatever the order of the stored object; attachments are listed apart.
  assert.deepEqual(reportRows(misconduct), [["When", "2026-11-20T21:15:00Z"], ["Where", "41.79, -87.6 (within 12 m)"], ["Witness 1", "555 0101"],
                                            ["Witness 2", "x — saw it"], ["Witness 3", "(nothing given)"], ["The person: gender", "f"], ["Anonymous", "yes"],
                                            ["Extra field", "3"]]);
  assert.deepEqual(placeOf(misconduct), {lat: 41.79, lon: -87.6, accuracy: 12.4});
  assert.equal(placeOf({kind: "covid", covid: {}}), null);
  assert.equal(placeText(null), "not given");
  assert.deepEqual(reportRows(null), []);
});
