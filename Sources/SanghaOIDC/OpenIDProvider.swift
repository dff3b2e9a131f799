import AsyncHTTPClient
import Crypto
import Foundation
import JWTKit
import NIOCore
import SanghaTokens
import Synchronization

/// The group's identity provider, spoken to as an OpenID Connect relying party: the
/// authorization code flow with PKCE (S256), `state` and `nonce`; the provider's endpoints from
/// its discovery document; the ID token's signature checked by jwt-kit against the provider's
/// JWKS (RS256 or ES256), then its `iss`, `aud`, `exp` and `nonce`, before anything in it is
/// believed.
///
/// The discovery document and the keys are fetched when first needed (Sangha starts without
/// the provider) and kept: the discovery document for good, the keys for as long as the JWKS
/// answer's `Cache-Control: max-age` says, within a minute and an hour (an hour without one),
/// so a key the provider withdrew stops verifying within that time. A token signed by a key not
/// among them fetches the keys once more (the provider rotated them), at most once a minute for
/// the same unknown key. A token's header must name its key's own algorithm, its `azp` (when it
/// has one) must be Sangha's client id, and its `sub` must not be empty. Every call to the
/// provider is bounded by `timeout`.
public final class OpenIDProvider: Sendable {
    public struct Configuration: Sendable {
        /// The issuer, exactly as the provider names itself (`iss`).
        public var issuer: URL
        public var clientID: String
        public var clientSecret: String
        /// How people know the provider: "Sign in with NAME".
        public var name: String
        /// How long one call to the provider may take.
        public var timeout: Duration

        public init(issuer: URL, clientID: String, clientSecret: String, name: String, timeout: Duration = .seconds(5))
        {
            (self.issuer, self.clientID, self.clientSecret, self.name, self.timeout) =
                (issuer, clientID, clientSecret, name, timeout)
        }
    }

    /// What a sign-in in progress keeps between leaving for the provider and coming back (in a
    /// signed cookie): the secrets the answer must match.
    public struct Attempt: Codable, Sendable, Equatable {
        public var state: String
        public var nonce: String
        /// PKCE's code verifier; the provider saw only its SHA-256.
        public var verifier: String

        /// Three new random values.
        public static func make() -> Attempt {
            Attempt(state: randomToken(), nonce: randomToken(), verifier: randomToken())
        }
    }

    /// Who the provider says signed in: the pair (issuer, subject) names them; the rest only
    /// suggests a name for a new account.
    public struct Identity: Sendable, Equatable {
        public var issuer: String
        public var subject: String
        public var name: String?
        public var preferredUsername: String?
    }

    public enum Failure: Error, Sendable, Equatable {
        /// The provider could not be reached in time, or answered with something unusable.
        case unreachable(String)
        /// The answer is not to be believed (a refusal, another state, a bad token): the message
        /// is for the log.
        case refused(String)
    }

    public let configuration: Configuration
    /// AsyncHTTPClient's shared client: its deadline ends a call for certain (URLSession on
    /// Linux was seen never to call back under load, and a call waited on in a task group then
    /// held the sign-in forever).
    private let client = HTTPClient.shared
    private let cache = Mutex(Cache())
    /// The time the keys' age and the unknown keys' minute are counted in: a test's own clock.
    private let clock: @Sendable () -> ContinuousClock.Instant

    private struct Cache {
        var discovery: Discovery?
        var keys: Keys?
        /// Key ids a fetch did not find, and when: a token naming one is refused without
        /// fetching again for a minute, so unknown keys cannot make Sangha hammer the provider.
        var unknownKeys: [String: ContinuousClock.Instant] = [:]
    }

    /// The provider's keys as one fetch of its JWKS found them.
    struct Keys: Sendable {
        var collection: JWTKeyCollection
        /// Each key's algorithm by its id: the JWK's `alg`, else the one its type allows here.
        var algorithms: [String: String]
        var fetchedAt: ContinuousClock.Instant
        /// How long they are believed before the JWKS is read again (`keysLifetime`).
        var lifetime: Duration
    }

    /// The bounds of how long fetched keys are kept, whatever the JWKS answer's Cache-Control
    /// says: at least a minute (a provider that says `no-store` is not asked at every sign-in),
    /// at most an hour (a withdrawn key stops verifying within it); an hour without a max-age.
    public static let keysLifetimes: ClosedRange<Duration> = .seconds(60) ... .seconds(3_600)
    /// How long a token naming a key the JWKS lacks waits before that key is looked for again.
    public static let unknownKeyPause: Duration = .seconds(60)

