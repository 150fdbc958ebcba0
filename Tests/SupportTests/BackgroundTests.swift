import Foundation
import Support
import Synchronization
import Testing

@Suite("work on a thread of its own")
struct BackgroundTests {
    @Test("the work starts at once, beside the caller; its value waits for it and reads the same every time")
    func value() {
        let gate = DispatchSemaphore(value: 0)
        let runs = Atomic<Int>(0)
        let work = Background { () -> Int in
            runs.add(1, ordering: .relaxed)
            gate.wait()  // held until the caller lets it end: it runs on a thread of its own
            return 42
        }
        // Started without being asked for its value.
        while runs.load(ordering: .relaxed) == 0 { usleep(1_000) }
        gate.signal()
        #expect(work.value == 42)
        #expect(work.value == 42)
        #expect(runs.load(ordering: .relaxed) == 1)
    }
}
