import Foundation
import Storage

extension PostgresStore: NoticeStore {
    static let alertColumns = "id, title, message, severity, starts_at, ends_at, created_at, updated_at"
    static let resourceColumns = "id, title, category, link, created_at, updated_at"

    static func alert(_ r: PostgresResult, _ i: Int) throws -> StoredAlert {
        StoredAlert(id: r.string(i, 0),
                    content: AlertContent(title: r.string(i, 1), message: r.string(i, 2), severity: AlertSeverity(rawValue: r.string(i, 3)) ?? .info,
                                          startsAt: try Timestamp.parse(r.string(i, 4)), endsAt: try r.text(i, 5).map { try Timestamp.parse($0) }),
                    createdAt: try Timestamp.parse(r.string(i, 6)), updatedAt: try Timestamp.parse(r.string(i, 7)))
    }

    static func resource(_ r: PostgresResult, _ i: Int) throws -> StoredResource {
        StoredResource(id: r.string(i, 0), content: ResourceContent(title: r.string(i, 1), category: r.string(i, 2), link: r.string(i, 3)),
                       createdAt: try Timestamp.parse(r.string(i, 4)), updatedAt: try Timestamp.parse(r.string(i, 5)))
    }

    public func alerts() async throws -> [StoredAlert] {
        try await pool.run("read alerts") { db in
            let r = try db.query("SELECT \(Self.alertColumns) FROM alerts ORDER BY starts_at DESC, id DESC")
            return try (0..<r.count).map { try Self.alert(r, $0) }
        }
    }

    public func createAlert(_ content: AlertContent, actor: String, at: Date) async throws -> StoredAlert {
        try await write("create an alert") { try $0.createAlert(content, actor: actor, at: at) }
    }

    public func updateAlert(id: String, _ content: AlertContent, action: String, actor: String, at: Date) async throws -> StoredAlert {
        try await write("change an alert") { try $0.updateAlert(id: id, content, action: action, actor: actor, at: at) }
    }

    public func deleteAlert(id: String, actor: String, at: Date) async throws {
        try await write("delete an alert") { try $0.delete(.alert, id: id, actor: actor, at: at) }
    }

    public func resources() async throws -> [StoredResource] {
        try await pool.run("read resources") { db in
            let r = try db.query("SELECT \(Self.resourceColumns) FROM resources ORDER BY category, title, id")
            return try (0..<r.count).map { try Self.resource(r, $0) }
        }
    }

    public func createResource(_ content: ResourceContent, actor: String, at: Date) async throws -> StoredResource {
        try await write("create a resource") { try $0.createResource(content, actor: actor, at: at) }
    }

    public func updateResource(id: String, _ content: ResourceContent, actor: String, at: Date) async throws -> StoredResource {
        try await write("change a resource") { try $0.updateResource(id: id, content, actor: actor, at: at) }
    }

    public func deleteResource(id: String, actor: String, at: Date) async throws {
        try await write("delete a resource") { try $0.delete(.resource, id: id, actor: actor, at: at) }
    }
}

extension PostgresWrites: NoticeWrites {
    func insertAlert(id: String, _ content: AlertContent, at: String) throws -> StoredAlert {
        let r = try db.query("INSERT INTO alerts (\(PostgresStore.alertColumns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING \(PostgresStore.alertColumns)",
                             [.text(id), .text(content.title), .text(content.message), .text(content.severity.rawValue),
                              .text(Timestamp.format(content.startsAt)), .optional(content.endsAt.map(Timestamp.format)), .text(at)])
        return try PostgresStore.alert(r, 0)
    }

    func updateAlert(id: String, _ content: AlertContent, at: String) throws -> StoredAlert? {
        let r = try db.query("""
            UPDATE alerts SET title = $2, message = $3, severity = $4, starts_at = $5, ends_at = $6, updated_at = $7 WHERE id = $1
            RETURNING \(PostgresStore.alertColumns)
            """, [.text(id), .text(content.title), .text(content.message), .text(content.severity.rawValue),
                  .text(Timestamp.format(content.startsAt)), .optional(content.endsAt.map(Timestamp.format)), .text(at)])
        return r.count == 1 ? try PostgresStore.alert(r, 0) : nil
    }

    func insertResource(id: String, _ content: ResourceContent, at: String) throws -> StoredResource {
        let r = try db.query("INSERT INTO resources (\(PostgresStore.resourceColumns)) VALUES ($1, $2, $3, $4, $5, $5) RETURNING \(PostgresStore.resourceColumns)",
                             [.text(id), .text(content.title), .text(content.category), .text(content.link), .text(at)])
        return try PostgresStore.resource(r, 0)
    }

    func updateResource(id: String, _ content: ResourceContent, at: String) throws -> StoredResource? {
        let r = try db.query("UPDATE resources SET title = $2, category = $3, link = $4, updated_at = $5 WHERE id = $1 RETURNING \(PostgresStore.resourceColumns)",
                             [.text(id), .text(content.title), .text(content.category), .text(content.link), .text(at)])
        return r.count == 1 ? try PostgresStore.resource(r, 0) : nil
    }

    func deleteNotice(_ kind: NoticeKind, id: String) throws -> Bool {
        try db.query("DELETE FROM \(kind.table) WHERE id = $1 RETURNING id", [.text(id)]).count == 1
    }
}
