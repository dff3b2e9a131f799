import Hummingbird

/// HEAD is answered as GET without its body (RFC 9110 §9.3.2): the router runs each page's GET
/// for it (`RouterOptions.autoGenerateHeadEndpoints`), and this, first of all, drops the body of
/// every other answer to a HEAD too (an error page's, an unknown address's), keeping the headers
/// and the length the GET would have sent.
struct HeadMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let response = try await next(request, context)
        return request.method == .head ? response.createHeadResponse() : response
    }
}
