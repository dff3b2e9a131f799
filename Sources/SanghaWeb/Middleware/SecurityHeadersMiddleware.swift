import HTTPTypes
import Hummingbird

/// Headers on every response: a Content-Security-Policy that allows no inline script and no
/// foreign origin, `nosniff`, a Referrer-Policy, and no framing. Behind TLS (`--public-url
/// https://…`) also Strict-Transport-Security, and every cookie is a `__Host-` cookie: the
/// response's are named with the prefix and made Secure, and of the request's only prefixed ones
/// are read (without the prefix, so the app names its cookies once). A browser keeps such a
/// cookie only from this very host over HTTPS, for `/`, so neither a sibling subdomain nor a
/// plain-HTTP page can plant a session or form-token cookie.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Whether people reach Sangha over HTTPS.
    var secure = false

    static var contentSecurityPolicy: ContentSecurityPolicy {
        [
            .defaultSrc(.self),
            .scriptSrc(.self),
            .styleSrc(.self),
            .imgSrc(.self),
            .objectSrc(.none),
            .baseURI(.none),
            .formAction(.self),
            .frameAncestors(.none),
        ]
    }

    let headers: HTTPFields = [
        .contentSecurityPolicy: Self.contentSecurityPolicy.description,
        .xContentTypeOptions: "nosniff",
        HTTPField.Name("Referrer-Policy")!: "same-origin",
        HTTPField.Name("X-Frame-Options")!: "DENY",
    ]

    static var cookiePrefix: String { "__Host-" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(secure ? Self.prefixedCookiesOnly(request) : request, context)
        response.headers.append(contentsOf: headers)
        if secure {
            response.headers[.strictTransportSecurity] = "max-age=31536000"
            let cookies = response.headers[values: .setCookie]
            if !cookies.isEmpty {
                response.headers[.setCookie] = nil
                for cookie in cookies {
                    let secureCookie = cookie.contains("; Secure") ? cookie : cookie + "; Secure"
                    response.headers.append(HTTPField(name: .setCookie, value: Self.cookiePrefix + secureCookie))
                }
            }
        }
        return response
    }

    /// `request` with only its `__Host-` cookies, named without the prefix.
    static func prefixedCookiesOnly(_ request: Request) -> Request {
        let values = request.headers[values: .cookie]
        guard !values.isEmpty else { return request }
        let kept = values.flatMap { $0.split(separator: ";") }
            .map { $0.drop { $0 == " " } }
            .filter { $0.hasPrefix(cookiePrefix) }
            .map { $0.dropFirst(cookiePrefix.count) }
        var head = request.head
        head.headerFields[.cookie] = nil
        if !kept.isEmpty { head.headerFields[.cookie] = kept.joined(separator: "; ") }
        return Request(head: head, body: request.body)
    }
}
