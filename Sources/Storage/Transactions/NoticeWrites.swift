import Foundation

/// Which table of notices a change is for; also the word the audit trail uses for it.
public enum NoticeKind: String, Sendable {
    case alert
    case resource

    /// The table holding notices of this kind.
    public var table: String { rawValue + "s" }
}

/// The writes of the campus notices (alerts and resources), inside a transaction the backend has
/// opened; what is audited and what is refused is written once, below.
public protocol NoticeWrites: StoreWrites {
    func insertAlert(id: String, _ content: AlertContent, at: String) throws -> StoredAlert
    /// The changed alert, nil when there is none with this id.
    func updateAlert(id: String, _ content: AlertContent, at: String) throws -> StoredAlert?
    func insertResource(id: String, _ content: ResourceContent, at: String) throws -> StoredResource
    /// The changed resource, nil when there is none with this id.
    func updateResource(id: String, _ content: ResourceContent, at: String) throws -> StoredResource?
    /// Whether a notice of this id was there to delete.
    func deleteNotice(_ kind: NoticeKind, id: String) throws -> Bool
}

extension NoticeWrites {
    public func createAlert(_ content: AlertContent, actor: String, at: Date) throws -> StoredAlert {
        let id = TimeOrderedID.make(now: at)
        let alert = try insertAlert(id: id, content, at: Timestamp.format(at))
        try audit(.alert, id: id, action: "alert-create", actor: actor, at: at)
        return alert
    }

    /// `action` says what the change was for the audit trail (an edit, an early end).
    public func updateAlert(id: String, _ content: AlertContent, action: String, actor: String, at: Date) throws -> StoredAlert {
        guard let alert = try updateAlert(id: id, content, at: Timestamp.format(at)) else { throw StorageError.notFound("alert \(id)") }
        try audit(.alert, id: id, action: action, actor: actor, at: at)
        return alert
    }

    public func createResource(_ content: ResourceContent, actor: String, at: Date) throws -> StoredResource {
        let id = TimeOrderedID.make(now: at)
        let resource = try insertResource(id: id, content, at: Timestamp.format(at))
        try audit(.resource, id: id, action: "resource-create", actor: actor, at: at)
        return resource
    }

    public func updateResource(id: String, _ content: ResourceContent, actor: String, at: Date) throws -> StoredResource {
        guard let resource = try updateResource(id: id, content, at: Timestamp.format(at)) else { throw StorageError.notFound("resource \(id)") }
        try audit(.resource, id: id, action: "resource-update", actor: actor, at: at)
        return resource
    }

    public func delete(_ kind: NoticeKind, id: String, actor: String, at: Date) throws {
        guard try deleteNotice(kind, id: id) else { throw StorageError.notFound("\(kind.rawValue) \(id)") }
        try audit(kind, id: id, action: "\(kind.rawValue)-delete", actor: actor, at: at)
    }

    private func audit(_ kind: NoticeKind, id: String, action: String, actor: String, at: Date) throws {
        try appendAudit(AuditFields(reportID: nil, actor: actor, at: Timestamp.format(at), action: action, reason: "\(kind.rawValue) \(id)"))
    }
}
