import Aggregation
import Crypto
import DomainKernel
import Foundation

/// The identities of classes on the maps (`LineIdentity`): per area, a SHA-256 digest of its
/// stored geometry, read for the areas asked about only (a publication usually asks about the
/// few classes its new reports lie in).
enum LineIdentities {
    static func answer(_ questions: Set<ClassOnMaps>, geometries: (String, Int, Set<String>) throws -> [String: String]) throws -> [ClassOnMaps: String] {
        guard !questions.isEmpty else { return [:] }
        var wanted: [String: [Int: Set<String>]] = [:]
        for q in questions {
            for ref in q.areaClass.areas {
                guard let version = q.geography[ref.layer], version > 0 else { continue }
                wanted[ref.layer, default: [:]][version, default: []].insert(ref.areaID)
            }
        }
        var digests: [String: [Int: [String: String]]] = [:]
        for (layer, versions) in wanted {
            for (version, areas) in versions {
                digests[layer, default: [:]][version] = try geometries(layer, version, areas).mapValues(digest)
            }
        }
        var out: [ClassOnMaps: String] = [:]
        for q in questions {
            out[q] = LineIdentity.key(of: q.areaClass, geography: q.geography) { layer, area in
                q.geography[layer].flatMap { digests[layer]?[$0]?[area] }
            }
        }
        return out
    }

    /// 128 bits of SHA-256 of the stored geometry, in hex: equal texts give equal digests.
    static func digest(_ geometry: String) -> String {
        SHA256.hash(data: Data(geometry.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
    }
}
