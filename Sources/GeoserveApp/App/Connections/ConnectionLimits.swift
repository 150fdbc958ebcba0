import NIOCore

/// What one connection may take: time for a request's head and body, idle time between
/// requests, the body size a request may declare. Enforced by `ConnectionGuardHandler`.
package struct ConnectionLimits: Sendable {
    /// A complete request head must arrive within this time: counted from the connection's start
    /// for its first request, from the head's first byte for later ones.
    package var headerTimeout: TimeAmount = .seconds(10)
    /// An idle keep-alive connection (no byte since the last response) is closed after this.
    package var keepAliveTimeout: TimeAmount = .seconds(60)
    /// A body must be complete `bodyTimeout` after its head, plus one second per `bodyMinRate`
    /// bytes received (a 64 MiB upload at 16 KiB/s or faster always fits; one trickled a byte a
    /// second never does).
    package var bodyTimeout: TimeAmount = .seconds(20)
    var bodyMinRate = 16 * 1024
    /// After a response that ends the connection: shut output, go on discarding input this long
    /// (closing with unread input sends a RST that can destroy the response before the client
    /// reads it), then close.
    var lingerTime: TimeAmount = .seconds(2)
    /// ...but close at once after discarding this many bytes.
    var lingerMaxBytes = 256 * 1024
}
