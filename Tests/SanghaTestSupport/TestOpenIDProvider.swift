import Crypto
import CryptoExtras
import Foundation
import Hummingbird
import JWTKit
import Logging
import NIOCore
import Synchronization

/// An OpenID provider on loopback, for the relying party's tests: its discovery document, its
/// JWKS (an ES256 and an RS256 key) and a token endpoint that hands out the ID token a test
/// prepared for a code, once, to the client with the right secret and PKCE verifier. Tests
/// rotate its keys, sign with a key it does not publish, or prepare claims that must be refused.
public final class TestOpenIDProvider: Sendable {
    public static let clientID = "sangha"
    public static let clientSecret = "s3cret: with/odd+chars"

    /// What the token endpoint answers for a code.
    public struct Grant: Sendable {
        public var subject: String
        public var nonce: String?
        public var audience: [String]
        public var issuer: String?
        public var expires: Date
        public var name: String?
        public var preferredUsername: String?
        /// The key that signs the token: "es-1", "rs-1", a key added later, or "stranger" (a
        /// key the provider never publishes); nil: "es-1", its token naming no key.
        public var kid: String?
        /// The S256 challenge the authorization request carried; nil: any verifier.
        public var challenge: String?
        /// The token's `azp`; nil: none.
        public var authorizedParty: String? = nil
        /// The `alg` its header names; nil: the signing key's own.
        public var headerAlgorithm: String? = nil
    }

    public let port: Int
    public var issuer: String { "http://127.0.0.1:\(port)" }
    private let keys: JWTKeyCollection
    private let state: Mutex<State>
    private let task: Task<Void, any Error>

    private struct State {
        var published: [JWK]
        var grants: [String: Grant] = [:]
        var used: Set<String> = []
        /// How many times the JWKS was fetched.
        var jwksFetches = 0
        /// The discovery document, JWKS and token endpoint answer after this long (a provider
        /// that hangs).
        var delay: Duration = .zero
        /// The discovery document's head is sent at once, then its body stalls (a provider that
        /// hangs half-way).
        var stallsBody = false
        /// The JWKS answer's Cache-Control; nil: none.
        var keysCacheControl: String?
    }

    private init(port: Int, keys: JWTKeyCollection, published: [JWK], task: Task<Void, any Error>) {
        (self.port, self.keys, self.task) = (port, keys, task)
        self.state = Mutex(State(published: published))
    }

