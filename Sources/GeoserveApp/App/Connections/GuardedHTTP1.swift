import HummingbirdCore
import Logging
import NIOCore

extension HTTPServerBuilder {
    /// HTTP/1.1 as every geoserve listener serves it (the API's and the metrics port's): a
    /// `ConnectionGuardHandler` of its own on each connection, and bounded request heads.
    static func guardedHTTP1(limits: ConnectionLimits, maxContentLength: Int, logger: Logger) -> HTTPServerBuilder {
        .http1(configuration: .init(
            // An autoclosure: evaluated once per connection, so each gets a guard of its own.
            additionalChannelHandlers: [ConnectionGuardHandler(limits: limits, maxContentLength: maxContentLength, logger: logger)],
            // A backstop only: the guard's timeouts are the ones that act.
            idleTimeout: .seconds(300),
            // 16 KiB bounds one header and the URL, 32 KiB all of them: a bearer token and the
            // longest OGC query fit many times over.
            httpDecoderConfiguration: .init(maxHeaderFieldSize: 16 << 10, maxHeaderListSize: 32 << 10, maxHeaderFieldCount: 100)
        ))
    }
}
