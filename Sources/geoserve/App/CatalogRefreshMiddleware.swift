import Hummingbird
import Storage

/// Reads the data version once per request and, when it moved, brings the layer catalog up to
/// it before the handler looks a layer up, so that a layer published by another process (or the
/// CLI) is served by the very request that notices it. Handlers read the version from the context.
struct CatalogRefreshMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let store: SQLiteStore
    let catalog: LayerCatalog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.dataVersion = try store.currentDataVersion()
        try await catalog.refreshIfChanged(from: store, dataVersion: context.dataVersion)
        return try await next(request, context)
    }
}
