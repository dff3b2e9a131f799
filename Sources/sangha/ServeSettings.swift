import ArgumentParser
import Foundation
import FriendServiceServer
import PostgresNIO
import SanghaCore
import SanghaOIDC
import SanghaPostgres
import SanghaPush
import SanghaWeb

/// Everything `sangha serve` runs with, resolved once from its flags and environment variables
/// and checked in one place. A flag wins over its variable, a variable over the default, and a
/// value that cannot be used stops the start with a message naming the flag or variable.
struct ServeSettings {
    enum FriendService: Equatable {
        /// The reference FriendService in the same process, on this loopback port.
        case embedded(port: Int)
        case remote(URL)
    }

    /// Where everything that outlives a request is kept.
    enum Storage {
        /// SQLite files in this folder: one instance.
        case sqlite(directory: URL)
        /// A PostgreSQL database: any number of instances.
        case postgres(PostgresClient.Configuration)
    }

    var app: AppConfiguration
    var dataDirectory: URL
    var storage: Storage
    var friendService: FriendService
    var friendServiceToken: String?
    var friendServiceTimeout: Duration
    /// Listening beyond loopback (allowed by --allow-remote).
    var isRemote: Bool
    /// bcrypt's cost for new passwords.
    var passwordCost: UInt8
    /// The group's identity provider, when one is configured.
    var identityProvider: OpenIDProvider.Configuration?
    /// Notifications by Web Push (`--push-contact`), when on.
    var push: Push?

    struct Push: Equatable {
        /// The VAPID `sub`: `mailto:` or `https:`.
        var contact: String
        /// Origins taken besides the browsers' push services (`--push-allow-endpoint`).
        var allowedOrigins: [String]
        /// Messages begun a second at most (`--push-rate`).
        var rate = Push.defaultRate

        /// A sit of 2,000 devices in about 4 s, while a busy editor keeps 0.84–0.91 of its pace
        /// (0.70 as fast as they come: `make bench-push`, docs/performance.md).
        static let defaultRate = 500
    }

    /// With the embedded service Sangha gives each person a token; with a remote one they paste theirs.
    var friendServiceTokens: FriendTokenPolicy.Source {
        if case .remote = friendService { .pasted } else { .issued }
    }

    /// The FriendService's address, embedded or remote.
    var friendServiceURL: URL {
        switch friendService {
        case .embedded(let port): URL(string: "http://127.0.0.1:\(port)")!
        case .remote(let url): url
        }
    }

    /// The address people use: the public URL's, else where this process listens (the loopback
    /// name for an address that means every interface).
    var localAddress: String {
        app.publicURL?.absoluteString ?? Self.address(host: app.host, port: app.port)
    }

