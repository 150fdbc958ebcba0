import Foundation
import Storage
@testable import StoragePostgres

/// A schema of its own on the test server for one test, so tests run in parallel on one
/// PostgreSQL without seeing each other's tables. The server is the one `Tests/Postgres/with-server.sh`
/// starts (the README's test command runs the tests through it).
struct TestDatabase: Sendable {
    let schema: String
    /// A libpq URI whose search path is the schema.
    let location: String

    struct Missing: Error, CustomStringConvertible {
        var description: String {
            "GEOSERVE_TEST_POSTGRES is not set: run the tests through ./dev.sh test, which starts a throw-away PostgreSQL"
        }
    }

    /// The test server's URI.
    static func server() throws -> String {
        guard let url = ProcessInfo.processInfo.environment["GEOSERVE_TEST_POSTGRES"], !url.isEmpty else { throw Missing() }
        return url
    }

    static func create() throws -> TestDatabase {
        let server = try server()
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try execute("CREATE SCHEMA \(schema)", at: server)
        let separator = server.contains("?") ? "&" : "?"
        return TestDatabase(schema: schema, location: "\(server)\(separator)options=-csearch_path%3D\(schema)")
    }

    /// Runs SQL on a fresh connection.
    static func execute(_ sql: String, at location: String) throws {
        let db = try PostgresConnection(location: location, settings: [])
        // Notices (what a DROP … CASCADE took with it) would fill the test output.
        try db.execute("SET client_min_messages = warning; " + sql)
    }

    func drop() {
        try? Self.execute("DROP SCHEMA \(schema) CASCADE", at: (try? Self.server()) ?? location)
    }
}