    struct Discovery: Decodable, Sendable {
        var issuer: String
        var authorization_endpoint: URL
        var token_endpoint: URL
        var jwks_uri: URL
        var token_endpoint_auth_methods_supported: [String]?
    }

    /// `clock` tells the time the keys' lifetime is counted in (tests move it on rather than
    /// wait).
    public init(
        configuration: Configuration,
        clock: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.configuration = configuration
        self.clock = clock
    }

    /// Where to send the browser to sign in: the provider's authorization endpoint with this
    /// attempt's state, nonce and code challenge; `prompt` "login" asks the person to sign in
    /// there again even when the provider remembers them.
    public func authorizationURL(for attempt: Attempt, redirectURI: String, prompt: String? = nil)
        async throws(Failure) -> URL
    {
        let discovery = try await discover()
        guard var components = URLComponents(url: discovery.authorization_endpoint, resolvingAgainstBaseURL: false)
        else { throw .unreachable("authorization_endpoint is not a URL") }
        components.queryItems =
            (components.queryItems ?? []) + [
                URLQueryItem(name: "response_type", value: "code"),
                URLQueryItem(name: "client_id", value: configuration.clientID),
                URLQueryItem(name: "redirect_uri", value: redirectURI),
                URLQueryItem(name: "scope", value: "openid profile"),
                URLQueryItem(name: "state", value: attempt.state),
                URLQueryItem(name: "nonce", value: attempt.nonce),
                URLQueryItem(name: "code_challenge", value: Self.challenge(for: attempt.verifier)),
                URLQueryItem(name: "code_challenge_method", value: "S256"),
            ] + (prompt.map { [URLQueryItem(name: "prompt", value: $0)] } ?? [])
        guard let url = components.url else { throw .unreachable("authorization_endpoint is not a URL") }
        return url
    }

    /// The browser came back with `code` for `attempt`: the code is exchanged for an ID token,
    /// which is verified before its subject is believed.
    public func identity(code: String, attempt: Attempt, redirectURI: String, now: Date = Date())
        async throws(Failure) -> Identity
    {
        let discovery = try await discover()
        var request = HTTPClientRequest(url: discovery.token_endpoint.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        var form = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
            ("code_verifier", attempt.verifier), ("client_id", configuration.clientID),
        ]
        let methods = discovery.token_endpoint_auth_methods_supported ?? ["client_secret_basic"]
        if methods.contains("client_secret_basic") {
            let pair = "\(Self.formEncoded(configuration.clientID)):\(Self.formEncoded(configuration.clientSecret))"
            request.headers.add(name: "Authorization", value: "Basic \(Data(pair.utf8).base64EncodedString())")
        } else {
            form.append(("client_secret", configuration.clientSecret))
        }
        request.body = .bytes(ByteBuffer(string: form.map { "\($0)=\(Self.formEncoded($1))" }.joined(separator: "&")))
        let (data, status, _) = try await fetch(request)
        guard status == 200 else {
            // The provider refuses a code used twice, expired or not its own.
            throw .refused(
                "the token endpoint answered \(status): \(String(decoding: data.prefix(300), as: UTF8.self))")
        }
        struct TokenResponse: Decodable { var id_token: String }
        guard let token = try? JSONDecoder().decode(TokenResponse.self, from: data).id_token else {
            throw .refused("the token endpoint's answer has no id_token")
        }
        return try await verify(idToken: token, nonce: attempt.nonce, issuer: discovery.issuer, now: now)
    }

