import Crypto
import Foundation
import Hummingbird
import Support

/// Validators and freshness for cacheable responses.
enum Conditional {
    /// Public responses: shared caches may store them but must revalidate each time, so a
    /// dashboard sees a verification on its next request (the ETag changes with the data version).
    static let publicCaching = "public, no-cache"
    /// Responses that depend on who asks (pending counts for verifiers).
    static let privateCaching = "private, no-store"

    /// A strong ETag from the parts that determine a response's bytes.
    static func etag(_ parts: String...) -> String {
        let digest = SHA256.hash(data: Data(parts.joined(separator: "\u{1F}").utf8))
        return "\"" + digest.prefix(16).hexString + "\""
    }

    /// A strong ETag of a file's bytes.
    static func etag(bytes: some DataProtocol) -> String {
        "\"" + SHA256.hash(data: bytes).prefix(16).hexString + "\""
    }

    /// Whether the request's `If-None-Match` names this ETag (or `*`), plain or its gzip form's.
    static func matches(_ request: Request, etag: String) -> Bool {
        guard let header = request.headers[.ifNoneMatch] else { return false }
        let zipped = gzipETag(etag)
        return header.split(separator: ",").contains { tag in
            let t = tag.trimmingCharacters(in: .whitespaces)
            return t == "*" || t == etag || t == "W/" + etag || t == zipped || t == "W/" + zipped
        }
    }

    /// The ETag of a body's gzip form: a representation of its own (RFC 9110 8.8.3), told from the
    /// plain one by a suffix, so either revalidates without compressing again.
    static func gzipETag(_ etag: String) -> String {
        etag.hasSuffix("\"") ? String(etag.dropLast()) + "-gzip\"" : etag + "-gzip"
    }

    /// Whether a public body is worth compressing: text of at least a kilobyte (a smaller one gains
    /// less than gzip's 18-byte frame and a round of zlib costs).
    static func compressible(contentType: String, bytes: Int) -> Bool {
        bytes >= 1024 && (contentType.hasPrefix("text/") || contentType.contains("json"))
    }

    /// The response for a body with its validator: 304 without a body when the client has it.
    ///
    /// With `compressing`, a public text body goes gzip-compressed to a client that takes it, from
    /// the cache's compressed copy. Only public bodies: they hold no secret, so compression cannot
    /// leak one next to text an attacker chose (BREACH).
    static func response(_ request: Request, body: ByteBuffer, contentType: String, etag: String, cacheControl: String,
                         compressing cache: ResponseCache? = nil) -> Response {
        var headers = HTTPFields()
        var body = body
        var etag = etag
        headers[.vary] = "Accept, Authorization"
        if let cache, cacheControl == publicCaching, compressible(contentType: contentType, bytes: body.readableBytes) {
            headers[.vary] = "Accept, Authorization, Accept-Encoding"
            if (request.headers[.acceptEncoding] ?? "").contains("gzip"), let zipped = cache.gzip(body, etag: etag) {
                body = zipped
                etag = gzipETag(etag)
                headers[.contentEncoding] = "gzip"
            }
        }
        headers[.eTag] = etag
        headers[.cacheControl] = cacheControl
        if matches(request, etag: etag) {
            headers[.contentEncoding] = nil
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }
}
