import Hummingbird

/// The browser's CSRF nonce, kept in an HttpOnly, SameSite=Lax cookie (a `SecretToken`). The
/// token a form carries is this nonce signed together with the session
/// (`CookieSigner.formToken`).
enum FormToken {
    static let cookieName = "sangha_csrf"

    /// The nonce of the request's cookie, when it looks like one of ours (16–128 ASCII letters,
    /// digits, `-` or `_`); a malformed one is never echoed into a page.
    static func fromCookie(in cookies: RequestCookies, jar: CookieJar) -> String? {
        guard let value = jar.value(cookieName, in: cookies), (16...128).contains(value.utf8.count) else { return nil }
        let wellFormed = value.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
        return wellFormed ? value : nil
    }

    static func cookie(_ token: String, jar: CookieJar) -> Cookie { jar.cookie(cookieName, value: token) }
}
