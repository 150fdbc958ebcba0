import Foundation

/// A site of a point layer (e.g. a testing site).
public struct PointSite: Hashable, Sendable {
    public let id: String
    public let lon: Double
    public let lat: Double

    public init(id: String, lon: Double, lat: Double) {
        self.id = id
        self.lon = lon
        self.lat = lat
    }
}

/// Great-circle distance on a sphere of the mean Earth radius (IUGG, 6,371,008.8 m), by the
/// haversine formula, which stays accurate for the short distances that matter here.
public func greatCircleMetres(lon1: Double, lat1: Double, lon2: Double, lat2: Double) -> Double {
    let r = 6_371_008.8
    let φ1 = lat1 * .pi / 180, φ2 = lat2 * .pi / 180
    let dφ = (lat2 - lat1) * .pi / 180
    let dλ = (lon2 - lon1) * .pi / 180
    let h = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
    return 2 * r * asin(min(1, h.squareRoot()))
}

/// Nearest-site queries for a point layer.
///
/// Point layers in this domain (testing sites, clinics) hold tens to a few thousand sites, so a
/// scan with a bounded candidate list answers in microseconds and needs no tree.
public struct PointLayerIndex: Sendable {
    public let sites: [PointSite]

    public init(sites: [PointSite]) {
        self.sites = sites
    }

    /// A site with its distance from the query point.
    public struct Neighbour: Hashable, Sendable {
        public let site: PointSite
        public let distanceMetres: Double
    }

    /// The `count` sites nearest to the point by great-circle distance, nearest first; ties
    /// are broken by id so that the answer is deterministic.
    public func nearest(lon: Double, lat: Double, count: Int) -> [Neighbour] {
        guard count > 0 else { return [] }
        var best: [Neighbour] = []
        best.reserveCapacity(count + 1)
        func before(_ a: Neighbour, _ b: Neighbour) -> Bool {
            a.distanceMetres != b.distanceMetres ? a.distanceMetres < b.distanceMetres : a.site.id < b.site.id
        }
        for s in sites {
            let n = Neighbour(site: s, distanceMetres: greatCircleMetres(lon1: lon, lat1: lat, lon2: s.lon, lat2: s.lat))
            if best.count == count, let last = best.last, !before(n, last) { continue }
            let at = best.firstIndex { before(n, $0) } ?? best.count
            best.insert(n, at: at)
            if best.count > count { best.removeLast() }
        }
        return best
    }
}
