import Synchronization

/// What a request's inner layers learn that the outer ones report: the account the bearer token
/// named. The context is a value handed inwards, so the outer middleware (the request log, the
/// metrics) would not see the account otherwise.
final class RequestNote: Sendable {
    private let accountID = Mutex<String?>(nil)

    var account: String? {
        get { accountID.withLock { $0 } }
        set { accountID.withLock { $0 = newValue } }
    }
}
