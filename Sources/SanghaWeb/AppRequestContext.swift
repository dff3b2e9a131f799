import Hummingbird
import NIOCore
import SanghaViewModels

/// The request context of Sangha's routes: Hummingbird's core, the address the request came
/// from, plus the page context that `PageContextMiddleware` builds for this request (form
/// token, flash, clock, time zone).
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var page = PageContext()
    /// The peer of the connection (for a balancer's requests, the balancer).
    public let remoteAddress: SocketAddress?

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
    }
}
