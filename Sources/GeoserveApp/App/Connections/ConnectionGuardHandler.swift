import Foundation
import HTTPTypes
import Logging
import NIOCore
import NIOHTTP1  // HTTPParserError
import NIOHTTPTypes  // HTTPRequestPart, HTTPResponsePart
import NIOHTTPTypesHTTP1  // HTTP1TypeConversionError

/// Guards each HTTP/1.1 connection against clients that are slow, stalled or malformed: what
/// Hummingbird leaves open.
///
/// - A request head must arrive within `headerTimeout` and a body at `bodyMinRate`; idle
///   keep-alive connections close after `keepAliveTimeout`. Hummingbird's one idle timeout
///   cannot tell a trickled head (an attack) from an idle browser connection, and never fires
///   while a body trickles in.
/// - A declared body over `maxContentLength` is answered 413 from the head alone.
/// - A response sent before its request's body was read (413, 401 before an upload) closes the
///   connection: Hummingbird would otherwise read the rest, a whole gigabyte if sent.
/// - Malformed requests, which never reach a route, get the API's JSON error shape instead of
///   Hummingbird's empty 400.
/// - At the end of a stop's drain, an idle connection is not closed at once: a proxy may have
///   sent a request on it an instant before, which would meet a reset (nginx then answers 502 to
///   any POST but a report). It gets `quiesceLinger` for such a request, which is answered with
///   `Connection: close`; then it closes.
///
/// Installed in `HTTP1Channel.Configuration.additionalChannelHandlers`, between
/// `HTTP1ToHTTPServerCodec` and Hummingbird's `HTTPConnectionStateHandler`, so it sees
/// `HTTPRequestPart`s and `HTTPResponsePart`s; one instance per connection, all on the
/// channel's event loop.
final class ConnectionGuardHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private enum Wait {
        case nothing  // a request is being handled, or we are closing
        case head(since: NIODeadline, partial: Bool, first: Bool)
        case body(since: NIODeadline, bytes: Int)
    }

    private let limits: ConnectionLimits
    private var logger: Logger
    private var wait: Wait = .nothing
    private var timer: Scheduled<Void>?
    /// When the pending timer fires.
    private var timerDeadline: NIODeadline?
    private var lingerTimer: Scheduled<Void>?
    private var headsRead = 0, endsRead = 0, responsesEnded = 0
    private var responseInProgress = false
    private var closeAfterResponse = false
    private var closing = false  // we answered/closed ourselves: drop inbound parts and app writes
    private var parserError: (any Error)?  // rewrite Hummingbird's empty 400 into JSON
    private var errorBody: ByteBuffer?
    private var discarded = 0  // bytes thrown away while closing
    /// The server's stop, held while the connection lingers for a request already on its way.
    private var quiesceHeld: Scheduled<Void>?
    /// How long an idle connection stays open once the server stops accepting: a request a proxy
    /// sent on it just before (in flight on loopback for well under a millisecond) is read in
    /// time, even on a machine busy enough to delay the read by hundreds of milliseconds. It
    /// lengthens a stop only while idle connections are open.
    static let quiesceLinger: TimeAmount = .seconds(1)

    /// A request declaring a larger body is refused with 413 before anything of it is read.
    private let maxContentLength: Int

    init(limits: ConnectionLimits, maxContentLength: Int, logger: Logger) {
        self.limits = limits
        self.maxContentLength = maxContentLength
        self.logger = logger
    }

    // MARK: lifecycle

    func handlerAdded(context: ChannelHandlerContext) {
        // No peer address in these lines: the log promises no client address (it would tie an
        // anonymous reporter to a report); a proxy's log is where a flood is traced.
        if context.channel.isActive { self.connectionStarted(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        // A connection accepted as the listener closed: its setup finished after the server had
        // stopped taking connections, so no one will serve it, and SwiftNIO traps ("Deinited
        // NIOAsyncWriter without calling finish()") when the last handler down the pipeline lets
        // go of its writer on this event. Closing it here instead finishes that writer first; the
        // client sees its connection closed before anything of it was read, as at any stop. (One
        // whose setup finished an instant before the close could still have been served; it is
        // closed too, which costs a client at most what arriving a moment later would have.)
        if let listener = context.channel.parent, !listener.isActive {
            self.closing = true
            self.logger.debug("closing a connection accepted as the listener closed")
            context.close(promise: nil)
            return
        }
        if case .nothing = self.wait, self.headsRead == 0, self.timer == nil { self.connectionStarted(context: context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.cancelTimers()
        self.lingerTimer?.cancel()
        self.quiesceHeld?.cancel()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.cancelTimers()
        self.lingerTimer?.cancel()
        self.quiesceHeld?.cancel()
    }

    /// The server stops: a connection with a request in progress hands the event on at once
    /// (Hummingbird closes it after the response); an idle one lingers first.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent, !self.closing, self.headsRead == self.responsesEnded, !self.responseInProgress,
              self.quiesceHeld == nil else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        self.quiesceHeld = context.eventLoop.assumeIsolated().scheduleTask(in: Self.quiesceLinger) {
            self.releaseQuiesce(context: context)
        }
    }

    private func releaseQuiesce(context: ChannelHandlerContext) {
        guard let held = self.quiesceHeld else { return }
        held.cancel()
        self.quiesceHeld = nil
        context.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent())
    }

    private func connectionStarted(context: ChannelHandlerContext) {
        self.wait = .head(since: .now(), partial: false, first: true)
        self.rearm(context: context)
    }

    // MARK: inbound

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = self.unwrapInboundIn(data)
        if self.closing {  // we already answered; discard whatever the client still sends, up to a point
            if case .body(let buffer) = part {
                self.discarded += buffer.readableBytes
                if self.discarded > self.limits.lingerMaxBytes { context.close(promise: nil) }
            }
            return
        }
        switch part {
        case .head(let head):
            self.headsRead += 1
            // A request that arrived while the connection lingered after a stop: answered, then closed.
            if self.quiesceHeld != nil { self.closeAfterResponse = true }
            self.wait = .body(since: .now(), bytes: 0)
            self.rearm(context: context)
            if let connection = head.headerFields[.connection],
                connection.split(separator: ",").contains(where: { $0.lowercased().filter { $0 != " " && $0 != "\t" } == "close" })
            {
                // Hummingbird would wait for the client to close, however long; close after answering.
                self.closeAfterResponse = true
            }
            if let value = head.headerFields[.contentLength] {
                let length = Int(value) ?? .max  // llhttp already rejected non-digits and duplicates
                if length > self.maxContentLength, self.headsRead - self.responsesEnded == 1, !self.responseInProgress {
                    self.logger.notice(
                        "refusing request: declared body too large",
                        // The method and the size only: a path holds ids and its query places.
                        metadata: ["method": "\(head.method)", "contentLength": .stringConvertible(length)]
                    )
                    // The head is not forwarded: Hummingbird never sees this request.
                    self.respondAndClose(
                        context: context,
                        status: .contentTooLarge,
                        code: "too_large",
                        message: "the request body may have at most \(self.maxContentLength) bytes"
                    )
                    return
                }
            }
        case .body(let buffer):
            if case .body(let since, let bytes) = self.wait {
                self.wait = .body(since: since, bytes: bytes + buffer.readableBytes)  // timer re-checks lazily
            }
        case .end:
            self.endsRead += 1
            self.wait = .nothing
            if self.responsesEnded == self.headsRead { self.waitForNextHead(context: context) } else { self.rearm(context: context) }
        }
        context.fireChannelRead(data)
        // Once Hummingbird has the request, it takes the stop too: it closes after the response.
        if case .head = part, self.quiesceHeld != nil { self.releaseQuiesce(context: context) }
    }

    /// Fires for every socket read, even when the decoder produced no part yet: this is how a
    /// trickled head is told apart from an idle keep-alive connection.
    func channelReadComplete(context: ChannelHandlerContext) {
        if case .head(let since, false, let first) = self.wait {
            self.wait = .head(since: first ? since : .now(), partial: true, first: first)
            self.rearm(context: context)
        }
        context.fireChannelReadComplete()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        var error = error
        if error is HTTP1TypeConversionError {
            error = HTTPParserError.invalidMethod  // so that Hummingbird answers 400 instead of just closing
        }
        if error is HTTPParserError, !self.closing {
            self.wait = .nothing
            self.cancelTimers()
            if !self.responseInProgress {
                self.parserError = error
                self.logger.notice("malformed request", metadata: ["error": "\(error)"])
            }
        }
        context.fireErrorCaught(error)
    }

    // MARK: outbound

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if self.closing {
            promise?.fail(ChannelError.ioOnClosedChannel)
            return
        }
        switch self.unwrapOutboundIn(data) {
        case .head(var response):
            if response.status.kind == .informational { break }
            self.responseInProgress = true
            if let error = self.parserError, response.status == .badRequest {
                // Hummingbird's own answer to an HTTPParserError: made JSON, like every other error.
                self.parserError = nil
                let (status, code, message) = Self.describe(error)
                let body = ByteBuffer(bytes: APIError(status: status, code: code, message: message).json)
                response.status = status
                response.headerFields[.contentType] = "application/json; charset=utf-8"
                response.headerFields[.contentLength] = String(body.readableBytes)
                self.errorBody = body
                self.closeAfterResponse = true
            }
            if self.endsRead <= self.responsesEnded {
                // Answering a request whose body has not been read to its end (413, 401 before the
                // upload): Hummingbird would read and discard the rest. Close instead.
                self.closeAfterResponse = true
            }
            if self.closeAfterResponse { response.headerFields[.connection] = "close" }
            context.write(self.wrapOutboundOut(.head(response)), promise: promise)
            return
        case .body:
            break
        case .end:
            if let body = self.errorBody {
                self.errorBody = nil
                context.write(self.wrapOutboundOut(.body(body)), promise: nil)
            }
            self.responseInProgress = false
            self.responsesEnded += 1
            if self.closeAfterResponse {
                self.closing = true
                self.wait = .nothing
                self.cancelTimers()
                let done = promise ?? context.eventLoop.makePromise()
                context.writeAndFlush(data, promise: done)
                done.futureResult.assumeIsolated().whenComplete { _ in self.lingeringClose(context: context) }
                return
            }
            if self.responsesEnded == self.headsRead, self.endsRead == self.headsRead {
                self.waitForNextHead(context: context)
            }
        }
        context.write(data, promise: promise)
    }

    // MARK: helpers

    private func waitForNextHead(context: ChannelHandlerContext) {
        self.wait = .head(since: .now(), partial: false, first: false)
        self.rearm(context: context)
    }

    private func deadline() -> NIODeadline? {
        switch self.wait {
        case .nothing:
            return nil
        case .head(let since, let partial, let first):
            return since + (partial || first ? self.limits.headerTimeout : self.limits.keepAliveTimeout)
        case .body(let since, let bytes):
            let grace = self.limits.bodyMinRate > 0 ? TimeAmount.nanoseconds(Int64(bytes) * 1_000_000_000 / Int64(self.limits.bodyMinRate)) : .zero
            return since + self.limits.bodyTimeout + grace
        }
    }

    /// Makes sure a timer fires no later than the current deadline. Lazy on purpose: a timer
    /// already due earlier is kept (when it fires it finds the deadline moved and re-arms), so a
    /// keep-alive connection costs about one timer per timeout period, not three per request
    /// (scheduling and cancelling per request cost cached tiles 15 % of their rate).
    private func rearm(context: ChannelHandlerContext) {
        guard let deadline = self.deadline() else { return }
        if let pending = self.timerDeadline, pending <= deadline { return }
        self.timer?.cancel()
        self.timerDeadline = deadline
        self.timer = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) {
            self.timerFired(context: context)
        }
    }

    private func timerFired(context: ChannelHandlerContext) {
        self.timer = nil
        self.timerDeadline = nil
        guard !self.closing, let deadline = self.deadline() else { return }
        if NIODeadline.now() < deadline {  // the body deadline moved on as bytes arrived
            self.rearm(context: context)
            return
        }
        switch self.wait {
        case .nothing:
            return
        case .head(_, let partial, let first):
            if partial {
                self.logger.notice("closing connection: request head not complete in time", metadata: ["timeout_seconds": .stringConvertible(self.limits.headerTimeout.nanoseconds / 1_000_000_000)])
            } else {
                self.logger.debug("closing idle connection", metadata: ["firstRequest": .stringConvertible(first)])
            }
            self.closing = true
            self.wait = .nothing
            context.close(promise: nil)
        case .body(let since, let bytes):
            let elapsed = NIODeadline.now() - since
            self.logger.notice(
                "closing connection: request body too slow",
                metadata: ["bytes": .stringConvertible(bytes), "seconds": .stringConvertible(elapsed.nanoseconds / 1_000_000_000)]
            )
            if !self.responseInProgress, self.headsRead - self.responsesEnded == 1 {
                self.respondAndClose(context: context, status: .requestTimeout, code: "request_timeout",
                                     message: "the request body did not arrive in time")
            } else {
                self.closing = true
                context.close(promise: nil)
            }
        }
    }

    /// Writes a JSON error response from the handler itself (Hummingbird is not involved), then
    /// closes the connection after a linger.
    private func respondAndClose(context: ChannelHandlerContext, status: HTTPResponse.Status, code: String, message: String) {
        self.closing = true
        self.wait = .nothing
        self.cancelTimers()
        let body = ByteBuffer(bytes: APIError(status: status, code: code, message: message).json)
        let head = HTTPResponse(status: status, headerFields: [
            .contentType: "application/json; charset=utf-8",
            .contentLength: String(body.readableBytes),
            .connection: "close",
        ])
        context.write(self.wrapOutboundOut(.head(head)), promise: nil)
        context.write(self.wrapOutboundOut(.body(body)), promise: nil)
        context.writeAndFlush(self.wrapOutboundOut(.end(nil))).assumeIsolated().whenComplete { _ in
            self.lingeringClose(context: context)
        }
    }

    /// Half-close (FIN after the response), keep reading and discarding for `lingerTime`, then close.
    /// Closing at once with unread input makes the kernel send a RST, which can destroy the response
    /// before the client has read it.
    private func lingeringClose(context: ChannelHandlerContext) {
        guard context.channel.isActive else { return }
        context.close(mode: .output, promise: nil)
        self.lingerTimer = context.eventLoop.assumeIsolated().scheduleTask(in: self.limits.lingerTime) {
            context.close(promise: nil)
        }
    }

    private func cancelTimers() {
        self.timer?.cancel()
        self.timer = nil
        self.timerDeadline = nil
    }

    private static func describe(_ error: any Error) -> (HTTPResponse.Status, String, String) {
        switch error as? HTTPParserError {
        case .headerOverflow?:
            return (.requestHeaderFieldsTooLarge, "header_too_large", "the request line or headers are too large")
        case .invalidEOFState?:
            return (.badRequest, "bad_request", "the request ended early")
        case .some(let parserError):
            return (.badRequest, "bad_request", "malformed HTTP request (\(parserError.debugDescription))")
        case nil:
            return (.badRequest, "bad_request", "malformed HTTP request")
        }
    }
}

@available(*, unavailable)
extension ConnectionGuardHandler: Sendable {}
