import Foundation

/// The notices admins post beside the numbers: alerts (a title and message shown for a while) and
/// resources (trusted links by category). Every change is audited in the transaction that makes
/// it, like every other admin action.
///
/// Concurrency contract: each call is one transaction; an edit replaces the whole content, so of
/// two admins editing one notice at once the later commit wins, and both edits are in the audit.
public protocol NoticeStore: Sendable {
    /// Every alert, newest start first, whatever its active window.
    func alerts() async throws -> [StoredAlert]

    /// Creates an alert; `actor` is the admin's account id.
    func createAlert(_ content: AlertContent, actor: String, at: Date) async throws -> StoredAlert

    /// Replaces an alert's content. Throws `StorageError.notFound` for an unknown id.
    func updateAlert(id: String, _ content: AlertContent, action: String, actor: String, at: Date) async throws -> StoredAlert

    /// Deletes an alert. Throws `StorageError.notFound` for an unknown id.
    func deleteAlert(id: String, actor: String, at: Date) async throws

    /// Every resource, by category and then title.
    func resources() async throws -> [StoredResource]

    /// Creates a resource.
    func createResource(_ content: ResourceContent, actor: String, at: Date) async throws -> StoredResource

    /// Replaces a resource's content. Throws `StorageError.notFound` for an unknown id.
    func updateResource(id: String, _ content: ResourceContent, actor: String, at: Date) async throws -> StoredResource

    /// Deletes a resource. Throws `StorageError.notFound` for an unknown id.
    func deleteResource(id: String, actor: String, at: Date) async throws
}
