import Foundation
import Synchronization

/// Work started on a thread of its own, its result waited for where it is needed: an import
/// digests its file while the database stores the rows, instead of before.
public final class Background<Value: Sendable>: Sendable {
    private let result = Mutex<Value?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts `work` at once.
    public init(_ work: @escaping @Sendable () -> Value) {
        let thread = Thread { [self] in
            let value = work()
            result.withLock { $0 = value }
            done.signal()
        }
        thread.start()
    }

    /// The result, waiting for the work to end if it has not.
    public var value: Value {
        done.wait()
        done.signal()  // for the next reader
        return result.withLock { $0! }
    }
}
