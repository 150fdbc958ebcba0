import DomainKernel
import Foundation
import Storage

extension SQLiteStore: PublicReportSearch {
    public func verifiedReports(kind: ReportKind, layer: String, areaID: String, publishedBy: PublicationRecord?, limit: Int) async throws -> [ReportRecord] {
        guard let publication = publishedBy else { return [] }
        return try await run { db in
            let s = try db.prepare("""
                SELECT \(Self.reportColumns.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
                FROM reports r JOIN report_areas a ON a.report_id = r.id
                WHERE r.kind = ? AND r.status = 'verified' AND a.layer = ? AND a.area_id = ?
                  AND (r.verified_on < ? OR (r.verified_on = ? AND r.updated_at <= ?))
                ORDER BY r.occurred_on DESC, r.id LIMIT ?
                """).bind(.text(kind.rawValue), .text(layer), .text(areaID), .day(publication.day), .day(publication.day),
                          .text(Timestamp.format(publication.publishedAt)), .int(Int64(limit)))
            var out: [ReportRecord] = []
            while try s.step() { out.append(try Self.readReport(s, db)) }
            return out
        }
    }

    public func verifiedReports(kind: ReportKind, within box: (west: Double, south: Double, east: Double, north: Double), publishedBy: PublicationRecord?,
                                limit: Int) async throws -> [ReportRecord] {
        guard let publication = publishedBy else { return [] }
        return try await run { db in
            let s = try db.prepare("""
                SELECT \(Self.reportColumns) FROM reports
                WHERE kind = ? AND status = 'verified' AND lon BETWEEN ? AND ? AND lat BETWEEN ? AND ?
                  AND (verified_on < ? OR (verified_on = ? AND updated_at <= ?))
                ORDER BY occurred_on DESC, id LIMIT ?
                """).bind(.text(kind.rawValue), .double(box.west), .double(box.east), .double(box.south), .double(box.north),
                          .day(publication.day), .day(publication.day), .text(Timestamp.format(publication.publishedAt)), .int(Int64(limit)))
            var out: [ReportRecord] = []
            while try s.step() { out.append(try Self.readReport(s, db)) }
            return out
        }
    }
}
