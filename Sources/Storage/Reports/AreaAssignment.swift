import DomainKernel
import Foundation

/// Where a report was placed in one layer: the area, and the version of the layer it was placed
/// in (a re-import places it again).
public struct AreaAssignment: Hashable, Sendable {
    public let area: AreaRef
    public let layerVersion: Int

    public init(layer: String, layerVersion: Int, areaID: String) {
        area = AreaRef(layer: layer, areaID: areaID)
        self.layerVersion = layerVersion
    }

    public var layer: String { area.layer }
    public var areaID: String { area.areaID }
}

/// Flat `{"layer", "layerVersion", "areaID"}`, the shape the revisions table has always kept.
extension AreaAssignment: Codable {
    private enum Key: String, CodingKey { case layer, layerVersion, areaID }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        self.init(layer: try c.decode(String.self, forKey: .layer), layerVersion: try c.decode(Int.self, forKey: .layerVersion),
                  areaID: try c.decode(String.self, forKey: .areaID))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(layer, forKey: .layer)
        try c.encode(layerVersion, forKey: .layerVersion)
        try c.encode(areaID, forKey: .areaID)
    }
}
