import GeoCore
import Aggregation
import DomainKernel
import Foundation
import Logging
import MapTiles
import NIOPosix
import Storage
import Synchronization

/// Choropleth tiles of the published area layers, coloured by exactly the public
/// disclosure-controlled statistics the GeoJSON serves (`StatisticsService`).
///
/// A `TileLayer` (projected, simplified geometry) is built once per layer version and a
/// `TilePainting` (classes per area) once per data version and style; encoded tiles live in a
/// byte-bounded LRU keyed by both versions. Rendering runs on NIO's thread pool: cairo and GEOS
/// block their thread, which must not be one of Swift's cooperative threads.
package final class TileService: Sendable {
    let statistics: StatisticsService
    let cache: TileCache
    /// Simplified geometry per layer version, zoom and scale.
    let geometry: TileGeometryCache
    let renderer = TileRenderer()
    /// Tiles drawn since start, for the metrics.
    let renders = Atomic<Int>(0)
    /// The tile geometry of each layer, at the version last asked for.
    private let layers = Mutex<[String: (version: Int, layer: TileLayer)]>([:])
    private let paintings: VersionedMemo<TilePainting>
    /// Where large layers' border topologies are saved and read back; nil builds them each time.
    let topologyFiles: TopologyFiles?
    /// Where a layer's tile geometry being ready is told (how long it took, whether its saved
    /// topology was used).
    let logger: Logger?

    /// - Parameters:
    ///   - cacheBytes: encoded tiles kept, in bytes.
    ///   - geometryBytes: simplified geometry kept, in bytes.
    ///   - paintings: paintings kept; 0 keeps none.
    ///   - topologyFiles: where the border topologies of large layers are saved and read back.
    package init(statistics: StatisticsService, cacheBytes: Int, geometryBytes: Int = 256 << 20, paintings: Int = 256,
                 topologyFiles: TopologyFiles? = nil, logger: Logger? = nil) {
        self.paintings = VersionedMemo(bound: paintings)
        self.topologyFiles = topologyFiles
        self.logger = logger
        self.statistics = statistics
        self.cache = TileCache(capacityBytes: cacheBytes)
        self.geometry = TileGeometryCache(capacityBytes: geometryBytes)
    }

    /// The tile geometry of a published layer version, built on first use.
    package func tileLayer(_ layer: PublishedLayer) async throws -> TileLayer {
        let name = layer.info.layer, version = layer.info.version
        if let hit = layers.withLock({ $0[name] }), hit.version == version { return hit.layer }
        let started = ContinuousClock.now
        let (built, problem) = try await NIOThreadPool.singleton.runIfActive {
            // The published layer's own areas and interior points: nothing is converted twice.
            let areas = layer.areaIndex?.areas ?? []
            let topology = self.topologyFiles?.prepare(layer: name, version: version, areas: areas) ?? TopologyFiles.build(areas)
            let built = TileLayer(id: name, version: String(version), areas: areas,
                                  labels: Dictionary(uniqueKeysWithValues: layer.features.compactMap { f in f.name.map { (f.id, $0) } }),
                                  anchors: layer.interiorPoints, geometryCache: self.geometry, topology: topology)
            return (built, topology.problem)
        }
        var metadata: Logger.Metadata = ["layer": "\(name)", "version": .stringConvertible(version), "topology": "\(built.topologySource.rawValue)",
                                         "seconds": .stringConvertible(LogDecimal((ContinuousClock.now - started).seconds, places: 3))]
        if let problem {
            metadata["problem"] = "\(problem)"
            logger?.warning("tile layer ready; its saved topology was not used or not saved", metadata: metadata)
        } else {
            logger?.info("tile layer ready", metadata: metadata)
        }
        // Only current versions are asked for: a new version takes the place of the old one.
        layers.withLock { $0[name] = (version, built) }
        FreedMemory.handBack()
        return built
    }

    /// Identity of the values drawn: the publication plus what selects the numbers.
    static func valuesVersion(_ view: StatisticsView, query: TileQuery) -> String {
        "\(view.numbers.text).\(query.metric).\(view.request.kind?.rawValue ?? "all").\(view.request.end.iso)"
    }

    /// The classes of every area for the public numbers of the newest publication, by the
    /// ordinals of the layer's area index, which its `TileLayer` shares: TileJSON and the legend
    /// need the classes but not the tile geometry.
    package func painting(_ layer: PublishedLayer, query: TileQuery, dataVersion: Int64) async throws -> TilePainting {
        let view = try statistics.view(layer: layer.info.layer, kind: query.kind, basis: query.basis, end: nil, audience: .public, dataVersion: dataVersion)
        let version = Self.valuesVersion(view, query: query)
        let key = VersionedKey(layer: layer.info.layer, layerVersion: layer.info.version, numbers: view.numbers, day: view.request.end,
                               selector: .painting(query))
        if let hit = paintings.get(key) { return hit }
        let released = try await statistics.release(layer, view, for: .public)
        let areas = layer.areaIndex?.areas ?? []
        let values = Self.values(released, areas: areas, ordinal: { layer.areaIndex?.ordinal(of: $0) }, query: query)
        let painting = TilePainting(values: values, areaCount: areas.count, style: query.style, valuesVersion: version)
        paintings.put(key, painting)
        return painting
    }

    /// The value of every area of the index, by its ordinal (`ordinal` finds an id's). A
    /// published release holds only its areas with reports: every area starts at the shared
    /// zero and those few are placed by id. A release holding every area (the verifiers' live
    /// view) is looked up area by area along the index. Either way there is no map by id of
    /// the whole layer and no search of the index per area (at 300,000 areas those took most
    /// of a first TileJSON's 700 ms).
    static func values(_ released: ReleasedLayerStatistics, areas: [IndexedArea], ordinal: (String) -> Int?, query: TileQuery) -> [TileValue] {
        guard let zero = released.areas.fallback else {
            return areas.map { area in released.areas[area.id].map { value(of: $0, query: query) } ?? .noData }
        }
        var values = [TileValue](repeating: value(of: zero, query: query), count: areas.count)
        for (id, stats) in released.areas {
            if let i = ordinal(id) { values[i] = value(of: stats, query: query) }
        }
        return values
    }

    /// The released number, suppressed as suppressed, and no data where a rate has no denominator.
    static func value(of stats: ReleasedAreaStatistics, query: TileQuery) -> TileValue {
        let value: Released<Double>?
        if query.isRate {
            value = stats.ratePer1000?[query.window]
        } else {
            value = stats.counts[query.window].map { $0.map(Double.init) }
        }
        switch value {
        case .value(let v)?: return .value(v)
        case .suppressed?: return .suppressed
        case nil: return .noData
        }
    }

    /// One encoded tile, from the cache or rendered now.
    func tile(_ tiles: TileLayer, painting: TilePainting, key: TileKey, scale: TileScale) async throws -> (png: [UInt8], etag: String) {
        let cacheKey = TileCacheKey(layer: tiles, painting: painting, tile: key, scale: scale)
        if let hit = cache.tile(for: cacheKey) { return (hit, cacheKey.etag) }
        let renderer = self.renderer
        let png = try await NIOThreadPool.singleton.runIfActive { renderer.png(layer: tiles, painting: painting, key: key, scale: scale) }
        renders.add(1, ordering: .relaxed)
        cache.insert(png, for: cacheKey)
        return (png, cacheKey.etag)
    }
}
