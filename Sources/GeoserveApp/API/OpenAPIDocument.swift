import DomainKernel
import Foundation
import ReportVerification

/// The OpenAPI 3.1 description of the JSON API, served at `/openapi.json`.
///
/// Written by hand next to the routes; a test compares it with the router's route table in
/// both directions, so a route cannot be added or removed without this document following.
enum OpenAPIDocument {
    /// One documented operation.
    struct Operation {
        let method: String
        let path: String
        let summary: String
        /// The permission needed, nil for public routes.
        let access: String?
        let request: String?
        let responses: [Int: String]
        /// Declared query parameters (OGC requires undeclared ones to be refused, so they must be listed).
        var query: [QueryParameter] = []
        /// Media type of the 200 response.
        var contentType = "application/json"
        /// Other media types the 200 response comes in (by `f` or `format`).
        var alternatives: [String] = []
        /// Media types of a raw (non-JSON) request body, such as an upload.
        var uploadTypes: [String] = []
        /// Whether the JSON request body may be left out.
        var requestOptional = false
    }

    /// The OGC routes, which also answer as HTML pages (`f=html` or a browser's `Accept`).
    static let ogcPaths: Set<String> = ["/", "/conformance", "/collections", "/collections/{layer}", "/collections/{layer}/items",
                                        "/collections/{layer}/items/{areaId}"]

    /// Routes behind the bearer-token check, where a bad token answers 401 even on public routes.
    static func takesBearerToken(_ path: String) -> Bool { path.hasPrefix("/v1/") || ogcPaths.contains(path) || path == "/metrics" }