    /// The ID token's claims, once its signature (by a key of the provider, with that key's
    /// algorithm), issuer, audience, authorized party, expiry, nonce and subject hold.
    func verify(idToken: String, nonce: String, issuer: String, now: Date) async throws(Failure) -> Identity {
        let header = try Self.header(of: idToken)
        guard ["RS256", "ES256"].contains(header.alg) else {
            throw .refused("the ID token is signed with \(header.alg), not RS256 or ES256")
        }
        let keys = try await signingKeys(for: header.kid)
        let algorithm: String?
        if let kid = header.kid {
            // Not among them even after a new fetch (or one within the last minute).
            guard let known = keys.algorithms[kid] else {
                throw .refused("the ID token is signed by an unknown key \(kid)")
            }
            algorithm = known
        } else {
            // OpenID Connect Core 10.1: a token may name no key when the provider publishes one
            // (authlib-based providers sign so); with several, which one is not guessed.
            guard keys.algorithms.count == 1 else { throw .refused("the ID token names no key (kid) among several") }
            algorithm = keys.algorithms.values.first
        }
        // jwt-kit verifies with the key's own algorithm whatever the header says: a header that
        // names another is not the key's token (RFC 8725 3.1).
        guard algorithm == header.alg else {
            throw .refused(
                "the ID token's header names \(header.alg), its key is for \(algorithm ?? "another algorithm")")
        }
        let claims: IDTokenClaims
        do {
            claims = try await keys.collection.verify(idToken, as: IDTokenClaims.self)
        } catch {
            throw .refused("the ID token did not verify: \(error)")
        }
        guard claims.iss.value == issuer else { throw .refused("the ID token's issuer is \(claims.iss.value)") }
        do {
            try claims.aud.verifyIntendedAudience(includes: configuration.clientID)
        } catch {
            throw .refused("the ID token is for another audience: \(claims.aud.value)")
        }
        // OpenID Connect Core 3.1.3.7: an authorized party, when named, is this client.
        if let azp = claims.azp, azp != configuration.clientID {
            throw .refused("the ID token's authorized party is \(azp)")
        }
        guard claims.exp.value > now else { throw .refused("the ID token expired at \(claims.exp.value)") }
        guard let tokenNonce = claims.nonce, ConstantTime.equal(tokenNonce, nonce) else {
            throw .refused("the ID token's nonce is not this sign-in's")
        }
        // The subject names the person: an empty one names no one.
        guard !claims.sub.value.isEmpty else { throw .refused("the ID token's subject is empty") }
        return Identity(
            issuer: claims.iss.value, subject: claims.sub.value, name: claims.name,
            preferredUsername: claims.preferred_username)
    }

    /// Whether `issuer` (a discovery document's, or one kept with a person) is the configured
    /// one, a trailing slash aside: operators write it with or without.
    public func isIssuer(_ issuer: String) -> Bool {
        func bare(_ issuer: String) -> Substring { issuer.hasSuffix("/") ? issuer.dropLast() : issuer[...] }
        return bare(issuer) == bare(configuration.issuer.absoluteString)
    }

    /// PKCE's S256 challenge: base64url of the verifier's SHA-256, unpadded.
    static func challenge(for verifier: String) -> String {
        Base64URL.encode(Data(SHA256.hash(data: Data(verifier.utf8))))
    }

    // MARK: The provider's documents

    private func discover() async throws(Failure) -> Discovery {
        if let discovery = cache.withLock({ $0.discovery }) { return discovery }
        let url = configuration.issuer.appendingPathComponent(".well-known/openid-configuration")
        let (data, status, _) = try await fetch(HTTPClientRequest(url: url.absoluteString))
        guard status == 200, let discovery = try? JSONDecoder().decode(Discovery.self, from: data) else {
            throw .unreachable("\(url) answered \(status) without a usable discovery document")
        }
        // OpenID Connect Discovery: the document's issuer is the one configured (a trailing slash
        // aside, which operators add or leave out); tokens must name the document's exactly.
        guard isIssuer(discovery.issuer) else {
            throw .unreachable("the discovery document names the issuer \(discovery.issuer)")
        }
        cache.withLock { $0.discovery = discovery }
        return discovery
    }

    /// The provider's keys: fetched when first needed, again once they are older than their
    /// lifetime, and again for a key id not among them (`kid`) unless that id was missing from
    /// a fetch within the last minute.
    private func signingKeys(for kid: String?) async throws(Failure) -> Keys {
        let now = clock()
        let kept = cache.withLock { cache -> Keys? in
            guard let keys = cache.keys, now - keys.fetchedAt < keys.lifetime else { return nil }
            if let kid, keys.algorithms[kid] == nil,
                cache.unknownKeys[kid].map({ now - $0 >= Self.unknownKeyPause }) ?? true
            {
                return nil
            }
            return keys
        }
        if let kept { return kept }
        let discovery = try await discover()
        let (data, status, cacheControl) = try await fetch(HTTPClientRequest(url: discovery.jwks_uri.absoluteString))
        guard status == 200, let jwks = try? JSONDecoder().decode(JWKS.self, from: data) else {
            throw .unreachable("\(discovery.jwks_uri) answered \(status) without a usable JWKS")
        }
        let collection = JWTKeyCollection()
        var algorithms: [String: String] = [:]
        for key in jwks.keys {
            // Keys for other uses, or of kinds jwt-kit does not know, are left out.
            guard let kid = key.keyIdentifier?.string, let algorithm = Self.algorithm(of: key),
                (try? await collection.add(jwk: key)) != nil
            else { continue }
            algorithms[kid] = algorithm
        }
        let keys = Keys(
            collection: collection, algorithms: algorithms, fetchedAt: now,
            lifetime: Self.keysLifetime(cacheControl: cacheControl))
        cache.withLock { cache in
            cache.keys = keys
            cache.unknownKeys = cache.unknownKeys.filter { now - $0.value < Self.unknownKeyPause }
            if let kid, algorithms[kid] == nil { cache.unknownKeys[kid] = now }
        }
        return keys
    }

