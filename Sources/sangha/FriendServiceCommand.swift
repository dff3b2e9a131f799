import ArgumentParser
import Foundation
import FriendServiceServer
import Hummingbird

/// `sangha friend-service`: the reference FriendService alone.
struct FriendServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "friend-service",
        abstract: "Run the reference FriendService (the original Friends API, stored in SQLite)."
    )

    @Option(help: "Address to listen on. (env: SANGHA_FRIEND_SERVICE_HOST)")
    var host: String = Environment.value("SANGHA_FRIEND_SERVICE_HOST", default: "127.0.0.1")

    @Option(help: "Port to listen on. (env: SANGHA_FRIEND_SERVICE_PORT)")
    var port: Int = Environment.value("SANGHA_FRIEND_SERVICE_PORT", default: 8081)

    @Option(help: "Folder for friends.sqlite; created when missing. (env: SANGHA_DATA_DIR)")
    var dataDir: String = Environment.value("SANGHA_DATA_DIR", default: "data")

    @Option(help: "Require 'Authorization: Bearer <token>' on every request. (env: SANGHA_FRIEND_SERVICE_TOKEN)")
    var token: String?

    @Flag(
        help: """
            Keep one friends list per bearer token (any token; a request without one gets 401) instead of \
            one list for everyone; --token is then not checked. (env: SANGHA_LIST_PER_TOKEN=1)
            """)
    var listPerToken: Bool = false

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        try Environment.check("SANGHA_FRIEND_SERVICE_PORT", as: Int.self)
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
    }

    func run() async throws {
        let store = try FriendStore.open(directory: URL(fileURLWithPath: dataDir))
        let app = FriendServiceApplication.buildApplication(
            configuration: .init(
                host: host, port: port, token: token ?? Environment.string("SANGHA_FRIEND_SERVICE_TOKEN"),
                listPerToken: listPerToken || Environment.string("SANGHA_LIST_PER_TOKEN") == "1"),
            store: store,
            logger: logging.makeLogger(label: "friend-service")
        )
        try await app.runService()
    }
}
