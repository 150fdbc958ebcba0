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

    /// Whether the request's `If-None-Match` names this ETag (or `*`).
    static func matches(_ request: Request, etag: String) -> Bool {
        guard let header = request.headers[.ifNoneMatch] else { return false }
        return header.split(separator: ",").contains { tag in
            let t = tag.trimmingCharacters(in: .whitespaces)
            return t == "*" || t == etag || t == "W/" + etag
        }
    }

    /// The response for a body with its validator: 304 without a body when the client has it.
    static func response(_ request: Request, body: ByteBuffer, contentType: String, etag: String, cacheControl: String) -> Response {
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = cacheControl
        headers[.vary] = "Accept, Authorization"
        if matches(request, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentType] = contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }
}
