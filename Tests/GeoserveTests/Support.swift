import Foundation
import Hummingbird
import Logging
@testable import geoserve

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
    let store = try openStore(folder.appendingPathComponent("s.sqlite").path)
    let catalog = LayerCatalog()
    let watcher = DataVersionWatcher(source: store, layers: store, catalog: catalog, interval: .seconds(1), logger: Logger(label: "test"))
    return try buildRouter(store: store, catalog: catalog, watcher: watcher, configuration: AppConfiguration(), receipts: Receipts(secretHex: "00"))
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
