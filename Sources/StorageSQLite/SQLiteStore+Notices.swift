import Foundation
import Storage

extension SQLiteStore: NoticeStore {
    private static let alertColumns = "id, title, message, severity, starts_at, ends_at, created_at, updated_at"
    private static let resourceColumns = "id, title, category, link, created_at, updated_at"

    private static func alert(_ s: SQLiteStatement) -> StoredAlert {
        StoredAlert(id: s.text(0)!,
                    content: AlertContent(title: s.text(1)!, message: s.text(2)!, severity: AlertSeverity(rawValue: s.text(3)!) ?? .info,
                                          startsAt: Timestamp.parse(s.text(4)!), endsAt: s.text(5).map(Timestamp.parse)),
                    createdAt: Timestamp.parse(s.text(6)!), updatedAt: Timestamp.parse(s.text(7)!))
    }

    private static func resource(_ s: SQLiteStatement) -> StoredResource {
        StoredResource(id: s.text(0)!, content: ResourceContent(title: s.text(1)!, category: s.text(2)!, link: s.text(3)!),
                       createdAt: Timestamp.parse(s.text(4)!), updatedAt: Timestamp.parse(s.text(5)!))
    }

    public func alerts() async throws -> [StoredAlert] {
        try await run { db in
            let s = try db.prepare("SELECT \(Self.alertColumns) FROM alerts ORDER BY starts_at DESC, id DESC")
            var out: [StoredAlert] = []
            while try s.step() { out.append(Self.alert(s)) }
            return out
        }
    }

    public func createAlert(_ content: AlertContent, actor: String, at: Date) async throws -> StoredAlert {
        let id = TimeOrderedID.make(now: at)
        return try await run { db in
            try db.transaction {
                let now = Timestamp.format(at)
                try db.prepare("INSERT INTO alerts (\(Self.alertColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
                    .bind(.text(id), .text(content.title), .text(content.message), .text(content.severity.rawValue),
                          .text(Timestamp.format(content.startsAt)), content.endsAt.map { .text(Timestamp.format($0)) } ?? .null, .text(now), .text(now)).run()
                try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: now, action: "alert-create", reason: "alert \(id)"))
                return try Self.loadAlert(id: id, db)!
            }
        }
    }

    public func updateAlert(id: String, _ content: AlertContent, action: String, actor: String, at: Date) async throws -> StoredAlert {
        try await run { db in
            try db.transaction {
                guard try Self.loadAlert(id: id, db) != nil else { throw StorageError.notFound("alert \(id)") }
                let now = Timestamp.format(at)
                try db.prepare("UPDATE alerts SET title = ?, message = ?, severity = ?, starts_at = ?, ends_at = ?, updated_at = ? WHERE id = ?")
                    .bind(.text(content.title), .text(content.message), .text(content.severity.rawValue), .text(Timestamp.format(content.startsAt)),
                          content.endsAt.map { .text(Timestamp.format($0)) } ?? .null, .text(now), .text(id)).run()
                try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: now, action: action, reason: "alert \(id)"))
                return try Self.loadAlert(id: id, db)!
            }
        }
    }

    public func deleteAlert(id: String, actor: String, at: Date) async throws {
        try await delete(from: "alerts", id: id, what: "alert", actor: actor, at: at)
    }

    public func resources() async throws -> [StoredResource] {
        try await run { db in
            let s = try db.prepare("SELECT \(Self.resourceColumns) FROM resources ORDER BY category, title, id")
            var out: [StoredResource] = []
            while try s.step() { out.append(Self.resource(s)) }
            return out
        }
    }

    public func createResource(_ content: ResourceContent, actor: String, at: Date) async throws -> StoredResource {
        let id = TimeOrderedID.make(now: at)
        return try await run { db in
            try db.transaction {
                let now = Timestamp.format(at)
                try db.prepare("INSERT INTO resources (\(Self.resourceColumns)) VALUES (?, ?, ?, ?, ?, ?)")
                    .bind(.text(id), .text(content.title), .text(content.category), .text(content.link), .text(now), .text(now)).run()
                try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: now, action: "resource-create", reason: "resource \(id)"))
                return try Self.loadResource(id: id, db)!
            }
        }
    }

    public func updateResource(id: String, _ content: ResourceContent, actor: String, at: Date) async throws -> StoredResource {
        try await run { db in
            try db.transaction {
                guard try Self.loadResource(id: id, db) != nil else { throw StorageError.notFound("resource \(id)") }
                let now = Timestamp.format(at)
                try db.prepare("UPDATE resources SET title = ?, category = ?, link = ?, updated_at = ? WHERE id = ?")
                    .bind(.text(content.title), .text(content.category), .text(content.link), .text(now), .text(id)).run()
                try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: now, action: "resource-update", reason: "resource \(id)"))
                return try Self.loadResource(id: id, db)!
            }
        }
    }

    public func deleteResource(id: String, actor: String, at: Date) async throws {
        try await delete(from: "resources", id: id, what: "resource", actor: actor, at: at)
    }

    /// Deletes one notice and audits it, or throws `notFound`.
    private func delete(from table: String, id: String, what: String, actor: String, at: Date) async throws {
        try await run { db in
            try db.transaction {
                guard try db.prepare("SELECT 1 FROM \(table) WHERE id = ?").bind(.text(id)).firstInt() != nil else {
                    throw StorageError.notFound("\(what) \(id)")
                }
                try db.prepare("DELETE FROM \(table) WHERE id = ?").bind(.text(id)).run()
                try Self.appendAudit(db, AuditFields(reportID: nil, actor: actor, at: Timestamp.format(at), action: "\(what)-delete", reason: "\(what) \(id)"))
            }
        }
    }

    private static func loadAlert(id: String, _ db: SQLiteConnection) throws -> StoredAlert? {
        let s = try db.prepare("SELECT \(alertColumns) FROM alerts WHERE id = ?").bind(.text(id))
        return try s.step() ? alert(s) : nil
    }

    private static func loadResource(id: String, _ db: SQLiteConnection) throws -> StoredResource? {
        let s = try db.prepare("SELECT \(resourceColumns) FROM resources WHERE id = ?").bind(.text(id))
        return try s.step() ? resource(s) : nil
    }
}
