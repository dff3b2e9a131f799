import Hummingbird

/// The sign-in session's cookie: a random id of 256 bits, HttpOnly and SameSite=Lax (and a
/// Secure `__Host-` cookie behind TLS: `CookieJar`). The database keeps
/// only its SHA-256 digest (`key`), so a copy of the database signs no one in.
enum SignInCookie {
    static let name = "sangha_session"
    /// The browser may keep it a year; the server ends a session unused for 30 days.
    static let maxAge = 365 * 86_400

    static func newID() -> String { SecretToken.make() }

    /// The id of the request's cookie, when it looks like one of ours (64 hex digits).
    static func id(in cookies: RequestCookies, jar: CookieJar) -> String? {
        jar.value(name, in: cookies).flatMap(SecretToken.wellFormed)
    }

    /// What the database knows the session by.
    static func key(of id: String) -> String { SecretToken.key(of: id) }

    static func cookie(_ id: String, jar: CookieJar) -> Cookie { jar.cookie(name, value: id, maxAge: maxAge) }

    static func cleared(jar: CookieJar) -> Cookie { jar.cleared(name) }
}
