import Hummingbird

/// CORS for dashboards served from other origins.
///
/// Hummingbird's own middleware sends `Access-Control-Expose-Headers` only on preflights, where
/// browsers ignore it; dashboards need `ETag` and `Link` readable on the real responses, so the
/// headers are set here on both.
struct CrossOriginMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Allowed origins; `["*"]` allows every origin (the public numbers are public anyway; tokens
    /// travel in the `Authorization` header, never in cookies, so no credentials mode is needed).
    let allowedOrigins: [String]
    /// Origins whose browser code may file reports and read them back (receipts, withdrawals,
    /// attachments: every path under `/v1/reports`); none by default, so only the service's own
    /// pages do. With `*` there, any web site's visitors filed reports and read their receipts.
    var intakeOrigins: [String] = []

    static var allowedHeaders: String { "Accept, Authorization, Content-Type, Idempotency-Key, If-None-Match, X-Receipt-Token" }
    static var allowedMethods: String { "GET, HEAD, POST, PATCH, DELETE, OPTIONS" }
    static var exposedHeaders: String { "ETag, Link, Location, Idempotency-Replayed, Content-Disposition" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let origin = request.headers[.origin] else { return try await next(request, context) }
        let allowed = allowOrigin(for: origin, intake: Self.isIntake(request.uri.path))
        if request.method == .options, request.headers[.accessControlRequestMethod] != nil {
            var headers = HTTPFields()
            headers[.accessControlAllowMethods] = Self.allowedMethods
            headers[.accessControlAllowHeaders] = Self.allowedHeaders
            headers[.accessControlMaxAge] = "600"
            apply(allowed, to: &headers)
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        apply(allowed, to: &response.headers)
        response.headers[.accessControlExposeHeaders] = Self.exposedHeaders
        return response
    }

    /// The value of `Access-Control-Allow-Origin` for this origin, nil when it is not allowed.
    func allowOrigin(for origin: String, intake: Bool = false) -> String? {
        let origins = intake ? intakeOrigins : allowedOrigins
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }

    /// Whether a path is the reports' (intake and what follows it).
    static func isIntake(_ path: String) -> Bool { path == "/v1/reports" || path.hasPrefix("/v1/reports/") }

    private func apply(_ allowed: String?, to headers: inout HTTPFields) {
        if let allowed { headers[.accessControlAllowOrigin] = allowed }
        // The answer depends on the origin unless every origin gets the same one.
        if allowed != "*" { headers[values: .vary].append("Origin") }
    }
}
