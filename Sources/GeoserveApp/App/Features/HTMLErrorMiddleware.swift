import Hummingbird

/// The OGC resources' HTML form answers its refusals as a page too: a person who followed a link
/// to an area that is no longer in the layer, or mistyped a parameter, reads what went wrong and
/// where to go from there, not the API's JSON error document. JSON clients are answered as before.
struct HTMLErrorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let links: LinkBase

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError where ResponseFormat(requestedBy: request) == .html {
            return Self.page(error, base: links.url(for: request))
        } catch let refusal as any Refusal where ResponseFormat(requestedBy: request) == .html {
            return Self.page(APIError(refusal), base: links.url(for: request))
        }
    }

    static func page(_ error: APIError, base: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = FeaturesController.html
        headers[.cacheControl] = "no-store"
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        let html = FeaturePages.error(title: "\(error.status.code) \(error.status.reasonPhrase)", message: error.message, base: base)
        return Response(status: error.status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
