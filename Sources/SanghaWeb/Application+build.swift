import Foundation
import Hummingbird
import Logging
import NIOCore
import Prometheus
import SanghaCore
import SanghaHTTP
import SanghaViewModels
import ServiceLifecycle

/// How the web application listens and where it finds its templates and static files.
public struct AppConfiguration: Sendable {
    /// Where `sangha serve` listens unless told otherwise.
    public static let defaultPort = 8080

    public var host: String
    public var port: Int
    /// A folder holding `Public/` (and, for `--dev`, `Templates/`) to use instead of the files
    /// built into the binary; nil: the built-in ones.
    public var resourcesDirectory: URL?
    /// Development mode: templates and static files are read from disk on every request.
    public var development: Bool
    /// Largest form body accepted; bigger ones get 413.
    public var maxFormSize: Int
    /// Host names served besides localhost, 127.0.0.1 and [::1] (DNS-rebinding defence).
    public var extraAllowedHosts: [String]
    /// Who may read `GET /metrics` besides loopback.
    public var metricsAccess: MetricsAccess
    /// The address people reach Sangha at behind a proxy (`--public-url`): form posts must come
    /// from its origin, and when it is `https` every cookie is Secure and browsers are told to
    /// keep to HTTPS (Strict-Transport-Security). nil: loopback and the allowed hosts, over HTTP.
    public var publicURL: URL?
    /// Who may create an account (`--sign-up`).
    public var signUp: SignUpMode
    /// Whether people may sign in with a password; off (`--password-sign-in off`) leaves the
    /// identity provider's button alone.
    public var passwordSignIn: Bool
    /// The language of a page when neither the person, nor the `lang` cookie, nor the browser's
    /// `Accept-Language` names one Sangha speaks (`--default-language`).
    public var defaultLanguage: Language
    /// Sign-ups and failed sign-ins from one address within 15 minutes; 0: no limit.
    public var addressLimit: Int
    /// Proxies whose `X-Forwarded-For` names the client (canonical IP addresses).
    public var trustedProxies: Set<String>
    /// How long a connection may send nothing, between requests or part way through one, before
    /// it is closed: a client that opens connections and never finishes a request holds no
    /// socket for long. A response being written (an event stream) is never cut.
    public var idleTimeout: Duration
    /// The time a request has to arrive whole, head and body, from its first byte, and one
    /// second more for each `requestMinimumRate` bytes that have arrived: later, it is answered
    /// 408 and its connection closed. 20 s is ample for any head and form on a phone with a
    /// poor signal; past it a request must average 4 KiB/s (32 kbit/s, slower than any mobile
    /// network but GPRS), so the history import's 5 MiB may take 21 minutes, and a client
    /// holding a connection with a trickle of bytes must send 4 KiB each second it holds it.
    public var requestTimeout: Duration
    public var requestMinimumRate: Int
    /// How long a response may wait for its reader to read (the connection's buffers full)
    /// before its connection is closed: a stalled event stream frees its place, and a page
    /// read a byte at a time holds no socket.
    public var writeTimeout: Duration
    /// Connections one client address may hold at once (`--connections-per-address`); the next
    /// is answered 503 and closed. 0: any number. The trusted proxies' connections are not
    /// counted.
    public var connectionsPerAddress: Int

    public static let defaultIdleTimeout: Duration = .seconds(30)
    /// A browser opens at most 6 connections to a site, all its tabs together (an event stream
    /// holds one): 128 lets twenty people behind one address (a retreat centre's Wi-Fi, an
    /// office) use Sangha at once, while one address holds a small part of the open files.
    public static let defaultConnectionsPerAddress = TransportLimits.defaultConnectionsPerAddress

    public init(
        host: String = "127.0.0.1",
        port: Int = AppConfiguration.defaultPort,
        resourcesDirectory: URL? = nil,
        development: Bool = false,
        maxFormSize: Int = 64 * 1024,
        extraAllowedHosts: [String] = [],
        metricsAccess: MetricsAccess = MetricsAccess(),
        publicURL: URL? = nil,
        signUp: SignUpMode = .invite,
        passwordSignIn: Bool = true,
        defaultLanguage: Language = .en,
        addressLimit: Int = Guessing.defaultAddressLimit,
        trustedProxies: Set<String> = [],
        idleTimeout: Duration = AppConfiguration.defaultIdleTimeout,
        requestTimeout: Duration = TransportLimits.defaultRequestTimeout,
        requestMinimumRate: Int = TransportLimits.defaultMinimumRate,
        writeTimeout: Duration = TransportLimits.defaultWriteTimeout,
        connectionsPerAddress: Int = AppConfiguration.defaultConnectionsPerAddress
    ) {
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.requestMinimumRate = requestMinimumRate
        self.writeTimeout = writeTimeout
        self.connectionsPerAddress = connectionsPerAddress
        self.publicURL = publicURL
        self.signUp = signUp
        self.passwordSignIn = passwordSignIn
        self.defaultLanguage = defaultLanguage
        self.addressLimit = addressLimit
        self.trustedProxies = trustedProxies
        self.host = host
        self.port = port
        self.resourcesDirectory = resourcesDirectory
        self.development = development
        self.maxFormSize = maxFormSize
        self.extraAllowedHosts = extraAllowedHosts
        self.metricsAccess = metricsAccess
    }

