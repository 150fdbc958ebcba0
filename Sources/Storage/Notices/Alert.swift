import Foundation

/// How urgent an alert is; pages order and colour alerts by it.
public enum AlertSeverity: String, Codable, CaseIterable, Hashable, Sendable {
    case info
    case warning
    case critical

    /// Higher is more urgent.
    public var rank: Int {
        switch self {
        case .info: 0
        case .warning: 1
        case .critical: 2
        }
    }
}

/// What an admin writes in an alert, already checked.
public struct AlertContent: Hashable, Sendable {
    public let title: String
    public let message: String
    public let severity: AlertSeverity
    /// When it starts being shown.
    public let startsAt: Date
    /// When it stops being shown; nil until an admin expires it.
    public let endsAt: Date?

    public init(title: String, message: String, severity: AlertSeverity, startsAt: Date, endsAt: Date?) {
        self.title = title
        self.message = message
        self.severity = severity
        self.startsAt = startsAt
        self.endsAt = endsAt
    }

    /// The same alert ending at `at` (unless it already ended earlier).
    public func expired(at: Date) -> AlertContent {
        let end = min(endsAt ?? at, at)
        return AlertContent(title: title, message: message, severity: severity, startsAt: min(startsAt, end), endsAt: end)
    }
}

/// An alert as stored.
public struct StoredAlert: Hashable, Sendable {
    public let id: String
    public let content: AlertContent
    public let createdAt: Date
    public let updatedAt: Date

    public init(id: String, content: AlertContent, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.content = content
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Where the alert stands at `now`.
    public func state(at now: Date) -> AlertState {
        if now < content.startsAt { return .scheduled }
        if let end = content.endsAt, now >= end { return .expired }
        return .current
    }
}

/// Where an alert stands in its active window.
public enum AlertState: String, Codable, CaseIterable, Hashable, Sendable {
    case scheduled
    case current
    case expired
}
