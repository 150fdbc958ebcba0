import HTTPTypes
import Hummingbird

/// A known path asked with a method it does not take answers `405 method_not_allowed` with an
/// `Allow` header (RFC 9110 §15.5.6), not `404`; `OPTIONS` on a known path answers `204` with
/// `Allow` (CORS preflights are answered before this, by `CrossOriginMiddleware`).
struct MethodNotAllowedMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: KnownRoutes

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            // Only the router's own "no route" error: handlers answer a missing resource with `APIError`.
            let methods = routes.methods(forPath: request.uri.path)
            guard !methods.isEmpty else { throw error }
            let allow = (methods + [.options]).map(\.rawValue).sorted().joined(separator: ", ")
            if request.method == .options {
                return Response(status: .noContent, headers: [.allow: allow])
            }
            var response = APIError(status: .methodNotAllowed, code: "method_not_allowed",
                                    message: "\(request.uri.path) does not take \(request.method.rawValue); it takes \(allow)").response
            response.headers[.allow] = allow
            return response
        }
    }
}
