import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// HTTP/1 lets a request name its host twice: in `Host`, and in an absolute-form target
/// (`GET http://evil.example/profiles HTTP/1.1`). RFC 9112 §3.2.2 says the target's host wins, and
/// proxies route by it, but the HTTP-types codec keeps only the target's path and the `Host`
/// header. This handler, just before that codec, makes the target's authority the `Host`, so
/// `HostCheckMiddleware` judges the name the request really used.
final class AbsoluteFormHostHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head(var head) = unwrapInboundIn(data), let authority = Self.authority(ofTarget: head.uri) {
            head.headers.replaceOrAdd(name: "Host", value: authority)
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
    }

    /// `evil.example:8080` of `http://evil.example:8080/path`; nil for the usual origin form
    /// (`/path`) and for `*`. A target with a scheme but no host keeps an empty authority, which
    /// no allowed host matches.
    static func authority(ofTarget target: String) -> String? {
        guard !target.hasPrefix("/"), target != "*" else { return nil }
        guard let schemeEnd = target.range(of: "://") else { return nil }
        let rest = target[schemeEnd.upperBound...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<end]
        // Credentials (`user@host`) are not part of the host.
        return String(authority.split(separator: "@", omittingEmptySubsequences: false).last ?? "")
    }
}

/// Hears the client close its side of the connection. Hummingbird lets a client half-close
/// (`allowRemoteHalfClosure`), so the connection stays open until the response is written; a
/// response that does not end by itself (an event stream) asks to hear of it with
/// `Channel.whenClientClosed`, and ends at once rather than at its next write.
final class ClientClosedHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    private var closed = false
    private var callbacks: [@Sendable () -> Void] = []

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if case .inputClosed = event as? ChannelEvent { fire() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fire()
        context.fireChannelInactive()
    }

    private func fire() {
        closed = true
        let callbacks = self.callbacks
        self.callbacks = []
        for callback in callbacks { callback() }
    }

    func whenClosed(_ callback: @escaping @Sendable () -> Void) {
        if closed { callback() } else { callbacks.append(callback) }
    }
}

extension Channel {
    /// Calls `callback` once the client has closed its side of the connection (or the whole
    /// connection closed). A channel without `ClientClosedHandler` (a test's) never calls it.
    public func whenClientClosed(_ callback: @escaping @Sendable () -> Void) {
        eventLoop.execute {
            (try? self.pipeline.syncOperations.handler(type: ClientClosedHandler.self))?.whenClosed(callback)
        }
    }
}

/// Hummingbird's HTTP/1 server, with the absolute-form target's host moved into `Host`, and the
/// transport's limits (`TransportLimits`): each request's time to arrive, a response's time to
/// be read, and the connections one address may hold.
public struct HostCheckedHTTP1Channel: ServerChildChannel {
    /// A connection: Hummingbird's HTTP/1 channel, or none for one refused (`connectionsPerAddress`).
    public struct Value: ServerChildChannelValue {
        public let channel: any Channel
        let http: HTTP1Channel.Value?
    }

    let inner: HTTP1Channel
    let limits: TransportLimits
    let addresses: ConnectionsPerAddress?

    init(inner: HTTP1Channel, limits: TransportLimits) {
        self.inner = inner
        self.limits = limits
        addresses = limits.connectionsPerAddress.map { ConnectionsPerAddress(limit: $0) }
    }

    public func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        if let addresses, let address = ConnectionsPerAddress.address(of: channel),
            !limits.uncountedAddresses.contains(address)
        {
            switch addresses.admit(address) {
            case .admitted:
                channel.closeFuture.whenComplete { _ in addresses.release(address) }
            case .refused(let first):
                if first {
                    logger.warning(
                        "A client address holds \(addresses.limit) connections: more are refused (503) until it closes some",
                        metadata: ["address": "\(address)"])
                }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(RefusedConnectionHandler())
                    return Value(channel: channel, http: nil)
                }
            }
        }
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let codec = try channel.pipeline.syncOperations.context(handlerType: HTTP1ToHTTPServerCodec.self)
            let connection = ConnectionGuard(limits: limits, logger: logger)
            let exchange = ExchangeTracker(connection: connection)
            connection.exchange = exchange
            try channel.pipeline.syncOperations.addHandler(exchange, position: .before(codec.handler))
            try channel.pipeline.syncOperations.addHandler(AbsoluteFormHostHandler(), position: .before(codec.handler))
            try channel.pipeline.syncOperations.addHandler(ClientClosedHandler(), position: .first)
            try channel.pipeline.syncOperations.addHandler(connection, position: .first)
            return Value(channel: channel, http: value)
        }
    }

    public func handle(value: Value, logger: Logger) async {
        guard let http = value.http else { return }
        await inner.handle(value: http, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// `.http1()`, with an absolute-form request target's host checked like `Host`, and
    /// `limits` on what a connection may hold.
    public static func hostCheckedHTTP1(
        configuration: HTTP1Channel.Configuration = .init(), limits: TransportLimits = .init()
    ) -> HTTPServerBuilder {
        .init { responder in
            HostCheckedHTTP1Channel(
                inner: HTTP1Channel(responder: responder, configuration: configuration), limits: limits)
        }
    }
}