    /// Built on use: the schemas are JSON-like dictionaries, which are not `Sendable`.
    static var operations: [Operation] { [
        Operation(method: "get", path: "/healthz", summary: "The process is up.", access: nil, request: nil,
                  responses: [200: "Status"]),
        Operation(method: "get", path: "/readyz", summary: "The process is not stopping, the store answers and layers are loaded.", access: nil, request: nil,
                  responses: [200: "Status", 503: "Error"]),
        Operation(method: "get", path: "/metrics",
                  summary: "The service's metrics in Prometheus's text format, for the addresses --metrics-allow names (loopback by default) or an admin's token; nothing per area or per report.",
                  access: nil, request: nil, responses: [200: "", 401: "Error", 403: "Error"], contentType: "text/plain"),
        Operation(method: "get", path: "/openapi.json", summary: "This document.", access: nil, request: nil,
                  responses: [200: "Document"]),
        Operation(method: "get", path: "/", summary: "OGC API landing page.", access: nil, request: nil,
                  responses: [200: "Document", 400: "Error"], query: QueryParameters.ogcFormat),
        Operation(method: "get", path: "/conformance", summary: "OGC API conformance classes (Features Part 1 core, GeoJSON, HTML).",
                  access: nil, request: nil, responses: [200: "Document", 400: "Error"], query: QueryParameters.ogcFormat),
        Operation(method: "get", path: "/collections", summary: "The published layers as OGC collections.", access: nil, request: nil,
                  responses: [200: "Document", 400: "Error"], query: QueryParameters.ogcFormat),
        Operation(method: "get", path: "/collections/{layer}", summary: "One collection.", access: nil, request: nil,
                  responses: [200: "Document", 400: "Error", 404: "Error"], query: QueryParameters.ogcFormat),
        Operation(method: "get", path: "/collections/{layer}/schema",
                  summary: "The collection's features as a JSON Schema (OGC API – Features Part 5): geometry type and every property with its type, statistics included.",
                  access: nil, request: nil, responses: [200: "Document", 400: "Error", 404: "Error"], contentType: "application/schema+json"),
        Operation(method: "get", path: "/collections/{layer}/items",
                  summary: "The layer's features with their disclosure-controlled statistics, paged by area id (next/prev links, numberMatched, numberReturned). ETag + 304; public, no-cache (private, no-store for verifiers and researchers).",
                  access: nil, request: nil, responses: [200: "FeatureCollection", 304: "", 400: "Error", 401: "Error", 404: "Error"],
                  query: QueryParameters.items, contentType: "application/geo+json"),
        Operation(method: "get", path: "/collections/{layer}/items/{areaId}", summary: "One feature with its statistics.", access: nil, request: nil,
                  responses: [200: "Feature", 304: "", 400: "Error", 401: "Error", 404: "Error"],
                  query: QueryParameters.item, contentType: "application/geo+json"),
        Operation(method: "get", path: "/v1/areas/containing", summary: "The area of every area layer that covers the point (public properties only).",
                  access: nil, request: nil, responses: [200: "Containing", 400: "Error"], query: QueryParameters.containing),
        Operation(method: "get", path: "/v1/places/nearest", summary: "The k nearest sites of the point layers (e.g. testing sites), nearest first.",
                  access: nil, request: nil, responses: [200: "Nearest", 400: "Error", 404: "Error"],
                  query: QueryParameters.nearest),
        Operation(method: "get", path: "/v1/exports/area-stats",
                  summary: "Published reports per area and bucket (zeros included), from the newest publication's released blocks — the cells public numbers are sums of — counted on the day they were released; recorded in the audit trail. CSV (RFC 4180; provenance in X-Publication, X-Layer-Version, X-Disclosure-Threshold) or JSON {provenance, rows}.",
                  access: "exportStatistics", request: nil, responses: [200: "Export", 400: "Error", 401: "Error", 403: "Error", 404: "Error"],
                  query: QueryParameters.export,
                  contentType: "text/csv", alternatives: ["application/json"]),
        Operation(method: "get", path: "/tiles/{layer}",
                  summary: "TileJSON 3.0 of an area layer ({layer}.json): tile URL template carrying the publication, bounds, center, zoom range, legend (class breaks and colours).",
                  access: nil, request: nil, responses: [200: "Document", 400: "Error", 404: "Error"], query: QueryParameters.tileStyle),
        Operation(method: "get", path: "/tiles/{layer}/legend.png", summary: "The legend of a style as a PNG.", access: nil, request: nil,
                  responses: [200: "", 400: "Error", 404: "Error"], query: QueryParameters.tileStyle, contentType: "image/png"),
        Operation(method: "get", path: "/tiles/{layer}/{z}/{x}/{y}",
                  summary: "A 256 px ({y}.png) or 512 px ({y}@2x.png) Web Mercator choropleth tile of the newest publication's numbers; y counts from the north. Transparent where no area is. With v= equal to the current publication's values version the tile is immutable.",
                  access: nil, request: nil, responses: [200: "", 304: "", 400: "Error", 404: "Error"], query: QueryParameters.tile, contentType: "image/png"),
        Operation(method: "get", path: "/v1/layers", summary: "Layers, their versions and feature counts.", access: nil, request: nil,
                  responses: [200: "LayerList"]),
        Operation(method: "post", path: "/v1/layers/{layer}/versions",
                  summary: "Upload a GeoJSON FeatureCollection (at most 64 MiB) as a new version of a layer, validated and repaired with GEOS as import-areas does. 201 with the version and every repaired or rejected feature; 422 with the same report and nothing stored when a feature is rejected (unless skip_invalid=true). Staged unless publish=true.",
                  access: "manageLayers", request: nil, responses: [201: "LayerUpload", 400: "Error", 401: "Error", 403: "Error", 409: "Error", 413: "Error", 415: "Error", 422: "LayerRefusal"],
                  query: QueryParameters.layerUpload, uploadTypes: ["application/geo+json", "application/json"]),
        Operation(method: "post", path: "/v1/layers/{layer}/versions/{version}/publish",
                  summary: "Publish a staged version: readers see it and every report is re-assigned to its areas, counters included, in one transaction.",
                  access: "manageLayers", request: nil, responses: [200: "LayerPublished", 400: "Error", 401: "Error", 403: "Error", 404: "Error"]),
        Operation(method: "get", path: "/v1/publications",
                  summary: "The publications, oldest first, and the schedule: public numbers, tiles, exports and the misconduct search change only when one is made.",
                  access: nil, request: nil, responses: [200: "PublicationList"]),
        Operation(method: "post", path: "/v1/publications",
                  summary: "Publish now, outside the schedule; {day} dates it an earlier day (not before the latest publication's). 409 publication_out_of_order.",
                  access: "publishStatistics", request: "PublishRequest", responses: [201: "Publication", 400: "Error", 401: "Error", 403: "Error", 409: "Error"],
                  requestOptional: true),
        Operation(method: "get", path: "/v1/alerts",
                  summary: "Alerts, most severe and newest first: by default those shown now (public; ETag + 304). state=scheduled|expired|all is for admins.",
                  access: nil, request: nil, responses: [200: "AlertList", 304: "", 400: "Error", 401: "Error", 403: "Error"], query: QueryParameters.alerts),
        Operation(method: "post", path: "/v1/alerts", summary: "Post an alert (audited); startsAt defaults to now, no endsAt shows it until expired.",
                  access: "manageNotices", request: "AlertRequest", responses: [201: "Alert", 400: "Error", 401: "Error", 403: "Error", 422: "Error"]),
        Operation(method: "get", path: "/v1/alerts/{id}", summary: "One alert: public while current, otherwise for admins only (404 for others).",
                  access: nil, request: nil, responses: [200: "Alert", 304: "", 401: "Error", 404: "Error"]),
        Operation(method: "put", path: "/v1/alerts/{id}", summary: "Replace an alert's content (audited).",
                  access: "manageNotices", request: "AlertRequest", responses: [200: "Alert", 400: "Error", 401: "Error", 403: "Error", 404: "Error", 422: "Error"]),
        Operation(method: "post", path: "/v1/alerts/{id}/expire", summary: "End an alert now (audited); one that already ended keeps its end.",
                  access: "manageNotices", request: nil, responses: [200: "Alert", 401: "Error", 403: "Error", 404: "Error"]),
        Operation(method: "delete", path: "/v1/alerts/{id}", summary: "Delete an alert (audited).",
                  access: "manageNotices", request: nil, responses: [204: "", 401: "Error", 403: "Error", 404: "Error"]),
        Operation(method: "get", path: "/v1/resources", summary: "Trusted links by category, then title (public; ETag + 304).",
                  access: nil, request: nil, responses: [200: "ResourceList", 304: "", 401: "Error"]),
        Operation(method: "post", path: "/v1/resources", summary: "Add a resource (audited). Links are absolute http or https addresses without a user name.",
                  access: "manageNotices", request: "ResourceRequest", responses: [201: "Resource", 400: "Error", 401: "Error", 403: "Error", 422: "Error"]),
        Operation(method: "get", path: "/v1/resources/{id}", summary: "One resource.",
                  access: nil, request: nil, responses: [200: "Resource", 304: "", 401: "Error", 404: "Error"]),
        Operation(method: "put", path: "/v1/resources/{id}", summary: "Replace a resource (audited).",
                  access: "manageNotices", request: "ResourceRequest", responses: [200: "Resource", 400: "Error", 401: "Error", 403: "Error", 404: "Error", 422: "Error"]),
        Operation(method: "delete", path: "/v1/resources/{id}", summary: "Delete a resource (audited).",
                  access: "manageNotices", request: nil, responses: [204: "", 401: "Error", 403: "Error", 404: "Error"]),
        Operation(method: "post", path: "/v1/auth/login", summary: "Exchange email and password for a bearer token. After 10 failures for an account, or 100 from one address, in 15 minutes: 429 rate_limited with Retry-After until the window ends. 503 busy when too many logins arrive at once.", access: nil,
                  request: "LoginRequest", responses: [200: "LoginResponse", 400: "Error", 401: "Error", 429: "Error", 503: "Error"]),
        Operation(method: "post", path: "/v1/auth/session",
                  summary: "Sign a page in: the login body, answered with the account and its CSRF token, and the session token set as an HttpOnly, SameSite=Strict cookie (Secure when --public-url is https). Throttled like /v1/auth/login. With the cookie, /v1 routes act for the account; changes need the X-CSRF-Token header (403 csrf otherwise).",
                  access: nil, request: "LoginRequest", responses: [201: "Session", 400: "Error", 401: "Error", 415: "Error", 429: "Error", 503: "Error"]),
        Operation(method: "get", path: "/v1/auth/session", summary: "The page session of the cookie: its account and CSRF token (401 without a valid cookie).",
                  access: nil, request: nil, responses: [200: "Session", 401: "Error"]),
        Operation(method: "delete", path: "/v1/auth/session", summary: "Sign a page out: the session's token is revoked and the cookie cleared (needs the CSRF token while the session is valid).",
                  access: nil, request: nil, responses: [204: "", 401: "Error", 403: "Error"]),
        Operation(method: "post", path: "/v1/auth/logout", summary: "Revoke the token of this request.", access: "any account",
                  request: nil, responses: [204: "", 401: "Error"]),
        Operation(method: "get", path: "/v1/me", summary: "The account of the token.", access: "any account", request: nil,
                  responses: [200: "Account", 401: "Error"]),
        Operation(method: "get", path: "/v1/accounts", summary: "Every account.", access: "manageAccounts", request: nil,
                  responses: [200: "AccountList", 401: "Error", 403: "Error"]),
        Operation(method: "post", path: "/v1/accounts", summary: "Create an account.", access: "manageAccounts",
                  request: "AccountCreate", responses: [201: "Account", 400: "Error", 401: "Error", 403: "Error", 409: "Error", 422: "Error"]),
        Operation(method: "patch", path: "/v1/accounts/{id}", summary: "Change an account's role or disable it (its tokens are revoked).",
                  access: "manageAccounts", request: "AccountUpdate", responses: [200: "Account", 401: "Error", 403: "Error", 404: "Error", 409: "Error"]),
        Operation(method: "post", path: "/v1/accounts/{id}/revoke-tokens", summary: "Revoke every token of an account.",
                  access: "manageAccounts", request: nil, responses: [204: "", 401: "Error", 403: "Error", 404: "Error"]),
        Operation(method: "post", path: "/v1/reports",
                  summary: "Submit a report (anonymous, or with a reporter's token). 201 only after the commit reached the disk. Idempotency-Key (32-200 random chars) makes retries safe: a retry of the same request returns the first result with Idempotency-Replayed: true; the key with a different body is refused (422 idempotency_key_reused). 409 too_soon carries nextAllowed. Anonymous submissions are limited per client address (429 rate_limited with Retry-After).",
                  access: nil, request: "ReportDraft", responses: [201: "Submitted", 400: "Error", 401: "Error", 403: "Error", 409: "Error", 422: "Error", 429: "Error"]),
        Operation(method: "get", path: "/v1/reports/{id}",
                  summary: "A report: whole for verifiers and granted viewers; its status for its reporter or the X-Receipt-Token holder; 404 for everyone else.",
                  access: nil, request: nil, responses: [200: "Report", 404: "Error"]),
        Operation(method: "post", path: "/v1/reports/{id}/withdraw", summary: "The reporter (or receipt holder) takes back a pending report.",
                  access: nil, request: nil, responses: [200: "ReportStatusView", 404: "Error", 409: "Error"]),
        Operation(method: "get", path: "/v1/misconduct",
                  summary: "Public search of the published misconduct reports (public records: the ones the newest publication counts) placed in an area, newest first. Only officer description, incident description, day and area.",
                  access: nil, request: nil, responses: [200: "MisconductResults", 400: "Error"], query: QueryParameters.misconductInArea),
        Operation(method: "get", path: "/v1/misconduct/near",
                  summary: "Public search of the published misconduct reports within a circle of 250 m to 50 km, newest first. Only officer description, incident description, day and area.",
                  access: nil, request: nil, responses: [200: "MisconductResults", 400: "Error"], query: QueryParameters.misconductNear),
        Operation(method: "patch", path: "/v1/reports/{id}",
                  summary: "Edit a report: {report: <whole draft>, version?}. The reporter while pending, verifiers always. Re-validates, re-places, keeps a revision.",
                  access: "editOwnPendingReport or editAnyReport", request: "EditRequest", responses: [200: "Report", 401: "Error", 404: "Error", 409: "Error", 422: "Error"]),
        Operation(method: "get", path: "/v1/reports/{id}/revisions", summary: "The kept revisions, newest first (the newest five by default).",
                  access: "editOwnPendingReport or editAnyReport", request: nil, responses: [200: "Revisions", 401: "Error", 404: "Error"]),
        Operation(method: "post", path: "/v1/reports/{id}/revisions/{revision}/restore", summary: "Make a kept revision current again (a new revision).",
                  access: "editOwnPendingReport or editAnyReport", request: nil, responses: [200: "Report", 401: "Error", 404: "Error", 409: "Error"]),
        Operation(method: "get", path: "/v1/verification/queue",
                  summary: "Reports to verify: pending first, oldest first, paged by cursor.",
                  access: "workQueue", request: nil, responses: [200: "Queue", 400: "Error", 401: "Error", 403: "Error"], query: QueryParameters.queue),
        Operation(method: "post", path: "/v1/verification/bulk", summary: "One transition for many reports; each succeeds or fails on its own.",
                  access: "workQueue", request: "BulkRequest", responses: [200: "BulkResponse", 401: "Error", 403: "Error", 422: "Error"]),
        Operation(method: "post", path: "/v1/reports/{id}/transitions",
                  summary: "verify, reject (reason), revoke (reason), reopen (reason). With version, refused if the report changed. 409 carries the current status.",
                  access: "transitionReports", request: "TransitionRequest", responses: [200: "Report", 401: "Error", 403: "Error", 404: "Error", 409: "Error", 422: "Error"]),
        Operation(method: "post", path: "/v1/reports/{id}/claim", summary: "Claim a report for review (15 minutes, renewable); 409 names the holder.",
                  access: "transitionReports", request: nil, responses: [200: "Claim", 401: "Error", 403: "Error", 404: "Error", 409: "Error"]),
        Operation(method: "delete", path: "/v1/reports/{id}/claim", summary: "Release one's claim.",
                  access: "transitionReports", request: nil, responses: [204: "", 401: "Error", 403: "Error"]),
        Operation(method: "get", path: "/v1/reports/{id}/history", summary: "The report's audit entries, oldest first.",
                  access: "readReportHistory", request: nil, responses: [200: "History", 401: "Error", 403: "Error", 404: "Error"]),
        Operation(method: "post", path: "/v1/reports/{id}/grants", summary: "Grant a viewer read access to the report.",
                  access: "manageGrants", request: "GrantRequest", responses: [204: "", 401: "Error", 403: "Error", 404: "Error"]),
        Operation(method: "delete", path: "/v1/reports/{id}/grants/{viewer}", summary: "Withdraw a viewer's grant.",
                  access: "manageGrants", request: nil, responses: [204: "", 401: "Error", 403: "Error"]),
        Operation(method: "post", path: "/v1/reports/{id}/attachments",
                  summary: "Upload a photo or video as the raw request body (JPEG, PNG, HEIC, WebP, MP4, QuickTime, WebM; checked by content). By the reporter or the X-Receipt-Token holder while pending, or a verifier. Misconduct reports only (422 attachments_not_accepted); at most 10 files and 256 MiB per report (409 limit_reached); 429 rate_limited for anonymous uploads over the per-address budget; 507 insufficient_storage when the disk is short of space.",
                  access: "reporter of the report, receipt holder or verifier", request: nil,
                  responses: [201: "Attachment", 401: "Error", 403: "Error", 404: "Error", 409: "Error", 413: "Error", 415: "Error", 422: "Error", 429: "Error", 507: "Error"],
                  uploadTypes: MediaType.allCases.map(\.rawValue)),
        Operation(method: "get", path: "/v1/reports/{id}/attachments", summary: "The report's attachments.",
                  access: "readAttachments or a grant", request: nil, responses: [200: "AttachmentList", 401: "Error", 403: "Error"]),
        Operation(method: "get", path: "/v1/attachments/{id}", summary: "An attachment's bytes.",
                  access: "readAttachments or a grant", request: nil, responses: [200: "", 401: "Error", 403: "Error", 404: "Error"]),
    ] }

