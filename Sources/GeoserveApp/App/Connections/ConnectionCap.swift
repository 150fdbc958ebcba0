import Glibc
import HummingbirdCore
import Logging

/// The most connections open at once. At the cap the server stops accepting, so further clients
/// wait in the listen backlog instead of taking file descriptors the store and the attachments
/// need; with the timeouts of `ConnectionLimits`, slots held by stalled clients come free.
struct ConnectionCap: AvailableConnectionsDelegate {
    let maximum: Int
    let logger: Logger
    private var open = 0

    init(maximum: Int, logger: Logger) {
        self.maximum = maximum
        self.logger = logger
    }

    mutating func connectionOpened() {
        open += 1
        if open == maximum {
            logger.warning("connection limit reached; new connections wait until one closes", metadata: ["max": .stringConvertible(maximum)])
        }
    }

    mutating func connectionClosed() { open -= 1 }

    func isAcceptingNewConnections() -> Bool { open < maximum }

    /// A default under the process's file limit: room for the store, attachments and logs
    /// beside the sockets (a limit of 256 leaves 192 connections).
    static func defaultMaximum() -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        let soft = Int(clamping: min(limit.rlim_cur, 65_536))
        return max(16, min(4_096, soft - 64))
    }
}
