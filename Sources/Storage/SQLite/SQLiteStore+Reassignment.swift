import Foundation
import ReportVerification

extension SQLiteStore {
    /// Moves every report to its area in the new version of `layer`, inside the caller's
    /// transaction; counters follow each move.
    static func reassign(layer: String, version: Int, resolve: AreaResolver, zone: TimeZone, _ db: SQLiteConnection) throws -> Int {
        // Read first, write after: the loop below changes report_areas, which the read joins.
        let rows = try db.prepare("SELECT \(reportColumns) FROM reports")
        var all: [ReportRecord] = []
        while try rows.step() { all.append(try readReport(rows, db)) }
        let delete = try db.prepare("DELETE FROM report_areas WHERE report_id = ? AND layer = ?")
        let insert = try db.prepare("INSERT INTO report_areas (report_id, layer, layer_version, area_id) VALUES (?, ?, ?, ?)")
        var moved = 0
        for var r in all {
            let id = r.id
            var named: (layer: String, area: String)?
            if r.lon == nil, let report = try? JSONDecoder().decode(Report.self, from: r.payload), case .area(let l, let a) = report.place {
                named = (l, a)
            }
            let position = ReportPosition(reportID: id, lon: r.lon, lat: r.lat, namedLayer: named?.layer, namedArea: named?.area)
            let target = resolve(position)
            let current = r.areas.first { $0.layer == layer }
            if current?.areaID == target && current?.layerVersion == version { continue }
            let before = r
            try delete.bind(.text(id), .text(layer)).run()
            r.areas.removeAll { $0.layer == layer }
            if let target {
                try insert.bind(.text(id), .text(layer), .int(Int64(version)), .text(target)).run()
                r.areas.append(AreaAssignment(layer: layer, layerVersion: version, areaID: target))
                r.areas.sort { $0.layer < $1.layer }
            }
            try applyCounters(from: before, to: r, zone: zone, db)
            if current?.areaID != target { moved += 1 }
        }
        return moved
    }
}
