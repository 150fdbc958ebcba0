import Hummingbird
import Storage

/// The limits on writes that grow the store and the disk (report intake, uploads): per client
/// address for callers without an account, since anonymous writes are the one thing anyone can
/// do, and per account for the rest, so one stolen or scripted token cannot flood the queue.
struct IntakeRateLimit: Sendable {
    /// Anonymous reports and uploads, one token each, per client address.
    let requests: RateLimiter
    /// Bytes of anonymous uploads, per client address.
    let uploadBytes: RateLimiter
    /// Reports and uploads per signed-in account.
    let accounts: RateLimiter
    let addresses: ClientAddress
    /// The bits of an IPv6 address that name one client's budget (`AddressBudgetKey`).
    var ipv6Prefix = 64
    /// Anonymous reports pending at once, for all addresses together.
    var pending = PendingAnonymousBound(limit: 0)

    /// The key of the caller's budget: its address, an IPv6 one by its prefix.
    func address(_ request: Request, _ context: AppRequestContext) -> String {
        AddressBudgetKey.of(addresses.address(of: request, peer: context.remoteAddress), ipv6Prefix: ipv6Prefix)
    }

    /// Throws `429 rate_limited` with `Retry-After` when the caller has used its budget: an
    /// account its requests, an anonymous caller's address its requests (and, for uploads, its
    /// `bytes`).
    func admit(_ request: Request, _ context: AppRequestContext, bytes: Int? = nil) throws {
        if let account = context.account {
            if let wait = accounts.take(account.id) {
                throw Self.refusal("too many reports and uploads from this account", wait: wait)
            }
            return
        }
        // Checked first: the address is formatted only when a limit is on.
        guard requests.isEnabled || (bytes != nil && uploadBytes.isEnabled) else { return }
        let address = address(request, context)
        if let wait = requests.take(address) {
            throw Self.refusal("too many anonymous submissions from this address", wait: wait)
        }
        if let bytes, let wait = uploadBytes.take(address, cost: Double(bytes)) {
            throw Self.refusal("too many bytes uploaded anonymously from this address", wait: wait)
        }
    }

    /// Corrects an upload's charge from what `admit` took to the bytes that arrived.
    func settle(_ request: Request, _ context: AppRequestContext, charged: Int, actual: Int) {
        guard context.account == nil, uploadBytes.isEnabled else { return }
        uploadBytes.charge(address(request, context), cost: Double(actual - charged))
    }

    private static func refusal(_ what: String, wait: Int) -> APIError {
        .rateLimited("\(what); try again in \(wait) s", retryAfter: wait)
    }
}
