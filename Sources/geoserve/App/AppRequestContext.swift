import Hummingbird
import Storage

/// Per-request state: who is calling, once the bearer token has been checked.
struct AppRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The authenticated account, nil for anonymous requests.
    var account: StoredAccount?

    init(source: Source) {
        coreContext = .init(source: source)
        account = nil
    }

    /// JSON bodies are small: reports, logins, transitions. Uploads stream separately.
    var maxUploadSize: Int { 256 * 1024 }
}