    /// Component schemas, as JSON Schema objects.
    static var schemas: [String: Any] { [
        "Error": object(["error": object(["code": string, "message": string, "field": ["type": ["string", "null"]], "current": ["type": ["string", "null"]]],
                                        required: ["code", "message"])], required: ["error"]),
        "Status": object(["status": string, "layers": integer], required: ["status"]),
        "Document": ["type": "object"],
        "LayerVersion": object(["version": integer, "createdAt": dateTime, "featureCount": integer, "repairedCount": integer, "rejectedCount": integer]),
        "Layer": object(["name": string, "kind": ["type": "string", "enum": ["areas", "points"]], "publishedVersion": ["type": ["integer", "null"]],
                         "featureCount": integer, "versions": ["type": "array", "items": ref("LayerVersion")]]),
        "LayerList": object(["layers": ["type": "array", "items": ref("Layer")]], required: ["layers"]),
        "Publication": object(["id": integer, "day": ["type": "string", "format": "date"], "publishedAt": dateTime, "k": integer],
                              required: ["id", "day", "publishedAt"]),
        "PublicationList": object(["publications": ["type": "array", "items": ref("Publication")],
                                   "schedule": object(["times": ["type": "array", "items": string], "timeZone": string, "next": ["type": ["string", "null"], "format": "date-time"],
                                                       "paused": ["type": ["string", "null"]]])],
                                  required: ["publications", "schedule"]),
        "PublishRequest": closed(["day": nullable(["type": "string", "format": "date"])]),
        "Role": ["type": "string", "enum": ["reporter", "verifier", "researcher", "viewer", "admin"]],
        "Account": object(["id": string, "email": string, "role": ref("Role"), "disabled": ["type": "boolean"]], required: ["id", "email", "role", "disabled"]),
        "AccountList": object(["accounts": ["type": "array", "items": ref("Account")]], required: ["accounts"]),
        "AccountCreate": closed(["email": ["type": "string", "pattern": EmailAddress.pattern, "maxLength": 254], "role": ref("Role"),
                                 "password": ["type": "string", "minLength": 10, "maxLength": Credentials.maxPasswordLength]], required: ["email", "role", "password"]),
        "AccountUpdate": closed(["role": nullable(ref("Role")), "disabled": nullable(["type": "boolean"])]),
        "LoginRequest": closed(["email": string, "password": string], required: ["email", "password"]),
        "ReportStatus": ["type": "string", "enum": ReportStatus.allCases.map(\.rawValue)],
        "Transition": ["type": "string", "enum": ["verify", "reject", "revoke", "reopen", "withdraw"]],
        "AreaAssignment": object(["layer": string, "layerVersion": integer, "areaID": string]),
        "Claim": object(["reportID": string, "holder": string, "expiresAt": dateTime]),
        "Report": object(["id": string, "kind": string, "status": ref("ReportStatus"), "version": integer, "submittedAt": dateTime,
                          "updatedAt": dateTime, "occurredOn": ["type": "string", "format": "date"],
                          "location": object(["lon": ["type": "number"], "lat": ["type": "number"]]),
                          "areas": ["type": "array", "items": ref("AreaAssignment")], "report": ["type": "object"], "claim": ref("Claim")]),
        "Queue": object(["reports": ["type": "array", "items": ref("Report")], "next": ["type": ["string", "null"]]], required: ["reports"]),
        // verify and withdraw take an optional reason; reject, revoke and reopen need one.
        "TransitionRequest": ["oneOf": [
            closed(["transition": ["type": "string", "enum": ["verify", "withdraw"]], "reason": nullable(string), "version": nullable(version)],
                   required: ["transition"]),
            closed(["transition": ["type": "string", "enum": ["reject", "revoke", "reopen"]], "reason": reason, "version": nullable(version)],
                   required: ["transition", "reason"]),
        ]],
        "BulkRequest": ["oneOf": [
            closed(["ids": ids, "transition": ["type": "string", "enum": ["verify", "withdraw"]], "reason": nullable(string)], required: ["ids", "transition"]),
            closed(["ids": ids, "transition": ["type": "string", "enum": ["reject", "revoke", "reopen"]], "reason": reason],
                   required: ["ids", "transition", "reason"]),
        ]],
        "BulkResponse": object(["results": ["type": "array", "items": object(["id": string, "ok": ["type": "boolean"], "status": ref("ReportStatus"), "error": string])]]),
        "Attachment": object(["id": string, "contentType": string, "size": integer, "sha256": string, "createdAt": dateTime]),
        "AttachmentList": object(["attachments": ["type": "array", "items": ref("Attachment")]]),
        "ReportDraft": ["oneOf": [ref("CovidDraft"), ref("MisconductDraft")], "discriminator": ["propertyName": "kind"]],
        "CovidDraft": ["allOf": [closed(covidFields, required: ["kind", "affiliation", "phone", "testDate", "lastOnCampus"]), placeOnce]],
        "MisconductDraft": ["allOf": [closed(misconductFields, required: ["kind", "occurredAt", "officerDescription", "incidentDescription"]),
                                      placeOnce]],
        "Submitted": object(["id": string, "kind": string, "status": ref("ReportStatus"), "areas": ["type": "array", "items": ref("AreaAssignment")],
                             "receipt": string], required: ["id", "kind", "status", "areas"]),
        "ReportStatusView": object(["id": string, "kind": string, "status": ref("ReportStatus"), "submittedAt": dateTime,
                                    "areas": ["type": "array", "items": ref("AreaAssignment")]]),
        "MisconductResults": object(["reports": ["type": "array", "items": object([
            "officerDescription": string, "incidentDescription": string, "occurredOn": ["type": "string", "format": "date"],
            "layer": string, "area": string])]]),
        "EditRequest": closed(["report": ref("ReportDraft"), "version": nullable(version)], required: ["report"]),
        "Revisions": object(["revisions": ["type": "array", "items": object([
            "revision": integer, "at": dateTime, "actor": string, "occurredOn": ["type": "string", "format": "date"],
            "areas": ["type": "array", "items": ref("AreaAssignment")], "report": ["type": "object"]])]]),
        "GrantRequest": closed(["viewerId": string], required: ["viewerId"]),
        "History": object(["entries": ["type": "array", "items": object(["sequence": integer, "reportID": string, "actor": string, "at": dateTime,
                                                                          "action": string, "fromStatus": ref("ReportStatus"), "toStatus": ref("ReportStatus"),
                                                                          "reason": string, "hash": string])]]),
        "FeatureCollection": object(["type": ["type": "string", "enum": ["FeatureCollection"]], "numberMatched": integer, "numberReturned": integer,
                                     "links": ["type": "array", "items": ref("Link")], "features": ["type": "array", "items": ref("Feature")],
                                     "statistics": ["type": "object"], "totals": ["type": "object"]], required: ["type", "features"]),
        "Feature": object(["type": ["type": "string", "enum": ["Feature"]], "id": string, "geometry": ["type": "object"],
                           "properties": ["type": "object"], "links": ["type": "array", "items": ref("Link")]], required: ["type", "geometry", "properties"]),
        "Export": object(["provenance": ["type": "object"], "rows": ["type": "array", "items": object([
            "areaId": string, "bucketStart": ["type": "string", "format": "date"], "bucketEnd": ["type": "string", "format": "date"],
            "verified": ["type": ["integer", "null"]], "ratePer1000": ["type": ["number", "null"]], "suppressed": ["type": "boolean"]])]]),
        "Link": object(["href": string, "rel": string, "type": string, "title": string], required: ["href", "rel"]),
        "Containing": object(["lon": ["type": "number"], "lat": ["type": "number"], "areas": ["type": "array", "items": object([
            "layer": string, "layerVersion": integer, "id": string, "name": string, "properties": ["type": "object"]])]]),
        "Nearest": object(["lon": ["type": "number"], "lat": ["type": "number"], "places": ["type": "array", "items": object([
            "layer": string, "id": string, "name": string, "lon": ["type": "number"], "lat": ["type": "number"],
            "distanceMetres": ["type": "number"], "properties": ["type": "object"]])]]),
        "Alert": object(["id": string, "title": string, "message": string, "severity": ref("Severity"), "startsAt": dateTime,
                         "endsAt": ["type": ["string", "null"], "format": "date-time"],
                         "state": ["type": "string", "enum": ["scheduled", "current", "expired"]], "updatedAt": dateTime],
                        required: ["id", "title", "message", "severity", "startsAt", "endsAt", "state", "updatedAt"]),
        "AlertList": object(["alerts": ["type": "array", "items": ref("Alert")]], required: ["alerts"]),
        "Severity": ["type": "string", "enum": ["info", "warning", "critical"]],
        "AlertRequest": closed(["title": ["type": "string", "pattern": "\\S", "maxLength": AlertRequest.maxTitle],
                                "message": nullable(["type": "string", "maxLength": AlertRequest.maxMessage]),
                                "severity": nullable(ref("Severity")),
                                "startsAt": nullable(["type": "string", "format": "date-time"]),
                                "endsAt": nullable(["type": "string", "format": "date-time"])], required: ["title"]),
        "Resource": object(["id": string, "title": string, "category": string, "link": ["type": "string", "format": "uri"], "updatedAt": dateTime],
                           required: ["id", "title", "category", "link", "updatedAt"]),
        "ResourceList": object(["resources": ["type": "array", "items": ref("Resource")]], required: ["resources"]),
        "ResourceRequest": closed(["title": ["type": "string", "pattern": "\\S", "maxLength": ResourceRequest.maxTitle],
                                   "category": ["type": "string", "pattern": "\\S", "maxLength": ResourceRequest.maxCategory],
                                   "link": ["type": "string", "pattern": ResourceRequest.linkPattern, "maxLength": ResourceRequest.maxLink]],
                                  required: ["title", "category", "link"]),
        "Session": object(["account": ref("Account"), "csrfToken": string, "expiresAt": ["type": ["string", "null"], "format": "date-time"]],
                          required: ["account", "csrfToken"]),
        "LayerUpload": object(["layer": string, "version": ["type": ["integer", "null"]], "kind": string, "published": ["type": "boolean"],
                               "featureCount": integer, "validCount": integer, "repairedCount": integer, "rejectedCount": integer,
                               "moved": ["type": ["integer", "null"]],
                               "problems": ["type": "array", "items": object(["index": integer, "id": ["type": ["string", "null"]],
                                                                                "outcome": ["type": "string", "enum": ["repaired", "rejected"]],
                                                                                "reason": ["type": ["string", "null"]], "notes": ["type": "array", "items": string]])]],
                              required: ["layer", "kind", "published", "featureCount", "problems"]),
        // 422: the validation report when features were rejected, the error when the body is no GeoJSON.
        "LayerRefusal": ["anyOf": [ref("LayerUpload"), ref("Error")]],
        "LayerPublished": object(["layer": string, "version": integer, "moved": integer], required: ["layer", "version", "moved"]),
        "LoginResponse": object(["token": string, "expiresAt": dateTime, "account": ref("Account")], required: ["token", "expiresAt", "account"]),
    ] }

