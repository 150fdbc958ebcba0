import Dispatch
import Foundation
import Synchronization

/// Where JSON log lines go: a buffer in memory, written to standard error in one `write(2)` per
/// batch — every 100 ms, at 64 KiB, and at once for a line at `warning` or above.
///
/// One write per request cost a quarter of the cached routes' throughput (tens of thousands of
/// requests a second on two cores, each paying a system call); batched, the log costs what
/// formatting its lines costs. Whole lines only are written, in order. What a crash loses is at
/// most the last 100 ms of `info` lines: warnings and errors are never held back.
package final class LogSink: Sendable {
    package static let standardError = LogSink(descriptor: STDERR_FILENO)

    private let descriptor: Int32
    private let pending = Mutex<[UInt8]>([])
    /// Held while a batch is written, so batches reach the file in the order they were taken.
    private let writing = Mutex<Void>(())
    private let interval: DispatchTimeInterval
    private static let ticks = DispatchQueue(label: "geoserve.log")

    static let flushBytes = 64 << 10

    init(descriptor: Int32, interval: DispatchTimeInterval = .milliseconds(100)) {
        self.descriptor = descriptor
        self.interval = interval
        scheduleTick()
    }

    /// Flushes every `interval` for as long as the sink exists.
    private func scheduleTick() {
        Self.ticks.asyncAfter(deadline: .now() + interval) { [weak self] in
            guard let self else { return }
            self.flush()
            self.scheduleTick()
        }
    }

    /// Queues one line (with its newline); `urgent` writes it, and all before it, now.
    func append(_ line: [UInt8], urgent: Bool) {
        let full = pending.withLock { buffer in
            buffer.append(contentsOf: line)
            return buffer.count >= Self.flushBytes
        }
        if urgent || full { flush() }
    }

    /// Writes what is queued.
    package func flush() {
        writing.withLock { _ in
            let batch = pending.withLock { buffer -> [UInt8] in
                defer { buffer.removeAll(keepingCapacity: true) }
                return buffer
            }
            guard !batch.isEmpty else { return }
            batch.withUnsafeBufferPointer { bytes in
                var offset = 0
                while offset < bytes.count {
                    let n = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                    if n > 0 { offset += n } else if n < 0, errno == EINTR { continue } else { return }
                }
            }
        }
    }
}
