import Foundation
import HTTPTypes
import Hummingbird
import SanghaCore
import SanghaTokens
import SanghaViewModels

/// Builds the request's `PageContext`, the one value every page gets: the browser's form token
/// (its CSRF cookie's nonce, or a new one that the response then sets, signed; `SignInMiddleware`
/// binds it to the session), the flash the previous response left in a cookie, the time and
/// time zone, and the static files' addresses.
///
/// A flash is shown once: a response that is not itself a redirect, nor the answer to a page's
/// script's post (`Request.isScriptPost`), has shown it, so it clears the cookie. A flash is signed when it is made (`PageRenderer.redirect`) and read only with its
/// signature, so no one can put words on a page by planting a cookie.
struct PageContextMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let makeFormToken: @Sendable () -> String
    let signer: CookieSigner
    let signUp: SignUpMode
    /// The identity provider's name, and whether passwords sign in too.
    let signInProvider: String?
    let passwordSignIn: Bool
    let now: @Sendable () -> Date
    let timeZone: TimeZone
    let assets: AssetURLs
    let jar: CookieJar

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // Parsed once: the form token, the flash and the sign-in session all come from here.
        let cookies = RequestCookies(request)
        let cookieNonce = FormToken.fromCookie(in: cookies, jar: jar)
        let flashCookie = jar.value(FlashCookie.name, in: cookies)
        var context = context
        context.cookieJar = jar
        context.signInCookieID = SignInCookie.id(in: cookies, jar: jar)
        context.formNonce = cookieNonce ?? makeFormToken()
        context.formNonceWasSent = cookieNonce != nil
        context.deviceCookie = jar.value(DeviceCookie.name, in: cookies).map { ($0, signer) }
        context.languageCookie = LanguageCookie.value(in: cookies, jar: jar)
        context.page = PageContext(
            // With a sign-in cookie, `SignInMiddleware` makes the token once it knows the session.
            formToken: context.signInCookieID == nil
                ? signer.formToken(nonce: context.formNonce, session: nil, keep: cookieNonce != nil) : "",
            flash: flashCookie.flatMap { signer.verified($0, for: "flash") }.flatMap(FlashCookie.decode),
            now: now(),
            timeZone: timeZone,
            assets: assets,
            signUp: signUp
        )
        context.page.signInProvider = signInProvider
        context.page.passwordSignIn = passwordSignIn
        var response = try await next(request, context)
        if cookieNonce == nil {
            response.setCookie(FormToken.cookie(context.formNonce, jar: jar))
        }
        // A script's post shows no flash (its page stays), so a flash waiting for the next page
        // still waits.
        if flashCookie != nil, !(300..<400).contains(response.status.code), !request.isScriptPost {
            response.setCookie(jar.cleared(FlashCookie.name))
        }
        return response
    }
}

/// A flash message carried across a redirect in a cookie: its JSON, base64url.
enum FlashCookie {
    static let name = "sangha_flash"

    /// The flash for the next page, signed as it is made: only a flash with its signature is read.
    static func cookie(for flash: FlashViewModel, signer: CookieSigner, jar: CookieJar) -> Cookie {
        jar.cookie(name, value: signer.signed(value(for: flash), for: "flash"))
    }

    /// The flash as the cookie carries it before its signature: its JSON, base64url.
    static func value(for flash: FlashViewModel) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Base64URL.encode((try? encoder.encode(flash)) ?? Data())
    }

    /// The flash `value` (its signature checked and taken off) carries; nil for anything else.
    static func decode(_ value: String) -> FlashViewModel? {
        Base64URL.decode(value).flatMap { try? JSONDecoder().decode(FlashViewModel.self, from: Data($0)) }
    }
}
