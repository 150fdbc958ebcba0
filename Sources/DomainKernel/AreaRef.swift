/// A report's placement in one layer: the area that contains it there. The same reference names
/// an area in counters, in stored placements and in a report that picks an area by id.
public struct AreaRef: Hashable, Sendable, Codable {
    public let layer: String
    public let areaID: String

    /// Creates a placement.
    public init(layer: String, areaID: String) {
        self.layer = layer
        self.areaID = areaID
    }
}
