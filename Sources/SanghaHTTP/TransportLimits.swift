import Logging
import NIOCore
import NIOHTTP1

/// What one client's connection may hold, and for how long: the limits below the routes that
/// Hummingbird's idle timeout does not give. That timer starts again with every byte, so a
/// request sent a byte every few seconds, or an answer read a byte at a time, would hold its
/// socket for ever; and a connection costs the process an open file whoever opened it.
public struct TransportLimits: Sendable {
    /// The time a request has to arrive whole, head and body, counted from its first byte…
    public var requestTimeout: Duration
    /// …and one second more for each `minimumRate` bytes of it that have arrived: a request
    /// must come at least this fast (bytes a second) once `requestTimeout` has passed. Only the
    /// time the server was waiting for the client counts (not a body left unread while its
    /// route was busy). A request too slow is answered 408 and its connection closed.
    public var minimumRate: Int
    /// The longest a response may wait to be written because its reader does not take it (the
    /// connection's buffers are full): then the connection is closed, an event stream's too.
    public var writeTimeout: Duration
    /// How long a connection that is closed while the client is still sending (an answer given
    /// before the request's body had all arrived, a 408) reads on and throws away what comes,
    /// after its answer, before it closes: closed at once, a socket with unread bytes is reset,
    /// and the client might never read the answer. The client's own close ends it sooner.
    public var lingerTime: Duration
    /// Connections one client address may hold at once; the next one is answered 503 and closed.
    /// nil: any number.
    public var connectionsPerAddress: Int?
    /// Peers whose connections are not counted (`--trusted-proxies`): a proxy carries many
    /// people's requests, and limits its own clients' connections.
    public var uncountedAddresses: Set<String>

    public static let defaultRequestTimeout: Duration = .seconds(20)
    public static let defaultMinimumRate = 4096
    public static let defaultWriteTimeout: Duration = .seconds(30)
    public static let defaultConnectionsPerAddress = 128

    public init(
        requestTimeout: Duration = TransportLimits.defaultRequestTimeout,
        minimumRate: Int = TransportLimits.defaultMinimumRate,
        writeTimeout: Duration = TransportLimits.defaultWriteTimeout,
        lingerTime: Duration = .seconds(2),
        connectionsPerAddress: Int? = nil,
        uncountedAddresses: Set<String> = []
    ) {
        self.requestTimeout = requestTimeout
        self.minimumRate = max(1, minimumRate)
        self.writeTimeout = writeTimeout
        self.lingerTime = lingerTime
        self.connectionsPerAddress = connectionsPerAddress
        self.uncountedAddresses = uncountedAddresses
    }

    /// An event stream's connection keeps little on the server for a reader that stopped: the
    /// kernel's send buffer (Linux doubles what is asked) and SwiftNIO's queue before the
    /// response's writer waits, and `writeTimeout` runs. A reader that reads empties them at once:
    /// a stream's events come far apart.
    static let streamSendBuffer: Int32 = 16 * 1024
    static let streamWaterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 4 * 1024, high: 8 * 1024)
}

