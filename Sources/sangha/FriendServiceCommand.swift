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

    @Option(help: "Address to listen on. (default: 127.0.0.1; env: SANGHA_FRIEND_SERVICE_HOST)")
    var host: String?

    @Option(
        help: """
            Port to listen on. \
            (default: \(FriendServiceApplication.Configuration.defaultPort); env: SANGHA_FRIEND_SERVICE_PORT)
            """)
    var port: Int?

    @Option(help: "Folder for friends.sqlite; created when missing. (default: data; env: SANGHA_DATA_DIR)")
    var dataDir: String?

    @Option(help: "Require 'Authorization: Bearer <token>' on every request. (env: SANGHA_FRIEND_SERVICE_TOKEN)")
    var token: String?

    @Flag(
        help: """
            Keep one friends list per bearer token (any token; a request without one gets 401) instead of \
            one list for everyone; --token is then not checked. (env: SANGHA_LIST_PER_TOKEN=1)
            """)
    var listPerToken: Bool = false

    @OptionGroup var logging: LoggingOptions

    /// The service's configuration and data folder, from the flags and else the variables.
    func settings(_ source: SettingSource) throws -> (FriendServiceApplication.Configuration, dataDirectory: URL) {
        let configuration = FriendServiceApplication.Configuration(
            host: host ?? source.text("SANGHA_FRIEND_SERVICE_HOST") ?? "127.0.0.1",
            port: try source.port(
                port, flag: "--port", variable: "SANGHA_FRIEND_SERVICE_PORT",
                default: FriendServiceApplication.Configuration.defaultPort),
            token: token ?? source.text("SANGHA_FRIEND_SERVICE_TOKEN"),
            listPerToken: try source.flag(listPerToken, variable: "SANGHA_LIST_PER_TOKEN"))
        return (configuration, source.dataDirectory(dataDir))
    }

    func validate() throws {
        _ = try settings(.process)
    }

    func run() async throws {
        let (configuration, dataDirectory) = try settings(.process)
        try DataFolder.hold(FriendStore.fileName, in: dataDirectory, for: "sangha friend-service")
        let store = try FriendStore.open(directory: dataDirectory)
        let app = FriendServiceApplication.buildApplication(
            configuration: configuration, store: store, logger: try logging.makeLogger(label: "friend-service"))
        try await app.runService()
    }
}
