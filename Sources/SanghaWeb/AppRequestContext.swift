import Hummingbird
import NIOCore
import SanghaViewModels

/// The request context of Sangha's routes: Hummingbird's core, the address the request came
/// from, plus the page context that `PageContextMiddleware` builds for this request (form
/// token, flash, clock, time zone).
public struct AppRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public var page = PageContext()
    /// The id in the request's sign-in cookie, if it has a well-formed one (read by
    /// `PageContextMiddleware` with the other cookies; `SignInMiddleware` looks it up).
    public var signInCookieID: String?
    /// How this deployment names its cookies (`PageContextMiddleware` sets it).
    public var cookieJar = CookieJar.plain
    /// The browser's CSRF nonce (its cookie's, or a new one the response sets): the page's form
    /// token is it signed with the session's key.
    public var formNonce = ""
    /// Whether `formNonce` came with the request (its cookie), rather than made for its answer.
    public var formNonceWasSent = false
    /// The language the browser's `lang` cookie names, if it has one (the picker's; read by
    /// `PageContextMiddleware` with the other cookies, weighed by `LanguageMiddleware`).
    public var languageCookie: String?
    /// The browser's device cookie as it came, and what checks its signature (set by
    /// `PageContextMiddleware`): checked only when asked for, by the routes that check a
    /// password or make an account (`Requester`).
    var deviceCookie: (value: String, signer: CookieSigner)?
    /// The account of the browser's signed device cookie, if it has one. Its signature is checked
    /// here, not for every request: a browser that signed in once carries the cookie on every
    /// page, and checking it is an HMAC, as signing a form token is.
    public var device: Requester.Device? {
        deviceCookie.flatMap { DeviceCookie.device(from: $0.value, signer: $0.signer) }
    }
    /// The signed-in session's key (the digest of its cookie), for signing out.
    public var signInKey: String?
    /// Why the session could not be looked up (the database out of reach), if it could not.
    public var signInFailure: String?
    /// A form with a file, read by `CSRFMiddleware` as its token was checked (the body is read
    /// once, so the route takes its fields from here).
    var multipartForm: MultipartForm?
    /// The peer of the connection (for a balancer's requests, the balancer).
    public let remoteAddress: SocketAddress?
    /// The connection: a response that streams ends when its client goes
    /// (`whenClientClosed`), at once rather than at its next write.
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.remoteAddress = source.channel.remoteAddress
        self.channel = source.channel
    }
}
