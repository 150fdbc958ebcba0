import DomainKernel

/// Everything about one layer that is published together for one audience: what
/// complementary suppression protects as a whole.
public struct ReleasedLayerStatistics: Sendable {
    public let request: StatisticsRequest
    public let audience: Audience
    /// The k applied (1 = nothing suppressed).
    public let threshold: Int
    /// Every area id of the layer, zeros included.
    public let areas: AreaMap<ReleasedAreaStatistics>
    /// The layer total.
    public let total: ReleasedAreaStatistics

    /// Creates a release (only `DisclosureControl` should).
    init(request: StatisticsRequest, audience: Audience, threshold: Int, areas: AreaMap<ReleasedAreaStatistics>, total: ReleasedAreaStatistics) {
        self.request = request
        self.audience = audience
        self.threshold = threshold
        self.areas = areas
        self.total = total
    }
}

extension ReleasedLayerStatistics: Encodable {
    private enum CodingKeys: String, CodingKey { case layer, kind, basis, end, audience, threshold, areas, total }

    /// The request, audience and threshold, then `areas` keyed by id and `total`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(request.layer, forKey: .layer)
        try container.encode(request.kind, forKey: .kind)
        try container.encode(request.basis, forKey: .basis)
        try container.encode(request.end, forKey: .end)
        try container.encode(audience, forKey: .audience)
        try container.encode(threshold, forKey: .threshold)
        try container.encode(areas, forKey: .areas)
        try container.encode(total, forKey: .total)
    }
}
