import Crypto
import Foundation
import SanghaPush
import SanghaTokens
import Synchronization
import Testing

@Suite("VAPID (RFC 8292)")
struct VAPIDTests {
    final class Clock: Sendable {
        let date = Mutex(Date(timeIntervalSince1970: 1_790_000_000))
        var now: Date { date.withLock { $0 } }
        func advance(_ seconds: TimeInterval) { date.withLock { $0 += seconds } }
    }

    struct Claims: Decodable, Equatable {
        let aud: String
        let exp: Int
        let sub: String
    }

    /// The token's header, claims and whether its signature is the public key's.
    static func read(_ token: String, publicKey: [UInt8]) throws -> (header: String, claims: Claims, valid: Bool) {
        let parts = token.split(separator: ".").map(String.init)
        try #require(parts.count == 3)
        let header = String(decoding: Base64URL.decode(parts[0])!, as: UTF8.self)
        let claims = try JSONDecoder().decode(Claims.self, from: Data(Base64URL.decode(parts[1])!))
        let key = try P256.Signing.PublicKey(x963Representation: publicKey)
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Base64URL.decode(parts[2])!)
        return (header, claims, key.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8)))
    }

    @Test("The header names the endpoint's origin, twelve hours at most, the contact, and the key that signed")
    func header() throws {
        let clock = Clock()
        let vapid = VAPID(privateKey: .init(), contact: "mailto:ops@sangha.org", now: { clock.now })
        let value = vapid.authorization(for: URL(string: "https://fcm.googleapis.com/fcm/send/abc:def")!)
        let match = try #require(value.wholeMatch(of: /vapid t=([^,]+), k=([A-Za-z0-9_-]+)/))
        let key = try #require(Base64URL.decode(String(match.2)))
        #expect(key.count == 65 && key[0] == 4)
        #expect(key == vapid.publicKey)
        let (header, claims, valid) = try Self.read(String(match.1), publicKey: key)
        #expect(header == #"{"typ":"JWT","alg":"ES256"}"#)
        #expect(claims.aud == "https://fcm.googleapis.com")
        #expect(claims.sub == "mailto:ops@sangha.org")
        let left = TimeInterval(claims.exp) - clock.now.timeIntervalSince1970
        #expect(left <= 12 * 3600 && left > 11 * 3600)
        #expect(valid)
        let other = try Self.read(String(match.1), publicKey: VAPID(privateKey: .init(), contact: "x").publicKey)
        #expect(!other.valid)
    }

    @Test("A token is kept per origin and made again an hour before it expires")
    func kept() throws {
        let clock = Clock()
        let vapid = VAPID(privateKey: .init(), contact: "https://sangha.org/contact", now: { clock.now })
        let first = vapid.token(for: "https://updates.push.services.mozilla.com")
        clock.advance(10 * 3600)
        #expect(vapid.token(for: "https://updates.push.services.mozilla.com") == first)
        #expect(vapid.token(for: "https://web.push.apple.com") != first)
        clock.advance(3600 + 1)
        let renewed = vapid.token(for: "https://updates.push.services.mozilla.com")
        #expect(renewed != first)
        let claims = try Self.read(renewed, publicKey: vapid.publicKey).claims
        #expect(TimeInterval(claims.exp) - clock.now.timeIntervalSince1970 <= 12 * 3600)
    }

    @Test("The key pair survives as the database keeps it (32 bytes)")
    func raw() throws {
        let raw = VAPID.makePrivateKey()
        #expect(raw.count == 32)
        let one = try #require(VAPID(rawPrivateKey: raw, contact: "mailto:a@b.org"))
        let two = try #require(VAPID(rawPrivateKey: raw, contact: "mailto:a@b.org"))
        #expect(one.publicKeyText == two.publicKeyText)
        #expect(VAPID(rawPrivateKey: [1, 2, 3], contact: "mailto:a@b.org") == nil)
    }

    @Test(
        "A contact a push service would refuse stops the start",
        arguments: [
            "mailto:ops@localhost", "mailto:ops@sangha.local", "mailto:ops@sangha.invalid", "mailto:ops@sangha.test",
            "mailto:ops@sangha.example", "https://localhost/contact", "https://sangha.test", "ops@sangha.org",
            "http://sangha.org", "mailto:", "mailto:@sangha.org", "https://", "mailto:ops@SANGHA.LOCAL",
        ])
    func refusedContacts(_ contact: String) {
        #expect(VAPID.contactRefusal(contact) != nil)
    }

    @Test(
        "A contact a push service takes",
        arguments: ["mailto:ops@sangha.org", "https://sangha.org/contact", "mailto:meditate@example.com"])
    func contacts(_ contact: String) {
        #expect(VAPID.contactRefusal(contact) == nil)
    }
}
