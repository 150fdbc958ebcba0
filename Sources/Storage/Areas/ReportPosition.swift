/// Where a stored report is, as re-assignment needs it when a layer gets a new version.
public struct ReportPosition: Sendable {
    public let reportID: String
    /// The exact location, when the report gave one.
    public let lon: Double?
    public let lat: Double?
    /// The area the report named instead (the COVID form's residence-hall pick).
    public let namedLayer: String?
    public let namedArea: String?
    /// The area the report lies in now in the layer being published (of its published version):
    /// where a named area is gone from the new version, the report follows the area it was in.
    public let placedArea: String?

    public init(reportID: String, lon: Double?, lat: Double?, namedLayer: String?, namedArea: String?, placedArea: String? = nil) {
        self.reportID = reportID
        self.lon = lon
        self.lat = lat
        self.namedLayer = namedLayer
        self.namedArea = namedArea
        self.placedArea = placedArea
    }
}

/// Decides a report's area in the layer being published: an area id, or nil for none.
public typealias AreaResolver = @Sendable (ReportPosition) -> String?