    private static var string: [String: Any] { ["type": "string"] }
    private static var ids: [String: Any] { ["type": "array", "items": string, "minItems": 1, "maxItems": 500] }
    /// A verifier's reason: some visible text.
    private static var reason: [String: Any] { ["type": "string", "pattern": "\\S"] }
    /// A report version as clients send it back: what the service issued, a whole number JSON
    /// carries exactly (at most 2^53 − 1).
    private static var version: [String: Any] { ["type": "integer", "minimum": 1, "maximum": 9_007_199_254_740_991] }

    /// A request member that may also be `null`, which the service reads as absent.
    private static func nullable(_ schema: [String: Any]) -> [String: Any] { ["anyOf": [schema, ["type": "null"]]] }

    /// A request object: members not listed are refused, so the schema says all the service reads.
    private static func closed(_ properties: [String: Any], required: [String] = []) -> [String: Any] {
        var o = object(properties, required: required)
        o["additionalProperties"] = false
        return o
    }

    /// Text a person typed: at least one visible character, at most `max`.
    private static func text(_ max: Int) -> [String: Any] { nullable(["type": "string", "pattern": "\\S", "maxLength": max]) }

    /// Where a report is: a location or an area, exactly one.
    private static var placeOnce: [String: Any] {
        ["oneOf": [["required": ["location"], "not": ["required": ["area"]]], ["required": ["area"], "not": ["required": ["location"]]]]]
    }

