import Foundation
import Hummingbird
import Storage

/// An alert as the API shows it.
struct AlertView: ResponseCodable, Equatable {
    let id: String
    let title: String
    let message: String
    let severity: String
    let startsAt: String
    let endsAt: String?
    /// `scheduled`, `current` or `expired` when the response was made.
    let state: String
    let updatedAt: String

    init(_ a: StoredAlert, now: Date) {
        id = a.id
        title = a.content.title
        message = a.content.message
        severity = a.content.severity.rawValue
        startsAt = Timestamp.format(a.content.startsAt)
        endsAt = a.content.endsAt.map(Timestamp.format)
        state = a.state(at: now).rawValue
        updatedAt = Timestamp.format(a.updatedAt)
    }

    private enum CodingKeys: String, CodingKey {
        case id, title, message, severity, startsAt, endsAt, state, updatedAt
    }

    /// `endsAt` is written as `null` while the alert has no end, as the document says.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(title, forKey: .title)
        try c.encode(message, forKey: .message)
        try c.encode(severity, forKey: .severity)
        try c.encode(startsAt, forKey: .startsAt)
        try c.encode(endsAt, forKey: .endsAt)
        try c.encode(state, forKey: .state)
        try c.encode(updatedAt, forKey: .updatedAt)
    }
}

/// A resource as the API shows it.
struct ResourceView: ResponseCodable, Equatable {
    let id: String
    let title: String
    let category: String
    let link: String
    let updatedAt: String

    init(_ r: StoredResource) {
        id = r.id
        title = r.content.title
        category = r.content.category
        link = r.content.link
        updatedAt = Timestamp.format(r.updatedAt)
    }
}

struct AlertList: Codable {
    let alerts: [AlertView]
}

struct ResourceList: Codable {
    let resources: [ResourceView]
}
