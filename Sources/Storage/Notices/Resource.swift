import Foundation

/// What an admin writes in a resource, already checked: a trusted link under a category.
public struct ResourceContent: Hashable, Sendable {
    public let title: String
    public let category: String
    /// An absolute http or https URL.
    public let link: String

    public init(title: String, category: String, link: String) {
        self.title = title
        self.category = category
        self.link = link
    }
}

/// A resource as stored.
public struct StoredResource: Hashable, Sendable {
    public let id: String
    public let content: ResourceContent
    public let createdAt: Date
    public let updatedAt: Date

    public init(id: String, content: ResourceContent, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.content = content
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