    private static var placeFields: [String: Any] { [
        "location": closed(["lon": ["type": "number", "minimum": -180, "maximum": 180], "lat": ["type": "number", "minimum": -90, "maximum": 90],
                            "accuracyM": nullable(["type": "number", "minimum": 0, "maximum": ReportLimits.maxAccuracyMetres])],
                           required: ["lon", "lat"]),
        "area": closed(["layer": ["type": "string", "pattern": "\\S", "maxLength": ReportLimits.idText],
                        "id": ["type": "string", "pattern": "\\S", "maxLength": ReportLimits.idText]], required: ["layer", "id"]),
    ] }

    private static var covidFields: [String: Any] {
        placeFields.merging([
            "kind": ["type": "string", "const": "covid"],
            "affiliation": ["type": "string", "enum": ["student", "faculty", "staff"]],
            "age": nullable(["type": "integer", "minimum": ReportLimits.age.lowerBound, "maximum": ReportLimits.age.upperBound]),
            "phone": ["type": "string", "pattern": "^\\+?[0-9 ()./-]{7,\(ReportLimits.phoneCharacters)}$"],
            "testDate": ["type": "string", "format": "date"], "lastOnCampus": ["type": "string", "format": "date"],
            "diagnosis": nullable(["type": "string", "enum": ["confirmed", "unconfirmed"]]), "notes": text(ReportLimits.longText),
        ]) { a, _ in a }
    }

