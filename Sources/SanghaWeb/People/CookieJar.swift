import Hummingbird

/// The deployment's cookies, named and marked once, where they are made and read. Behind HTTPS
/// (`--public-url https://…`) each is a `__Host-` cookie, Secure, for `/` and this host only: a
/// browser keeps such a cookie only from this very host over HTTPS, so neither a sibling
/// subdomain nor a plain-HTTP page can plant a session or a form token, and one without the
/// prefix is never read. On plain HTTP (loopback) they go by their plain names.
public struct CookieJar: Sendable {
    let secure: Bool

    public init(secure: Bool) {
        self.secure = secure
    }

    /// Plain HTTP: loopback, tests.
    public static let plain = CookieJar(secure: false)

    /// What the browser calls the cookie `base`.
    func name(_ base: String) -> String { secure ? "__Host-\(base)" : base }

    /// The value of the request's cookie `base`, by this deployment's name for it.
    func value(_ base: String, in cookies: RequestCookies) -> String? { cookies[name(base)] }

    /// The cookie `base` for the whole site: HttpOnly, SameSite=Lax, Secure behind HTTPS.
    func cookie(_ base: String, value: String, maxAge: Int? = nil) -> Cookie {
        Cookie(
            name: name(base), value: value, maxAge: maxAge, path: "/", secure: secure, httpOnly: true,
            sameSite: .lax)
    }

    /// The cookie `base` gone (`Max-Age=0`).
    func cleared(_ base: String) -> Cookie { cookie(base, value: "", maxAge: 0) }
}
