import Foundation
import Logging
import NIOCore
import NIOHTTPTypes
import NIOPosix
import Testing
@testable import GeoserveApp

/// A connection the listener accepts just as a stop closes it: SwiftNIO finishes setting it up
/// after the server has stopped taking connections, drops the wrapper no one will serve, and
/// traps when the connection becomes active ("Deinited NIOAsyncWriter without calling finish()").
/// It took a server down at the end of its drain, one stop in 25 on a busy machine. Here the
/// race is made certain: the connection's setup waits until the listener has closed.
@Suite("a connection accepted as the listener closes")
struct ListenerCloseRaceTests {
    @Test("is closed by the connection guard, and the process does not trap")
    func acceptedAsListenerCloses() async throws {
        // One event loop: the listener's close and the end of the connection's setup then run in
        // the order the race needs, every time.
        let loop = MultiThreadedEventLoopGroup.singleton.next()
        let accepted = loop.makePromise(of: Void.self)
        let listenerClosed = loop.makePromise(of: Void.self)
        let childClosed = loop.makePromise(of: Void.self)
        let listener = try await ServerBootstrap(group: loop)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { child in
                accepted.succeed()
                // Set up as Hummingbird does, but only once the listener is gone.
                return listenerClosed.futureResult.hop(to: child.eventLoop).flatMapThrowing {
                    child.closeFuture.cascade(to: childClosed)
                    try child.pipeline.syncOperations.addHandler(
                        ConnectionGuardHandler(limits: ConnectionLimits(), maxContentLength: 1 << 20, logger: Logger(label: "test")))
                    return try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                        wrappingChannelSynchronously: child, configuration: .init(isOutboundHalfClosureEnabled: true))
                }
            }
        let port = try #require(listener.channel.localAddress?.port)
        let client = try RawConnection(port: port)
        try await accepted.futureResult.get()
        // Closed, and in the same turn of the loop (before the listener's handlers are taken
        // away) the connection's setup completes, as when it finished an instant after the close.
        let channel = listener.channel
        try await channel.eventLoop.submit {
            channel.close(promise: nil)
            listenerClosed.succeed()
        }.get()
        // The guard closes the connection when it becomes active; without it the process traps here.
        try await childClosed.futureResult.get()
        #expect(client.readAll(timeout: .seconds(5)).closed, "the client sees the connection closed")
    }
}
