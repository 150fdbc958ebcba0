import GeoCore
import DomainKernel
import Synchronization

/// One version of an area layer prepared for tiles: every area projected to unit Mercator
/// coordinates once, an index from tile to areas, and simplified geometry per zoom.
///
/// Immutable apart from the per-zoom geometry, which is built on first use and then only read;
/// a new layer version is a new `TileLayer`. Values and styles are not part of it, so one
/// layer serves every data version.
public final class TileLayer: Sendable {
    /// Layer id (as in URLs).
    public let id: String
    /// Layer version: changes whenever the areas change.
    public let version: String
    /// Area ids by ordinal, in the order the areas were given.
    public let areaIDs: [String]
    /// Text drawn as the label of each area, by ordinal.
    public let labels: [String]
    /// Label anchor of each area (a point inside it), unit Mercator `x, y` pairs by ordinal.
    let labelPoints: [Double]
    /// Tile-to-area index over the original bounding boxes.
    public let index: TileAreaIndex
    /// Extent of all areas in degrees (nil for an empty layer).
    public let bounds: BoundingBox?
    /// Borders of the areas as shared arcs at full detail, simplified per zoom: the only copy
    /// of the projected geometry the layer keeps (areas are put together from it).
    let topology: ArcTopology
    /// Whether the topology was read from its file, built and saved, or built.
    public let topologySource: AreaIndexFiles.Source
    private let ordinals: [String: Int]
    /// Simplified geometry by zoom and scale, and the full detail, in a cache shared by layers.
    private let geometryCache: TileGeometryCache
    /// Per scale, the first zoom whose simplification kept nearly every point: it and every
    /// deeper zoom draw `fullDetail` instead of a copy per zoom.
    private let saturatedZoom: Mutex<[TileScale: Int]>
    /// Points of the full-detail geometry.
    let fullPointCount: Int
    /// A zoom whose geometry keeps this share of the full detail's points is saturated.
    static let saturation = 0.9

    /// Projects the areas and builds the index.
    /// - Parameters:
    ///   - id: layer id.
    ///   - version: layer version.
    ///   - areas: the areas, valid as `AreaValidator` leaves them.
    ///   - labels: label text by area id; areas without one are labelled with their id.
    ///   - anchors: a point inside each area, by position, where the caller has them already
    ///     (`IndexedArea.interiorPoints(of:)`); computed when nil. An area without one is
    ///     labelled at the centre of its bounding box.
    ///   - geometryCache: where simplified geometry is kept; by default a cache of this layer's
    ///     own that keeps every zoom.
    ///   - topology: the areas' border topology read back or built by `TopologyFiles` (for these
    ///     areas in this order); built here when nil.
    public init(id: String, version: String, areas: [IndexedArea], labels: [String: String] = [:], anchors: [Position?]? = nil,
                geometryCache: TileGeometryCache = TileGeometryCache(capacityBytes: .max), topology: TopologyFiles.Prepared? = nil) {
        self.id = id
        self.version = version
        self.areaIDs = areas.map(\.id)
        self.labels = areas.map { labels[$0.id] ?? $0.id }
        var ordinals: [String: Int] = [:]
        for (i, a) in areas.enumerated() { ordinals[a.id] = i }
        self.ordinals = ordinals

        var boxes: [UnitRect] = []
        var points: [Double] = []
        boxes.reserveCapacity(areas.count)
        let anchors = anchors ?? IndexedArea.interiorPoints(of: areas)
        var bounds: BoundingBox?
        var fullPointCount = 0
        for (i, area) in areas.enumerated() {
            var box = UnitRect(minX: .infinity, minY: .infinity, maxX: -.infinity, maxY: -.infinity)
            for polygon in area.polygons {
                for ring in polygon.rings {
                    fullPointCount += ring.count
                    for p in ring {
                        let u = WebMercator.unit(lon: p.lon, lat: p.lat)
                        box.minX = min(box.minX, u.x); box.maxX = max(box.maxX, u.x)
                        box.minY = min(box.minY, u.y); box.maxY = max(box.maxY, u.y)
                    }
                }
            }
            boxes.append(box)
            let extent = area.boundingBox
            let anchor = i < anchors.count ? anchors[i] : nil
            let u = WebMercator.unit(lon: anchor?.lon ?? (extent.west + extent.east) / 2, lat: anchor?.lat ?? (extent.south + extent.north) / 2)
            points.append(u.x); points.append(u.y)
            if bounds == nil { bounds = area.boundingBox } else { bounds!.extend(area.boundingBox) }
        }
        self.topology = topology?.topology ?? ArcTopology(full: ArcTopology.project(areas))
        self.topologySource = topology?.source ?? .built
        self.labelPoints = points
        self.index = TileAreaIndex(boxes: boxes)
        self.bounds = bounds
        self.geometryCache = geometryCache
        self.saturatedZoom = Mutex([:])
        self.fullPointCount = fullPointCount
    }