    /// `http://HOST:PORT` for a listening address (the loopback name for one that means every
    /// interface).
    static func address(host: String, port: Int) -> String {
        let name = ["0.0.0.0", "::", "[::]"].contains(host) ? "127.0.0.1" : host
        return "http://\(name.contains(":") && !name.hasPrefix("[") ? "[\(name)]" : name):\(port)"
    }

    init(_ command: ServeCommand, environment: [String: String]) throws {
        let source = SettingSource(environment: environment)
        let host = command.host ?? source.text("SANGHA_HOST") ?? "127.0.0.1"
        let allowRemote = try source.flag(command.allowRemote, variable: "SANGHA_ALLOW_REMOTE")
        isRemote = !Self.isLoopback(host)
        if isRemote, !allowRemote {
            throw ValidationError(
                "Listening on \(host) would expose Sangha beyond this machine. Pass --allow-remote to do it anyway.")
        }
        let port = try source.port(
            command.port, flag: "--port", variable: "SANGHA_PORT", default: AppConfiguration.defaultPort)
        let extraHosts = source.list(command.allowedHost, variable: "SANGHA_ALLOWED_HOSTS")
        let development = try source.flag(command.dev, variable: "SANGHA_DEV")
        let resources = (command.resourcesDir ?? source.text("SANGHA_RESOURCES_DIR")).map {
            URL(fileURLWithPath: $0)
        }
        let metricsAllowed = source.list(command.metricsAllowed, variable: "SANGHA_METRICS_ALLOWED")
        let metricsAddresses = try metricsAllowed.map { address in
            guard let canonical = MetricsAccess.address(address) else {
                throw ValidationError(
                    "--metrics-allowed takes IP addresses, like 10.0.0.7 or fd00::7, got '\(address)'.")
            }
            return canonical
        }
        var publicURL: URL?
        if let text = command.publicURL ?? source.text("SANGHA_PUBLIC_URL") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme),
                url.host != nil, url.path.isEmpty || url.path == "/", url.query == nil
            else {
                throw ValidationError(
                    "--public-url must be the site's address, like https://sangha.example, got '\(text)'.")
            }
            publicURL = url
        }
        let signUpText = command.signUp ?? source.text("SANGHA_SIGN_UP") ?? SignUpMode.invite.rawValue
        guard let signUp = SignUpMode(rawValue: signUpText.lowercased()) else {
            throw ValidationError("--sign-up must be invite, admin-invite, open or closed, got '\(signUpText)'.")
        }
        let addressLimit = try source.number(
            command.addressLimit, variable: "SANGHA_ADDRESS_LIMIT", default: Guessing.defaultAddressLimit)
        guard addressLimit >= 0 else { throw ValidationError("--address-limit must be 0 (no limit) or more.") }
        let proxies = try source.list(command.trustedProxies, variable: "SANGHA_TRUSTED_PROXIES")
            .flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { !$0.isEmpty }
            .map { address in
                guard let canonical = MetricsAccess.address(address) else {
                    throw ValidationError(
                        "--trusted-proxies takes IP addresses, like 10.0.0.2,fd00::2, got '\(address)'.")
                }
                return canonical
            }
        let connectionsPerAddress = try source.number(
            command.connectionsPerAddress, variable: "SANGHA_CONNECTIONS_PER_ADDRESS",
            default: AppConfiguration.defaultConnectionsPerAddress)
        guard connectionsPerAddress >= 0 else {
            throw ValidationError("--connections-per-address must be 0 (no limit) or more.")
        }
        identityProvider = try Self.identityProvider(command, source: source)
        let passwordSignInText = command.passwordSignIn ?? source.text("SANGHA_PASSWORD_SIGN_IN") ?? "on"
        guard let passwordSignIn = ["on": true, "off": false][passwordSignInText.lowercased()] else {
            throw ValidationError("--password-sign-in must be on or off, got '\(passwordSignInText)'.")
        }
        if !passwordSignIn, identityProvider == nil {
            throw ValidationError(
                "--password-sign-in off leaves no way to sign in without an identity provider: pass --oidc-issuer too.")
        }
        let languageText = command.defaultLanguage ?? source.text("SANGHA_DEFAULT_LANGUAGE") ?? "en"
        guard let defaultLanguage = Language.shipped(tag: languageText) else {
            throw ValidationError(
                "--default-language must be one of \(Language.shipped.map(\.tag).joined(separator: ", ")), "
                    + "got '\(languageText)'.")
        }
        let cost = command.passwordCost ?? 12
        guard (4...16).contains(cost) else { throw ValidationError("--password-cost must be between 4 and 16.") }
        passwordCost = UInt8(cost)
        app = AppConfiguration(
            host: host,
            port: port,
            resourcesDirectory: resources,
            development: development,
            extraAllowedHosts: extraHosts,
            metricsAccess: MetricsAccess(allowed: metricsAddresses),
            publicURL: publicURL,
            signUp: signUp,
            passwordSignIn: passwordSignIn,
            defaultLanguage: defaultLanguage,
            addressLimit: addressLimit,
            trustedProxies: Set(proxies),
            connectionsPerAddress: connectionsPerAddress
        )
        dataDirectory = source.dataDirectory(command.dataDir)
        if let text = command.databaseURL ?? source.text("SANGHA_DATABASE_URL") {
            switch PostgresDatabase.configuration(url: text) {
            case .success(let configuration): storage = .postgres(configuration)
            case .failure(let why):
                let name = command.databaseURL != nil ? "--database-url" : "SANGHA_DATABASE_URL"
                throw ValidationError(
                    "\(name) must be postgres://USER[:PASSWORD]@HOST:PORT/DATABASE, but \(why): '\(Self.redacted(text))'."
                )
            }
        } else {
            storage = .sqlite(directory: dataDirectory)
        }

