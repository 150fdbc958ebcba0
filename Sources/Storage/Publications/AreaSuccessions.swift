import Aggregation
import DomainKernel
import GeoCore

/// Answers the questions a change of the maps asks about ledger lines' origins (see
/// `AreaSuccession`) from the stored layers alone: the area with the same id and the same stored
/// geometry when there is one (the common case, and exact even where areas overlap), else the
/// area whose geometry covers the origin area's interior point (`GEOSPointOnSurface`), else no
/// area. Nothing about reports is read, so the answer is what anyone holding the maps computes.
///
/// Origin areas are read by id; a target version is read whole once, and indexed only when some
/// question about it is not answered by an unchanged area: a rollback of one edge reads its 42
/// halls once and indexes them once.
enum AreaSuccessions {
    /// - Parameter geometries: stored geometry text by area of one layer version, of the areas
    ///   named (nil: of every area).
    static func answer(_ questions: Set<AreaSuccession>, geometries: (String, Int, Set<String>?) throws -> [String: String]) throws -> [AreaSuccession: String] {
        guard !questions.isEmpty else { return [:] }
        var origins: [VersionedArea: String] = [:]
        for asked in Dictionary(grouping: questions.map(\.from), by: { "\($0.layer)\u{1F}\($0.version)" }).values {
            let first = asked[0]
            for (id, text) in try geometries(first.layer, first.version, Set(asked.map(\.areaID))) {
                origins[VersionedArea(layer: first.layer, version: first.version, areaID: id)] = text
            }
        }
        var answers: [AreaSuccession: String] = [:]
        for asked in Dictionary(grouping: questions, by: { "\($0.layer)\u{1F}\($0.version)" }).values {
            let layer = asked[0].layer, version = asked[0].version
            let target = try geometries(layer, version, nil)
            var byPoint: [AreaSuccession] = []
            for q in asked.sorted() {
                guard let from = origins[q.from] else { continue }
                if q.from.layer == q.layer, target[q.from.areaID] == from { answers[q] = q.from.areaID } else { byPoint.append(q) }
            }
            guard !byPoint.isEmpty else { continue }
            func area(_ id: String, _ text: String) throws -> IndexedArea {
                IndexedArea(id: id, polygons: try StoredArea.read(rows: [(id: id, name: nil, properties: "{}", geometry: text)])[0].geometry.polygons)
            }
            let index = AreaIndex(areas: try target.map { try area($0.key, $0.value) })
            let points = IndexedArea.interiorPoints(of: try byPoint.map { try area($0.from.areaID, origins[$0.from]!) })
            for (q, point) in zip(byPoint, points) {
                if let point, let found = index.area(containingLon: point.lon, lat: point.lat) { answers[q] = found.id }
            }
        }
        return answers
    }
}
