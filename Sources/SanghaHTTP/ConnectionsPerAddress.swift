import NIOCore
import Synchronization

/// The connections each client address holds (the peer's address, as the server sees it), and
/// the refusal of one more than `limit`: one address cannot take all the process's open files,
/// and so every other client's connections.
final class ConnectionsPerAddress: Sendable {
    enum Admission: Equatable {
        case admitted
        /// `first`: the first refusal since the address was last under its limit (said once in
        /// the log, not once a connection).
        case refused(first: Bool)
    }

    let limit: Int
    private let state = Mutex(State())

    private struct State {
        var counts: [String: Int] = [:]
        var refusing: Set<String> = []
    }

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts a connection from `address`, unless it holds `limit` already.
    func admit(_ address: String) -> Admission {
        state.withLock { state in
            let count = state.counts[address, default: 0]
            guard count < limit else { return .refused(first: state.refusing.insert(address).inserted) }
            state.counts[address] = count + 1
            return .admitted
        }
    }

    /// A connection `admit` counted has closed.
    func release(_ address: String) {
        state.withLock { state in
            let count = state.counts[address, default: 1] - 1
            state.counts[address] = count > 0 ? count : nil
            state.refusing.remove(address)
        }
    }

    /// The peer's IP address as SwiftNIO prints it, an IPv4-mapped IPv6 one as IPv4 (the form
    /// `--trusted-proxies` is compared in); nil for a Unix socket's peer.
    static func address(of channel: any Channel) -> String? {
        guard let ip = channel.remoteAddress?.ipAddress else { return nil }
        return ip.hasPrefix("::ffff:") ? String(ip.dropFirst("::ffff:".count)) : ip
    }

    static let refusal: ByteBuffer = {
        let body = "This address has too many connections open to Sangha. Close some pages, then try again.\n"
        return ByteBuffer(
            string: "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 10\r\n"
                + "Content-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
    }()
}

/// A refused connection's only handler: answers 503 as soon as the connection is active, before
/// reading anything, and closes it. It costs no more than its accept: no HTTP handlers, no
/// lingering (what the client sent is not read; a client that already sent its request may
/// see the connection reset rather than the answer).
final class RefusedConnectionHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { refuse(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        refuse(context)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}

    private func refuse(_ context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ConnectionsPerAddress.refusal), promise: nil)
        context.close(promise: nil)
    }
}