        if let text = command.friendServiceURL ?? source.text("SANGHA_FRIEND_SERVICE_URL") {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                ["http", "https"].contains(scheme), url.host != nil
            else {
                throw ValidationError("--friend-service-url must be an http:// or https:// URL, got '\(text)'.")
            }
            friendService = .remote(url)
        } else {
            friendService = .embedded(
                port: try source.port(
                    command.friendServicePort, flag: "--friend-service-port", variable: "SANGHA_FRIEND_SERVICE_PORT",
                    default: FriendServiceApplication.Configuration.defaultPort))
        }
        friendServiceToken = command.friendServiceToken ?? source.text("SANGHA_FRIEND_SERVICE_TOKEN")
        let seconds = try source.number(
            command.friendServiceTimeout, variable: "SANGHA_FRIEND_SERVICE_TIMEOUT", default: 3.0)
        guard seconds > 0, seconds <= 300 else {
            throw ValidationError("--friend-service-timeout must be more than 0 and at most 300 seconds.")
        }
        friendServiceTimeout = .milliseconds(Int((seconds * 1000).rounded()))
        push = try Self.push(command, source: source)
    }

    /// `--push-contact`, `--push-allow-endpoint` and `--push-rate`: a contact a push service
    /// takes, origins, and how many messages a second.
    static func push(_ command: ServeCommand, source: SettingSource) throws -> Push? {
        let origins = try source.list(command.pushAllowEndpoint, variable: "SANGHA_PUSH_ALLOW_ENDPOINTS")
            .flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
            .filter { !$0.isEmpty }
            .map { text in
                guard let origin = PushEndpoints.origin(parsing: text) else {
                    throw ValidationError(
                        "--push-allow-endpoint takes an origin, like https://push.example.org or http://127.0.0.1:9000, got '\(text)'."
                    )
                }
                return origin
            }
        let rate = try source.number(command.pushRate, variable: "SANGHA_PUSH_RATE")
        if let rate, !(1...100_000).contains(rate) {
            throw ValidationError("--push-rate must be between 1 and 100000 notifications a second, got \(rate).")
        }
        let name = command.pushContact != nil ? "--push-contact" : "SANGHA_PUSH_CONTACT"
        guard let contact = command.pushContact ?? source.text("SANGHA_PUSH_CONTACT") else {
            if !origins.isEmpty { throw ValidationError("--push-allow-endpoint needs --push-contact.") }
            if rate != nil { throw ValidationError("--push-rate needs --push-contact.") }
            return nil
        }
        if let why = VAPID.contactRefusal(contact) {
            throw ValidationError("\(name) '\(contact)' cannot be the push services' contact: \(why).")
        }
        return Push(contact: contact, allowedOrigins: origins, rate: rate ?? Push.defaultRate)
    }

    /// A database URL for a message: its password, if any, replaced by `***`.
    /// The identity provider of `--oidc-*`: its issuer, client id and secret together, or none.
    static func identityProvider(_ command: ServeCommand, source: SettingSource) throws
        -> OpenIDProvider.Configuration?
    {
        let issuerText = command.oidcIssuer ?? source.text("SANGHA_OIDC_ISSUER")
        let clientID = command.oidcClientID ?? source.text("SANGHA_OIDC_CLIENT_ID")
        let secret = command.oidcClientSecret ?? source.text("SANGHA_OIDC_CLIENT_SECRET")
        guard let issuerText else {
            if clientID != nil || secret != nil {
                throw ValidationError("--oidc-client-id and --oidc-client-secret need --oidc-issuer.")
            }
            return nil
        }
        guard let issuer = URL(string: issuerText), let scheme = issuer.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = issuer.host, issuer.query == nil
        else {
            throw ValidationError(
                "--oidc-issuer must be the provider's issuer URL, like https://id.example, got '\(issuerText)'.")
        }
        guard let clientID, !clientID.isEmpty else {
            throw ValidationError("--oidc-issuer needs --oidc-client-id (or SANGHA_OIDC_CLIENT_ID).")
        }
        guard let secret, !secret.isEmpty else {
            throw ValidationError("--oidc-issuer needs --oidc-client-secret (or SANGHA_OIDC_CLIENT_SECRET).")
        }
        let name = command.oidcName ?? source.text("SANGHA_OIDC_NAME") ?? host
        return OpenIDProvider.Configuration(issuer: issuer, clientID: clientID, clientSecret: secret, name: name)
    }

    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url), components.password != nil else { return url }
        components.password = "***"
        return components.string ?? url
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }
}
