import Foundation
import HTTPTypes
import Hummingbird

/// Cross-site request forgery defence: every form carries the browser's token, and a post is
/// served only when the token matches the browser's cookie and the post does not come from
/// another site.
///
/// The token lives in an HttpOnly, SameSite=Lax cookie; another site can neither read it (so it
/// cannot put it in a form) nor, with Lax, have the browser send it with a cross-site post.
/// The `Origin` check refuses a cross-site post even before the token is read.
public struct CSRFMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext
    static let cookieName = "sangha_csrf"
    static let refusal = "This form has expired or was sent from another site. Go back, reload the page and try again."

    /// Origins a post may come from: `http://` and each allowed host, with and without the port.
    let allowedOrigins: Set<String>
    let maxFormSize: Int
    let makeToken: @Sendable () -> String

    struct TokenField: Decodable {
        var _csrf: String?
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws
        -> Response
    {
        var context = context
        let cookieToken = request.cookies[Self.cookieName]?.value.nilIfMalformedToken
        context.formToken = cookieToken ?? makeToken()

        var request = request
        if ![.get, .head, .options].contains(request.method) {
            if let origin = request.headers[.origin], !allowedOrigins.contains(origin.lowercased()) {
                throw HTTPError(.forbidden, message: Self.refusal)
            }
            if request.headers[HTTPField.Name("Sec-Fetch-Site")!] == "cross-site" {
                throw HTTPError(.forbidden, message: Self.refusal)
            }
            let body = try await request.collectFormBody(limit: maxFormSize)
            let text = String(decoding: body.readableBytesView, as: UTF8.self)
            let field = (try? URLEncodedFormDecoder().decode(TokenField.self, from: text))?._csrf
            guard let cookieToken, let field, Self.constantTimeEqual(field, cookieToken) else {
                throw HTTPError(.forbidden, message: Self.refusal)
            }
        }

        var response = try await next(request, context)
        if cookieToken == nil {
            response.setCookie(
                Cookie(name: Self.cookieName, value: context.formToken, path: "/", httpOnly: true, sameSite: .lax)
            )
        }
        return response
    }

    /// A new token: 32 random bytes, hex.
    public static func randomToken() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var generator = SystemRandomNumberGenerator()
        var hex = [UInt8]()
        hex.reserveCapacity(64)
        for _ in 0..<4 {
            var word = generator.next()
            for _ in 0..<8 {
                hex.append(digits[Int(word & 0xF)])
                hex.append(digits[Int((word >> 4) & 0xF)])
                word >>= 8
            }
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// Compares without stopping at the first difference, so timing does not tell how much matched.
    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (Array(lhs.utf8), Array(rhs.utf8))
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}

extension String {
    /// The token, when it looks like one of ours (16–128 ASCII letters, digits, `-` or `_`).
    fileprivate var nilIfMalformedToken: String? {
        (16...128).contains(utf8.count)
            && utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
            ? self : nil
    }
}
