import ArgumentParser
import Foundation
import FriendServiceClient
import FriendServiceServer
import Hummingbird
import SanghaCore
import SanghaStore
import SanghaWeb
import ServiceLifecycle

/// `sangha serve`: the web application, with the embedded FriendService unless a remote one is named.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Sangha's pages.",
        discussion: """
            Without --friend-service-url, the reference FriendService starts in the same process on \
            --friend-service-port and Sangha talks to it over HTTP, as it would to a remote one.
            """
    )

    @Option(help: "Address to listen on; anything but loopback also needs --allow-remote. (env: SANGHA_HOST)")
    var host: String = Environment.value("SANGHA_HOST", default: "127.0.0.1")

    @Flag(help: "Allow listening on an address other than loopback. (env: SANGHA_ALLOW_REMOTE=1)")
    var allowRemote: Bool = Environment.flag("SANGHA_ALLOW_REMOTE")

    @Option(
        help: """
            A host name to serve besides localhost, 127.0.0.1 and [::1]; repeat for more. \
            (env: SANGHA_ALLOWED_HOSTS, comma-separated)
            """
    )
    var allowedHost: [String] = []

    @Option(help: "Port to listen on. (env: SANGHA_PORT)")
    var port: Int = Environment.value("SANGHA_PORT", default: 8080)

    @Option(help: "Folder for the SQLite files; created when missing. (env: SANGHA_DATA_DIR)")
    var dataDir: String = Environment.value("SANGHA_DATA_DIR", default: "data")

    @Option(help: "Folder holding Templates/ and Public/. (env: SANGHA_RESOURCES_DIR)")
    var resourcesDir: String = Environment.value("SANGHA_RESOURCES_DIR", default: ".")

    @Option(
        help: "Base URL of a remote FriendService; without it the embedded one runs. (env: SANGHA_FRIEND_SERVICE_URL)")
    var friendServiceURL: String?

    @Option(
        help:
            "Bearer token for the FriendService (and required by the embedded one). (env: SANGHA_FRIEND_SERVICE_TOKEN)")
    var friendServiceToken: String?

    @Option(help: "Port of the embedded FriendService. (env: SANGHA_FRIEND_SERVICE_PORT)")
    var friendServicePort: Int = Environment.value("SANGHA_FRIEND_SERVICE_PORT", default: 8081)

    @Option(help: "Seconds one FriendService call may take. (env: SANGHA_FRIEND_SERVICE_TIMEOUT)")
    var friendServiceTimeout: Double = Environment.value("SANGHA_FRIEND_SERVICE_TIMEOUT", default: 3.0)

    @Flag(
        help:
            "Development mode: re-read templates on every request, serve the gallery at /_gallery. (env: SANGHA_DEV=1)")
    var dev: Bool = Environment.flag("SANGHA_DEV")

    @Option(help: .hidden)
    var benchPage: String?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        try Environment.check("SANGHA_PORT", as: Int.self)
        try Environment.check("SANGHA_FRIEND_SERVICE_PORT", as: Int.self)
        try Environment.check("SANGHA_FRIEND_SERVICE_TIMEOUT", as: Double.self)
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard (0...65535).contains(friendServicePort) else {
            throw ValidationError("--friend-service-port must be between 0 and 65535.")
        }
        guard friendServiceTimeout > 0, friendServiceTimeout <= 300 else {
            throw ValidationError("--friend-service-timeout must be more than 0 and at most 300 seconds.")
        }
        if !Self.isLoopback(host), !allowRemote {
            throw ValidationError(
                "Listening on \(host) would expose Sangha beyond this machine. Pass --allow-remote to do it anyway."
            )
        }
        if let url = remoteServiceURLText, remoteURL(url) == nil {
            throw ValidationError("--friend-service-url must be an http:// or https:// URL, got '\(url)'.")
        }
    }

    func run() async throws {
        let logger = logging.makeLogger(label: "sangha")
        if !Self.isLoopback(host) {
            logger.warning(
                "Listening on \(host): Sangha has no login, so anyone who can reach this address can change its data."
            )
        }
        let resources = URL(fileURLWithPath: resourcesDir)
        var services: [any Service] = []

        let token = friendServiceToken ?? Environment.string("SANGHA_FRIEND_SERVICE_TOKEN")
        let baseURL: URL
        if let text = remoteServiceURLText, let url = remoteURL(text) {
            baseURL = url
        } else {
            let store = try FriendStore.open(directory: URL(fileURLWithPath: dataDir))
            services.append(
                FriendServiceApplication.buildApplication(
                    configuration: .init(host: "127.0.0.1", port: friendServicePort, token: token),
                    store: store,
                    logger: logging.makeLogger(label: "friend-service")
                )
            )
            baseURL = URL(string: "http://127.0.0.1:\(friendServicePort)")!
        }

        let database = try SanghaDatabase.open(directory: URL(fileURLWithPath: dataDir))
        let client = URLSessionFriendService(
            configuration: .init(
                baseURL: baseURL,
                token: token,
                timeout: .milliseconds(Int(friendServiceTimeout * 1000))
            )
        )
        let app = try await buildApplication(
            configuration: AppConfiguration(
                host: host,
                port: port,
                resourcesDirectory: resources,
                development: dev,
                extraAllowedHosts: allowedHosts,
                benchmarkPage: try benchPage.map { Array(try Data(contentsOf: URL(fileURLWithPath: $0))) }
            ),
            dependencies: Dependencies(
                friends: FriendsRepository(
                    remote: CoalescingFriendService(client),
                    storage: FriendListStore(database: database)
                ),
                profiles: ProfileStore(database: database)
            ),
            services: services,
            logger: logger
        )
        try await app.runService()
    }

    /// The flags, else the environment variable.
    private var allowedHosts: [String] {
        if !allowedHost.isEmpty { return allowedHost }
        return (Environment.string("SANGHA_ALLOWED_HOSTS") ?? "").split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// The flag, else the environment variable.
    private var remoteServiceURLText: String? {
        friendServiceURL ?? Environment.string("SANGHA_FRIEND_SERVICE_URL")
    }

    private func remoteURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else { return nil }
        return url
    }
}
