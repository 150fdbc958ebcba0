import Foundation
import Storage

extension SQLiteStore: NoticeStore {
    static let alertColumns = "id, title, message, severity, starts_at, ends_at, created_at, updated_at"
    static let resourceColumns = "id, title, category, link, created_at, updated_at"

    static func alert(_ s: SQLiteStatement) throws -> StoredAlert {
        StoredAlert(id: s.text(0)!,
                    content: AlertContent(title: s.text(1)!, message: s.text(2)!, severity: AlertSeverity(rawValue: s.text(3)!) ?? .info,
                                          startsAt: try Timestamp.parse(s.text(4)!), endsAt: try s.text(5).map { try Timestamp.parse($0) }),
                    createdAt: try Timestamp.parse(s.text(6)!), updatedAt: try Timestamp.parse(s.text(7)!))
    }

    static func resource(_ s: SQLiteStatement) throws -> StoredResource {
        StoredResource(id: s.text(0)!, content: ResourceContent(title: s.text(1)!, category: s.text(2)!, link: s.text(3)!),
                       createdAt: try Timestamp.parse(s.text(4)!), updatedAt: try Timestamp.parse(s.text(5)!))
    }

    public func alerts() async throws -> [StoredAlert] {
        try await run { db in
            let s = try db.prepare("SELECT \(Self.alertColumns) FROM alerts ORDER BY starts_at DESC, id DESC")
            var out: [StoredAlert] = []
            while try s.step() { out.append(try Self.alert(s)) }
            return out
        }
    }

    public func createAlert(_ content: AlertContent, actor: String, at: Date) async throws -> StoredAlert {
        try await write { try $0.createAlert(content, actor: actor, at: at) }
    }

    public func updateAlert(id: String, _ content: AlertContent, action: String, actor: String, at: Date) async throws -> StoredAlert {
        try await write { try $0.updateAlert(id: id, content, action: action, actor: actor, at: at) }
    }

    public func deleteAlert(id: String, actor: String, at: Date) async throws {
        try await write { try $0.delete(.alert, id: id, actor: actor, at: at) }
    }

    public func resources() async throws -> [StoredResource] {
        try await run { db in
            let s = try db.prepare("SELECT \(Self.resourceColumns) FROM resources ORDER BY category, title, id")
            var out: [StoredResource] = []
            while try s.step() { out.append(try Self.resource(s)) }
            return out
        }
    }

    public func createResource(_ content: ResourceContent, actor: String, at: Date) async throws -> StoredResource {
        try await write { try $0.createResource(content, actor: actor, at: at) }
    }

    public func updateResource(id: String, _ content: ResourceContent, actor: String, at: Date) async throws -> StoredResource {
        try await write { try $0.updateResource(id: id, content, actor: actor, at: at) }
    }

    public func deleteResource(id: String, actor: String, at: Date) async throws {
        try await write { try $0.delete(.resource, id: id, actor: actor, at: at) }
    }
}

extension SQLiteWrites: NoticeWrites {
    func insertAlert(id: String, _ content: AlertContent, at: String) throws -> StoredAlert {
        try db.prepare("INSERT INTO alerts (\(SQLiteStore.alertColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
            .bind(.text(id), .text(content.title), .text(content.message), .text(content.severity.rawValue),
                  .text(Timestamp.format(content.startsAt)), content.endsAt.map { .text(Timestamp.format($0)) } ?? .null, .text(at), .text(at)).run()
        return try alert(id: id)!
    }

    func updateAlert(id: String, _ content: AlertContent, at: String) throws -> StoredAlert? {
        try db.prepare("UPDATE alerts SET title = ?, message = ?, severity = ?, starts_at = ?, ends_at = ?, updated_at = ? WHERE id = ?")
            .bind(.text(content.title), .text(content.message), .text(content.severity.rawValue), .text(Timestamp.format(content.startsAt)),
                  content.endsAt.map { .text(Timestamp.format($0)) } ?? .null, .text(at), .text(id)).run()
        return try alert(id: id)
    }

    func insertResource(id: String, _ content: ResourceContent, at: String) throws -> StoredResource {
        try db.prepare("INSERT INTO resources (\(SQLiteStore.resourceColumns)) VALUES (?, ?, ?, ?, ?, ?)")
            .bind(.text(id), .text(content.title), .text(content.category), .text(content.link), .text(at), .text(at)).run()
        return try resource(id: id)!
    }

    func updateResource(id: String, _ content: ResourceContent, at: String) throws -> StoredResource? {
        try db.prepare("UPDATE resources SET title = ?, category = ?, link = ?, updated_at = ? WHERE id = ?")
            .bind(.text(content.title), .text(content.category), .text(content.link), .text(at), .text(id)).run()
        return try resource(id: id)
    }

    func deleteNotice(_ kind: NoticeKind, id: String) throws -> Bool {
        try db.prepare("DELETE FROM \(kind.table) WHERE id = ?").bind(.text(id)).run()
        return db.changes > 0
    }

    private func alert(id: String) throws -> StoredAlert? {
        let s = try db.prepare("SELECT \(SQLiteStore.alertColumns) FROM alerts WHERE id = ?").bind(.text(id))
        return try s.step() ? SQLiteStore.alert(s) : nil
    }

    private func resource(id: String) throws -> StoredResource? {
        let s = try db.prepare("SELECT \(SQLiteStore.resourceColumns) FROM resources WHERE id = ?").bind(.text(id))
        return try s.step() ? SQLiteStore.resource(s) : nil
    }
}
