import Aggregation
import Foundation
import ReportVerification

extension SQLiteStore {
    /// Moves every report to its area in the new version of `layer`, inside the caller's
    /// transaction; counters follow the moves, summed and written once.
    static func reassign(layer: String, version: Int, resolve: AreaResolver, zone: TimeZone, _ db: SQLiteConnection) throws -> Int {
        // Read first, write after: the loop below changes report_areas. One scan reads every
        // report's areas rather than a query per report.
        let areaRows = try db.prepare("SELECT report_id, layer, layer_version, area_id FROM report_areas ORDER BY report_id, layer")
        var areasByReport: [String: [AreaAssignment]] = [:]
        while try areaRows.step() {
            areasByReport[areaRows.text(0)!, default: []].append(AreaAssignment(layer: areaRows.text(1)!, layerVersion: Int(areaRows.int(2)),
                                                                                areaID: areaRows.text(3)!))
        }
        let rows = try db.prepare("SELECT \(reportColumns) FROM reports")
        var all: [ReportRecord] = []
        while try rows.step() { all.append(readReport(rows, areas: areasByReport[rows.text(0)!] ?? [])) }
        let delete = try db.prepare("DELETE FROM report_areas WHERE report_id = ? AND layer = ?")
        let insert = try db.prepare("INSERT INTO report_areas (report_id, layer, layer_version, area_id) VALUES (?, ?, ?, ?)")
        var moved = 0
        var counters: [CounterKey: Int] = [:]
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
            for (key, change) in Counters.delta(from: facts(before, zone: zone), to: facts(r, zone: zone)) { counters[key, default: 0] += change }
            if current?.areaID != target { moved += 1 }
        }
        try writeCounters(counters, db)
        return moved
    }
}
