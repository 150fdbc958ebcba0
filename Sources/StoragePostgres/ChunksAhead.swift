import Foundation
import Synchronization

/// COPY data made on a thread of its own, a few chunks ahead of the connection that sends them:
/// while PostgreSQL parses and stores one chunk, the next is made (an import's rows read,
/// checked, placed and encoded). The maker's state after the last chunk, or the error it threw,
/// is the `result`.
final class ChunksAhead<State: Sendable>: Sendable {
    private let ready = Mutex<[[UInt8]?]>([])
    private let finished = Mutex<Result<State, any Error>?>(nil)
    private let filled = DispatchSemaphore(value: 0)
    private let free: DispatchSemaphore
    private let stopped = Atomic<Bool>(false)

    /// Starts making chunks from `state` with `make`, which returns nil after the last; at most
    /// `ahead` chunks wait unsent. When `make` throws, the chunks end there.
    init(_ state: State, ahead: Int = 3, _ make: @escaping @Sendable (inout State) throws -> [UInt8]?) {
        // Made at zero and raised: libdispatch stops the process when a semaphore is freed
        // below the value it was made with, as this one is when a COPY stops early.
        free = DispatchSemaphore(value: 0)
        for _ in 0..<ahead { free.signal() }
        let thread = Thread { [self] in
            var state = state
            while !stopped.load(ordering: .relaxed) {
                free.wait()
                if stopped.load(ordering: .relaxed) { return }
                let chunk: [UInt8]?
                do {
                    chunk = try make(&state)
                } catch {
                    finished.withLock { $0 = .failure(error) }
                    chunk = nil
                }
                if chunk == nil { finished.withLock { $0 = $0 ?? .success(state) } }
                ready.withLock { $0.append(chunk) }
                filled.signal()
                if chunk == nil { return }
            }
        }
        thread.start()
    }

    /// The next chunk, nil after the last (then not to be asked again); waits while it is made.
    func next() -> [UInt8]? {
        filled.wait()
        free.signal()
        return ready.withLock { $0.removeFirst() }
    }

    /// The maker's state after the last chunk, or the error it threw; once `next` gave nil.
    func result() throws -> State {
        try finished.withLock { $0 }!.get()
    }

    /// Stops making chunks (the COPY failed): the thread ends before its next chunk. Harmless
    /// after the last chunk.
    func stop() {
        stopped.store(true, ordering: .relaxed)
        free.signal()
    }
}
