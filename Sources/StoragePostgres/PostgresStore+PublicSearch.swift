import DomainKernel
import Foundation
import Storage

extension PostgresStore: PublicReportSearch {
    public func verifiedReports(kind: ReportKind, layer: String, areaID: String, publishedBy: PublicationRecord?, limit: Int) async throws -> [ReportRecord] {
        guard let publication = publishedBy else { return [] }
        return try await pool.run("search reports by area") { db in
            let s = try db.query("""
                SELECT \(Self.reportColumns("r")) FROM reports r JOIN report_areas a ON a.report_id = r.id
                WHERE r.kind = $1 AND r.status = 'verified' AND a.layer = $2 AND a.area_id = $3
                  AND (r.verified_on < $5 OR (r.verified_on = $5 AND r.updated_at <= $6))
                ORDER BY r.occurred_on DESC, r.id LIMIT $4
                """, [.text(kind.rawValue), .text(layer), .text(areaID), .int(Int64(limit)), .day(publication.day), .text(Timestamp.format(publication.publishedAt))])
            return try Self.readReports(s, db)
        }
    }

    public func verifiedReports(kind: ReportKind, within box: (west: Double, south: Double, east: Double, north: Double), publishedBy: PublicationRecord?,
                                limit: Int) async throws -> [ReportRecord] {
        guard let publication = publishedBy else { return [] }
        let (west, south, east, north) = box
        return try await pool.run("search reports by place") { db in
            let s = try db.query("""
                SELECT \(Self.reportColumns) FROM reports
                WHERE kind = $1 AND status = 'verified' AND lon BETWEEN $2 AND $3 AND lat BETWEEN $4 AND $5
                  AND (verified_on < $7 OR (verified_on = $7 AND updated_at <= $8))
                ORDER BY occurred_on DESC, id LIMIT $6
                """, [.text(kind.rawValue), .double(west), .double(east), .double(south), .double(north), .int(Int64(limit)),
                      .day(publication.day), .text(Timestamp.format(publication.publishedAt))])
            return try Self.readReports(s, db)
        }
    }
}
