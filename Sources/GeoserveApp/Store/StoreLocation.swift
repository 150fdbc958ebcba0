import Foundation

/// Where the store lives, as given by `--database` / `GEOSERVE_DATABASE`: a SQLite file path
/// (optionally written `sqlite:PATH`) or a PostgreSQL connection URI (`postgres://…` or
/// `postgresql://…`, read by libpq, so the `PG*` variables and `sslmode` apply).
package enum StoreLocation: Hashable, Sendable, CustomStringConvertible {
    /// A SQLite database file; its folder is created when missing.
    case sqlite(path: String)
    /// A PostgreSQL database, as a libpq connection URI.
    case postgres(uri: String)

    /// Why a location was refused.
    package struct Refused: Error, CustomStringConvertible {
        package let description: String
    }

    /// Reads a location.
    /// - Throws: `Refused` for an empty location or a scheme this build has no backend for.
    package init(_ text: String) throws {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw Refused(description: "the database location is empty") }
        let lower = trimmed.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            self = .postgres(uri: trimmed)
        } else if lower.hasPrefix("sqlite://") {
            self = .sqlite(path: String(trimmed.dropFirst("sqlite://".count)))
        } else if lower.hasPrefix("sqlite:") {
            self = .sqlite(path: String(trimmed.dropFirst("sqlite:".count)))
        } else if let colon = trimmed.firstIndex(of: ":"), trimmed[..<colon].allSatisfy({ $0.isLetter }), trimmed[colon...].hasPrefix("://") {
            throw Refused(description: "unknown database scheme \"\(trimmed[..<colon])\" (use a SQLite file path, sqlite:PATH or postgres://…)")
        } else {
            self = .sqlite(path: trimmed)
        }
        if case .sqlite(let path) = self, path.isEmpty { throw Refused(description: "the SQLite location names no file") }
        if case .postgres(let uri) = self, Self.redacted(uri) == uri, uri.contains("***") {
            throw Refused(description: "the database URI holds the mask *** where a password was: give the real password, or none and a libpq password file (PGPASSFILE)")
        }
    }

    /// The default folder for attachment files: beside a SQLite file; for PostgreSQL, `var/attachments`
    /// under the working folder (several processes need `--attachments` on storage they share).
    package var defaultIndexFolder: URL {
        switch self {
        case .sqlite(let path): URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("index-cache")
        case .postgres: URL(fileURLWithPath: "var/index-cache")
        }
    }

    var defaultAttachmentsFolder: URL {
        switch self {
        case .sqlite(let path): URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("attachments")
        case .postgres: URL(fileURLWithPath: "var/attachments")
        }
    }

    /// For logs and messages: a PostgreSQL password (in the URI's user part or its `password`
    /// parameter) is replaced by `***`.
    package var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let uri): Self.redacted(uri)
        }
    }

    /// The location as `geoserve config` prints it: a PostgreSQL URI without its password (libpq
    /// then reads it from `PGPASSFILE`), so the printed file can be read back; and whether a
    /// password was left out.
    package var printable: (text: String, droppedPassword: Bool) {
        guard case .postgres(let uri) = self, let parts = PostgresURI(uri) else { return (description, false) }
        return (parts.text(maskingPasswordWith: nil), parts.holdsPassword)
    }

    /// The URI without its password.
    static func redacted(_ uri: String) -> String {
        guard let parts = PostgresURI(uri) else { return "postgres://(unreadable location)" }
        return parts.text(maskingPasswordWith: "***")
    }
}
