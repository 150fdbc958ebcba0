import Hummingbird
import Storage

/// `/healthz` (the process is up) and `/readyz` (the store answers and areas are loaded).
struct HealthController<Context: RequestContext> {
    let store: any StoreAdmin
    let catalog: LayerCatalog

    struct Status: ResponseEncodable {
        let status: String
        var layers: Int?
    }

    func addRoutes(to router: Router<Context>) {
        router.get("healthz") { _, _ in Status(status: "ok") }
        router.get("readyz") { _, _ in try await ready() }
    }

    func ready() async throws -> Status {
        do {
            try await store.ping()
        } catch {
            throw APIError.unavailable("the store does not answer")
        }
        let loaded = catalog.snapshot().count
        guard loaded > 0 else { throw APIError.unavailable("no layer is loaded") }
        return Status(status: "ready", layers: loaded)
    }
}
