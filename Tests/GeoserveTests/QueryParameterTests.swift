import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import GeoserveApp

/// The parameter table drives every route: each documented parameter of each GET route refuses a
/// bad value with the same `400 bad_parameter` naming it, and every route refuses an undeclared
/// parameter. Sent through the router, so a route that parsed on its own would fail here.
@Suite("query parameters")
struct QueryParameterTests {
    /// A value that breaks the parameter's declared kind.
    static func badValue(_ p: QueryParameter) -> String {
        switch p.kind {
        case .integer(let range, _): String(range.lowerBound - 1)
        case .number(let range): String(range.upperBound + 1)
        case .choice, .choices: "zzz"
        case .date: "2026-02-30"
        case .boolean: "maybe"
        case .numbers(let count): Array(repeating: "1", count: count.upperBound + 1).joined(separator: ",")
        case .text(let max): String(repeating: "x", count: max + 1)
        case .pattern: "~"
        case .bbox: "0,0,1,91"
        }
    }

    /// The documented path with sample values for its path parameters.
    static func concrete(_ path: String) -> String {
        path.replacingOccurrences(of: "{layer}/{z}/{x}/{y}", with: "halls/16/16795/24351.png")
            .replacingOccurrences(of: "/tiles/{layer}/legend", with: "/tiles/halls/legend")
            .replacingOccurrences(of: "/tiles/{layer}", with: "/tiles/halls.json")
            .replacingOccurrences(of: "{layer}", with: "halls").replacingOccurrences(of: "{areaId}", with: "H01")
    }

    @Test("every documented GET parameter refuses a bad value with 400 bad_parameter naming it; undeclared ones are refused on every route")
    func everyRoute() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            let admin = try await client.login(TestService.adminEmail)
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(admin)"
            var checked = 0
            for op in OpenAPIDocument.operations where op.method == "get" && !op.query.isEmpty {
                let path = Self.concrete(op.path)
                for p in op.query {
                    let value = Self.badValue(p).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                    let (status, _, body) = try await client.getJSON("\(path)?\(p.name)=\(value)", headers: headers)
                    #expect(status == .badRequest, "\(op.path) \(p.name)")
                    #expect(errorCode(body) == "bad_parameter" && errorField(body) == p.name, "\(op.path) \(p.name): \(body)")
                    checked += 1
                }
                let (status, _, body) = try await client.getJSON("\(path)?colour=red", headers: headers)
                #expect(status == .badRequest && errorCode(body) == "unknown_parameter" && errorField(body) == "colour", "\(op.path)")
            }
            #expect(checked >= 40)
        }
    }

    @Test("a value within the declared limits is accepted by the parser and one outside is refused, for every kind")
    func kinds() throws {
        let cases: [(QueryParameter.Kind, good: String, bad: String)] = [
            (.integer(1...10, clampsAbove: true), "99", "0"), (.integer(1...10, clampsAbove: false), "10", "11"),
            (.number(-90...90), "-90", "90.5"), (.choice(["a", "b"]), "b", "c"), (.choices(["a", "b"]), "b,a", "a,"),
            (.date, "2024-02-29", "2023-02-29"), (.boolean, "false", "no"), (.numbers(2...2), "1.5, -2", "1,2,3"),
            (.text(maxLength: 3), "abc", ""), (.bbox, "170,-10,-170,10", "0,0,1,91"), (.bbox, "1,2,0,3,4,9", "1,2,3,4,5"),
            (.pattern(QueryParameters.Patterns.datetime, maxLength: 100), "2024-02-29T23:59:59.5+05:30/..", "2023-02-29"),
            (.pattern(QueryParameters.Patterns.datetime, maxLength: 100), "../2026-11-01", "2026-11-01/2026-11-02/2026-11-03"),
            (.pattern(QueryParameters.Patterns.pageCursor, maxLength: 100), "a.SDAx", "a.SDAxZ"),
            (.pattern(QueryParameters.Patterns.queueCursor, maxLength: 100), "0.MjAyNg.cjE", "0.MjAyNg"),
        ]
        for (kind, good, bad) in cases {
            #expect(QueryValues.isValid(good, kind), "\(kind) \(good)")
            #expect(!QueryValues.isValid(bad, kind), "\(kind) \(bad)")
        }
        let limit = QueryParameter("limit", .integer(1...10, clampsAbove: true), default: "5", "")
        #expect(try QueryValues([("limit", "99")], [limit]).int(limit) == 10)
        #expect(try QueryValues([], [limit]).int(limit) == 5)
        #expect(throws: APIError.self) { try QueryValues([("limit", "1"), ("limit", "2")], [limit]) }
        let required = QueryParameter("layer", .text(maxLength: 64), required: true, "")
        #expect(throws: APIError.self) { try QueryValues([], [required]) }
    }
}
