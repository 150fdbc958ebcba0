import Hummingbird

/// The limits on requests without an account that write (report intake, uploads), per client
/// address: anonymous writes are the one thing anyone can do to grow the store and the disk.
struct AnonymousRateLimit: Sendable {
    /// Anonymous reports and uploads, one token each.
    let requests: RateLimiter
    /// Bytes of anonymous uploads.
    let uploadBytes: RateLimiter
    let addresses: ClientAddress

    func address(_ request: Request, _ context: AppRequestContext) -> String {
        addresses.address(of: request, peer: context.remoteAddress)
    }

    /// Throws `429 rate_limited` with `Retry-After` when an anonymous caller's address has used
    /// its budget of requests (and, for uploads, of `bytes`); callers with an account pass.
    func admit(_ request: Request, _ context: AppRequestContext, bytes: Int? = nil) throws {
        // Checked first: the address is formatted only when a limit is on.
        guard context.account == nil, requests.isEnabled || (bytes != nil && uploadBytes.isEnabled) else { return }
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
