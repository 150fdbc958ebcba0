import Hummingbird

/// Hands every handler the data version the watcher holds, which the catalog has caught up
/// with: an atomic load, no store read on the request path.
struct DataVersionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let watcher: DataVersionWatcher

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.dataVersion = watcher.dataVersion
        return try await next(request, context)
    }
}
