import Foundation
import Hummingbird
import Logging
@testable import StoragePostgres
@testable import StorageSQLite
import Storage
@testable import GeoserveApp

/// The repository's root folder (tests use its `data/` demo campus).
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A fresh temporary folder; the caller removes it.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("geoserve-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func write(_ text: String, to url: URL) throws {
    try Data(text.utf8).write(to: url)
}

/// The service's router over a fresh store in `folder`, for tests that look at the routes
/// themselves rather than at responses.
func routerForInspection(folder: URL) throws -> Router<AppRequestContext> {
    let store = try openStore(testDatabase(in: folder, named: "s.sqlite"))
    let catalog = LayerCatalog()
    let watcher = DataVersionWatcher(source: store, layers: store, catalog: catalog, publications: PublicationBook(store: store), interval: .seconds(1),
                                     logger: Logger(label: "test"))
    return try buildRouter(store: store, catalog: catalog, watcher: watcher, configuration: AppConfiguration(), receipts: Receipts(secretHex: "00"),
                           idempotency: IdempotencyKeys(secretHex: "00"))
}

/// Waits until `condition` holds, checking every 50 ms for at most `seconds`; returns whether it
/// held. For what another process changes, which the service notices within its poll interval.
func eventually(within seconds: Double = 3, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}

/// Where a test's store lives. The HTTP tests run twice in the README's test command: on SQLite,
/// and with `GEOSERVE_TEST_BACKEND=postgres` on a schema of their own on the throw-away
/// PostgreSQL that `Tests/Postgres/with-server.sh` started — the same test code on both backends.
func testDatabase(in folder: URL, named name: String = "var/geoserve.sqlite") throws -> String {
    guard ProcessInfo.processInfo.environment["GEOSERVE_TEST_BACKEND"] == "postgres" else {
        return folder.appendingPathComponent(name).path
    }
    return try postgresTestDatabase()
}

/// A fresh schema on the shared test PostgreSQL, as a libpq URI whose search path is that schema.
func postgresTestDatabase() throws -> String {
    guard let server = ProcessInfo.processInfo.environment["GEOSERVE_TEST_POSTGRES"], !server.isEmpty else {
        throw TestBackendMissing()
    }
    let schema = "h_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    try PostgresConnection(location: server, settings: []).execute("CREATE SCHEMA \(schema)")
    return "\(server)\(server.contains("?") ? "&" : "?")options=-csearch_path%3D\(schema)"
}

struct TestBackendMissing: Error, CustomStringConvertible {
    var description: String { "the PostgreSQL tests need GEOSERVE_TEST_POSTGRES: run the tests through ./dev.sh test, which starts a throw-away server" }
}

/// Runs SQL on a test's database behind the service's back, as someone with write access could.
func rawSQL(_ sql: String, on database: String) throws {
    if case .postgres(let uri) = try StoreLocation(database) {
        try PostgresConnection(location: uri, settings: []).execute("SET client_min_messages = warning; " + sql)
    } else {
        try SQLiteConnection(path: database).execute(sql)
    }
}

/// The first column of every row a query returns, as text (nil as ""), on either backend.
func rawColumn(_ sql: String, on database: String) throws -> [String] {
    if case .postgres(let uri) = try StoreLocation(database) {
        let result = try PostgresConnection(location: uri, settings: []).query(sql, [])
        return (0..<result.count).map { result.text($0, 0) ?? "" }
    }
    let statement = try SQLiteConnection(path: database).prepare(sql)
    var out: [String] = []
    while try statement.step() { out.append(statement.text(0) ?? "") }
    return out
}

/// Runs a program and waits for it; returns its wait status. posix_spawn and waitpid rather
/// than `Process`, whose exit monitoring was seen to miss the quick exit of `runuser` and wait
/// forever.
func spawnAndWait(_ path: String, _ arguments: [String]) throws -> Int32 {
    waitFor(try spawn(path, arguments))
}

/// Starts a program; the caller waits for it (`waitFor`).
func spawn(_ path: String, _ arguments: [String]) throws -> pid_t {
    let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
    defer { for a in argv { free(a) } }
    var pid: pid_t = 0
    guard posix_spawn(&pid, path, nil, nil, argv, environ) == 0 else { throw LiveServerError(description: "cannot run \(path)") }
    return pid
}

/// Waits for a spawned program; returns its wait status.
@discardableResult
func waitFor(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return status
}

/// The key file the tests use for a database: beside a SQLite file, and one file per PostgreSQL
/// database, shared by every process and store on it. Those live in the test server's folder,
/// which goes with the server, so a run leaves no key files behind.
func testKeysPath(for database: String) -> String {
    guard database.hasPrefix("postgres") else { return (try? InstallationKeys.defaultPath(for: StoreLocation(database))) ?? "geoserve.keys" }
    let folder = ProcessInfo.processInfo.environment["GEOSERVE_TEST_POSTGRES_CONTROL"].map { $0 + "/" } ?? NSTemporaryDirectory()
    return folder + "geoserve-test-keys-" + String(UInt(bitPattern: database.hashValue), radix: 16)
}

/// A store opened with the installation's keys, as the service and every command open it: its
/// audit chain verifies under the key.
func openKeyedStore(_ database: String, keys: String? = nil) async throws -> any GeoserveStore {
    let store = try openStore(database)
    try await store.migrate()
    _ = try await InstallationKeys.load(path: keys ?? testKeysPath(for: database), store: store)
    return store
}

/// Decompressed by Debian's gzip, so the check does not share code with the compressor.
func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("asset.gz")
    try Data(bytes).write(to: file)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/gzip")
    process.arguments = ["-d", file.path]
    try ProcessLaunch.lock.withLock { try process.run() }
    process.waitUntilExit()
    return Array(try Data(contentsOf: folder.appendingPathComponent("asset")))
}

/// A file system of its own at `folder`, a tmpfs of `size` (`24m`, `256k`), to fill as a real
/// disk fills (the tests run as root, as the README's test command does). `unmount()` when done.
struct SmallDisk {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String { "mounting a tmpfs needs root" }
    }

    let folder: URL

    init(at folder: URL, size: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        guard try spawnAndWait("/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", folder.path]) == 0 else { throw Unavailable() }
        self.folder = folder
    }

    func unmount() { _ = try? spawnAndWait("/bin/umount", ["-l", folder.path]) }
}
