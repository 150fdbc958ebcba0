import Foundation

/// Where the store lives, as given by `--database` / `GEOSERVE_DATABASE`: a SQLite file path
/// (optionally written `sqlite:PATH`) today; `postgres://…` is recognised so that it is refused
/// with a clear message rather than taken for a file name.
enum StoreLocation: Hashable, Sendable, CustomStringConvertible {
    /// A SQLite database file; its folder is created when missing.
    case sqlite(path: String)

    /// Why a location was refused.
    struct Refused: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads a location.
    /// - Throws: `Refused` for an empty location or a scheme this build has no backend for.
    init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw Refused(description: "the database location is empty") }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            throw Refused(description: "PostgreSQL locations are not supported by this build; use a SQLite file path")
        }
        if lower.hasPrefix("sqlite://") {
            self = .sqlite(path: String(trimmed.dropFirst("sqlite://".count)))
        } else if lower.hasPrefix("sqlite:") {
            self = .sqlite(path: String(trimmed.dropFirst("sqlite:".count)))
        } else if let colon = trimmed.firstIndex(of: ":"), trimmed[..<colon].allSatisfy({ $0.isLetter }), trimmed[colon...].hasPrefix("://") {
            throw Refused(description: "unknown database scheme \"\(trimmed[..<colon])\" (use a SQLite file path or sqlite:PATH)")
        } else {
            self = .sqlite(path: trimmed)
        }
        if case .sqlite(let path) = self, path.isEmpty { throw Refused(description: "the SQLite location names no file") }
    }

    /// The default folder for attachment files: beside a SQLite file.
    var defaultAttachmentsFolder: URL {
        switch self {
        case .sqlite(let path): URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("attachments")
        }
    }

    /// For logs and messages; never carries a password (SQLite locations have none).
    var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        }
    }
}
