import DomainKernel
import Storage
import Synchronization

/// A resolver made on its first use, once.
final class LazyResolver: Sendable {
    private let make: @Sendable () -> AreaResolver
    private let made = Mutex<AreaResolver?>(nil)

    init(_ make: @escaping @Sendable () -> AreaResolver) {
        self.make = make
    }

    func resolve(_ position: ReportPosition) -> String? {
        let resolver = made.withLock { made in
            if let made { return made }
            let fresh = make()
            made = fresh
            return fresh
        }
        return resolver(position)
    }
}
