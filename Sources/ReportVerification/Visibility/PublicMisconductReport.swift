import DomainKernel

/// What public misconduct search returns for a verified report: the officer description, the
/// incident description, the incident's day and the area — the `public` fields of
/// `ReportKind.misconduct.fieldVisibility`, and nothing else.
public struct PublicMisconductReport: Codable, Hashable, Sendable {
    /// What the officer looked like.
    public let officerDescription: String
    /// What happened.
    public let incidentDescription: String
    /// The incident's day where it happened; never the time.
    public let occurredOn: Day?
    /// The id of the area the report was placed in, if any.
    public let area: String?
    /// The layer of `area`; part of the area's public reference, not a field of its own.
    public let layer: String?

    /// Projects a report onto its public fields.
    /// - Parameters:
    ///   - layer: the layer of the area to show (the one the search was about).
    ///   - areaID: the report's area in that layer, never its exact location.
    public init(_ r: MisconductReport, layer: String?, areaID: String?) {
        officerDescription = r.officerDescription
        incidentDescription = r.incidentDescription
        occurredOn = r.occurredOn
        self.layer = layer
        area = areaID
    }

    /// Which declared field each JSON key of the projection carries, so that a test can hold the
    /// projection to the visibility table.
    public static let sourceFields: [String: String] = [
        "officerDescription": "officerDescription",
        "incidentDescription": "incidentDescription",
        "occurredOn": "occurredOn",
        "area": "area",
        "layer": "area",
    ]
}

extension MisconductReport {
    /// The report as the public may see it, in one area of one layer.
    public func publicProjection(layer: String?, areaID: String?) -> PublicMisconductReport {
        PublicMisconductReport(self, layer: layer, areaID: areaID)
    }
}