    /// The host names a request may name: the loopback names, the address listened on unless it
    /// is a wildcard, and the extra ones.
    public var allowedHosts: Set<String> {
        var hosts = HostCheckMiddleware<AppRequestContext>.loopbackHosts
        if !["0.0.0.0", "::", "[::]"].contains(host) {
            hosts.insert(host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host)
        }
        for extra in extraAllowedHosts { hosts.insert(extra.lowercased()) }
        if let host = publicURL?.host { hosts.insert(host.lowercased()) }
        return hosts
    }

    /// The origins a form post may come from: the public URL's alone when there is one.
    public var allowedOrigins: Set<String> {
        if let origin = publicOrigin { return [origin] }
        return Set(
            allowedHosts.flatMap { ["http://\($0)", "http://\($0):\(port)", "https://\($0)", "https://\($0):\(port)"] })
    }

    /// `https://sangha.example` (with its port when it names one) of the public URL.
    public var publicOrigin: String? {
        guard let url = publicURL, let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else {
            return nil
        }
        // A browser names no port that is its scheme's default.
        guard let port = url.port, port != (scheme == "https" ? 443 : 80) else { return "\(scheme)://\(host)" }
        return "\(scheme)://\(host):\(port)"
    }

    /// The address of a link to send someone (an invitation, a password reset): the public
    /// URL's, else the one `request` came to.
    func linkURL(_ path: String, for request: Request) -> String {
        if let origin = publicOrigin { return origin + path }
        return "http://\(request.head.authority ?? "\(host):\(port)")\(path)"
    }

    /// What a client's connection may hold, and for how long.
    var transportLimits: TransportLimits {
        TransportLimits(
            requestTimeout: requestTimeout, minimumRate: requestMinimumRate, writeTimeout: writeTimeout,
            connectionsPerAddress: connectionsPerAddress > 0 ? connectionsPerAddress : nil,
            uncountedAddresses: trustedProxies)
    }

    /// Whether people reach Sangha over HTTPS.
    var isSecure: Bool { publicURL?.scheme?.lowercased() == "https" }

    /// Where `--dev` reads templates and static files: the resources folder, else the current one.
    var developmentDirectory: URL {
        resourcesDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }
}

/// The Sangha application: what `sangha serve` runs and what the route tests exercise.
public func buildApplication(
    configuration: AppConfiguration,
    dependencies: Dependencies,
    services: [any Service] = [],
    logger: Logger = Logger(label: "sangha")
) async throws -> some ApplicationProtocol {
    let renderer =
        configuration.development
        ? PageRenderer(
            mustache: try await MustacheTemplates(
                directory: configuration.developmentDirectory.appendingPathComponent("Templates"), reload: true),
            signer: dependencies.signer)
        : .compiled(signer: dependencies.signer)
    let streams = GroupStreams(dependencies: dependencies, renderer: renderer, logger: logger)
    let router = try buildRouter(
        configuration: configuration, dependencies: dependencies, renderer: renderer, streams: streams, logger: logger)
    return Application(
        router: router,
        server: .hostCheckedHTTP1(
            configuration: .init(idleTimeout: TimeAmount(configuration.idleTimeout)),
            limits: configuration.transportLimits),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Sangha"),
        // The streams' beat; at shutdown each stream's response ends itself (GroupsRoutes.events).
        services: services + [streams],
        logger: logger
    )
}

