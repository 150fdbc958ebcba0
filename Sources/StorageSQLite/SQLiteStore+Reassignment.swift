import DomainKernel
import Foundation
import Storage

extension SQLiteStore {
    /// Moves every report to its area in the new version of `layer`, inside the caller's
    /// transaction, as `ReassignmentPlan` decides; counters follow the moves, summed and written once.
    static func reassign(layer: String, version: Int, resolve: AreaResolver, zone: TimeZone, _ db: SQLiteConnection) throws -> Int {
        // Read first, write after: the plan's moves change report_areas. One scan reads every
        // report's areas rather than a query per report.
        let areaRows = try db.prepare("SELECT report_id, layer, layer_version, area_id FROM report_areas ORDER BY report_id, layer")
        var areasByReport: [String: [AreaAssignment]] = [:]
        while try areaRows.step() {
            areasByReport[areaRows.text(0)!, default: []].append(AreaAssignment(layer: areaRows.text(1)!, layerVersion: Int(areaRows.int(2)),
                                                                                areaID: areaRows.text(3)!))
        }
        let rows = try db.prepare("SELECT \(reportColumns) FROM reports")
        var all: [ReportRecord] = []
        while try rows.step() { all.append(try readReport(rows, areas: areasByReport[rows.text(0)!] ?? [])) }
        let plan = ReassignmentPlan(layer: layer, version: version, reports: all, resolve: resolve, zone: zone)
        let delete = try db.prepare("DELETE FROM report_areas WHERE report_id = ? AND layer = ?")
        let insert = try db.prepare("INSERT INTO report_areas (report_id, layer, layer_version, area_id) VALUES (?, ?, ?, ?)")
        for move in plan.moves {
            try delete.bind(.text(move.reportID), .text(layer)).run()
            if let area = move.area { try insert.bind(.text(move.reportID), .text(layer), .int(Int64(version)), .text(area)).run() }
        }
        try writeCounters(plan.counters, db)
        return plan.moved
    }
}
