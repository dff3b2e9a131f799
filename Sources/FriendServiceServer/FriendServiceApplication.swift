import Foundation
import Hummingbird
import Logging
import SanghaHTTP

/// Builds the reference FriendService: the router for tests, the application for `sangha`.
public enum FriendServiceApplication {
    public struct Configuration: Sendable {
        /// Where the FriendService listens unless told otherwise (`sangha serve`'s embedded one too).
        public static let defaultPort = 8081

        public var host: String
        public var port: Int
        /// When set, every request needs `Authorization: Bearer <token>`.
        public var token: String?
        /// Largest request body accepted; bigger ones get 413.
        public var maxBodySize: Int
        /// One friends list per bearer token (any token; none is 401), instead of one list for
        /// everyone. `token` is then not checked.
        public var listPerToken: Bool
        /// The host names a request may name (`Host`, or an absolute-form target), lowercased and
        /// without port; any other gets 421. `sangha serve`'s embedded service answers only its
        /// loopback names, so a page on a rebinding DNS name cannot reach it; nil serves any.
        public var allowedHosts: Set<String>?

        /// The loopback names, which the embedded service answers to.
        public static let loopbackHosts = HostCheckMiddleware<BasicRequestContext>.loopbackHosts

        public init(
            host: String = "127.0.0.1", port: Int = Configuration.defaultPort, token: String? = nil,
            maxBodySize: Int = 64 * 1024,
            listPerToken: Bool = false,
            allowedHosts: Set<String>? = nil
        ) {
            self.host = host
            self.port = port
            self.token = token
            self.maxBodySize = maxBodySize
            self.listPerToken = listPerToken
            self.allowedHosts = allowedHosts
        }
    }

    public static func buildRouter(
        store: FriendStore, token: String?, listPerToken: Bool = false,
        hostCheck: (hosts: Set<String>, port: Int)? = nil
    ) -> Router<BasicRequestContext> {
        let router = Router()
        if let hostCheck {
            router.add(middleware: HostCheckMiddleware(allowedHosts: hostCheck.hosts, port: hostCheck.port))
        }
        router.add(middleware: FriendServiceErrorMiddleware())
        if !listPerToken, let token, !token.isEmpty {
            router.add(middleware: BearerTokenMiddleware(token: token))
        }
        FriendServiceController(store: store, listPerToken: listPerToken).addRoutes(to: router)
        return router
    }

    public static func buildApplication(
        configuration: Configuration,
        store: FriendStore,
        logger: Logger = Logger(label: "friend-service")
    ) -> some ApplicationProtocol {
        Application(
            router: buildRouter(
                store: store, token: configuration.token, listPerToken: configuration.listPerToken,
                hostCheck: configuration.allowedHosts.map { ($0, configuration.port) }),
            server: .hostCheckedHTTP1(),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "FriendService"
            ),
            logger: logger
        )
    }
}
