import Hummingbird
import Logging
import Storage

/// `/healthz` (the process is up) and `/readyz` (not stopping, the store answers, takes writes
/// when a write last met a full disk, and areas are loaded).
struct HealthController<Context: RequestContext> {
    let store: any StoreAdmin
    let catalog: LayerCatalog
    let health: WriteHealth
    let readiness: Readiness
    /// When the store was marked a drill copy (nil: production): a drill copy serves, so it is
    /// ready, and says what it is, so a rollback that brought production back as a copy shows.
    var drillCopy: String?

    struct Status: ResponseEncodable {
        let status: String
        var layers: Int?
        /// Present on a drill copy: when it was marked, and what that means.
        var drillCopy: DrillCopyStatus?
    }

    struct DrillCopyStatus: Encodable {
        let since: String
        let note = "a drill copy sends no status notifications and makes no scheduled publications; `geoserve drill promote` makes it the installation's store"
    }

    func addRoutes(to router: Router<Context>) {
        router.get("healthz") { _, _ in Status(status: "ok") }
        router.get("readyz") { _, context in try await ready(context.logger) }
    }

    func ready(_ logger: Logger) async throws -> Status {
        // First: a stopping process says so at once, so a load balancer drains it.
        guard !readiness.isDraining else { throw APIError.unavailable("draining: this process is stopping") }
        let held: [String]
        do {
            held = try await store.exclusiveHolds()
        } catch {
            throw APIError.unavailable("the store does not answer")
        }
        // Every read of these tables waits for the holder's commit, into the serving timeout.
        guard held.isEmpty else {
            throw APIError.unavailable("another transaction holds \(held.joined(separator: ", ")) exclusively (an installation's first import of reports, or a counter rebuild): reads of them wait until it commits")
        }
        if health.needsProbe {
            do {
                try await store.probeWrite(bytes: AppRequestContext.maxJSONBodyBytes)
                health.recovered(logger)
            } catch StorageError.diskFull {
                health.diskFull(logger)
                throw APIError.unavailable("the database's disk is full: writes fail")
            } catch {
                throw APIError.unavailable("the store takes no writes")
            }
        }
        let loaded = catalog.snapshot().count
        guard loaded > 0 else { throw APIError.unavailable("no layer is loaded") }
        return Status(status: "ready", layers: loaded, drillCopy: drillCopy.map { DrillCopyStatus(since: $0) })
    }
}
