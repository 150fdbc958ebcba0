/// A submission carried an idempotency key that an earlier, different request used. Answering
/// it with the earlier report would hand a stranger that report (and its receipt) and drop the
/// new one, so the store refuses it and stores nothing.
public struct IdempotencyKeyReused: Error, Hashable, Sendable {
    public init() {}
}
