import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import GeoserveApp

/// Public JSON and HTML answers go gzip-compressed to a client that takes it, and only public ones.
@Suite("compressed answers")
struct CompressionTests {
    @Test("public items, collections and the OpenAPI document go gzip-compressed when asked, decompress to the plain body and revalidate; a signed-in reader's live answer never")
    func publicAnswersCompressed() async throws {
        let service = try await TestService()
        defer { service.remove() }
        try await service.run { client in
            for path in ["/collections/halls/items?limit=10000&f=json", "/collections/halls/items?limit=10000&f=html", "/collections?f=json",
                         "/openapi.json"] {
                let plain = try await client.execute(uri: path, method: .get) { $0 }
                let zipped = try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip, deflate, br"]) { $0 }
                #expect(plain.status == .ok && zipped.status == .ok, "\(path)")
                #expect(plain.headers[.contentEncoding] == nil && zipped.headers[.contentEncoding] == "gzip", "\(path)")
                #expect((zipped.headers[.vary] ?? "").contains("Accept-Encoding") && (plain.headers[.vary] ?? "").contains("Accept-Encoding"), "\(path)")
                #expect(zipped.body.readableBytes < plain.body.readableBytes / 2, "\(path): \(zipped.body.readableBytes) of \(plain.body.readableBytes)")
                #expect(try gunzip(Array(buffer: zipped.body)) == Array(buffer: plain.body), "\(path)")
                // Each representation has its own tag, and each revalidates to 304 without a body.
                let tag = try #require(zipped.headers[.eTag])
                #expect(tag != plain.headers[.eTag], "\(path)")
                let again = try await client.execute(uri: path, method: .get, headers: [.acceptEncoding: "gzip", .ifNoneMatch: tag]) { $0 }
                #expect(again.status == .notModified && again.body.readableBytes == 0 && again.headers[.contentEncoding] == nil, "\(path)")
            }
            // Live numbers for a signed-in admin may sit beside secrets: never compressed.
            let token = try await client.login(TestService.adminEmail)
            let live = try await client.execute(uri: "/collections/halls/items?limit=10000&f=json", method: .get,
                                                headers: [.acceptEncoding: "gzip", .authorization: "Bearer \(token)"]) { $0 }
            #expect(live.status == .ok && live.headers[.cacheControl] == Conditional.privateCaching && live.headers[.contentEncoding] == nil)
            // A small answer is not worth gzip's frame.
            let small = try await client.execute(uri: "/v1/alerts", method: .get, headers: [.acceptEncoding: "gzip"]) { $0 }
            #expect(small.status == .ok && small.headers[.contentEncoding] == nil)
        }
    }
}
