import Foundation
import JWTKit
import SanghaTestSupport
import Synchronization
import Testing

@testable import SanghaOIDC

/// The relying party against an OpenID provider on loopback: what it believes, and everything
/// it must refuse.
@Suite("Signing in with the identity provider")
struct OpenIDProviderTests {
    static let redirect = "http://127.0.0.1:8080/sign-in/oidc"

    /// A provider, and a relying party configured for it, whose calls may take `timeout`: 30 s by
    /// default, a bound for a busy machine (a full parallel run once held this provider's
    /// discovery past 5 s); the test of a provider that does not answer gives its own.
    static func withProvider(
        timeout: Duration = .seconds(30), clock: TestClock = TestClock(),
        _ body: (TestOpenIDProvider, OpenIDProvider) async throws -> Void
    ) async throws {
        let provider = try await TestOpenIDProvider.start()
        defer { provider.stop() }
        let client = OpenIDProvider(
            configuration: .init(
                issuer: URL(string: provider.issuer)!, clientID: TestOpenIDProvider.clientID,
                clientSecret: TestOpenIDProvider.clientSecret, name: "Pocket ID", timeout: timeout),
            clock: { clock.now })
        try await body(provider, client)
    }

    /// The relying party's clock, moved on by the test rather than waited for.
    final class TestClock: Sendable {
        private let start = ContinuousClock.now
        private let offset = Mutex(Duration.zero)

        var now: ContinuousClock.Instant { start + offset.withLock { $0 } }

        func advance(_ duration: Duration) {
            offset.withLock { $0 += duration }
        }
    }

    /// The subject a sign-in with a token signed by `kid` names; throws its refusal.
    static func subject(_ provider: TestOpenIDProvider, _ client: OpenIDProvider, code: String, kid: String?)
        async throws -> String
    {
        try await signIn(provider, client, code: code, kid: kid).get().subject
    }

    /// A sign-in with a token signed by `kid`: its identity, or the refusal.
    static func signIn(
        _ provider: TestOpenIDProvider, _ client: OpenIDProvider, code: String, kid: String?
    ) async -> Result<OpenIDProvider.Identity, OpenIDProvider.Failure> {
        let attempt = OpenIDProvider.Attempt.make()
        provider.prepare(code: code, provider.grant(subject: "a", nonce: attempt.nonce, kid: kid))
        do throws(OpenIDProvider.Failure) {
            return .success(try await client.identity(code: code, attempt: attempt, redirectURI: Self.redirect))
        } catch {
            return .failure(error)
        }
    }

    @Test("The authorization request carries the client, the state, the nonce and an S256 challenge of the verifier")
    func authorizationURL() async throws {
        try await Self.withProvider { provider, client in
            let attempt = OpenIDProvider.Attempt.make()
            let url = try await client.authorizationURL(for: attempt, redirectURI: Self.redirect)
            let items = Dictionary(
                uniqueKeysWithValues: (URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
                    ($0.name, $0.value ?? "")
                })
            #expect(url.absoluteString.hasPrefix("\(provider.issuer)/authorize?"))
            #expect(items["response_type"] == "code" && items["client_id"] == "sangha")
            #expect(items["redirect_uri"] == Self.redirect && items["scope"] == "openid profile")
            #expect(items["state"] == attempt.state && items["nonce"] == attempt.nonce)
            #expect(items["code_challenge_method"] == "S256")
            #expect(items["code_challenge"] == OpenIDProvider.challenge(for: attempt.verifier))
            #expect(items["code_challenge"] != attempt.verifier)
            // RFC 7636's example: the verifier's S256 challenge.
            #expect(
                OpenIDProvider.challenge(for: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
                    == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        }
    }

    @Test("A code for a valid token, signed ES256 or RS256, names the person by issuer and subject")
    func signsIn() async throws {
        try await Self.withProvider { provider, client in
            for kid in ["es-1", "rs-1"] {
                let attempt = OpenIDProvider.Attempt.make()
                var grant = provider.grant(
                    subject: "sub-\(kid)", nonce: attempt.nonce, kid: kid,
                    challenge: OpenIDProvider.challenge(for: attempt.verifier))
                grant.name = "Grace Hopper"
                grant.preferredUsername = "grace"
                // An authorized party that is Sangha's client id is as good as none.
                grant.authorizedParty = kid == "rs-1" ? TestOpenIDProvider.clientID : nil
                provider.prepare(code: "code-\(kid)", grant)
                let identity = try await client.identity(
                    code: "code-\(kid)", attempt: attempt, redirectURI: Self.redirect)
                #expect(
                    identity
                        == .init(
                            issuer: provider.issuer, subject: "sub-\(kid)", name: "Grace Hopper",
                            preferredUsername: "grace"))
            }
        }
    }