    private static var misconductFields: [String: Any] {
        placeFields.merging([
            "kind": ["type": "string", "const": "misconduct"],
            "occurredAt": dateTime, "officerName": text(ReportLimits.shortText), "badgeNumber": text(ReportLimits.shortText),
            "officerDescription": ["type": "string", "pattern": "\\S", "maxLength": ReportLimits.longText],
            "incidentDescription": ["type": "string", "pattern": "\\S", "maxLength": ReportLimits.longText],
            "witnesses": nullable(["type": "array", "maxItems": ReportLimits.witnesses,
                                   "items": ["anyOf": [closed(["contact": ["type": "string", "pattern": "\\S", "maxLength": ReportLimits.shortText],
                                                               "statement": text(ReportLimits.longText)], required: ["contact"]),
                                                       closed(["contact": text(ReportLimits.shortText),
                                                               "statement": ["type": "string", "pattern": "\\S", "maxLength": ReportLimits.longText]],
                                                              required: ["statement"])]]]),
            "victim": nullable(closed(["race": text(ReportLimits.shortText), "gender": text(ReportLimits.shortText), "comments": text(ReportLimits.longText)])),
            "attachments": nullable(["type": "array", "maxItems": ReportLimits.attachments, "items": string]),
            "anonymous": nullable(["type": "boolean"]),
        ]) { a, _ in a }
    }
    private static var integer: [String: Any] { ["type": "integer"] }
    private static var dateTime: [String: Any] { ["type": "string", "format": "date-time"] }

