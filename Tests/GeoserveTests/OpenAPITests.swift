import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import GeoserveApp

@Suite("OpenAPI document")
struct OpenAPITests {
    @Test("every route of the router is documented, and every documented route exists")
    func routesMatch() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let router = try routerForInspection(folder: folder)
        // The pages and their files (script, style, Leaflet) are not API: PagesTests covers them.
        let routed = Set(router.routes.filter { !$0.path.description.hasPrefix("assets/") && !$0.path.description.hasPrefix("/assets/") }.map { route -> String in
            let path = "/" + route.path.description.split(separator: "/").map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }.joined(separator: "/")
            return "\(route.method.rawValue.lowercased()) \(path)"
        }.filter { !PagesController.pagePaths.union(PagesController.rootFiles).contains(String($0.drop { $0 != " " }.dropFirst())) })
        let documented = Set(OpenAPIDocument.operations.map { "\($0.method) \($0.path)" })
        #expect(routed.subtracting(documented).isEmpty, "undocumented: \(routed.subtracting(documented).sorted())")
        #expect(documented.subtracting(routed).isEmpty, "documented but not routed: \(documented.subtracting(routed).sorted())")
        #expect(routed.count >= 11)
    }

    @Test("the document is served, is OpenAPI 3.1, and every schema reference resolves")
    func served() async throws {
        let service = try await TestService(demo: false)
        defer { service.remove() }
        try await service.run { client in
            let (status, doc) = try await client.json(.get, "/openapi.json")
            #expect(status == .ok)
            #expect(doc["openapi"] as? String == "3.1.0")
            let schemas = ((doc["components"] as? [String: Any])?["schemas"] as? [String: Any]) ?? [:]
            let text = String(decoding: OpenAPIDocument.json, as: UTF8.self)
            var refs = Set<String>()
            var rest = text[...]
            while let r = rest.range(of: "#/components/schemas/") {
                let name = rest[r.upperBound...].prefix { $0 != "\"" }
                refs.insert(String(name))
                rest = rest[r.upperBound...]
            }
            #expect(!refs.isEmpty)
            for name in refs { #expect(schemas[name] != nil, "unresolved $ref \(name)") }
        }
    }
}
