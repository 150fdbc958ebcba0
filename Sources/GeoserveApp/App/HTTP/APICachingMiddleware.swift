import Hummingbird

/// No answer of the `/v1` API is kept by a browser or a shared cache unless its route says it
/// may be (`Cache-Control` set by the controller: the misconduct search, public notices, exports
/// with their own rule). Most of those answers are private — a report's status, the verifiers'
/// queue, accounts, a report seen by a verifier — and carried no `Cache-Control` at all, which
/// lets a browser keep them on disk and a proxy's heuristics keep them for everyone. Refusals
/// (401, 404, 409) are private too.
struct APICachingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if request.uri.path.hasPrefix("/v1/"), response.headers[.cacheControl] == nil {
            response.headers[.cacheControl] = "no-store"
        }
        return response
    }
}
