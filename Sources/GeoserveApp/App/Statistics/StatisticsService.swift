import Aggregation
import DomainKernel
import Foundation
import ReportVerification
import Storage
import Support

/// The one way numbers reach GeoJSON, tiles and exports: for the public and researchers the
/// blocks publications released (`PublishedStatistics`), for verifiers the live counters from the
/// store; see `StatisticsView`.
///
/// Releases are kept per (layer version, publication or data version, request, audience), so
/// repeated requests and the tiles of one map view share one computation.
package final class StatisticsService: Sendable {
    let counters: any CounterStore
    let publications: PublicationBook
    let control: DisclosureControl
    let timeZone: TimeZone
    /// Released statistics by view, within the entry and byte bounds.
    let releases: VersionedMemo<ReleasedLayerStatistics>
    private let fragments: VersionedMemo<FeatureStatistics>
    /// The verifiers' newest live views, within the entry and byte bounds.
    let liveViews: LiveViews

    /// - Parameters:
    ///   - entries: releases and fragments kept (each); 0 keeps none.
    ///   - bytes: approximate bytes of releases kept, and of live views kept.
    package init(counters: any CounterStore, publications: PublicationBook, policy: DisclosurePolicy, timeZone: TimeZone, entries: Int = 256,
         bytes: Int = 512 << 20) {
        self.counters = counters
        self.publications = publications
        releases = VersionedMemo(bound: entries, bytes: bytes) { $0.approximateBytes }
        fragments = VersionedMemo(bound: entries)
        liveViews = LiveViews(bound: entries == 0 ? 0 : 16, bytes: bytes)
        self.control = DisclosureControl(policy: policy)
        self.timeZone = timeZone
    }

    /// The numbers a request reads (see `StatisticsView`): `basis` is refused outside the live
    /// view, since published numbers have one basis, the day of release; `end` picks the newest
    /// publication made on or before it.
    func view(layer: String, kind: ReportKind?, basis: TimeBasis?, end: Day?, audience: Audience, dataVersion: Int64) throws -> StatisticsView {
        if audience == .verifier {
            return StatisticsView(request: request(layer: layer, kind: kind, basis: basis ?? .occurred, end: end), version: dataVersion,
                                  publication: nil, isLive: true)
        }
        if basis != nil { throw StatisticsView.basisRefused }
        let publication = publications.publication(onOrBefore: end)
        let request = StatisticsRequest(layer: layer, kind: kind ?? StatisticsView.defaultPublicKind, basis: PublishedStatistics.basis,
                                        end: publication?.day ?? end ?? today, groups: [])
        return StatisticsView(request: request, version: publication?.id ?? 0, publication: publication, isLive: false)
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

    /// The released statistics of a layer in a view for an audience.
    func release(_ layer: PublishedLayer, _ view: StatisticsView, for audience: Audience) async throws -> ReleasedLayerStatistics {
        let request = view.request
        if view.isLive { return try await live(layer, request, for: audience, dataVersion: view.version) }
        let key = Self.key(layer, request, audience, view.numbers, generation: publications.generation)
        if let hit = releases.get(key) { return hit }
        let kind = request.kind ?? StatisticsView.defaultPublicKind
        let released = PublishedStatistics.release(layer: layer.info.layer, kind: kind, end: request.end, areaIDs: layer.encoded.ids,
                                                   blocks: publications.blocks(through: view.version), denominators: layer.denominators,
                                                   threshold: Self.threshold(of: kind, k: publications.k(of: view.version), policy: control.policy),
                                                   audience: audience)
        releases.put(key, released)
        return released
    }

    /// The k a published view names: the one its publication was made under (public records:
    /// 1), or today's for a publication that recorded none.
    static func threshold(of kind: ReportKind, k: Int?, policy: DisclosurePolicy) -> Int {
        guard let k, !policy.publicRecordKinds.contains(kind) else { return policy.publishedThreshold(for: kind) }
        return k
    }

    /// The live statistics of a layer (verifiers) at the current data version: brought up to
    /// date from the areas whose counters changed since the view was last released, or computed
    /// whole the first time, after a layer or day change, or when more than an eighth of the
    /// areas changed (then one full read is cheaper than many small ones).
    private func live(_ layer: PublishedLayer, _ request: StatisticsRequest, for audience: Audience, dataVersion: Int64) async throws -> ReleasedLayerStatistics {
        let key = Self.key(layer, request, audience, .live(dataVersion: dataVersion))
        if let hit = releases.get(key) { return hit }
        let held = liveViews.get(key)
        if let held, held.dataVersion >= dataVersion { return held.statistics.released }
        if let held, let changes = try await counters.counterChanges(layer: layer.info.layer, basis: request.basis, since: held.dataVersion,
                                                                       limit: max(64, layer.encoded.ids.count / 8)) {
            let updated = held.statistics.updating(areaIDs: changes.areaIDs, cells: changes.cells)
            liveViews.put(key, LiveViews.Entry(dataVersion: changes.dataVersion, statistics: updated))
            return updated.released
        }
        let snapshot = try await counters.counterSnapshot(layer: layer.info.layer, basis: request.basis)
        let stats = Statistics.compute(request, areaIDs: layer.encoded.ids, counters: snapshot.cells, denominators: layer.denominators)
        // Kept under the version the counters were read at, which a commit since the caller's
        // read may have moved on.
        guard let kept = LiveStatistics(stats, control: control, audience: audience) else {
            // A verifier threshold above 1: released whole each data version, and memoized.
            let released = control.release(stats, for: audience)
            releases.put(Self.key(layer, request, audience, .live(dataVersion: snapshot.dataVersion)), released)
            return released
        }
        liveViews.put(key, LiveViews.Entry(dataVersion: snapshot.dataVersion, statistics: kept))
        return kept.released
    }

    /// Everything a release depends on.
    /// - Parameter generation: for a published view, the publication book's generation: a later
    ///   publication can give an older one's lines another class (see `PublicationBook`).
    private static func key(_ layer: PublishedLayer, _ request: StatisticsRequest, _ audience: Audience, _ numbers: CachedNumbers,
                            generation: Int = 0) -> VersionedKey {
        VersionedKey(layer: layer.info.layer, layerVersion: layer.info.version, numbers: numbers, day: request.end,
                     selector: .release(kind: request.kind, basis: request.basis, audience: audience, generation: generation))
    }

    /// Statistics as GeoJSON fragments for the features endpoints.
    func features(_ layer: PublishedLayer, view: StatisticsView, audience: Audience) async throws -> FeatureStatistics {
        let key = Self.key(layer, view.request, audience, view.numbers, generation: view.isLive ? 0 : publications.generation)
        if let hit = fragments.get(key) { return hit }
        let built = try await encode(layer, view, audience: audience)
        fragments.put(key, built)
        return built
    }

    /// The flat properties the statistics of a request add to the layer's features.
    static func flat(_ layer: PublishedLayer, _ request: StatisticsRequest, audience: Audience) -> FlatStatistics {
        FlatStatistics(groups: request.groups ?? [], hasRates: !layer.denominators.isEmpty, hasPending: audience == .verifier)
    }

    /// What a view's numbers are, for people reading the HTML pages.
    static func caption(_ view: StatisticsView, kind: ReportKind?, threshold: Int) -> String {
        let what = kind == .misconduct ? "Misconduct reports" : kind == .covid ? "COVID cases" : "Reports of both kinds"
        if view.isLive {
            return "\(what) verified in each window ending \(view.request.end.iso), live (for verifiers), by \(view.request.basis.rawValue) day."
        }
        guard let publication = view.publication else { return "\(what): nothing has been published yet." }
        let rule = threshold > 1
            ? " An area's reports are published once more than \(threshold) of them have gathered, so that no number points at a person."
            : " Verified misconduct reports are public records and are published as they are."
        return "\(what) published by publication \(publication.id) of \(publication.day.iso), in each window ending that day, "
            + "counted on the day they were released." + rule
    }

    private func encode(_ layer: PublishedLayer, _ view: StatisticsView, audience: Audience) async throws -> FeatureStatistics {
        let request = view.request
        let released = try await release(layer, view, for: audience)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let flat = Self.flat(layer, request, audience: audience)
        // Published numbers name their publication and never the data version: a version that
        // moves by one tells anyone that exactly one change was made.
        struct Header: Encodable {
            let kind: ReportKind?
            let basis: String
            let end: Day
            let windows: [String]
            let audience: Audience
            let threshold: Int
            let publication: PublicationView?
            let dataVersion: Int64?
            let total: ReleasedAreaStatistics
        }
        let publication = view.publication.map(PublicationView.init)
        let header = Header(kind: released.request.kind, basis: view.isLive ? request.basis.rawValue : "published", end: released.request.end,
                            windows: Window.allCases.map(\.rawValue), audience: audience, threshold: released.threshold,
                            publication: publication, dataVersion: view.isLive ? view.version : nil, total: released.total)
        let collection = #""statistics":"# + String(decoding: try encoder.encode(header), as: UTF8.self)
        return FeatureStatistics(released: released.areas, flat: flat, collectionMembers: collection, isPrivate: audience != .public,
                                 caption: Self.caption(view, kind: released.request.kind, threshold: released.threshold))
    }
}
