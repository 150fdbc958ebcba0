import Foundation
import Storage

extension PostgresStore: NoticeStore {
    private static let alertColumns = "id, title, message, severity, starts_at, ends_at, created_at, updated_at"
    private static let resourceColumns = "id, title, category, link, created_at, updated_at"

    private static func alert(_ r: PostgresResult, _ i: Int) -> StoredAlert {
        StoredAlert(id: r.string(i, 0),
                    content: AlertContent(title: r.string(i, 1), message: r.string(i, 2), severity: AlertSeverity(rawValue: r.string(i, 3)) ?? .info,
                                          startsAt: Timestamp.parse(r.string(i, 4)), endsAt: r.text(i, 5).map(Timestamp.parse)),
                    createdAt: Timestamp.parse(r.string(i, 6)), updatedAt: Timestamp.parse(r.string(i, 7)))
    }

    private static func resource(_ r: PostgresResult, _ i: Int) -> StoredResource {
        StoredResource(id: r.string(i, 0), content: ResourceContent(title: r.string(i, 1), category: r.string(i, 2), link: r.string(i, 3)),
                       createdAt: Timestamp.parse(r.string(i, 4)), updatedAt: Timestamp.parse(r.string(i, 5)))
    }

    public func alerts() async throws -> [StoredAlert] {
        try await pool.run("read alerts") { db in
            let r = try db.query("SELECT \(Self.alertColumns) FROM alerts ORDER BY starts_at DESC, id DESC")
            return (0..<r.count).map { Self.alert(r, $0) }
        }
    }

    public func createAlert(_ content: AlertContent, actor: String, at: Date) async throws -> StoredAlert {
        let id = TimeOrderedID.make(now: at)
        let now = Timestamp.format(at)
        return try await pool.writeTransaction("create an alert") { db in
            let r = try db.query("INSERT INTO alerts (\(Self.alertColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING \(Self.alertColumns)",
                                 [.text(id), .text(content.title), .text(content.message), .text(content.severity.rawValue),
                                  .text(Timestamp.format(content.startsAt)), .optional(content.endsAt.map(Timestamp.format)), .text(now)])
            try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: now, action: "alert-create", reason: "alert \(id)"))
            return Self.alert(r, 0)
        }
    }

    public func updateAlert(id: String, _ content: AlertContent, action: String, actor: String, at: Date) async throws -> StoredAlert {
        let now = Timestamp.format(at)
        return try await pool.writeTransaction("change an alert") { db in
            let r = try db.query("""
                UPDATE alerts SET title = $2, message = $3, severity = $4, starts_at = $5, ends_at = $6, updated_at = $7 WHERE id = $1
                RETURNING \(Self.alertColumns)
                """, [.text(id), .text(content.title), .text(content.message), .text(content.severity.rawValue),
                      .text(Timestamp.format(content.startsAt)), .optional(content.endsAt.map(Timestamp.format)), .text(now)])
            guard r.count == 1 else { throw StorageError.notFound("alert \(id)") }
            try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: now, action: action, reason: "alert \(id)"))
            return Self.alert(r, 0)
        }
    }

    public func deleteAlert(id: String, actor: String, at: Date) async throws {
        try await delete(from: "alerts", id: id, what: "alert", actor: actor, at: at)
    }

    public func resources() async throws -> [StoredResource] {
        try await pool.run("read resources") { db in
            let r = try db.query("SELECT \(Self.resourceColumns) FROM resources ORDER BY category, title, id")
            return (0..<r.count).map { Self.resource(r, $0) }
        }
    }

    public func createResource(_ content: ResourceContent, actor: String, at: Date) async throws -> StoredResource {
        let id = TimeOrderedID.make(now: at)
        let now = Timestamp.format(at)
        return try await pool.writeTransaction("create a resource") { db in
            let r = try db.query("INSERT INTO resources (\(Self.resourceColumns)) VALUES ($1, $2, $3, $4, $5, $5) RETURNING \(Self.resourceColumns)",
                                 [.text(id), .text(content.title), .text(content.category), .text(content.link), .text(now)])
            try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: now, action: "resource-create", reason: "resource \(id)"))
            return Self.resource(r, 0)
        }
    }

    public func updateResource(id: String, _ content: ResourceContent, actor: String, at: Date) async throws -> StoredResource {
        let now = Timestamp.format(at)
        return try await pool.writeTransaction("change a resource") { db in
            let r = try db.query("UPDATE resources SET title = $2, category = $3, link = $4, updated_at = $5 WHERE id = $1 RETURNING \(Self.resourceColumns)",
                                 [.text(id), .text(content.title), .text(content.category), .text(content.link), .text(now)])
            guard r.count == 1 else { throw StorageError.notFound("resource \(id)") }
            try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: now, action: "resource-update", reason: "resource \(id)"))
            return Self.resource(r, 0)
        }
    }

    public func deleteResource(id: String, actor: String, at: Date) async throws {
        try await delete(from: "resources", id: id, what: "resource", actor: actor, at: at)
    }

    /// Deletes one notice and audits it, or throws `notFound`.
    private func delete(from table: String, id: String, what: String, actor: String, at: Date) async throws {
        try await pool.writeTransaction("delete a \(what)") { db in
            guard try db.query("DELETE FROM \(table) WHERE id = $1 RETURNING id", [.text(id)]).count == 1 else {
                throw StorageError.notFound("\(what) \(id)")
            }
            try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: Timestamp.format(at), action: "\(what)-delete", reason: "\(what) \(id)"))
        }
    }
}