    /// The algorithm a key of the JWKS verifies with: its `alg`, else RS256 for an RSA key and
    /// ES256 for a P-256 one (the two Sangha accepts); nil for any other.
    static func algorithm(of key: JWK) -> String? {
        if let algorithm = key.algorithm { return algorithm.rawValue }
        switch key.keyType.rawValue {
        case "RSA": return "RS256"
        case "EC": return key.curve?.rawValue == "P-256" ? "ES256" : nil
        default: return nil
        }
    }

    /// How long keys are kept, from the JWKS answer's `Cache-Control`: its `max-age` within
    /// `keysLifetimes`, the least for `no-store` or `no-cache`, the most without either.
    static func keysLifetime(cacheControl: String) -> Duration {
        let directives = cacheControl.lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        if directives.contains("no-store") || directives.contains("no-cache") { return keysLifetimes.lowerBound }
        guard let seconds = directives.lazy.compactMap({ $0.hasPrefix("max-age=") ? Int($0.dropFirst(8)) : nil }).first
        else { return keysLifetimes.upperBound }
        return Swift.min(Swift.max(.seconds(seconds), keysLifetimes.lowerBound), keysLifetimes.upperBound)
    }

    /// The provider's answer (its body up to 1 MiB), status and Cache-Control, within the
    /// configured timeout.
    ///
    /// AsyncHTTPClient's deadline ends at the response's head; the body is bounded here too, by
    /// a race that cancels the request (which AsyncHTTPClient honours, head or body).
    private func fetch(_ request: HTTPClientRequest) async throws(Failure) -> (Data, Int, cacheControl: String) {
        let client = client
        let timeout = configuration.timeout
        let url = request.url
        let deadline = NIODeadline.now() + .nanoseconds(Int64(timeout.inSeconds * 1e9))
        let outcome = await withTaskGroup(of: Result<(Data, Int, cacheControl: String), Failure>?.self) { group in
            group.addTask {
                do {
                    let response = try await client.execute(request, deadline: deadline)
                    let body = try await response.body.collect(upTo: 1 << 20)
                    let cacheControl = response.headers[canonicalForm: "Cache-Control"].joined(separator: ",")
                    return .success((Data(body.readableBytesView), Int(response.status.code), cacheControl))
                } catch {
                    return Task.isCancelled ? nil : .failure(.unreachable("\(url): \(error)"))
                }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .failure(.unreachable("\(url) did not answer within \(timeout)"))
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first ?? .failure(.unreachable("\(url): cancelled"))
        }
        return try outcome.get()
    }

    // MARK: Token parts

    struct Header: Decodable {
        var alg: String
        var kid: String?
    }

    static func header(of token: String) throws(Failure) -> Header {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(String(parts[0])),
            let header = try? JSONDecoder().decode(Header.self, from: Data(data))
        else { throw .refused("the ID token is not a signed JWT") }
        return header
    }

    static func randomToken() -> String {
        Base64URL.encode(SecureRandom.bytes(32))
    }

    /// application/x-www-form-urlencoded, as RFC 6749 asks for the client's credentials too.
    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

/// The claims of an ID token that Sangha reads.
struct IDTokenClaims: JWTPayload {
    var iss: IssuerClaim
    var sub: SubjectClaim
    var aud: AudienceClaim
    var exp: ExpirationClaim
    var nonce: String?
    var azp: String?
    var name: String?
    var preferred_username: String?

    /// The time checks are the provider's caller's (`verify(idToken:)`, with its clock).
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

extension Duration {
    fileprivate var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
