import Foundation
import Hummingbird
import SanghaViewModels

/// Carries a flash message across a redirect in a cookie, and shows it once.
///
/// A redirect sets the cookie (`Response.redirect(to:flash:)`); the next request finds it here
/// and hands it to the page through the context. A page that is not itself a redirect has shown
/// it, so the cookie is cleared with that response.
struct FlashMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    static let cookieName = "sangha_flash"

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let cookie = request.cookies[Self.cookieName] else {
            return try await next(request, context)
        }
        var context = context
        context.flash = Self.decode(cookie.value)
        var response = try await next(request, context)
        let setsFlash = response.headers[values: .setCookie].contains { $0.hasPrefix("\(Self.cookieName)=") }
        if !(300..<400).contains(response.status.code), !setsFlash {
            response.setCookie(
                Cookie(name: Self.cookieName, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .lax))
        }
        return response
    }

    static func cookie(for flash: FlashViewModel) -> Cookie {
        let data = (try? JSONEncoder().encode(flash)) ?? Data()
        let value = data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
        return Cookie(name: cookieName, value: value, path: "/", httpOnly: true, sameSite: .lax)
    }

    static func decode(_ value: String) -> FlashViewModel? {
        var base64 = value.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { return nil }
        return try? JSONDecoder().decode(FlashViewModel.self, from: data)
    }
}

extension Response {
    /// 303 See Other to `url` (post/redirect/get), with a flash for the next page.
    static func redirect(to url: String, flash: FlashViewModel? = nil) -> Response {
        var response = Response(status: .seeOther, headers: [.location: url])
        if let flash { response.setCookie(FlashMiddleware.cookie(for: flash)) }
        return response
    }
}