    /// Number of areas.
    public var areaCount: Int { areaIDs.count }

    /// Ordinal of an area id.
    public func ordinal(of id: String) -> Int? { ordinals[id] }

    /// Label anchor of an area in unit Mercator coordinates.
    public func labelPoint(ofArea i: Int) -> (x: Double, y: Double) { (labelPoints[2 * i], labelPoints[2 * i + 1]) }

    /// The geometry to draw at a zoom and scale, simplified on first use and kept in the
    /// geometry cache until evicted. Every tile of a zoom and scale draws the same geometry,
    /// which is what keeps tile edges seamless (a rebuilt zoom is the same geometry again).
    ///
    /// The build runs outside the cache's lock, so tiles of other zooms never wait for it; two
    /// threads that miss the same zoom at once may both build it.
    ///
    /// Memory stays bounded whatever the zoom: once a zoom's simplification keeps nearly every
    /// point (90 %), deeper zooms could add no more than a tenth and each would be a near-full
    /// copy (seven such copies of one 10^6-vertex polygon grew a process by a gigabyte), so that
    /// zoom and every deeper one share the full-detail geometry. Below it, each zoom roughly
    /// halves the points of the next, so all zooms together hold about twice the full detail.
    public func geometry(zoom: Int, scale: TileScale = .x1) -> ZoomGeometry {
        if let z = saturatedZoom.withLock({ $0[scale] }), zoom >= z { return unsimplified() }
        let key = TileGeometryCache.Key(layer: id, version: version, zoom: zoom, scale: scale)
        if let g = geometryCache.geometry(key) { return g }
        let tolerance = Self.tolerance(zoom: zoom, scale: scale)
        // Saturation is judged on the simplified borders, before the areas are put together and
        // checked: a zoom that keeps nearly every border point draws the full detail anyway.
        let arcs = simplifiedArcs(tolerance: tolerance)
        if Double(arcs.points.count) >= Self.saturation * Double(topology.arcs.points.count) {
            saturatedZoom.withLock { $0[scale] = min($0[scale] ?? zoom, zoom) }
            return unsimplified()
        }
        let built = assembled(arcs, tolerance: tolerance)
        geometryCache.insert(built, for: key)
        return built
    }

    /// The full-detail geometry, built on first use (outside the lock, as zooms are).
    private func unsimplified() -> ZoomGeometry {
        let key = TileGeometryCache.Key(layer: id, version: version, zoom: -1, scale: .x1)
        if let g = geometryCache.geometry(key) { return g }
        let built = fullDetail()
        geometryCache.insert(built, for: key)
        return built
    }

    /// Builds the geometry of a range of zooms ahead of the first tile (for example on layer load).
    public func prepare(zooms range: ClosedRange<Int>, scale: TileScale = .x1) {
        for z in range { _ = geometry(zoom: z, scale: scale) }
    }
}