    /// What must be refused, each on its own: nothing of it is believed.
    enum Wrong: String, CaseIterable, CustomTestStringConvertible {
        case otherNonce, noNonce, otherAudience, otherIssuer, expired, unknownKey, otherVerifier, codeUsedTwice,
            unknownCode, otherAuthorizedParty, otherHeaderAlgorithm, emptySubject
        var testDescription: String { rawValue }
    }

    @Test(
        "Refused: another nonce, none, another audience or issuer, expired, an unknown key, another PKCE verifier, a code used twice or never issued, another authorized party, a header naming another algorithm than its key's, an empty subject",
        arguments: Wrong.allCases)
    func refuses(_ wrong: Wrong) async throws {
        try await Self.withProvider { provider, client in
            let attempt = OpenIDProvider.Attempt.make()
            var grant = provider.grant(
                subject: "248289761001", nonce: attempt.nonce,
                challenge: OpenIDProvider.challenge(for: attempt.verifier))
            var verifier = attempt
            switch wrong {
            case .otherNonce: grant.nonce = "another"
            case .noNonce: grant.nonce = nil
            case .otherAudience: grant.audience = ["another-client"]
            case .otherIssuer: grant.issuer = "https://impostor.example"
            case .expired: grant.expires = Date().addingTimeInterval(-5)
            case .unknownKey: grant.kid = "stranger"
            case .otherVerifier: verifier.verifier = "not-the-one-the-challenge-was-made-from"
            case .codeUsedTwice, .unknownCode: break
            // Sangha is the token's one audience; another client is its authorized party.
            case .otherAuthorizedParty: grant.authorizedParty = "another-client"
            // Signed by the ES256 key, its header naming RS256 (which jwt-kit alone lets pass).
            case .otherHeaderAlgorithm: grant.headerAlgorithm = "RS256"
            case .emptySubject: grant.subject = ""
            }
            provider.prepare(code: "the-code", grant)
            if wrong == .codeUsedTwice {
                _ = try await client.identity(code: "the-code", attempt: attempt, redirectURI: Self.redirect)
            }
            let code = wrong == .unknownCode ? "never-issued" : "the-code"
            await #expect(throws: OpenIDProvider.Failure.self) {
                try await client.identity(code: code, attempt: verifier, redirectURI: Self.redirect)
            }
        }
    }

    @Test(
        "A token signed by a key the provider rotated in is verified after one new fetch of its keys; a stranger's key costs at most one fetch a minute"
    )
    func rotatedKeys() async throws {
        try await Self.withProvider { provider, client in
            let attempt = OpenIDProvider.Attempt.make()
            provider.prepare(code: "before", provider.grant(subject: "a", nonce: attempt.nonce))
            _ = try await client.identity(code: "before", attempt: attempt, redirectURI: Self.redirect)
            #expect(provider.jwksFetches == 1)
            try await provider.rotate(to: "es-2", withdrawing: ["es-1"])
            provider.prepare(code: "after", provider.grant(subject: "a", nonce: attempt.nonce, kid: "es-2"))
            let identity = try await client.identity(code: "after", attempt: attempt, redirectURI: Self.redirect)
            #expect(identity.subject == "a")
            #expect(provider.jwksFetches == 2)
            // A key it does not publish: one more fetch, refused; refused again without one.
            for code in ["stranger-1", "stranger-2"] {
                provider.prepare(code: code, provider.grant(subject: "a", nonce: attempt.nonce, kid: "stranger"))
                await #expect(throws: OpenIDProvider.Failure.self) {
                    try await client.identity(code: code, attempt: attempt, redirectURI: Self.redirect)
                }
                #expect(provider.jwksFetches == 3)
            }
        }
    }

    @Test(
        "Keys are read again after an hour, so a withdrawn key stops verifying; sooner as the JWKS's max-age says, never within a minute"
    )
    func keysExpire() async throws {
        let clock = TestClock()
        try await Self.withProvider(clock: clock) { provider, client in
            let subject1 = try await Self.subject(provider, client, code: "1", kid: "es-1")
            #expect(subject1 == "a")
            #expect(provider.jwksFetches == 1)
            // Withdrawn: still believed within the hour, without a fetch…
            provider.publishOnly(["rs-1"])
            clock.advance(.seconds(3_599))
            let subject2 = try await Self.subject(provider, client, code: "2", kid: "es-1")
            #expect(subject2 == "a")
            #expect(provider.jwksFetches == 1)
            // …and refused once the hour is over: the keys are read again.
            clock.advance(.seconds(2))
            guard case .failure(.refused) = await Self.signIn(provider, client, code: "3", kid: "es-1") else {
                Issue.record("a withdrawn key still verifies after an hour")
                return
            }
            #expect(provider.jwksFetches == 2)
            let subject4 = try await Self.subject(provider, client, code: "4", kid: "rs-1")
            #expect(subject4 == "a")
            #expect(provider.jwksFetches == 2)
        }
        // The JWKS's own max-age, within a minute and an hour.
        for (cacheControl, kept, readAgain) in [
            ("public, max-age=300", 299, 301), ("no-store", 59, 61), ("max-age=0", 59, 61),
            ("max-age=86400", 3_599, 3_601),
        ] {
            let clock = TestClock()
            try await Self.withProvider(clock: clock) { provider, client in
                provider.cacheKeys(cacheControl)
                _ = try await Self.signIn(provider, client, code: "1", kid: "es-1").get()
                clock.advance(.seconds(kept))
                _ = try await Self.signIn(provider, client, code: "2", kid: "es-1").get()
                #expect(provider.jwksFetches == 1, "\(cacheControl)")
                clock.advance(.seconds(readAgain - kept))
                _ = try await Self.signIn(provider, client, code: "3", kid: "es-1").get()
                #expect(provider.jwksFetches == 2, "\(cacheControl)")
            }
        }
    }

    @Test("A key the JWKS lacks is looked for again at most once a minute, by the relying party's clock")
    func unknownKeyPause() async throws {
        let clock = TestClock()
        try await Self.withProvider(clock: clock) { provider, client in
            _ = try await Self.signIn(provider, client, code: "1", kid: "es-1").get()
            #expect(provider.jwksFetches == 1)
            for (code, wait, fetches) in [("2", 0, 2), ("3", 59, 2), ("4", 2, 3)] {
                clock.advance(.seconds(wait))
                guard case .failure(.refused) = await Self.signIn(provider, client, code: code, kid: "stranger") else {
                    Issue.record("a stranger's key verified")
                    return
                }
                #expect(provider.jwksFetches == fetches, "\(code)")
            }
        }
    }

    @Test("A token naming no key is verified by the provider's one key, and refused while it publishes several")
    func tokenWithoutKeyID() async throws {
        try await Self.withProvider { provider, client in
            let attempt = OpenIDProvider.Attempt.make()
            provider.prepare(code: "several", provider.grant(subject: "a", nonce: attempt.nonce, kid: nil))
            await #expect(throws: OpenIDProvider.Failure.self) {
                try await client.identity(code: "several", attempt: attempt, redirectURI: Self.redirect)
            }
        }
        try await Self.withProvider { provider, client in
            provider.publishOnly(["es-1"])
            let attempt = OpenIDProvider.Attempt.make()
            provider.prepare(code: "one", provider.grant(subject: "a", nonce: attempt.nonce, kid: nil))
            let identity = try await client.identity(code: "one", attempt: attempt, redirectURI: Self.redirect)
            #expect(identity.subject == "a")
        }
    }

    @Test(
        "A provider that does not answer, or stalls after its head, costs the timeout, and says it cannot be reached",
        arguments: [false, true])
    func unreachable(afterHead: Bool) async throws {
        try await Self.withProvider(timeout: .seconds(1)) { provider, client in
            if afterHead { provider.stallBodies() } else { provider.answer(after: .seconds(60)) }
            let started = ContinuousClock.now
            await #expect(throws: OpenIDProvider.Failure.self) {
                try await client.authorizationURL(for: .make(), redirectURI: Self.redirect)
            }
            // A generous bound: the outcome is what is tested, not the machine's speed.
            #expect(ContinuousClock.now - started < .seconds(30))
            let outcome: Result<URL, OpenIDProvider.Failure>
            do throws(OpenIDProvider.Failure) {
                outcome = .success(try await client.authorizationURL(for: .make(), redirectURI: Self.redirect))
            } catch {
                outcome = .failure(error)
            }
            guard case .failure(.unreachable) = outcome else {
                Issue.record("\(outcome) is not .unreachable")
                return
            }
        }
    }
}
