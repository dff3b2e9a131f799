import Foundation
import Hummingbird
import SanghaCore
import SanghaViewModels

/// Turns view models into responses: HTML, or the view model as JSON when the request prefers
/// it; and a submit's or a load's outcome into its redirect or page with its status.
///
/// HTML comes from the templates compiled to Swift at build time (`compiledHTMLBuffer()`), or,
/// in development, from swift-mustache reading the templates on disk.
public struct PageRenderer: Sendable {
    private let mustache: MustacheTemplates?
    /// Signs the flash a redirect carries (the deployment's, so the next request can read it).
    private let signer: CookieSigner
    /// Names the flash's cookie as the deployment names its cookies.
    private var jar: CookieJar

    /// Production: the compiled templates; no template file is read.
    public static func compiled(signer: CookieSigner) -> PageRenderer { PageRenderer(mustache: nil, signer: signer) }

    /// `mustache` nil: the compiled templates. `buildRouter` names its flash cookie as the
    /// deployment names its cookies (`naming(cookies:)`).
    public init(mustache: MustacheTemplates?, signer: CookieSigner) {
        (self.mustache, self.signer, self.jar) = (mustache, signer, .plain)
    }

    /// The same renderer, its redirects' flash named as `jar` names cookies.
    func naming(cookies jar: CookieJar) -> PageRenderer {
        var renderer = self
        renderer.jar = jar
        return renderer
    }

    /// 303 See Other (post/redirect/get), with the flash for the next page in its cookie, signed.
    public func redirect(_ redirect: Redirect) -> Response {
        var response = Response(status: .seeOther, headers: [.location: redirect.url])
        if let flash = redirect.flash { response.setCookie(FlashCookie.cookie(for: flash, signer: signer, jar: jar)) }
        return response
    }

    /// Where a post leads. A form's post: 303 See Other with the flash in its cookie
    /// (`redirect(_:)`), shown by the page the browser then opens. A page's script's post
    /// (`Request.isScriptPost`): the same as data, `{"flash": …, "location": "/…"}`, 200 when
    /// done or 409 when `refused` (nothing changed), and no cookie. The script stays on its page
    /// and says itself what became of the post; a flash in a cookie would show on whichever page
    /// opens next, however unrelated, or after a send the person never saw.
    public func redirect(_ redirect: Redirect, refused: Bool = false, for request: Request) throws -> Response {
        guard request.isScriptPost else { return self.redirect(redirect) }
        return try json(ScriptAnswer(location: redirect.url, flash: redirect.flash), status: refused ? .conflict : .ok)
    }

    /// A script's post's answer where a form's would be a redirect.
    struct ScriptAnswer: Encodable {
        let location: String
        let flash: FlashViewModel?
    }

    public enum RenderError: Error, CustomStringConvertible {
        case unencodable(String, any Error)

        public var description: String {
            switch self {
            case .unencodable(let type, let error): "\(type) could not be encoded as JSON: \(error)"
            }
        }
    }

    /// The page or component as the bytes of a response body.
    public func htmlBuffer(_ value: some Renderable) -> ByteBuffer {
        if let mustache { ByteBuffer(string: mustache.render(value)) } else { value.compiledHTMLBuffer() }
    }

    /// The same bytes as a string.
    public func html(_ value: some Renderable) -> String {
        String(buffer: htmlBuffer(value))
    }

    /// The response for `page`: its view model as JSON when the request asks for JSON first,
    /// else the rendered HTML. A view model that cannot be encoded throws (a 500, logged),
    /// never an empty answer.
    public func response(_ page: some Page, status: HTTPResponse.Status = .ok, for request: Request) throws
        -> Response
    {
        guard request.prefersJSON else { return htmlResponse(page, status: status) }
        return try json(page, status: status)
    }

