import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Loopback, link-local and unspecified addresses, and the clouds' metadata services: where a
/// webhook must not go unless the operator says so. Private ranges (10/8, 192.168/16, fc00::/7)
/// stay allowed, but for the metadata addresses inside them: a campus's receivers usually live
/// there.
enum LocalAddress {
    /// A host name or address literal that is local by itself (`localhost`, `127.0.0.5`,
    /// `[::1]`, `169.254.169.254`, `fe80::1`).
    static func isLocal(host: String) -> Bool {
        let h = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if h == "localhost" || h.hasSuffix(".localhost") { return true }
        return isLocal(literal: h) ?? false
    }

    /// Whether an address literal is local; nil when `text` is not an address.
    static func isLocal(literal text: String) -> Bool? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return isLocal(v4: UInt32(bigEndian: v4.s_addr)) }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let b = withUnsafeBytes(of: v6) { Array($0) }
        if b[0..<15].allSatisfy({ $0 == 0 }) && (b[15] == 0 || b[15] == 1) { return true }  // :: and ::1
        if b == metadataV6 { return true }                                                  // fd00:ec2::254 (AWS)
        if b[0] == 0xfe && b[1] & 0xc0 == 0x80 { return true }                             // fe80::/10
        if b[0..<10].allSatisfy({ $0 == 0 }) && b[10] == 0xff && b[11] == 0xff {           // ::ffff:a.b.c.d
            return isLocal(v4: UInt32(b[12]) << 24 | UInt32(b[13]) << 16 | UInt32(b[14]) << 8 | UInt32(b[15]))
        }
        return false
    }

    /// 0.0.0.0/8, 127.0.0.0/8 and 169.254.0.0/16 (with 169.254.169.254, most clouds' metadata
    /// service), and 100.100.100.200 (Alibaba Cloud's).
    static func isLocal(v4 a: UInt32) -> Bool {
        a >> 24 == 0 || a >> 24 == 127 || a >> 16 == 0xa9fe || a == 0x6464_64c8
    }

    /// fd00:ec2::254, the IPv6 address of AWS's instance metadata service.
    private static let metadataV6: [UInt8] = [0xfd, 0x00, 0x0e, 0xc2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02, 0x54]

    /// Whether `host` or any address it resolves to is local (see `resolve`); a name that does
    /// not resolve is not local, and its delivery fails as unresolvable.
    static func resolvesLocal(host: String) async -> Bool {
        await resolve(host: host).contains { isLocal(literal: $0) == true }
    }

    /// The numeric addresses `host` stands for: itself when it is an address literal, else what
    /// the resolver answers, in its order; empty when nothing resolves. A delivery checks these
    /// and connects to one of them (`WebhookClient`), so a name cannot answer the check with one
    /// address and the connection with another (DNS rebinding).
    static func resolve(host: String) async -> [String] {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if isLocal(literal: bare) != nil { return [bare] }
        return await withCheckedContinuation { done in
            // getaddrinfo blocks: off the cooperative pool.
            Thread.detachNewThread {
                var hints = addrinfo()
                hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
                var list: UnsafeMutablePointer<addrinfo>?
                guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return done.resume(returning: []) }
                defer { freeaddrinfo(first) }
                var found: [String] = []
                var node: UnsafeMutablePointer<addrinfo>? = first
                while let n = node {
                    var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                    if getnameinfo(n.pointee.ai_addr, n.pointee.ai_addrlen, &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 {
                        let address = String(decoding: text.prefix { $0 != 0 && $0 != CChar(UInt8(ascii: "%")) }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                        if !found.contains(address) { found.append(address) }
                    }
                    node = n.pointee.ai_next
                }
                done.resume(returning: found)
            }
        }
    }
}
