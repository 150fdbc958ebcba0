import Foundation

/// Percent-encoding for query values in links.
enum URLQuery {
    static let allowed: CharacterSet = {
        var s = CharacterSet.alphanumerics
        s.insert(charactersIn: "-._~,:")
        return s
    }()

    static func escape(_ s: String) -> String { s.addingPercentEncoding(withAllowedCharacters: allowed) ?? s }
}
