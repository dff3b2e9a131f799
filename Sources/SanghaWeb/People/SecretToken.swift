import Crypto
import Foundation

/// A secret that signs someone in or lets them in once: a sign-in session's id (`SignInCookie`)
/// or the token of a one-use link (an invitation, a password reset). 256 random bits as 64 hex
/// digits; the database keeps only its SHA-256 (`key(of:)`), so a copy of the database opens
/// nothing.
enum SecretToken {
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

    /// A new token.
    static func make() -> String { FormToken.random() }

    /// What the database knows it by: its SHA-256, hex. Every signed-in request computes it, so
    /// no `String(format:)` (which took a fifth of a page's time).
    static func key(of token: String) -> String { FormToken.hex(SHA256.hash(data: Data(token.utf8))) }
}
