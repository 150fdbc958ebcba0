import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import GeoserveApp

@Suite("authorization matrix")
struct AuthorizationMatrixTests {
    enum Who: String, CaseIterable { case anonymous, reporter, verifier, researcher, viewer, admin }

    struct Row {
        let method: HTTPRequest.Method
        let path: String
        let body: String?
        let expected: [Who: HTTPResponse.Status]
    }

    static func all(_ s: HTTPResponse.Status) -> [Who: HTTPResponse.Status] { Dictionary(uniqueKeysWithValues: Who.allCases.map { ($0, s) }) }

    static func roles(anonymous: HTTPResponse.Status, reporter: HTTPResponse.Status, verifier: HTTPResponse.Status,
                      researcher: HTTPResponse.Status, viewer: HTTPResponse.Status, admin: HTTPResponse.Status) -> [Who: HTTPResponse.Status] {
        [.anonymous: anonymous, .reporter: reporter, .verifier: verifier, .researcher: researcher, .viewer: viewer, .admin: admin]
    }

    /// Every endpoint against every role; "r" is a pending report no caller submitted or was granted.
    static let rows: [Row] = [
        Row(method: .get, path: "/healthz", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/openapi.json", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/v1/layers", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/v1/publications", body: nil, expected: all(.ok)),
        Row(method: .post, path: "/v1/publications", body: "{}",
            expected: roles(anonymous: .unauthorized, reporter: .forbidden, verifier: .forbidden, researcher: .forbidden, viewer: .forbidden, admin: .created)),
        Row(method: .get, path: "/", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/conformance", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/collections", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/collections/halls", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/collections/halls/schema", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/collections/halls/items", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/collections/halls/items/H01", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/v1/areas/containing?lon=-87.6&lat=41.79", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/v1/places/nearest?lon=-87.6&lat=41.79", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/tiles/halls.json", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/tiles/halls/legend.png", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/tiles/halls/16/16795/24351.png", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/v1/exports/area-stats?layer=halls&from=2026-11-01&to=2026-11-02", body: nil,
            expected: roles(anonymous: .unauthorized, reporter: .forbidden, verifier: .forbidden, researcher: .ok, viewer: .forbidden, admin: .ok)),
        Row(method: .get, path: "/v1/misconduct?layer=halls&area=H01", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/v1/misconduct/near?lon=-87.6&lat=41.79&radius_m=500", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/v1/me", body: nil, expected: roles(anonymous: .unauthorized, reporter: .ok, verifier: .ok, researcher: .ok, viewer: .ok, admin: .ok)),
        Row(method: .get, path: "/v1/accounts", body: nil,
            expected: roles(anonymous: .unauthorized, reporter: .forbidden, verifier: .forbidden, researcher: .forbidden, viewer: .forbidden, admin: .ok)),
        Row(method: .patch, path: "/v1/accounts/nobody", body: #"{"role":"viewer"}"#,
            expected: roles(anonymous: .unauthorized, reporter: .forbidden, verifier: .forbidden, researcher: .forbidden, viewer: .forbidden, admin: .notFound)),
        Row(method: .post, path: "/v1/reports", body: Drafts.covid(),
            expected: roles(anonymous: .created, reporter: .created, verifier: .created, researcher: .forbidden, viewer: .forbidden, admin: .created)),
        Row(method: .get, path: "/v1/reports/r", body: nil,
            expected: roles(anonymous: .notFound, reporter: .notFound, verifier: .ok, researcher: .notFound, viewer: .notFound, admin: .ok)),
        Row(method: .patch, path: "/v1/reports/r", body: #"{"report":\#(Drafts.covid(hall: "H03"))}"#,
            expected: roles(anonymous: .unauthorized, reporter: .notFound, verifier: .ok, researcher: .notFound, viewer: .notFound, admin: .ok)),
        Row(method: .get, path: "/v1/reports/r/revisions", body: nil,
            expected: roles(anonymous: .unauthorized, reporter: .notFound, verifier: .ok, researcher: .notFound, viewer: .notFound, admin: .ok)),
        Row(method: .post, path: "/v1/reports/r/withdraw", body: nil, expected: all(.notFound)),
        Row(method: .get, path: "/v1/reports/r/history", body: nil,
            expected: roles(anonymous: .unauthorized, reporter: .forbidden, verifier: .ok, researcher: .forbidden, viewer: .forbidden, admin: .ok)),
        Row(method: .get, path: "/v1/reports/r/attachments", body: nil,
            expected: roles(anonymous: .unauthorized, reporter: .forbidden, verifier: .ok, researcher: .forbidden, viewer: .forbidden, admin: .ok)),
        Row(method: .post, path: "/v1/reports/r/grants", body: #"{"viewerId":"nobody"}"#,
            expected: roles(anonymous: .unauthorized, reporter: .forbidden, verifier: .forbidden, researcher: .forbidden, viewer: .forbidden, admin: .notFound)),
        Row(method: .get, path: "/v1/verification/queue", body: nil,
            expected: roles(anonymous: .unauthorized, reporter: .forbidden, verifier: .ok, researcher: .forbidden, viewer: .forbidden, admin: .ok)),
        Row(method: .post, path: "/v1/verification/bulk", body: #"{"ids":["zzz"],"transition":"reject","reason":"x"}"#,
            expected: roles(anonymous: .unauthorized, reporter: .forbidden, verifier: .ok, researcher: .forbidden, viewer: .forbidden, admin: .ok)),
        Row(method: .post, path: "/v1/reports/zzz/transitions", body: #"{"transition":"verify"}"#,
            expected: roles(anonymous: .unauthorized, reporter: .forbidden, verifier: .notFound, researcher: .forbidden, viewer: .forbidden, admin: .notFound)),
        Row(method: .post, path: "/v1/reports/zzz/claim", body: nil,
            expected: roles(anonymous: .unauthorized, reporter: .forbidden, verifier: .notFound, researcher: .forbidden, viewer: .forbidden, admin: .notFound)),
        Row(method: .get, path: "/v1/alerts", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/v1/alerts?state=all", body: nil, expected: adminOnly(.ok)),
        Row(method: .post, path: "/v1/alerts", body: #"{"title":"Flu clinic this week"}"#, expected: adminOnly(.created)),
        Row(method: .get, path: "/v1/alerts/zzz", body: nil, expected: all(.notFound)),
        Row(method: .put, path: "/v1/alerts/zzz", body: #"{"title":"x"}"#, expected: adminOnly(.notFound)),
        Row(method: .post, path: "/v1/alerts/zzz/expire", body: nil, expected: adminOnly(.notFound)),
        Row(method: .delete, path: "/v1/alerts/zzz", body: nil, expected: adminOnly(.notFound)),
        Row(method: .get, path: "/v1/resources", body: nil, expected: all(.ok)),
        Row(method: .get, path: "/v1/resources/zzz", body: nil, expected: all(.notFound)),
        Row(method: .post, path: "/v1/resources", body: #"{"title":"CDC","category":"Health","link":"https://www.cdc.gov/"}"#,
            expected: adminOnly(.created)),
        Row(method: .put, path: "/v1/resources/zzz", body: #"{"title":"CDC","category":"Health","link":"https://www.cdc.gov/"}"#,
            expected: adminOnly(.notFound)),
        Row(method: .delete, path: "/v1/resources/zzz", body: nil, expected: adminOnly(.notFound)),
        Row(method: .post, path: "/v1/layers/halls/versions", body: #"{"type":"FeatureCollection","features":[]}"#, expected: adminOnly(.unprocessableContent)),
        Row(method: .post, path: "/v1/layers/halls/versions/zzz/publish", body: nil, expected: adminOnly(.badRequest)),
    ]

    /// 401 without a token, 403 for every role but admin, `admin` for admins.
    static func adminOnly(_ admin: HTTPResponse.Status) -> [Who: HTTPResponse.Status] {
        roles(anonymous: .unauthorized, reporter: .forbidden, verifier: .forbidden, researcher: .forbidden, viewer: .forbidden, admin: admin)
    }

    @Test("every endpoint answers every role as intended")
    func matrix() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.seedReports(["r"])
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            var tokens: [Who: String] = [.admin: admin]
            for who in [Who.reporter, .verifier, .researcher, .viewer] { tokens[who] = try await client.account(who.rawValue, admin: admin).token }
            var wrong: [String] = []
            for row in Self.rows {
                for who in Who.allCases {
                    var headers: HTTPFields = [.contentType: "application/json"]
                    if let t = tokens[who] { headers[.authorization] = "Bearer \(t)" }
                    let status = try await client.execute(uri: row.path, method: row.method, headers: headers,
                                                          body: row.body.map { ByteBuffer(string: $0) }) { $0.status }
                    if status != row.expected[who] { wrong.append("\(row.method) \(row.path) as \(who): \(status.code), expected \(row.expected[who]!.code)") }
                }
            }
            #expect(wrong.isEmpty, "\(wrong.joined(separator: "\n"))")
        }
    }

    @Test("every route of the router appears in the matrix or in a dedicated test")
    func coverage() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let router = try routerForInspection(folder: folder)
        // Routes whose authorization is tested in their own suites (tokens, attachments, claims, grants, restores, metrics; the pages and their files in PagesTests; page sessions in SessionTests).
        let elsewhere: Set<String> = ["POST /v1/auth/login", "POST /v1/auth/logout", "POST /v1/accounts", "POST /v1/accounts/{}/revoke-tokens",
                                      "POST /v1/reports/{}/attachments", "GET /v1/attachments/{}", "DELETE /v1/reports/{}/claim",
                                      "DELETE /v1/reports/{}/grants/{}", "POST /v1/reports/{}/revisions/{}/restore", "GET /readyz",
                                      "GET /metrics", "GET /assets/dom.js", "GET /assets/dashboard.js", "GET /assets/pages.css", "GET /assets/ogc.css", "GET /assets/icon.svg", "GET /manifest.webmanifest", "GET /sw.js", "GET /assets/leaflet/**",
                                      "GET /assets/report.js", "GET /assets/outbox.js", "GET /assets/admin.js", "GET /report", "GET /report/receipt", "GET /admin",
                                      "POST /v1/auth/session", "GET /v1/auth/session", "DELETE /v1/auth/session"]
        let inMatrix = Set(Self.rows.map { row in
            "\(row.method.rawValue) " + row.path.split(separator: "?")[0].split(separator: "/").map { ["r", "zzz", "nobody", "halls", "H01", "halls.json", "16", "16795", "24351.png"].contains($0) ? "{}" : String($0) }
                .reduce("") { $0 + "/" + $1 }
        })
        let routes = Set(router.routes.map { r in
            "\(r.method.rawValue) " + r.path.description.split(separator: "/").map { $0.hasPrefix(":") || $0.hasPrefix("{") ? "{}" : String($0) }.reduce("") { $0 + "/" + $1 }
        })
        #expect(routes.subtracting(inMatrix).subtracting(elsewhere).isEmpty, "untested: \(routes.subtracting(inMatrix).subtracting(elsewhere).sorted())")
    }
}
