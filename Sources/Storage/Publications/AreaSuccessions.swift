import Aggregation
import DomainKernel
import GeoCore

/// Answers the questions a change of the maps asks about ledger lines' origins (see
/// `AreaSuccession`) from the stored layers alone: the area with the same id and the same stored
/// geometry when there is one (the common case, and exact even where areas overlap), else the
/// area whose geometry covers the origin area's interior point (`GEOSPointOnSurface`), else no
/// area. Nothing about reports is read, so the answer is what anyone holding the maps computes.
///
/// A layer's version is read, and indexed, only when some question about it is not answered by
/// an unchanged area: a rollback of one edge reads its 42 halls once.
enum AreaSuccessions {
    static func answer(_ questions: Set<AreaSuccession>, rows: (String, Int) throws -> [StoredArea.Row]) throws -> [AreaSuccession: String] {
        guard !questions.isEmpty else { return [:] }
        var stored: [String: [Int: [String: String]]] = [:]   // layer → version → area → geometry text
        func geometries(_ layer: String, _ version: Int) throws -> [String: String] {
            if let known = stored[layer]?[version] { return known }
            var out: [String: String] = [:]
            for row in try rows(layer, version) { out[row.id] = row.geometry }
            stored[layer, default: [:]][version] = out
            return out
        }

        var answers: [AreaSuccession: String] = [:]
        var byPoint: [String: [Int: [AreaSuccession]]] = [:]
        for q in questions.sorted() {
            let from = try geometries(q.from.layer, q.from.version)[q.from.areaID]
            if q.from.layer == q.layer, let from, try geometries(q.layer, q.version)[q.from.areaID] == from {
                answers[q] = q.from.areaID
            } else if from != nil {
                byPoint[q.layer, default: [:]][q.version, default: []].append(q)
            }
        }
        for (layer, versions) in byPoint {
            for (version, asked) in versions {
                let target = try StoredArea.read(rows: try rows(layer, version))
                let index = AreaIndex(areas: target.map { IndexedArea(id: $0.id, polygons: $0.geometry.polygons) })
                let origins = try asked.map { q -> IndexedArea in
                    let text = try geometries(q.from.layer, q.from.version)[q.from.areaID]!
                    let area = try StoredArea.read(rows: [(id: q.from.areaID, name: nil, properties: "{}", geometry: text)])[0]
                    return IndexedArea(id: q.from.areaID, polygons: area.geometry.polygons)
                }
                for (q, point) in zip(asked, IndexedArea.interiorPoints(of: origins)) {
                    guard let point, let area = index.area(containingLon: point.lon, lat: point.lat) else { continue }
                    answers[q] = area.id
                }
            }
        }
        return answers
    }
}
