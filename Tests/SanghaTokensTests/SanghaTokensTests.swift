import Foundation
import SanghaTokens
import Testing

@Suite("Tokens: base64url, the constant-time comparison, random bytes")
struct SanghaTokensTests {
    @Test("base64url: RFC 4648's test vectors, in the URL-safe alphabet and without padding")
    func vectors() {
        // RFC 4648 §10, padding dropped.
        for (text, encoded) in [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ] {
            #expect(Base64URL.encode(Array(text.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(text.utf8))
        }
        // The bytes that are `+` and `/` in base64 are `-` and `_` here.
        #expect(Base64URL.encode([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(Base64URL.decode("-_-_") == [0xFB, 0xFF, 0xBF])
        // RFC 7636 Appendix B: the S256 challenge of its verifier's SHA-256.
        let digest: [UInt8] = [
            19, 211, 30, 150, 26, 26, 216, 236, 47, 22, 177, 12, 76, 152, 46, 8, 118, 168, 120, 173, 109, 241, 68, 86,
            110, 225, 137, 74, 203, 112, 249, 195,
        ]
        #expect(Base64URL.encode(digest) == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    }

    @Test("base64url: padding is taken, anything else that is not base64url is refused")
    func decoding() {
        #expect(Base64URL.decode("Zm8=") == Array("fo".utf8))
        #expect(Base64URL.decode("Zg==") == Array("f".utf8))
        for text in ["+/+/", "Zm9!", "Z", "Zm9vY", "Z=g=", "Zm 9"] {
            #expect(Base64URL.decode(text) == nil, "\(text)")
        }
        let bytes = (0..<300).map { UInt8($0 % 256) }
        #expect(Base64URL.decode(Base64URL.encode(bytes)) == bytes)
    }

    @Test("Secrets compare equal only when they are the same bytes")
    func constantTime() {
        #expect(ConstantTime.equal("abc", "abc"))
        #expect(ConstantTime.equal("", ""))
        #expect(!ConstantTime.equal("abc", "abd"))
        #expect(!ConstantTime.equal("abc", "bbc"))
        #expect(!ConstantTime.equal("abc", "abcd"))
        #expect(!ConstantTime.equal("", "a"))
        // "é" precomposed and as e + combining accent are equal Strings, different bytes.
        #expect(!ConstantTime.equal("\u{E9}", "e\u{301}"))
    }

    @Test("Random bytes: as many as asked, every one of them drawn (not one a word, the rest zero)")
    func randomBytes() {
        for count in [0, 1, 7, 8, 9, 16, 32, 33] { #expect(SecureRandom.bytes(count).count == count) }
        let draws = (0..<500).map { _ in SecureRandom.bytes(32) }
        #expect(Set(draws).count == draws.count)
        // Each place takes many values over the draws: a place filled from nothing stays 0.
        for place in 0..<32 { #expect(Set(draws.map { $0[place] }).count > 100, "place \(place)") }
    }
}
