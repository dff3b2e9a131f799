import Foundation
import Hummingbird
import Logging

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

        public init(
            host: String = "127.0.0.1", port: Int = Configuration.defaultPort, token: String? = nil,
            maxBodySize: Int = 64 * 1024,
            listPerToken: Bool = false
        ) {
            self.host = host
            self.port = port
            self.token = token
            self.maxBodySize = maxBodySize
            self.listPerToken = listPerToken
        }
    }

    public static func buildRouter(store: FriendStore, token: String?, listPerToken: Bool = false)
        -> Router<BasicRequestContext>
    {
        let router = Router()
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
                store: store, token: configuration.token, listPerToken: configuration.listPerToken),
            configuration: .init(
                address: .hostname(configuration.host, port: configuration.port),
                serverName: "FriendService"
            ),
            logger: logger
        )
    }
}
