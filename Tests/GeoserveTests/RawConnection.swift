import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to a live server, for what HTTP clients will not do: trickle a head,
/// stall mid-body, declare a body they never send, send malformed framing.
final class RawConnection {
    let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        let status = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard status == 0 else {
            // Not closed here: the class's deinit runs for a failed init too, and a second close
            // would close whatever descriptor another thread had been given the number of since.
            throw LiveServerError(description: "connect failed: errno \(errno)")
        }
        var ignore: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &ignore, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Whether nothing listens on `port` any more: a connect answered by a reset within 50 ms. A
    /// blocking connect is not used for this: a SYN the kernel drops while a listener closes is
    /// retried after a second and more, far longer than what the caller waits for.
    static func refuses(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { ProcessLaunch.lock.withLock { _ = close(fd) } }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = in_port_t(UInt16(port).bigEndian)
        let status = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        if status == 0 { return false }
        if errno == ECONNREFUSED { return true }
        guard errno == EINPROGRESS else { return false }
        var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&p, 1, 50) > 0 else { return false }
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        return error == ECONNREFUSED
    }

    // Closed under the launch lock: Foundation's Process closes the descriptors it finds open in
    // the child, and one closed by another thread in between failed a launch with EBADF.
    deinit { ProcessLaunch.lock.withLock { _ = close(fd) } }

    /// Sends bytes; false once the server has closed or reset the connection.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            sent += n
        }
        return true
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Reads until the server closes the connection or `timeout` passes; returns what came and
    /// whether the connection was closed.
    func readAll(timeout: Duration) -> (bytes: [UInt8], closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < deadline {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = deadline - ContinuousClock.now
            let ms = Int32(max(1, left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
            guard poll(&p, 1, ms) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return (out, true) }
            out += buffer[0..<n]
        }
        return (out, false)
    }

    /// Reads one response (head and a Content-Length body), leaving the connection open.
    func readResponse(timeout: Duration) -> (head: String, body: String)? {
        let deadline = ContinuousClock.now + timeout
        var data: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while ContinuousClock.now < deadline {
            let text = String(decoding: data, as: UTF8.self)
            if let end = text.range(of: "\r\n\r\n") {
                let head = String(text[..<end.lowerBound])
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                let body = Array(text[end.upperBound...].utf8)
                if body.count >= length { return (head, String(decoding: body.prefix(length), as: UTF8.self)) }
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 50) > 0 else { continue }
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { return nil }
            data += buffer[0..<n]
        }
        return nil
    }
}

/// Held while a test launches a process and while a test socket is closed, so that no descriptor
/// disappears while a launch walks the open ones.
enum ProcessLaunch {
    static let lock = NSLock()
}
