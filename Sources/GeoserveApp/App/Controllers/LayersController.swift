import Foundation
import Hummingbird
import Storage

/// `GET /v1/layers`: layers, their versions and area counts.
struct LayersController<Context: RequestContext> {
    let store: any AreaStore

    struct Version: Codable {
        let version: Int
        let createdAt: String
        let featureCount: Int
        let repairedCount: Int
        let rejectedCount: Int
    }

    struct Layer: Codable {
        let name: String
        let kind: String
        let publishedVersion: Int?
        /// Features in the published version.
        let featureCount: Int
        let versions: [Version]
    }

    struct Layers: ResponseEncodable {
        let layers: [Layer]
    }

    func addRoutes(to group: RouterGroup<Context>) {
        group.get("layers") { _, _ in try await list() }
    }

    func list() async throws -> Layers {
        let summaries = try await store.layers()
        let iso = Date.ISO8601FormatStyle(includingFractionalSeconds: false)
        return Layers(layers: summaries.map { s in
            let published = s.versions.first { $0.version == s.publishedVersion }
            return Layer(name: s.name, kind: s.kind.rawValue, publishedVersion: s.publishedVersion,
                         featureCount: published?.featureCount ?? 0,
                         versions: s.versions.map { Version(version: $0.version, createdAt: iso.format($0.createdAt),
                                                            featureCount: $0.featureCount, repairedCount: $0.repairedCount,
                                                            rejectedCount: $0.rejectedCount) })
        })
    }
}
