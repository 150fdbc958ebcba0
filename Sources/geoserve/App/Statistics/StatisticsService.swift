import Aggregation
import DomainKernel
import Foundation
import GeoCore
import ReportVerification
import Storage

/// The one way numbers reach GeoJSON, tiles and exports: counters from the store, statistics
/// from `Aggregation`, then disclosure control for the caller's audience.
///
/// Releases are kept per (layer version, data version, request, audience), so repeated requests
/// and the tiles of one map view share one computation; a change of data version makes new keys.
final class StatisticsService: Sendable {
    let counters: any CounterStore
    let control: DisclosureControl
    let timeZone: TimeZone
    private let releases: VersionedMemo<ReleasedLayerStatistics>
    private let fragments: VersionedMemo<FeatureStatistics>

    /// - Parameter entries: releases and fragments kept (each); 0 keeps none.
    init(counters: any CounterStore, policy: DisclosurePolicy, timeZone: TimeZone, entries: Int = 256) {
        self.counters = counters
        releases = VersionedMemo(bound: entries)
        fragments = VersionedMemo(bound: entries)
        self.control = DisclosureControl(policy: policy)
        self.timeZone = timeZone
    }

    /// Who the numbers are released to, from the caller's role.
    static func audience(_ role: Role?) -> Audience {
        guard let role else { return .public }
        if role.allows(.readPendingCounts) { return .verifier }
        if role.allows(.exportStatistics) { return .researcher }
        return .public
    }

    /// Today in the campus time zone.
    var today: Day { Day.containing(Date(), in: timeZone) }

    /// The statistics request of a layer for a kind, basis and window end.
    func request(layer: String, kind: ReportKind?, basis: TimeBasis, end: Day?) -> StatisticsRequest {
        let groups = kind.map(Report.breakdownGroups(of:)) ?? []
        return StatisticsRequest(layer: layer, kind: kind, basis: basis, end: end ?? today, groups: groups)
    }

    /// Capacity or population per area, for rates per 1,000.
    static func denominators(_ features: [StoredArea]) -> [String: Double] {
        var out: [String: Double] = [:]
        for f in features {
            for key in ["capacity", "population"] {
                if case .number(let n)? = f.properties[key], n > 0 { out[f.id] = n; break }
            }
        }
        return out
    }

    /// The released statistics of a layer for an audience at the current data version.
    func release(_ layer: PublishedLayer, _ request: StatisticsRequest, for audience: Audience, dataVersion: Int64) async throws -> ReleasedLayerStatistics {
        if let hit = releases.get(Self.key(layer, request, audience, dataVersion)) { return hit }
        let snapshot = try await counters.counterSnapshot(layer: layer.info.layer, basis: request.basis)
        let stats = Statistics.compute(request, areaIDs: layer.encoded.ids, counters: snapshot.cells, denominators: layer.denominators)
        let released = control.release(stats, for: audience)
        // Kept under the version the counters were read at, which a commit since the caller's
        // read may have moved on.
        releases.put(Self.key(layer, request, audience, snapshot.dataVersion), released)
        return released
    }

    /// Everything a release depends on.
    private static func key(_ layer: PublishedLayer, _ request: StatisticsRequest, _ audience: Audience, _ dataVersion: Int64) -> VersionedKey {
        VersionedKey(layer: layer.info.layer, layerVersion: layer.info.version, dataVersion: dataVersion, day: request.end,
                     selector: "\(request.kind?.rawValue ?? "*")|\(request.basis.rawValue)|\(audience.rawValue)")
    }

    /// Statistics as GeoJSON fragments for the features endpoints.
    func features(_ layer: PublishedLayer, query: FeatureQuery, audience: Audience, dataVersion: Int64) async throws -> FeatureStatistics {
        let request = request(layer: layer.info.layer, kind: query.kind, basis: query.basis, end: query.windowEnd)
        let key = Self.key(layer, request, audience, dataVersion)
        if let hit = fragments.get(key) { return hit }
        let built = try await encode(layer, request, audience: audience, dataVersion: dataVersion)
        fragments.put(key, built)
        return built
    }

    /// The flat properties the statistics of a request add to the layer's features.
    static func flat(_ layer: PublishedLayer, _ request: StatisticsRequest, audience: Audience) -> FlatStatistics {
        FlatStatistics(groups: request.groups ?? [], hasRates: !layer.denominators.isEmpty, hasPending: audience == .verifier)
    }

    private func encode(_ layer: PublishedLayer, _ request: StatisticsRequest, audience: Audience, dataVersion: Int64) async throws -> FeatureStatistics {
        let basis = request.basis
        let released = try await release(layer, request, for: audience, dataVersion: dataVersion)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let flat = Self.flat(layer, request, audience: audience)
        var members: [String: String] = [:]
        for (id, stats) in released.areas { members[id] = flat.members(stats) }
        struct Header: Encodable {
            let kind: ReportKind?
            let basis: TimeBasis
            let end: Day
            let windows: [String]
            let audience: Audience
            let threshold: Int
            let dataVersion: Int64
            let total: ReleasedAreaStatistics
        }
        let header = Header(kind: released.request.kind, basis: basis, end: released.request.end, windows: Window.allCases.map(\.rawValue),
                            audience: audience, threshold: released.threshold, dataVersion: dataVersion, total: released.total)
        let collection = #""statistics":"# + String(decoding: try encoder.encode(header), as: UTF8.self)
        return FeatureStatistics(areaMembers: members, released: released.areas, collectionMembers: collection, isPrivate: audience != .public)
    }
}
