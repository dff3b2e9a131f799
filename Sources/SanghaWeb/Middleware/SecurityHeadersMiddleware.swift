import HTTPTypes
import Hummingbird

/// Headers on every response: a Content-Security-Policy that allows no inline script and no
/// foreign origin, `nosniff`, a Referrer-Policy, and no framing. Behind TLS (`--public-url
/// https://…`) also Strict-Transport-Security (its cookies are `__Host-` cookies: `CookieJar`).
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

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        response.headers.append(contentsOf: headers)
        if secure { response.headers[.strictTransportSecurity] = "max-age=31536000" }
        return response
    }
}
