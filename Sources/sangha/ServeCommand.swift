import ArgumentParser
import Foundation
import FriendServiceClient
import FriendServiceServer
import Hummingbird
import Logging
import Metrics
import Prometheus
import Resilience
import SanghaCore
import SanghaOIDC
import SanghaPostgres
import SanghaPush
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

    @Option(
        help:
            "Address to listen on; anything but loopback also needs --allow-remote. (default: 127.0.0.1; env: SANGHA_HOST)"
    )
    var host: String?

    @Flag(help: "Allow listening on an address other than loopback. (env: SANGHA_ALLOW_REMOTE=1)")
    var allowRemote: Bool = false

    @Option(
        help: """
            A host name to serve besides localhost, 127.0.0.1 and [::1]; repeat for more. \
            (env: SANGHA_ALLOWED_HOSTS, comma-separated)
            """
    )
    var allowedHost: [String] = []

    @Option(help: "Port to listen on. (default: \(AppConfiguration.defaultPort); env: SANGHA_PORT)")
    var port: Int?

    @Option(help: "Folder for the SQLite files; created when missing. (default: data; env: SANGHA_DATA_DIR)")
    var dataDir: String?

    @Option(
        help: """
            A PostgreSQL database for everything Sangha keeps, shared by any number of instances: \
            postgres://USER[:PASSWORD]@HOST:PORT/DATABASE. Without it, SQLite files in --data-dir. \
            (env: SANGHA_DATABASE_URL)
            """)
    var databaseURL: String?

    @Option(
        help: """
            A folder whose Public/ (and, with --dev, Templates/) replaces the files built into sangha. \
            (env: SANGHA_RESOURCES_DIR)
            """)
    var resourcesDir: String?

    @Option(
        help: "Base URL of a remote FriendService; without it the embedded one runs. (env: SANGHA_FRIEND_SERVICE_URL)")
    var friendServiceURL: String?

    @Option(
        help:
            "Bearer token for the FriendService (and required by the embedded one). (env: SANGHA_FRIEND_SERVICE_TOKEN)")
    var friendServiceToken: String?

    @Option(
        help: """
            Port of the embedded FriendService. \
            (default: \(FriendServiceApplication.Configuration.defaultPort); env: SANGHA_FRIEND_SERVICE_PORT)
            """)
    var friendServicePort: Int?

    @Option(help: "Seconds one FriendService call may take. (default: 3; env: SANGHA_FRIEND_SERVICE_TIMEOUT)")
    var friendServiceTimeout: Double?

    @Flag(
        help: """
            Development mode: render with swift-mustache from Templates/ on disk, re-read on every request, \
            and serve Public/ from disk. (env: SANGHA_DEV=1)
            """)
    var dev: Bool = false

    @Option(
        help: """
            An IP address that may read GET /metrics besides loopback (a Prometheus server); repeat for more. \
            (env: SANGHA_METRICS_ALLOWED, comma-separated)
            """)
    var metricsAllowed: [String] = []

    @Option(
        help: """
            The address people reach Sangha at through a proxy, like https://sangha.example: form posts \
            must come from it, and with https every cookie is Secure and Strict-Transport-Security is sent. \
            (env: SANGHA_PUBLIC_URL)
            """)
    var publicURL: String?

    @Option(
        help: """
            Who may create an account: invite (with a one-use link from /admin, or with a group's invitation \
            link, which any host of a group makes and which admits anyone for its 7 days), admin-invite (with a \
            one-use link from /admin only: a group's link lets only people with an account join), open (anyone) \
            or closed (no one). The first account of a new deployment is always allowed, and is its \
            administrator. (default: invite; env: SANGHA_SIGN_UP)
            """)
    var signUp: String?

    @Option(
        help: """
            Sign-ups and failed sign-ins allowed from one client address in 15 minutes; 0 turns the limit \
            off. A browser that once signed in to an account is exempt for that account. \
            (default: \(Guessing.defaultAddressLimit); env: SANGHA_ADDRESS_LIMIT)
            """)
    var addressLimit: Int?

    @Option(
        help: """
            IP addresses of the proxies in front of Sangha, comma-separated: a request from one of them is \
            counted against the client its X-Forwarded-For names, and their connections are not counted by \
            --connections-per-address. Without it the connection's peer is the client. \
            (env: SANGHA_TRUSTED_PROXIES)
            """)
    var trustedProxies: [String] = []

    @Option(
        help: """
            Connections one client address may hold open at once; the next is answered 503 and closed. \
            0 turns the limit off. A trusted proxy's connections are not counted: limit its clients there. \
            (default: \(AppConfiguration.defaultConnectionsPerAddress); env: SANGHA_CONNECTIONS_PER_ADDRESS)
            """)
    var connectionsPerAddress: Int?

    @Option(
        help: """
            The group's OpenID Connect identity provider (Authelia, Keycloak, authentik, Pocket ID…), by its \
            issuer URL: the sign-in page offers "Sign in with NAME". Needs --oidc-client-id and \
            --oidc-client-secret; register <public URL>/sign-in/oidc as the client's redirect URI. \
            (env: SANGHA_OIDC_ISSUER)
            """)
    var oidcIssuer: String?

    @Option(help: "Sangha's client id at the identity provider. (env: SANGHA_OIDC_CLIENT_ID)")
    var oidcClientID: String?

    @Option(
        help: """
            Sangha's client secret at the identity provider; prefer the variable, which does not show in \
            the process list. (env: SANGHA_OIDC_CLIENT_SECRET)
            """)
    var oidcClientSecret: String?

    @Option(
        help: """
            What people call the identity provider, on its button: "Sign in with NAME". \
            (default: the issuer's host; env: SANGHA_OIDC_NAME)
            """)
    var oidcName: String?

    @Option(
        help: """
            on or off: whether people may also sign in with a password. off leaves only the identity \
            provider's button, needs --oidc-issuer, and at start ends the sign-in sessions a \
            password started. (default: on; env: SANGHA_PASSWORD_SIGN_IN)
            """)
    var passwordSignIn: String?

    @Option(
        help: """
            Turns notifications by Web Push on, naming who runs this Sangha for the push services: \
            mailto:ADDRESS or an https:// URL (not on localhost, .local, .invalid, .test or .example, \
            which Apple's push service refuses). The key pair messages are signed with is made on first \
            start and kept in the database. (env: SANGHA_PUSH_CONTACT)
            """)
    var pushContact: String?

    @Option(
        help: """
            An origin, like https://push.example.org, whose endpoints are taken besides the browsers' own \
            push services (a private push service; tests on loopback); repeat for more. \
            (env: SANGHA_PUSH_ALLOW_ENDPOINTS, comma-separated)
            """)
    var pushAllowEndpoint: [String] = []

    @Option(
        help: """
            At most this many notifications begun a second, so that a large group's sit does not \
            slow the pages (each message is encrypted for its device): a fifth of a second's worth \
            go at once, then a steady stream; 500 sends a sit of 2,000 devices in about 4 s. Raise \
            it on a machine with cores to spare. (default: 500; env: SANGHA_PUSH_RATE)
            """)
    var pushRate: Int?

    @Option(
        help: """
            The language of the pages when neither the person, nor the picker on the sign-in page, \
            nor the browser names one Sangha speaks: en, de, fr, es, pt-BR, vi, pl or ar. \
            (default: en; env: SANGHA_DEFAULT_LANGUAGE)
            """)
    var defaultLanguage: String?

    /// bcrypt's cost for new passwords; tests lower it (4), the default is 12.
    @Option(help: .hidden)
    var passwordCost: Int?

    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        _ = try ServeSettings(self, environment: ProcessInfo.processInfo.environment)
    }

    func run() async throws {
        let settings = try ServeSettings(self, environment: ProcessInfo.processInfo.environment)
        let logger = try logging.makeLogger(label: "sangha")
        if let raised = OpenFilesLimit.raise() {
            logger.info(
                "Open files allowed raised to the hard limit",
                metadata: ["from": "\(raised.from)", "to": "\(raised.to)"])
        }
        let metrics = Self.bootstrapMetrics()
        if settings.isRemote, settings.app.publicURL?.scheme != "https" {
            logger.warning(
                "Listening on \(settings.app.host) over plain HTTP: passwords and session cookies cross the network unencrypted. Put a TLS proxy in front and pass --public-url https://…"
            )
        }
        var services: [any Service] = []
        var embeddedLists: FriendStoreLists?
        if case .sqlite = settings.storage {
            try DataFolder.hold(
                SanghaDatabase.fileName, in: settings.dataDirectory, for: "sangha serve",
                address: settings.localAddress)
        }
        if case .embedded = settings.friendService {
            try DataFolder.hold(FriendStore.fileName, in: settings.dataDirectory, for: "sangha serve")
        }
        if case .embedded(let port) = settings.friendService {
            let store = try FriendStore.open(directory: settings.dataDirectory)
            embeddedLists = FriendStoreLists(store: store, logger: logger)
            services.append(
                FriendServiceApplication.buildApplication(
                    // Sangha gives each person a token of their own: one list each.
                    configuration: .init(
                        host: "127.0.0.1", port: port, token: settings.friendServiceToken, listPerToken: true,
                        allowedHosts: FriendServiceApplication.Configuration.loopbackHosts),
                    store: store,
                    logger: try logging.makeLogger(label: "friend-service")
                )
            )
        }
        let client = URLSessionFriendService(
            configuration: .init(
                baseURL: settings.friendServiceURL,
                token: settings.friendServiceToken,
                timeout: settings.friendServiceTimeout
            )
        )
        switch settings.storage {
        case .sqlite(let directory):
            let data = SQLitePersonalData(database: try SanghaDatabase.open(directory: directory))
            let stores = Stores(people: data.people, data: data, push: data.push)
            // What `sangha people` writes while this runs is seen within a second.
            let watch: [any Service] = data.otherProcessWrites.map { [$0] } ?? []
            try await buildApp(
                settings, stores: stores, client: client, embeddedLists: embeddedLists, metrics: metrics,
                services: services + watch, logger: logger
            )
            .runService()
        case .postgres(let configuration):
            let database = PostgresDatabase(
                configuration: configuration, logger: try logging.makeLogger(label: "postgres"))
            // The pool runs until the server has stopped, so requests in flight finish with it.
            let pool = Task { await database.client.run() }
            defer { pool.cancel() }
            do {
                let applied = try await database.migrate(timeout: .seconds(60))
                logger.info("PostgreSQL schema up to date", metadata: ["applied": "\(applied)"])
            } catch {
                throw ValidationError("The database could not be prepared: \(error)")
            }
            // Sessions and profiles kept in memory while this instance hears every other's
            // changes (LISTEN on a connection of its own, a service of the app's group).
            let feed = PostgresChangeFeed(database: database, logger: try logging.makeLogger(label: "postgres"))
            let data = PostgresPersonalData(database: database, feed: feed)
            let stores = Stores(people: data.people, data: data, push: data.push)
            try await buildApp(
                settings, stores: stores, client: client, embeddedLists: embeddedLists, metrics: metrics,
                services: services + [feed], logger: logger
            )
            .runService()
        }
    }

    /// Every metric of the process (Hummingbird's requests, the database's and the
    /// FriendService's calls) into one Prometheus registry, served at `/metrics`. Durations in
    /// buckets from 1 ms: a page takes a few.
    static func bootstrapMetrics() -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = [
            .milliseconds(1), .microseconds(2500), .milliseconds(5), .milliseconds(10), .milliseconds(25),
            .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1),
            .milliseconds(2500), .seconds(5),
        ]
        MetricsSystem.bootstrap(factory)
        return registry
    }

    /// The storage the app keeps its data in.
    struct Stores {
        var people: any PeopleRepository
        var data: any PersonalData
        var push: any PushRepository
    }

    private func buildApp(
        _ settings: ServeSettings, stores: Stores, client: URLSessionFriendService,
        embeddedLists: FriendStoreLists?, metrics: PrometheusCollectorRegistry,
        services: [any Service], logger: Logger
    ) async throws -> some ApplicationProtocol {
        // One breaker for the service, whatever the person's token (`CircuitBreaker`).
        // Named in the log without what its address may carry (a user, a password, a query).
        var address = URLComponents(url: client.configuration.baseURL, resolvingAgainstBaseURL: false)
        address?.user = nil
        address?.password = nil
        address?.query = nil
        address?.fragment = nil
        let breaker = CircuitBreaker(friendService: address?.string ?? "", logger: logger)
        if !settings.app.passwordSignIn {
            // Passwords sign no one in: whoever a password signed in before is signed out, and
            // signs in again with the provider.
            let ended = try await stores.people.endPasswordSessions()
            logger.notice(
                "--password-sign-in off: passwords sign no one in; the sign-in sessions a password started have ended",
                metadata: ["ended": "\(ended)"])
        }
        var services = services
        var push: PushSetup?
        if let settings = settings.push {
            let (setup, sending) = try await Self.push(settings, stores: stores, logger: logger)
            push = setup
            services += sending
        }
        return try await buildApplication(
            configuration: settings.app,
            dependencies: Dependencies(
                people: stores.people,
                data: stores.data,
                friendServices: FriendServiceDirectory(make: { token in
                    CoalescingFriendService(
                        BreakingFriendService(MeteredFriendService(client.with(token: token)), breaker: breaker))
                }),
                friendTokens: FriendTokenPolicy(settings.friendServiceTokens, embeddedLists: embeddedLists),
                passwords: PasswordHasher(cost: settings.passwordCost),
                signer: CookieSigner(secret: try await stores.people.cookieSecret()),
                metrics: metrics,
                identityProvider: settings.identityProvider.map { OpenIDProvider(configuration: $0) },
                push: push
            ),
            services: services,
            logger: logger
        )
    }

    /// Notifications: the deployment's key pair (made on the first start and kept in the
    /// database, so every instance signs alike), the sender and the scheduler (services of the
    /// app's group), and what the routes need.
    static func push(_ settings: ServeSettings.Push, stores: Stores, logger: Logger) async throws -> (
        PushSetup, [any Service]
    ) {
        let key = try await stores.push.vapidKey(keeping: VAPID.makePrivateKey())
        guard let vapid = VAPID(rawPrivateKey: key, contact: settings.contact) else {
            throw ValidationError("The database's VAPID key is not a P-256 private key.")
        }
        let client = PushPoster.makeClient()
        let repository = stores.push
        let sender = PushSender(
            poster: PushPoster(vapid: vapid, client: client, logger: logger), client: client, rate: settings.rate,
            logger: logger, gone: { device in try? await repository.delete(device: device) })
        let scheduler = PushScheduler(
            repository: repository, send: sender.send, events: stores.data.groupEvents, logger: logger)
        logger.info(
            "Notifications by Web Push are on",
            metadata: ["contact": "\(settings.contact)", "key": "\(vapid.publicKeyText)"])
        return (
            PushSetup(
                repository: repository, publicKey: vapid.publicKeyText,
                endpoints: PushEndpoints(allowedOrigins: settings.allowedOrigins), nudge: scheduler.nudge),
            [sender, scheduler]
        )
    }
}
