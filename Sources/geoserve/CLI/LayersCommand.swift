import ArgumentParser
import GeoserveApp
import Storage

struct LayersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "layers",
        abstract: "List layers, their versions and which version is published."
    )

    @OptionGroup var store: StoreOptions

    func run() async throws {
        let db = try await store.open(reading: true)
        for l in try await db.layers() {
            let published = l.publishedVersion.map { "v\($0)" } ?? "none"
            print("\(l.name) (\(l.kind.rawValue)), published \(published)")
            for v in l.versions {
                print("  v\(v.version): \(v.featureCount) features, \(v.repairedCount) repaired, \(v.rejectedCount) rejected, from \(v.source ?? "-")")
            }
        }
    }
}
