import Crypto
import Foundation
import SanghaPush
import SanghaTokens
import Testing

@Suite("Which subscriptions are taken")
struct PushEndpointsTests {
    static let key = Base64URL.encode(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
    static let auth = Base64URL.encode(Array(repeating: UInt8(9), count: 16))
    static let policy = PushEndpoints(allowedOrigins: ["http://127.0.0.1:9000", "https://push.sangha.org"])

    @Test(
        "The browsers' push services over https, and the allowed origins",
        arguments: [
            "https://fcm.googleapis.com/fcm/send/dQw4w9WgXcQ:APA91bH",
            "https://updates.push.services.mozilla.com/wpush/v2/gAAAAABk",
            "https://web.push.apple.com/QGuQyavXutnMNO",
            "https://wns2-par02p.notify.windows.com/w/?token=BQYAAAB",
            "http://127.0.0.1:9000/push/1", "https://push.sangha.org/p/1", "https://PUSH.sangha.org:443/p/2",
        ])
    func taken(_ endpoint: String) throws {
        let checked = try Self.policy.check(endpoint: endpoint, p256dh: Self.key, auth: Self.auth).get()
        #expect(checked.p256dh.count == 65 && checked.auth.count == 16)
    }

    @Test(
        "Any other address is refused, with why",
        arguments: [
            ("", PushEndpoints.Refusal.noEndpoint),
            ("not a url", .malformedEndpoint),
            ("/relative", .malformedEndpoint),
            ("http://fcm.googleapis.com/fcm/send/x", .notHTTPS),
            ("https://fcm.googleapis.com:8443/fcm/send/x", .unknownService),
            ("https://googleapis.com.evil.org/x", .unknownService),
            ("https://evilgoogleapis.com/x", .unknownService),
            ("https://169.254.169.254/latest/meta-data", .unknownService),
            ("http://127.0.0.1:9001/push/1", .unknownService),
            ("http://127.0.0.1:8080/settings", .unknownService),
            ("https://user:pw@fcm.googleapis.com/x", .malformedEndpoint),
            ("https://fcm.googleapis.com/x#y", .malformedEndpoint),
            ("ftp://fcm.googleapis.com/x", .notHTTPS),
            ("https://fcm.googleapis.com/" + String(repeating: "a", count: 2100), .malformedEndpoint),
        ])
    func refused(_ endpoint: String, _ refusal: PushEndpoints.Refusal) {
        #expect(Self.policy.check(endpoint: endpoint, p256dh: Self.key, auth: Self.auth) == .failure(refusal))
    }

    @Test("A browser key that is not a P-256 point, and a secret that is not 16 bytes, are refused")
    func keys() {
        let endpoint = "https://fcm.googleapis.com/fcm/send/x"
        var offCurve = Base64URL.decode(Self.key)!
        offCurve[64] ^= 1
        for bad in [
            "", "AAAA", Base64URL.encode(offCurve), Base64URL.encode(Array(repeating: UInt8(4), count: 65)),
            Base64URL.encode(Base64URL.decode(Self.key)!.dropLast()),
            // base64's `/` where base64url has a letter (a random key need not have a `_` to swap).
            String(Self.key.prefix(10)) + "/" + Self.key.dropFirst(11),
        ] {
            #expect(Self.policy.check(endpoint: endpoint, p256dh: bad, auth: Self.auth) == .failure(.badKey))
        }
        for bad in ["", Base64URL.encode(Array(repeating: UInt8(1), count: 15)), "!!!!"] {
            #expect(Self.policy.check(endpoint: endpoint, p256dh: Self.key, auth: bad) == .failure(.badAuth))
        }
    }

    @Test("Origins as the operator writes them")
    func origins() {
        #expect(PushEndpoints.origin(parsing: "https://Push.Sangha.org:443") == "https://push.sangha.org")
        #expect(PushEndpoints.origin(parsing: "http://127.0.0.1:9000/") == "http://127.0.0.1:9000")
        #expect(PushEndpoints.origin(parsing: "http://[::1]:9000") == "http://[::1]:9000")
        #expect(PushEndpoints.origin(parsing: "https://push.sangha.org/path") == nil)
        #expect(PushEndpoints.origin(parsing: "push.sangha.org") == nil)
        #expect(PushEndpoints.origin(parsing: "ftp://push.sangha.org") == nil)
        #expect(
            PushEndpoints.origin(of: URL(string: "https://fcm.googleapis.com/fcm/send/x")!)
                == "https://fcm.googleapis.com")
    }
}