public func buildRouter(
    configuration: AppConfiguration,
    dependencies: Dependencies,
    renderer: PageRenderer,
    streams: GroupStreams? = nil,
    logger: Logger = Logger(label: "sangha")
) throws -> Router<AppRequestContext> {
    // Cookies are named and marked once, where they are made and read (`CookieJar`).
    let jar = CookieJar(secure: configuration.isSecure)
    let renderer = renderer.naming(cookies: jar)
    let streams = streams ?? GroupStreams(dependencies: dependencies, renderer: renderer, logger: logger)
    let router = Router(context: AppRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: HeadMiddleware())
    // Next: a stream's connection lives long, and what opening it takes (every middleware below
    // this one, the route) is not kept with it.
    router.add(middleware: HeldResponseMiddleware())
    // Requests by route and status, and their durations, into the process's metrics system
    // (swift-metrics; Prometheus in `sangha serve`).
    router.add(middleware: RequestMetricsMiddleware())
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: SecurityHeadersMiddleware(secure: configuration.isSecure))
    router.add(
        middleware: HostCheckMiddleware(
            allowedHosts: configuration.allowedHosts, port: configuration.port,
            publicPort: configuration.publicURL?.port))
    // Static files come before the page context: they need no cookie. In development they are
    // read from disk on every request, further in (below).
    let staticFiles =
        try configuration.resourcesDirectory.map { try StaticFiles.directory($0.appendingPathComponent("Public")) }
        ?? .embedded
    if !configuration.development {
        router.add(middleware: StaticFileMiddleware(files: staticFiles))
    }
    router.add(
        middleware: PageContextMiddleware(
            makeFormToken: dependencies.makeFormToken,
            signer: dependencies.signer,
            signUp: configuration.signUp,
            signInProvider: dependencies.identityProvider?.configuration.name,
            passwordSignIn: configuration.passwordSignIn,
            now: dependencies.now,
            timeZone: dependencies.timeZone,
            assets: configuration.development ? .plain : staticFiles.assets,
            jar: jar
        )
    )
    // Who is signed in, for every page (error pages too: the layout names them); the routes that
    // need someone are behind `RequireSignInMiddleware` below.
    router.add(middleware: SignInMiddleware(people: dependencies.people, signer: dependencies.signer))
    // The page's language, once the person is known (their choice comes first); error pages too.
    router.add(middleware: LanguageMiddleware(defaultLanguage: configuration.defaultLanguage))
    router.add(middleware: ErrorPageMiddleware(renderer: renderer))
    router.add(middleware: AddressEncodingMiddleware())
    router.add(
        middleware: CSRFMiddleware(
            allowedOrigins: configuration.allowedOrigins, maxFormSize: configuration.maxFormSize,
            signer: dependencies.signer))
    if configuration.development {
        // Hummingbird's FileMiddleware serves what the routes answer 404, so it sits inside the
        // error pages.
        router.add(
            middleware: FileMiddleware(
                configuration.developmentDirectory.appendingPathComponent("Public").path, logger: logger))
    }

    router.get(Paths.health) { _, _ in "OK" }
    // The server's clock, for a group sit's page: it measures how far its own is off (several
    // round trips, the quickest kept) and rings every bell by the server's.
    router.get(Paths.clock) { _, _ -> Response in
        let milliseconds = Int64((dependencies.now().timeIntervalSince1970 * 1000).rounded())
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: #"{"now":\#(milliseconds)}"#)))
    }
    // Ready to serve: the storage answers (a balancer sends nobody to an instance that says 503).
    router.get(Paths.ready) { _, _ -> Response in
        do {
            try await dependencies.data.ping()
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "OK")))
        } catch {
            let message = StorageMessage.text(for: error, otherwise: "The database did not answer.")
            return Response(
                status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
        }
    }
    InstallRoutes(files: staticFiles, renderer: renderer, development: configuration.development).addRoutes(to: router)
    let services = RowServices(dependencies: dependencies, renderer: renderer, configuration: configuration)
    let people = PeopleRoutes(services: services)
    people.addPublicRoutes(to: router)
    let calendars = CalendarRoutes(services: services, memo: CalendarFeedMemo(events: dependencies.data.groupEvents))
    calendars.addPublicRoutes(to: router)
    let push = PushRoutes(services: services)
    push.addPublicRoutes(to: router)
    // Everything else is someone's: without a sign-in, a GET goes to the sign-in page.
    let signedIn = router.group().add(middleware: RequireSignInMiddleware())
    people.addRoutes(to: signedIn)
    calendars.addRoutes(to: signedIn)
    push.addRoutes(to: signedIn)
    AdminRoutes(services: services).addRoutes(to: signedIn.group().add(middleware: RequireAdministratorMiddleware()))
    GroupsRoutes(services: services, streams: streams).addRoutes(to: signedIn)
    HomeRoutes(services: services).addRoutes(to: signedIn)
    ProfilesRoutes(services: services).addRoutes(to: signedIn)
    SittingRoutes(services: services).addRoutes(to: signedIn)
    HistoryRoutes(services: services).addRoutes(to: signedIn)
    FriendsRoutes(services: services).addRoutes(to: signedIn)
    if let registry = dependencies.metrics {
        MetricsRoutes(registry: registry, access: configuration.metricsAccess).addRoutes(to: router)
    }
    MethodNotAllowedRoutes.add(to: router)
    return router
}