    func json(_ value: some Encodable, status: HTTPResponse.Status) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data: Data
        do {
            data = try encoder.encode(value)
        } catch {
            throw RenderError.unencodable(String(describing: type(of: value)), error)
        }
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }

    public func htmlResponse(_ page: some Page, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8"],
            body: .init(byteBuffer: htmlBuffer(page))
        )
    }

    /// A submit's response: 303 to where it leads (for a page's script, where it leads as JSON:
    /// `redirect(_:refused:for:)`), or the form again with its status (as JSON when asked for).
    /// Nothing to submit to is the 404 page with `notFound` as its message; nothing readable, the
    /// failure page with its status.
    public func response<Form: Page>(_ outcome: SubmitOutcome<Form>, for request: Request, notFound: String)
        throws -> Response
    {
        switch outcome {
        case .redirect(let redirect): return try self.redirect(redirect, for: request)
        case .refused(let redirect): return try self.redirect(redirect, refused: true, for: request)
        case .invalid(let form): return try response(form, status: .unprocessableContent, for: request)
        case .conflict(let form): return try response(form, status: .conflict, for: request)
        case .failed(let form, let failure): return try response(form, status: failure.status, for: request)
        case .notFound: throw HTTPError(.notFound, message: notFound)
        case .unavailable(let page, let failure): return try response(page, status: failure.status, for: request)
        }
    }

    /// The import's response: its preview, the form again with why (422; 410 for a preview no
    /// longer kept) or with the storage's failure, or once imported 303 to the history.
    public func response(_ outcome: PracticeLogImportViewModel.Outcome) -> Response {
        switch outcome {
        case .preview(let page): htmlResponse(page)
        case .invalid(let page): htmlResponse(page, status: .unprocessableContent)
        case .expired(let page): htmlResponse(page, status: .gone)
        case .failed(let page): htmlResponse(page, status: PageFailure.storage.status)
        case .imported(let redirect): self.redirect(redirect)
        }
    }

    /// The answer to the sitting page's word of a sit begun or ended (the script needs nothing
    /// back): 204, or the refusal with its status; `notFound` says what was not found.
    public func response(_ outcome: SittingPresence.Outcome, notFound: String) throws -> Response {
        switch outcome {
        case .announced: return Response(status: .noContent)
        case .notFound: throw HTTPError(.notFound, message: notFound)
        case .invalid(let message): throw HTTPError(.unprocessableContent, message: message)
        case .failed(let message): throw HTTPError(PageFailure.storage.status, message: message)
        }
    }

    /// A load's response: the page, the 404 page with `notFound` as its message, or the failure
    /// page with its status.
    public func response<P: Page>(_ outcome: LoadOutcome<P>, for request: Request, notFound: String) throws
        -> Response
    {
        switch outcome {
        case .page(let page): return try response(page, for: request)
        case .partial(let page, let failure): return try response(page, status: failure.status, for: request)
        case .failed(let page, let failure): return try response(page, status: failure.status, for: request)
        case .notFound: throw HTTPError(.notFound, message: notFound)
        }
    }
}

// The one place a view model's outcome becomes an HTTP status.

extension LoadOutcome: RowOutcome where Page: SanghaWeb.Page {
    var events: [GroupEvent] { [] }

    func response(_ renderer: PageRenderer, for request: Request, notFound: String) throws -> Response {
        try renderer.response(self, for: request, notFound: notFound)
    }
}

extension SubmitOutcome: RowOutcome where Form: Page {
    var events: [GroupEvent] {
        if case .redirect(let redirect) = self { redirect.events } else { [] }
    }

    func response(_ renderer: PageRenderer, for request: Request, notFound: String) throws -> Response {
        try renderer.response(self, for: request, notFound: notFound)
    }
}

extension Redirect: RowOutcome {
    func response(_ renderer: PageRenderer, for request: Request, notFound: String) throws -> Response {
        try renderer.redirect(self, for: request)
    }
}

extension SittingPresence.Outcome: RowOutcome {
    func response(_ renderer: PageRenderer, for request: Request, notFound: String) throws -> Response {
        try renderer.response(self, notFound: notFound)
    }
}

extension NotificationsSectionViewModel.Subscribed: RowOutcome {
    var events: [GroupEvent] { [] }

    /// A device kept: 201 with the words the script shows (never a flash); refused: 400 with why;
    /// not kept: 503.
    func response(_ renderer: PageRenderer, for request: Request, notFound: String) throws -> Response {
        let (status, message): (HTTPResponse.Status, String) =
            switch self {
            case .added(let message): (.created, message)
            case .refused(let message): (.badRequest, message)
            case .failed(let message): (PageFailure.storage.status, message)
            }
        guard request.prefersJSON else {
            if status == .created {
                return Response(
                    status: .created, headers: [.contentType: "text/plain; charset=utf-8"],
                    body: .init(byteBuffer: ByteBuffer(string: message)))
            }
            throw HTTPError(status, message: message)
        }
        return try renderer.json(["message": message], status: status)
    }
}

extension PageFailure {
    /// The failure as the error a hand-written route throws (its page: `ErrorPageMiddleware`).
    func error(_ message: String) -> HTTPError {
        HTTPError(status, message: message)
    }
}

extension PageFailure {
    var status: HTTPResponse.Status {
        switch self {
        case .notFound: .notFound
        case .remoteService: .badGateway
        case .storage: .serviceUnavailable
        case .tooManyAttempts: .tooManyRequests
        case .busy: .serviceUnavailable
        case .forbidden: .forbidden
        case .conflict: .conflict
        case .invalid: .unprocessableContent
        }
    }
}

extension AccountOutcome.Refusal {
    var status: HTTPResponse.Status {
        switch self {
        case .invalid: .unprocessableContent
        case .wrongCredentials: .unauthorized
        case .tooManyAttempts: .tooManyRequests
        case .storage, .busy, .providerUnreachable: .serviceUnavailable
        case .disabled, .invitationNeeded: .forbidden
        case .providerRefused: .badRequest
        }
    }
}
