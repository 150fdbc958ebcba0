import Foundation

/// The key a client address's budget is kept under: an IPv4 address as it is, an IPv6 address by
/// its first `prefix` bits. One IPv6 customer is handed a whole /64 (or /56, /48): budgets per
/// full address gave one such network as many budgets as it has addresses, 2^64 of them.
/// IPv4-mapped IPv6 addresses (`::ffff:192.0.2.1`) count as the IPv4 address they carry.
enum AddressBudgetKey {
    static func of(_ address: String, ipv6Prefix: Int) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, address, &v4) == 1 { return address }
        var v6 = in6_addr()
        // A zone (`fe80::1%eth0`) names an interface, not another client.
        let bare = address.split(separator: "%", maxSplits: 1).first.map(String.init) ?? address
        guard inet_pton(AF_INET6, bare, &v6) == 1 else { return address }
        var bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xff, bytes[11] == 0xff {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        let bits = min(128, max(0, ipv6Prefix))
        for i in 0..<16 {
            let kept = min(8, max(0, bits - i * 8))
            bytes[i] &= kept == 8 ? 0xff : UInt8(truncatingIfNeeded: 0xff << (8 - kept))
        }
        return bytes.map { String(format: "%02x", $0) }.joined() + "/\(bits)"
    }
}