/// First in a connection's pipeline, next to the socket: times each request as its bytes
/// arrive (the head too, which no HTTP handler sees before it ends), closes a connection whose
/// writes have waited `writeTimeout` for a reader, and closes connections the way `linger()`
/// says. `ExchangeTracker`, after the HTTP codec, tells it where requests end and what has been
/// answered.
final class ConnectionGuard: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    enum Phase {
        /// Between requests: the idle timeout's time.
        case idle
        /// A request is arriving, on the clock.
        case receiving
        /// Answered before the request had arrived, or timed out: what comes is thrown away.
        case discarding
    }

    private let limits: TransportLimits
    private let logger: Logger
    /// Writes the 408, when nothing is being answered.
    weak var exchange: ExchangeTracker?
    private var context: ChannelHandlerContext?

    private(set) var phase = Phase.idle
    /// Bytes of the request being received, head included.
    private var received = 0
    /// Nanoseconds the server has waited for the request's bytes (a read asked and not yet
    /// answered), and since when it waits now.
    private var waited: Int64 = 0
    private var waitingSince: NIODeadline?
    private var deadline: Scheduled<Void>?
    private var stall: Scheduled<Void>?
    private var lingering: Scheduled<Void>?

    init(limits: TransportLimits, logger: Logger) {
        self.limits = limits
        self.logger = logger
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimers()
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimers()
        context.fireChannelInactive()
    }

    private func cancelTimers() {
        deadline?.cancel()
        stall?.cancel()
        lingering?.cancel()
        deadline = nil
        stall = nil
        lingering = nil
    }

    // MARK: The request's clock

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch phase {
        case .discarding:
            return
        case .idle:
            begin()
            fallthrough
        case .receiving:
            received += unwrapInboundIn(data).readableBytes
        }
        context.fireChannelRead(data)
        // Decoded: most requests ended within this read, and need no timer.
        if phase == .receiving, deadline == nil { scheduleDeadline(in: allowance) }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        if let since = waitingSince {
            waited += (NIODeadline.now() - since).nanoseconds
            waitingSince = nil
        }
        context.fireChannelReadComplete()
    }

    /// The pipeline asks for more bytes: from now the server waits for the client. (A read not
    /// asked for is the server holding back: a route not reading its body yet.)
    func read(context: ChannelHandlerContext) {
        if phase == .receiving, waitingSince == nil { waitingSince = .now() }
        context.read()
    }

    private func begin() {
        phase = .receiving
        received = 0
        waited = 0
        waitingSince = nil
    }

    /// A request's head was decoded (the next one of a pipelined read, too).
    func requestBegan() {
        if phase == .idle { begin() }
    }

    /// The request arrived whole.
    func requestReceived() {
        guard phase == .receiving else { return }
        phase = .idle
        waitingSince = nil
        deadline?.cancel()
        deadline = nil
    }

    /// Nanoseconds the request may take: `requestTimeout`, and a second a `minimumRate` bytes.
    private var allowance: Int64 {
        let base = TimeAmount(limits.requestTimeout).nanoseconds
        return base + Int64(min(Double(received) / Double(limits.minimumRate) * 1e9, 1e15))
    }

    private func scheduleDeadline(in nanoseconds: Int64) {
        guard let context else { return }
        deadline = context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(max(nanoseconds, 1_000_000))) {
            self.deadline = nil
            self.checkDeadline()
        }
    }

    private func checkDeadline() {
        guard phase == .receiving else { return }
        var spent = waited
        if let since = waitingSince { spent += (NIODeadline.now() - since).nanoseconds }
        let allowance = allowance
        guard spent >= allowance else {
            scheduleDeadline(in: allowance - spent)
            return
        }
        logger.info(
            "A request did not arrive in time: answered 408 and closed",
            metadata: ["received": "\(received)", "waited_ms": "\(spent / 1_000_000)"])
        phase = .discarding
        _ = exchange?.answerTimeout()
        linger()
    }

    // MARK: Answered early

    /// The request is being answered before it has all arrived (a refusal, a 413): the rest is
    /// not read, and `linger()` closes the connection once the answer is written.
    func answeredEarly() {
        phase = .discarding
        waitingSince = nil
        deadline?.cancel()
        deadline = nil
    }

    /// Closes the connection's sending side once what is written has gone (the client reads the
    /// answer to its end), throws away what the client still sends, and closes the whole
    /// connection when the client closes its side or after `lingerTime`.
    func linger() {
        guard let context, lingering == nil else { return }
        phase = .discarding
        context.flush()
        context.close(mode: .output, promise: nil)
        lingering = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limits.lingerTime)) {
            self.lingering = nil
            context.close(promise: nil)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if phase == .discarding, case .inputClosed = event as? ChannelEvent {
            context.close(promise: nil)
        }
        context.fireUserInboundEventTriggered(event)
    }

    // MARK: Writes that wait

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            stall?.cancel()
            stall = nil
        } else if stall == nil {
            stall = context.eventLoop.assumeIsolated().scheduleTask(in: TimeAmount(limits.writeTimeout)) {
                self.stall = nil
                self.logger.info(
                    "A response waited \(self.limits.writeTimeout) for its reader to read: its connection was closed")
                context.close(promise: nil)
            }
        }
        context.fireChannelWritabilityChanged()
    }

    /// The response is an event stream: it does not end by itself, so little of it is buffered
    /// for a reader that stopped (`TransportLimits.streamSendBuffer`), and its writer soon waits.
    func holdsStream() {
        guard let options = context?.channel.syncOptions else { return }
        try? options.setOption(
            ChannelOptions.socketOption(.so_sndbuf), value: SocketOptionValue(TransportLimits.streamSendBuffer))
        try? options.setOption(ChannelOptions.writeBufferWaterMark, value: TransportLimits.streamWaterMark)
    }
}

/// After the HTTP/1 codec: sees where each request begins and ends and where each response
/// begins and ends, and tells `ConnectionGuard`. An answer begun while its request is still
/// arriving closes the connection after it (`Connection: close`): Hummingbird would otherwise
/// read the rest of the body, however long and slow, before the connection's next request.
final class ExchangeTracker: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let connection: ConnectionGuard
    private var context: ChannelHandlerContext?
    /// Heads read and heads written: the response written answers request number `responses`.
    private var requests = 0
    private var responses = 0
    /// A request's head has come and not yet its end.
    private var receiving = false
    /// A response's head has gone and not yet its end.
    private var responding = false
    private var closeAfterResponse = false
    /// The 408 went: Hummingbird's own answer, when its route fails for the closed connection, does not.
    private var answered = false

    init(connection: ConnectionGuard) {
        self.connection = connection
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            requests += 1
            receiving = true
            connection.requestBegan()
        case .body:
            break
        case .end:
            receiving = false
            connection.requestReceived()
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if answered {
            promise?.fail(ChannelError.outputClosed)
            return
        }
        switch unwrapOutboundIn(data) {
        case .head(var head):
            responses += 1
            responding = true
            if receiving, responses == requests {
                closeAfterResponse = true
                connection.answeredEarly()
                head.headers.replaceOrAdd(name: "Connection", value: "close")
                context.write(wrapOutboundOut(.head(head)), promise: promise)
                return
            }
            if head.status == .ok, head.headers.first(name: "Content-Type")?.hasPrefix("text/event-stream") == true {
                connection.holdsStream()
            }
        case .body:
            break
        case .end:
            responding = false
            if closeAfterResponse {
                context.write(data, promise: promise)
                connection.linger()
                return
            }
        }
        context.write(data, promise: promise)
    }

    /// Answers 408 when no response is being written; says whether it did.
    func answerTimeout() -> Bool {
        guard let context, !responding, !answered else { return false }
        let body = ByteBuffer(string: "The request took too long to arrive.\n")
        let head = HTTPResponseHead(
            version: .http1_1, status: .requestTimeout,
            headers: [
                "Connection": "close", "Content-Type": "text/plain; charset=utf-8",
                "Content-Length": "\(body.readableBytes)",
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        answered = true
        return true
    }
}
