import Foundation
import Hummingbird
import Support

/// A JSON request body that takes exactly its declared members: one it does not know is refused
/// with `400 bad_request` naming it, instead of being ignored, so a misspelt field never loses
/// what the client meant — as the OpenAPI document's `additionalProperties: false` says.
protocol StrictRequestBody: Decodable {
    /// The members the body takes.
    static var members: Set<String> { get }
}

extension Request {
    /// Reads a strict body: unknown members refused, then decoded as usual.
    func decodeStrict<T: StrictRequestBody>(as type: T.Type, context: some RequestContext) async throws -> T {
        let bytes = Array(try await jsonBody(context: context).readableBytesView)
        let parsed: JSONValue?
        do { parsed = try JSONParser.parse(bytes) } catch {
            // A member named twice means one thing to one reader and another to the next: refused
            // here, before JSONDecoder would pick one. Other syntax errors get JSONDecoder's words.
            if let twice = error.duplicateMember { throw APIError.duplicateMember(twice) }
            parsed = nil
        }
        if case .object(let members)? = parsed, let unknown = members.keys.filter({ !T.members.contains($0) }).min() {
            throw APIError.unknownMember(unknown)
        }
        return try JSONDecoder().decode(T.self, from: Data(bytes))
    }
}
