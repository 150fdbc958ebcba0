import HTTPTypes
import Hummingbird

/// Every HTML response — the dashboard and the OGC resources' pages — goes out with a
/// Content-Security-Policy that allows only this origin's scripts, styles and images and no
/// inline code, may not be framed, and sends no full referrer elsewhere; and every response, JSON,
/// PNG and errors included, says `X-Content-Type-Options: nosniff`, so no browser reads a JSON
/// answer that echoes input as a page or a script. Set here once, so a route added later cannot
/// forget it.
struct PageSecurityMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.xContentTypeOptions] = "nosniff"
        if response.headers[.contentType]?.hasPrefix("text/html") == true {
            response.headers[.contentSecurityPolicy] = policy
            response.headers[.xFrameOptions] = "DENY"
            response.headers[.referrerPolicy] = "same-origin"
        }
        return response
    }
}
