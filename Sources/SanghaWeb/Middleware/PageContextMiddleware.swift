import Foundation
import HTTPTypes
import Hummingbird
import SanghaCore
import SanghaViewModels

/// Builds the request's `PageContext`, the one value every page gets: the browser's form token
/// (its CSRF cookie's nonce, or a new one that the response then sets, signed; `SignInMiddleware`
/// binds it to the session), the flash the previous response left in a cookie, the time and
/// time zone, and the static files' addresses.
///
/// A flash is shown once: a response that is not itself a redirect has shown it, so it clears
/// the cookie. A flash is signed on its way out and read only with its signature, so no one can
/// put words on a page by planting a cookie.
struct PageContextMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let makeFormToken: @Sendable () -> String
    let signer: CookieSigner
    let signUp: SignUpMode
    let now: @Sendable () -> Date
    let timeZone: TimeZone
    let assets: AssetURLs

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        // Parsed once: the form token, the flash and the sign-in session all come from here.
        let cookies = request.cookies
        let cookieNonce = FormToken.fromCookie(in: cookies)
        let flashCookie = cookies[FlashCookie.name]
        var context = context
        context.signInCookieID = SignInCookie.id(in: cookies)
        context.formNonce = cookieNonce ?? makeFormToken()
        context.device = DeviceCookie.device(in: cookies, signer: signer)
        context.page = PageContext(
            formToken: signer.formToken(nonce: context.formNonce, session: nil),
            flash: flashCookie.flatMap { signer.verified($0.value, for: "flash") }.flatMap(FlashCookie.decode),
            now: now(),
            timeZone: timeZone,
            assets: assets,
            signUp: signUp
        )
        var response = try await next(request, context)
        if cookieNonce == nil {
            response.setCookie(FormToken.cookie(context.formNonce))
        }
        FlashCookie.sign(&response.headers, signer: signer)
        if flashCookie != nil, !(300..<400).contains(response.status.code) {
            response.setCookie(FlashCookie.cleared)
        }
        return response
    }
}

/// The browser's CSRF nonce, kept in an HttpOnly, SameSite=Lax cookie. The token a form
/// carries is this nonce signed together with the session (`CookieSigner.formToken`); `random`
/// and `hex` also make the other secrets (`SecretToken`, device cookies).
public enum FormToken {
    static let cookieName = "sangha_csrf"

    /// The nonce of the request's cookie, when it looks like one of ours (16–128 ASCII letters,
    /// digits, `-` or `_`); a malformed one is never echoed into a page.
    static func fromCookie(in cookies: Cookies) -> String? {
        guard let value = cookies[cookieName]?.value, (16...128).contains(value.utf8.count) else { return nil }
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

    static func cookie(_ token: String) -> Cookie {
        Cookie(name: cookieName, value: token, path: "/", httpOnly: true, sameSite: .lax)
    }

    /// A new secret (a nonce, a token): 32 random bytes, hex.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex((0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
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
}

/// A flash message carried across a redirect in a cookie: its JSON, base64url.
enum FlashCookie {
    static let name = "sangha_flash"
    static let cleared = Cookie(name: name, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .lax)

    static func cookie(for flash: FlashViewModel) -> Cookie {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = (try? encoder.encode(flash)) ?? Data()
        let value = data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return Cookie(name: name, value: value, path: "/", httpOnly: true, sameSite: .lax)
    }

    /// Signs the flash a route set (`Response.redirect`).
    static func sign(_ headers: inout HTTPFields, signer: CookieSigner) {
        let prefix = "\(name)="
        guard headers[values: .setCookie].contains(where: { $0.hasPrefix(prefix) && !$0.hasPrefix(prefix + ";") })
        else { return }
        let cookies = headers[values: .setCookie]
        headers[.setCookie] = nil
        for cookie in cookies {
            guard cookie.hasPrefix(prefix), let end = cookie.firstIndex(of: ";") else {
                headers.append(HTTPField(name: .setCookie, value: cookie))
                continue
            }
            let value = String(cookie[cookie.index(cookie.startIndex, offsetBy: prefix.count)..<end])
            let signed = value.isEmpty ? value : signer.signed(value, for: "flash")
            headers.append(HTTPField(name: .setCookie, value: prefix + signed + cookie[end...]))
        }
    }

    static func decode(_ value: String) -> FlashViewModel? {
        var base64 = value.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONDecoder().decode(FlashViewModel.self, from: data)
    }
}

extension Response {
    /// 303 See Other (post/redirect/get), with the flash for the next page in its cookie.
    static func redirect(_ redirect: Redirect) -> Response {
        var response = Response(status: .seeOther, headers: [.location: redirect.url])
        if let flash = redirect.flash { response.setCookie(FlashCookie.cookie(for: flash)) }
        return response
    }
}
