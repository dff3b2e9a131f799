import Foundation
import HTTPTypes
import Hummingbird

/// Cross-site request forgery defence: a post is served only when the form's token matches the
/// browser's CSRF cookie and the post does not come from another site.
///
/// The token lives in an HttpOnly, SameSite=Lax cookie (`FormToken`); another site can neither
/// read it (so it cannot put it in a form) nor, with Lax, have the browser send it with a
/// cross-site post. The `Origin` check refuses a cross-site post even before the token is read.
public struct CSRFMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext
    static let refusal = "This form has expired or was sent from another site. Go back, reload the page and try again."

    /// Origins a post may come from: `http://` and each allowed host, with and without the port.
    let allowedOrigins: Set<String>
    let maxFormSize: Int

    struct TokenField: Decodable {
        var _csrf: String?
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard ![.get, .head, .options].contains(request.method) else {
            return try await next(request, context)
        }
        if let origin = request.headers[.origin], !allowedOrigins.contains(origin.lowercased()) {
            throw HTTPError(.forbidden, message: Self.refusal)
        }
        if request.headers[HTTPField.Name("Sec-Fetch-Site")!] == "cross-site" {
            throw HTTPError(.forbidden, message: Self.refusal)
        }
        var request = request
        let body = try await request.collectFormBody(limit: maxFormSize)
        let text = String(decoding: body.readableBytesView, as: UTF8.self)
        let field = (try? URLEncodedFormDecoder().decode(TokenField.self, from: text))?._csrf
        guard let cookieToken = FormToken.fromCookie(in: request.cookies), let field,
            Self.constantTimeEqual(field, cookieToken)
        else {
            throw HTTPError(.forbidden, message: Self.refusal)
        }
        return try await next(request, context)
    }

    /// Compares without stopping at the first difference, so timing does not tell how much matched.
    static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (Array(lhs.utf8), Array(rhs.utf8))
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