    private static func ref(_ name: String) -> [String: Any] { ["$ref": "#/components/schemas/\(name)"] }

    private static func object(_ properties: [String: Any], required: [String] = []) -> [String: Any] {
        var o: [String: Any] = ["type": "object", "properties": properties]
        if !required.isEmpty { o["required"] = required }
        return o
    }

    /// The whole document as a JSON-compatible dictionary.
    static var document: [String: Any] {
        var paths: [String: [String: Any]] = [:]
        for op in operations {
            var operation: [String: Any] = ["summary": op.summary, "operationId": "\(op.method)\(op.path)"]
            var responses = op.responses
            // Every body can be malformed or too large; every token can be unknown or revoked.
            if op.request != nil || !op.uploadTypes.isEmpty { responses[400] = responses[400] ?? "Error"; responses[413] = responses[413] ?? "Error" }
            // A JSON body declared as another media type.
            if op.request != nil { responses[415] = responses[415] ?? "Error" }
            if takesBearerToken(op.path) { responses[401] = responses[401] ?? "Error" }
            let alternatives = ogcPaths.contains(op.path) ? ["text/html"] : op.alternatives
            operation["responses"] = Dictionary(uniqueKeysWithValues: responses.map { code, schema -> (String, Any) in
                var r: [String: Any] = ["description": HTTPStatusText.phrase(code)]
                if !schema.isEmpty {
                    var content: [String: Any] = [(code == 200 ? op.contentType : "application/json"): ["schema": ref(schema)]]
                    if code == 200 {
                        for type in alternatives { content[type] = ["schema": type == "text/html" ? string : ref(schema)] }
                    } else if ogcPaths.contains(op.path) {
                        // Asked for HTML, the OGC resources refuse with a page as well.
                        content["text/html"] = ["schema": string]
                    }
                    r["content"] = content
                }
                return (String(code), r)
            })
            if let body = op.request {
                operation["requestBody"] = ["required": !op.requestOptional, "content": ["application/json": ["schema": ref(body)]]]
            }
            if !op.uploadTypes.isEmpty {
                let bytes: [String: Any] = ["schema": ["type": "string", "format": "binary", "minLength": 1]]
                operation["requestBody"] = ["required": true, "content": Dictionary(uniqueKeysWithValues: op.uploadTypes.map { ($0, bytes) })]
            }
            if let access = op.access {
                operation["security"] = [["bearer": []]]
                operation["description"] = "Needs a bearer token" + (access == "any account" ? "." : " of an account with the \(access) permission.")
            }
            var parameters = op.path.split(separator: "/").filter { $0.hasPrefix("{") }.map { p -> [String: Any] in
                ["name": String(p.dropFirst().dropLast()), "in": "path", "required": true, "schema": string]
            }
            parameters += op.query.map(\.openAPI)
            if !parameters.isEmpty { operation["parameters"] = parameters }
            paths[op.path, default: [:]][op.method] = operation
        }
        return [
            "openapi": "3.1.0",
            "info": ["title": "geoserve", "version": "0.1.0",
                     "description": "Verified, privacy-safe area statistics from sensitive individual reports."],
            "paths": paths,
            "components": [
                "schemas": schemas,
                "securitySchemes": ["bearer": ["type": "http", "scheme": "bearer"]],
            ],
        ]
    }

    /// The document as JSON bytes (sorted keys, so it is stable), built once.
    static let json: Data = {
        (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }()
}

/// Reason phrases for the response descriptions.
enum HTTPStatusText {
    static func phrase(_ code: Int) -> String {
        switch code {
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 304: return "Not Modified (If-None-Match named the current ETag)"
        case 400: return "Bad Request (a malformed body, or a query parameter that is unknown, repeated, missing or out of range: the error names it)"
        case 401: return "Unauthorized (no, unknown, expired or revoked token)"
        case 403: return "Forbidden (the role lacks the permission)"
        case 404: return "Not Found"
        case 409: return "Conflict"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type (a body not sent as application/json, or an upload that is not an accepted format)"
        case 422: return "Unprocessable Content (invalid value; the error names the field)"
        case 429: return "Too Many Requests (Retry-After says when to try again)"
        case 503: return "Service Unavailable"
        case 507: return "Insufficient Storage (Retry-After says when to try again)"
        default: return "Status \(code)"
        }
    }
}
