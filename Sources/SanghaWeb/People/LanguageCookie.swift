import Hummingbird
import SanghaCore

/// The `lang` cookie: the language a person picked at the foot of the sign-in or sign-up page
/// (its tag, `de`), kept a year. Not secret and not signed: it only chooses among the languages
/// Sangha speaks, and any other value is as if there were none.
enum LanguageCookie {
    static let name = "lang"
    static let maxAge = 365 * 24 * 60 * 60

    static func cookie(_ language: Language, jar: CookieJar) -> Cookie {
        jar.cookie(name, value: language.tag, maxAge: maxAge)
    }

    /// The cookie's value: by this deployment's name for it (`__Host-lang` behind HTTPS), else
    /// plainly `lang`.
    static func value(in cookies: RequestCookies, jar: CookieJar) -> String? {
        jar.value(name, in: cookies) ?? cookies[name]
    }
}
