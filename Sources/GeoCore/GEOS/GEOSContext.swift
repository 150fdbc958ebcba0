import CGEOS
import Synchronization

/// `GEOS_init_r` touches process-wide state without a lock (libgeos/geos#1311); every context in
/// this process is created through this gate.
private let contextCreation = Mutex<Void>(())

/// An error GEOS reported, with the message its error handler received.
public struct GEOSError: Error, Equatable, Sendable, CustomStringConvertible {
    public let operation: String
    public let message: String
    public var description: String { "GEOS \(operation) failed: \(message)" }
}

/// Receives GEOS error messages for one context. Owned by the context through an `Unmanaged`
/// reference that the context releases in `deinit`.
private final class GEOSMessageBox {
    var last: String?
}

/// One GEOS context handle (the reentrant `_r` API).
///
/// Not `Sendable`: GEOS contexts must not be used by two threads at once. Each worker owns its
/// own context, and every geometry made with a context keeps that context alive.
public final class GEOSContext {
    let handle: GEOSContextHandle_t
    private let messages: Unmanaged<GEOSMessageBox>

    /// Creates a context with an error handler that records the last message.
    public init() {
        // GEOS_init_r returns a new handle, or NULL only when out of memory.
        let handle = contextCreation.withLock { _ in GEOS_init_r() }
        guard let handle else { fatalError("GEOS_init_r returned NULL (out of memory)") }
        self.handle = handle
        self.messages = Unmanaged.passRetained(GEOSMessageBox())
        let handler: GEOSMessageHandler_r = { message, userdata in
            guard let message, let userdata else { return }
            Unmanaged<GEOSMessageBox>.fromOpaque(userdata).takeUnretainedValue().last = String(cString: message)
        }
        _ = GEOSContext_setErrorMessageHandler_r(handle, handler, messages.toOpaque())
    }

    deinit {
        GEOS_finish_r(handle)
        messages.release()
    }

    /// The error for a failed call, carrying GEOS's last message and clearing it.
    func error(_ operation: String) -> GEOSError {
        let box = messages.takeUnretainedValue()
        defer { box.last = nil }
        return GEOSError(operation: operation, message: box.last ?? "no message")
    }
}