    /// Starts the provider on a free loopback port.
    public static func start() async throws -> TestOpenIDProvider {
        let keys = JWTKeyCollection()
        let ecdsa = ES256PrivateKey()
        await keys.add(ecdsa: ecdsa, kid: "es-1")
        let rsa = try JWTKit.Insecure.RSA.PrivateKey(backing: _RSA.Signing.PrivateKey(keySize: .bits2048))
        await keys.add(rsa: rsa, digestAlgorithm: .sha256, kid: "rs-1")
        await keys.add(ecdsa: ES256PrivateKey(), kid: "stranger")
        let published = [try jwk(ecdsa, kid: "es-1"), try jwk(rsa, kid: "rs-1")]
        let started = PortPromise()
        let box = Mutex<TestOpenIDProvider?>(nil)
        let router = Router()
        router.get(".well-known/openid-configuration") { _, _ -> Response in
            let provider = try await box.withLock({ $0 })!.delayed()
            if provider.state.withLock({ $0.stallsBody }) {
                return Response(
                    status: .ok, headers: [.contentType: "application/json"],
                    body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: "{"))
                        try await Task.sleep(for: .seconds(60))
                        try await writer.finish(nil)
                    })
            }
            let issuer = provider.issuer
            return json([
                "issuer": issuer, "authorization_endpoint": "\(issuer)/authorize",
                "token_endpoint": "\(issuer)/token", "jwks_uri": "\(issuer)/jwks",
                "response_types_supported": ["code"], "id_token_signing_alg_values_supported": ["RS256", "ES256"],
                "token_endpoint_auth_methods_supported": ["client_secret_basic"],
            ])
        }
        router.get("jwks") { _, _ -> Response in
            let provider = try await box.withLock({ $0 })!.delayed()
            let (keys, cacheControl) = provider.state.withLock { state in
                state.jwksFetches += 1
                return (state.published, state.keysCacheControl)
            }
            let data = try JSONEncoder().encode(JWKS(keys: keys))
            var headers: HTTPFields = [.contentType: "application/json"]
            if let cacheControl { headers[.cacheControl] = cacheControl }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(data: data)))
        }
        router.post("token") { request, _ -> Response in
            let provider = try await box.withLock({ $0 })!.delayed()
            let body = try await request.body.collect(upTo: 1 << 16)
            return try await provider.token(form: String(buffer: body), authorization: request.headers[.authorization])
        }
        // Stopped by cancelling its task, which Hummingbird logs as errors: only worse is said.
        var quiet = Logger(label: "test-openid-provider")
        quiet.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in started.fulfil(channel.localAddress?.port ?? 0) },
            logger: quiet)
        let task = Task { try await app.runService() }
        let provider = TestOpenIDProvider(port: await started.port, keys: keys, published: published, task: task)
        box.withLock { $0 = provider }
        return provider
    }

    public func stop() {
        task.cancel()
    }

    /// A grant for `subject`, valid as a provider would make it; change what the test needs.
    public func grant(subject: String, nonce: String?, kid: String? = "es-1", challenge: String? = nil) -> Grant {
        Grant(
            subject: subject, nonce: nonce, audience: [Self.clientID], issuer: nil,
            expires: Date().addingTimeInterval(300), name: nil, preferredUsername: nil, kid: kid,
            challenge: challenge)
    }

    /// The token endpoint will answer `grant` for `code`, once.
    public func prepare(code: String, _ grant: Grant) {
        state.withLock { $0.grants[code] = grant }
    }

    /// A new ES256 key, published as `kid` (and the keys it replaces withdrawn).
    public func rotate(to kid: String, withdrawing: Set<String> = []) async throws {
        let key = ES256PrivateKey()
        await keys.add(ecdsa: key, kid: JWKIdentifier(string: kid))
        let published = try Self.jwk(key, kid: kid)
        state.withLock { state in
            state.published =
                state.published.filter { !withdrawing.contains($0.keyIdentifier?.string ?? "") }
                + [published]
        }
    }

    /// From now on the JWKS holds only the keys `kids`.
    public func publishOnly(_ kids: Set<String>) {
        state.withLock { state in
            state.published = state.published.filter { kids.contains($0.keyIdentifier?.string ?? "") }
        }
    }

    public var jwksFetches: Int { state.withLock { $0.jwksFetches } }

    /// From now on the JWKS is answered with this Cache-Control (nil: none).
    public func cacheKeys(_ cacheControl: String?) {
        state.withLock { $0.keysCacheControl = cacheControl }
    }

    /// From now on every answer comes `delay` late.
    public func answer(after delay: Duration) {
        state.withLock { $0.delay = delay }
    }

    /// From now on the discovery document's head comes at once and its body never ends.
    public func stallBodies() {
        state.withLock { $0.stallsBody = true }
    }

    private func delayed() async throws -> TestOpenIDProvider {
        let delay = state.withLock { $0.delay }
        if delay > .zero { try await Task.sleep(for: delay) }
        return self
    }

    private func token(form: String, authorization: String?) async throws -> Response {
        var fields: [String: String] = [:]
        for pair in form.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        let expected = "\(Self.formEncoded(Self.clientID)):\(Self.formEncoded(Self.clientSecret))"
        guard authorization == "Basic \(Data(expected.utf8).base64EncodedString())" else {
            return Self.json(["error": "invalid_client"], status: .unauthorized)
        }
        guard fields["grant_type"] == "authorization_code", let code = fields["code"] else {
            return Self.json(["error": "invalid_request"], status: .badRequest)
        }
        let grant = state.withLock { state -> Grant? in
            // A code works once.
            guard state.used.insert(code).inserted else { return nil }
            return state.grants[code]
        }
        guard let grant else { return Self.json(["error": "invalid_grant"], status: .badRequest) }
        if let challenge = grant.challenge {
            let verifier = fields["code_verifier"] ?? ""
            let computed = Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            guard computed == challenge else { return Self.json(["error": "invalid_grant"], status: .badRequest) }
        }
        let claims = Claims(
            iss: IssuerClaim(value: grant.issuer ?? issuer), sub: SubjectClaim(value: grant.subject),
            aud: AudienceClaim(value: grant.audience), exp: ExpirationClaim(value: grant.expires),
            iat: IssuedAtClaim(value: Date()), nonce: grant.nonce, azp: grant.authorizedParty, name: grant.name,
            preferred_username: grant.preferredUsername)
        var header = JWTHeader()
        // jwt-kit writes the key's own algorithm unless the header names one already.
        header.alg = grant.headerAlgorithm
        let token = try await keys.sign(claims, kid: grant.kid.map { JWKIdentifier(string: $0) }, header: header)
        return Self.json(["access_token": "opaque", "token_type": "Bearer", "id_token": token])
    }

    struct Claims: JWTPayload {
        var iss: IssuerClaim
        var sub: SubjectClaim
        var aud: AudienceClaim
        var exp: ExpirationClaim
        var iat: IssuedAtClaim
        var nonce: String?
        var azp: String?
        var name: String?
        var preferred_username: String?
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    private static func jwk(_ key: ES256PrivateKey, kid: String) throws -> JWK {
        guard let parameters = key.publicKey.parameters else { throw SanghaProcessError("an ES256 key without x, y") }
        return .ecdsa(
            .es256, identifier: JWKIdentifier(string: kid), x: parameters.x, y: parameters.y, curve: .p256)
    }

    private static func jwk(_ key: JWTKit.Insecure.RSA.PrivateKey, kid: String) throws -> JWK {
        let (modulus, exponent) = try key.publicKey.getKeyPrimitives()
        return .rsa(
            .rs256, identifier: JWKIdentifier(string: kid), modulus: base64URL(modulus), exponent: base64URL(exponent))
    }

    private static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func formEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    private static func json(_ object: [String: any Sendable], status: HTTPResponse.Status = .ok) -> Response {
        let data = (try? JSONSerialization.data(withJSONObject: object)) ?? Data()
        return Response(
            status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(data: data))
        )
    }
}

/// The port a server bound, once it has.
private final class PortPromise: Sendable {
    private let state = Mutex<(port: Int?, waiting: [CheckedContinuation<Int, Never>])>((nil, []))

    func fulfil(_ port: Int) {
        let waiting = state.withLock { state in
            state.port = port
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume(returning: port) }
    }

    var port: Int {
        get async {
            await withCheckedContinuation { continuation in
                let port = state.withLock { state -> Int? in
                    if let port = state.port { return port }
                    state.waiting.append(continuation)
                    return nil
                }
                if let port { continuation.resume(returning: port) }
            }
        }
    }
}
