import Crypto
import Foundation
import Hummingbird

/// The sign-in session's cookie: a random id of 256 bits, HttpOnly and SameSite=Lax (and
/// Secure behind TLS: `SecurityHeadersMiddleware` marks every cookie so). The database keeps
/// only its SHA-256 digest (`key`), so a copy of the database signs no one in.
enum SignInCookie {
    static let name = "sangha_session"
    /// The browser may keep it a year; the server ends a session unused for 30 days.
    static let maxAge = 365 * 86_400

    static func newID() -> String { FormToken.random() }

    /// The id of the request's cookie, when it looks like one of ours (64 hex digits).
    static func id(in cookies: Cookies) -> String? {
        guard let value = cookies[name]?.value, value.utf8.count == 64,
            value.utf8.allSatisfy({
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                    || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0)
            })
        else { return nil }
        return value
    }

    /// What the database knows the session by: the id's SHA-256, hex. Every signed-in request
    /// computes it, so no `String(format:)` (which took a fifth of a page's time).
    static func key(of id: String) -> String {
        FormToken.hex(SHA256.hash(data: Data(id.utf8)))
    }

    static func cookie(_ id: String) -> Cookie {
        Cookie(name: name, value: id, maxAge: maxAge, path: "/", httpOnly: true, sameSite: .lax)
    }

    static let cleared = Cookie(name: name, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .lax)
}
