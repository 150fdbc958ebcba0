import HTTPTypes
import Hummingbird

/// Every HTML response — the dashboard and the OGC resources' pages — goes out with a
/// Content-Security-Policy that allows only this origin's scripts, styles and images and no
/// inline code, may not be framed, and sends no full referrer elsewhere. Set here once, so a page
/// added later cannot forget it.
struct PageSecurityMiddleware<Context: RequestContext>: RouterMiddleware {
    let policy: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        if response.headers[.contentType]?.hasPrefix("text/html") == true {
            response.headers[.contentSecurityPolicy] = policy
            response.headers[.xFrameOptions] = "DENY"
            response.headers[.referrerPolicy] = "same-origin"
        }
        return response
    }
}
