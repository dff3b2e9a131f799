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
}
