import Foundation
import HTTPTypes
import Hummingbird
import MultipartKit
import SanghaCore
import SanghaTokens
import SanghaViewModels

/// Cross-site request forgery defence: a post is served only when the form's token is the one
/// made for the browser's CSRF cookie and its sign-in session, and the post does not come from
/// another site.
///
/// The nonce lives in an HttpOnly, SameSite=Lax cookie (`FormToken`); another site can neither
/// read it (so it cannot put it in a form) nor, with Lax, have the browser send it with a
/// cross-site post. The form's token is the nonce signed with the deployment's secret together
/// with the session (`CookieSigner.formToken`): whoever plants a nonce cookie cannot make the
/// token that goes with the victim's session, and signing in renews it. The `Origin` check
/// refuses a cross-site post even before the token is read.
public struct CSRFMiddleware: RouterMiddleware {
    public typealias Context = AppRequestContext
    static let refusal = "This form has expired or was sent from another site. Go back, reload the page and try again."

    /// Origins a post may come from: `http://` and each allowed host, with and without the port.
    let allowedOrigins: Set<String>
    let maxFormSize: Int
    let signer: CookieSigner
    /// A form with a file may be this large (the history's import).
    let maxUploadSize = PracticeLogImport.formLimit

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard ![.get, .head, .options].contains(request.method) else {
            return try await next(request, context)
        }
        if let origin = request.headers[.origin], !allowedOrigins.contains(origin.lowercased()) {
            throw HTTPError(.forbidden, message: context.page.words.errorFormExpired)
        }
        if request.headers[HTTPField.Name("Sec-Fetch-Site")!] == "cross-site" {
            throw HTTPError(.forbidden, message: context.page.words.errorFormExpired)
        }
        guard context.formNonceWasSent else {
            throw HTTPError(.forbidden, message: context.page.words.errorFormExpired)
        }
        if request.isMultipartForm {
            // A form with a file is only ever a signed-in person's: no one else's body is read.
            // Its token is its first part, checked before the rest of the body is read.
            if let failure = context.signInFailureMessage { throw HTTPError(.serviceUnavailable, message: failure) }
            guard context.signInKey != nil else {
                throw HTTPError(.forbidden, message: context.page.words.errorFormExpired)
            }
            guard let boundary = request.multipartBoundary else {
                throw UnreadableRequest.formUnreadable
            }
            let token = context.page.formToken
            var context = context
            context.multipartForm = try await MultipartForm.read(
                request.body, boundary: boundary, limit: maxUploadSize
            ) { name, value in
                guard name == "_csrf", !token.isEmpty, ConstantTime.equal(String(buffer: value), token) else {
                    throw HTTPError(.forbidden, message: context.page.words.errorFormExpired)
                }
            }
            return try await next(request, context)
        }
        // A form without a file: the route reads it again from the body collected here.
        var request = request
        let body = try await request.collectFormBody(limit: maxFormSize)
        guard let field = Self.tokenField(in: body), !field.isEmpty,
            ConstantTime.equal(field, context.page.formToken) || madeForEndedSession(field, context)
        else {
            throw HTTPError(.forbidden, message: context.page.words.errorFormExpired)
        }
        return try await next(request, context)
    }

    /// A form of a page seen while the browser's session was on, posted after it ended (signing
    /// out in another tab): it was made for this browser all the same.
    private func madeForEndedSession(_ field: String, _ context: Context) -> Bool {
        guard context.signInKey == nil, let id = context.signInCookieID else { return false }
        // Not kept: the session is ended, or made up.
        return ConstantTime.equal(
            field, signer.formToken(nonce: context.formNonce, session: SignInCookie.key(of: id), keep: false))
    }

    /// The `_csrf` field of a form body, found in one pass over its fields without decoding the
    /// rest (the route decodes the form it takes). A token is hex: never percent-encoded.
    static func tokenField(in body: ByteBuffer) -> String? {
        let prefix = Array("_csrf=".utf8)
        return body.readableBytesView.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
            .first { $0.starts(with: prefix) }
            .map { String(decoding: $0.dropFirst(prefix.count), as: UTF8.self) }
    }
}
