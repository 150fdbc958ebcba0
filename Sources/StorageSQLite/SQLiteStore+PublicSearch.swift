import DomainKernel
import Foundation
import Storage

extension SQLiteStore: PublicReportSearch {
    public func verifiedReports(kind: ReportKind, layer: String, areaID: String, limit: Int) async throws -> [ReportRecord] {
        try await run { db in
            let s = try db.prepare("""
                SELECT \(Self.reportColumns.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
                FROM reports r JOIN report_areas a ON a.report_id = r.id
                WHERE r.kind = ? AND r.status = 'verified' AND a.layer = ? AND a.area_id = ?
                ORDER BY r.occurred_on DESC, r.id LIMIT ?
                """).bind(.text(kind.rawValue), .text(layer), .text(areaID), .int(Int64(limit)))
            var out: [ReportRecord] = []
            while try s.step() { out.append(try Self.readReport(s, db)) }
            return out
        }
    }

    public func verifiedReports(kind: ReportKind, within box: (west: Double, south: Double, east: Double, north: Double), limit: Int) async throws -> [ReportRecord] {
        try await run { db in
            let s = try db.prepare("""
                SELECT \(Self.reportColumns) FROM reports
                WHERE kind = ? AND status = 'verified' AND lon BETWEEN ? AND ? AND lat BETWEEN ? AND ?
                ORDER BY occurred_on DESC, id LIMIT ?
                """).bind(.text(kind.rawValue), .double(box.west), .double(box.east), .double(box.south), .double(box.north), .int(Int64(limit)))
            var out: [ReportRecord] = []
            while try s.step() { out.append(try Self.readReport(s, db)) }
            return out
        }
    }
}
