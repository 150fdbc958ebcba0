import Foundation
import Hummingbird
import NIOCore

extension Request {
    /// A JSON request body, read whole: refused with `415 unsupported_type` when declared as
    /// another type (a form post, a photo sent to the wrong route), and with `413 too_large`
    /// when it declares more than the limit, before a byte is read, or (without a declared
    /// length) turns out longer while it is read.
    /// A body sent without `Content-Type` is read as JSON: curl and many scripts omit it.
    func jsonBody(context: some RequestContext) async throws -> ByteBuffer {
        if let declared = headers[.contentType], !Self.isJSON(declared) {
            throw APIError.unsupportedType("send the body as application/json")
        }
        let limit = context.maxUploadSize
        if let length = headers[.contentLength], (Int(length) ?? .max) > limit {
            throw APIError.tooLarge(limit)
        }
        do { return try await body.collect(upTo: limit) } catch is NIOTooManyBytesError { throw APIError.tooLarge(limit) }
    }

    /// `application/json` or a `+json` type (`application/geo+json`), parameters aside.
    static func isJSON(_ contentType: String) -> Bool {
        // The two spellings nearly every client sends, without Foundation's string work.
        if contentType == "application/json" || contentType == "application/json; charset=utf-8" { return true }
        let base = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return base == "application/json" || (base.hasPrefix("application/") && base.hasSuffix("+json"))
    }
}
