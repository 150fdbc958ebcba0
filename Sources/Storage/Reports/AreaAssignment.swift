import DomainKernel
import Foundation

/// Where a report was placed in one layer.
public struct AreaAssignment: Hashable, Sendable, Codable {
    public let layer: String
    public let layerVersion: Int
    public let areaID: String

    public init(layer: String, layerVersion: Int, areaID: String) {
        self.layer = layer
        self.layerVersion = layerVersion
        self.areaID = areaID
    }

    /// The area, without the layer version.
    public var ref: AreaRef { AreaRef(layer: layer, areaID: areaID) }
}
