import Crypto
import Foundation
import SanghaTokens

/// A secret that signs someone in or lets them in once: a sign-in session's id (`SignInCookie`),
/// the token of a one-use link (an invitation, a password reset), a browser's form nonce
/// (`FormToken`). 256 random bits as 64 hex digits; the database keeps only a token's SHA-256
/// (`key(of:)`), so a copy of the database opens nothing.
public enum SecretToken {
    /// `token` when it looks like one (64 lowercase hex digits), else nil: nothing else is ever
    /// looked up or put back into a page.
    static func wellFormed(_ token: String) -> String? {
        let bytes = token.utf8
        guard bytes.count == 64,
            bytes.allSatisfy({
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            })
        else { return nil }
        return token
    }

    /// A new secret (a token, a nonce): 32 random bytes, hex.
    public static func make() -> String {
        hex(SecureRandom.bytes(32))
    }

    /// `bytes` as lowercase hex digits, two per byte.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for byte in bytes {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// What the database knows it by: its SHA-256, hex. Every signed-in request computes it, so
    /// no `String(format:)` (which took a fifth of a page's time).
    public static func key(of token: String) -> String { hex(SHA256.hash(data: Data(token.utf8))) }
}
