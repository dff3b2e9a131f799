import Hummingbird
import SanghaCore
import SanghaViewModels

/// Finds who is signed in: the request's session cookie, looked up in the database by its
/// digest, so any instance serves any session. The person goes into the page context; no cookie
/// or an ended session leaves it empty (`RequireSignInMiddleware` decides what that means).
struct SignInMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let people: any PeopleRepository
    let signer: CookieSigner

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard let id = context.signInCookieID else { return try await next(request, context) }
        let key = SignInCookie.key(of: id)
        var context = context
        // The form token is made here, once: good only with the session when there is one.
        let person: Person?
        do {
            person = try await people.person(session: key, at: context.page.now)
        } catch {
            // The pages anyone may open (/health above all) still answer; the others say why.
            context.page.formToken = signer.formToken(
                nonce: context.formNonce, session: nil, keep: context.formNonceWasSent)
            context.signInFailure = StorageMessage.text(for: error, otherwise: Self.failed)
            return try await next(request, context)
        }
        guard let person else {
            // An ended session: the browser forgets its cookie.
            context.page.formToken = signer.formToken(
                nonce: context.formNonce, session: nil, keep: context.formNonceWasSent)
            var response = try await next(request, context)
            response.setCookie(SignInCookie.cleared(jar: context.cookieJar))
            return response
        }
        context.page.signIn(person)
        context.signInKey = key
        context.page.formToken = signer.formToken(
            nonce: context.formNonce, session: key, keep: context.formNonceWasSent)
        return try await next(request, context)
    }

    static let failed = "Sangha could not check who is signed in. Please try again."
}

extension AppRequestContext {
    /// Why the session could not be read, in the page's language (chosen after this middleware
    /// ran): the database out of reach, or any other failure.
    var signInFailureMessage: String? {
        signInFailure.map {
            $0 == StorageMessage.unreachable ? page.words.storageUnreachable : page.words.errorSignInCheckFailed
        }
    }
}

/// The pages of someone signed in: without a session a GET goes to `/sign-in?next=PATH` (303),
/// a request for JSON gets a 401 JSON body and a post a 401 page with a link to sign in.
struct RequireSignInMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard context.page.person == nil else { return try await next(request, context) }
        if let failure = context.signInFailureMessage { throw HTTPError(.serviceUnavailable, message: failure) }
        if [.get, .head].contains(request.method), !request.prefersJSON {
            let next = LocalPath.sanitize(request.uri.description)
            return Response(
                status: .seeOther, headers: [.location: SignInViewModel.url(Paths.signIn.url, next: next)])
        }
        throw HTTPError(.unauthorized)
    }
}

extension AppRequestContext {
    /// The signed-in person of a page behind `RequireSignInMiddleware`.
    func person() throws -> Person {
        guard let person = page.person else { throw HTTPError(.unauthorized) }
        return person
    }
}
