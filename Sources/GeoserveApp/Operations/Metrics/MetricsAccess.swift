import Foundation
import NIOCore

/// Which client addresses may read `/metrics` without a token: single addresses and CIDR ranges,
/// IPv4 and IPv6. Behind a trusted proxy the client is the address the proxy forwarded, so a
/// reverse proxy on loopback does not open the metrics to the whole internet.
package struct MetricsAccess: Sendable, CustomStringConvertible {
    struct Range: Sendable, Equatable {
        let bytes: [UInt8]
        let prefix: Int

        func contains(_ address: [UInt8]) -> Bool {
            guard address.count == bytes.count else { return false }
            var left = prefix
            for (a, b) in zip(address, bytes) where left > 0 {
                let bits = min(8, left)
                let mask = UInt8(truncatingIfNeeded: 0xFF << (8 - bits))
                if a & mask != b & mask { return false }
                left -= bits
            }
            return true
        }
    }

    let ranges: [Range]
    let text: [String]

    static let loopback = try! MetricsAccess(parsing: "127.0.0.1,::1")

    /// Parses `--metrics-allow`: comma-separated addresses or CIDR ranges; `none` for nobody.
    package init(parsing list: String) throws {
        let items = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        var ranges: [Range] = []
        var text: [String] = []
        for item in items where item != "none" {
            let parts = item.split(separator: "/", maxSplits: 1).map(String.init)
            guard let bytes = Self.bytes(of: parts[0]) else { throw MetricsAccessError(item: item, why: "is not an IP address") }
            var prefix = bytes.count * 8
            if parts.count == 2 {
                guard let p = Int(parts[1]), (0...bytes.count * 8).contains(p) else {
                    throw MetricsAccessError(item: item, why: "has a prefix length outside 0...\(bytes.count * 8)")
                }
                prefix = p
            }
            ranges.append(Range(bytes: bytes, prefix: prefix))
            text.append(item)
        }
        self.ranges = ranges
        self.text = text
    }

    func allows(_ address: String) -> Bool {
        var candidate = address
        // An IPv4 client on a dual-stack socket arrives as ::ffff:a.b.c.d.
        if candidate.lowercased().hasPrefix("::ffff:"), candidate.contains(".") { candidate = String(candidate.dropFirst(7)) }
        guard let bytes = Self.bytes(of: candidate) else { return false }
        return ranges.contains { $0.contains(bytes) }
    }

    package var description: String { text.isEmpty ? "none" : text.joined(separator: ",") }

    static func bytes(of address: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, address, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }
}

package struct MetricsAccessError: Error, CustomStringConvertible {
    let item: String
    let why: String
    package var description: String { "--metrics-allow: \"\(item)\" \(why)" }
}
