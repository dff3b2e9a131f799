import Crypto
import Foundation
import Testing

@testable import SanghaWeb

/// `CookieSigner` signs from a copy of its keyed HMAC; a signature must be HMAC-SHA256 of
/// `purpose:value` with the secret, as every cookie signed before it was.
struct CookieSignerTests {
    @Test("A signature is HMAC-SHA256 of purpose:value under the secret, in hex")
    func sameAsHMAC() {
        let secret = (0..<32).map { UInt8($0 * 7 % 256) }
        let signer = CookieSigner(secret: secret)
        for (value, purpose) in [
            ("", "form"), ("nonce:key", "form"), ("é😀", "flash"), (String(repeating: "x", count: 300), "device"),
        ] {
            let expected = HMAC<SHA256>.authenticationCode(
                for: Data("\(purpose):\(value)".utf8), using: SymmetricKey(data: secret))
            #expect(signer.signature(value, for: purpose) == expected.map { String(format: "%02x", $0) }.joined())
        }
        // Signing one value leaves nothing behind for the next.
        #expect(signer.signature("a", for: "form") == signer.signature("a", for: "form"))
        #expect(signer.verified(signer.signed("kept", for: "flash"), for: "flash") == "kept")
        #expect(signer.verified(signer.signed("kept", for: "flash"), for: "device") == nil)
    }

    @Test("A form token, kept once made, is the nonce signed with the session, each signer's own")
    func formTokens() {
        let signer = CookieSigner(secret: Array(repeating: 1, count: 32))
        let other = CookieSigner(secret: Array(repeating: 2, count: 32))
        for _ in 0..<2 {
            #expect(signer.formToken(nonce: "n1", session: "k1") == signer.signature("n1:k1", for: "form"))
            #expect(signer.formToken(nonce: "n1", session: nil) == signer.signature("n1:", for: "form"))
            #expect(signer.formToken(nonce: "n2", session: "k1") == signer.signature("n2:k1", for: "form"))
            #expect(other.formToken(nonce: "n1", session: "k1") == other.signature("n1:k1", for: "form"))
        }
        #expect(signer.formToken(nonce: "n1", session: "k1") != other.formToken(nonce: "n1", session: "k1"))
        #expect(signer.keptFormTokens == 3)
        // A nonce made for this response alone: its token is signed, not kept.
        #expect(signer.formToken(nonce: "fresh", session: nil, keep: false) == signer.signature("fresh:", for: "form"))
        #expect(signer.keptFormTokens == 3)
    }
}
