import Foundation
import Support

/// A page boundary: after a feature (next page) or before one (previous page), by area id, so
/// pages do not drift when areas are added or removed between requests.
enum PageCursor: Hashable, Sendable {
    case after(String)
    case before(String)

    init?(token: String) {
        guard token.count > 2, let data = Data(base64URLEncoded: String(token.dropFirst(2))) else { return nil }
        // Any id works as a boundary (pages are by id order), so bytes that are not UTF-8 are read leniently.
        let id = String(decoding: data, as: UTF8.self)
        switch token.prefix(2) {
        case "a.": self = .after(id)
        case "b.": self = .before(id)
        default: return nil
        }
    }

    var token: String {
        switch self {
        case .after(let id): return "a." + Data(id.utf8).base64URLEncoded
        case .before(let id): return "b." + Data(id.utf8).base64URLEncoded
        }
    }
}
