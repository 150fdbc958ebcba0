import Dispatch
import Synchronization

/// Runs two independent pieces of work on two threads and returns both results: a layer's
/// start-up work that has no order between its parts (its index read back and checked, its
/// features encoded) takes the longer of the two instead of their sum.
public func bothAtOnce<A: Sendable, B: Sendable>(_ first: @Sendable () -> A, _ second: @Sendable () -> B) -> (A, B) {
    let results = Mutex<(A?, B?)>((nil, nil))
    DispatchQueue.concurrentPerform(iterations: 2) { k in
        if k == 0 {
            let a = first()
            results.withLock { $0.0 = a }
        } else {
            let b = second()
            results.withLock { $0.1 = b }
        }
    }
    let (a, b) = results.withLock { $0 }
    return (a!, b!)
}
