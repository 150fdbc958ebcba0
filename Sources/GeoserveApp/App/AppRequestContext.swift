import Hummingbird
import NIOCore
import Storage

/// Per-request state: who is calling, once the bearer token has been checked.
struct AppRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The authenticated account, nil for anonymous requests.
    var account: StoredAccount?
    /// The data version as of this request, set by `DataVersionMiddleware` from the watcher.
    var dataVersion: Int64
    /// The connection's peer (a proxy's address when behind one), nil in in-process tests.
    let remoteAddress: SocketAddress?
    /// Read by the request log and the metrics once the request is answered.
    let note = RequestNote()

    init(source: Source) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        account = nil
        dataVersion = 0
    }

    /// JSON bodies are small: reports, logins, transitions. Uploads stream separately.
    var maxUploadSize: Int { Self.maxJSONBodyBytes }

    /// The largest JSON body, so the largest report a submission writes: readiness probes for
    /// room for one.
    static let maxJSONBodyBytes = 256 * 1024
}
