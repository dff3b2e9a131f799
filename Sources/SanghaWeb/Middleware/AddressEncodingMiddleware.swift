import Hummingbird

/// An address whose percent-encoded bytes are not UTF-8 (`/profiles/%FF`, `?q=%FF`) gets the 400
/// page: Foundation would otherwise hand the handlers the text undecoded, as if it had been typed,
/// and a path would be an unknown page.
struct AddressEncodingMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if !PercentEncoding.decodesToUTF8(request.uri.path)
            || !(request.uri.query.map(PercentEncoding.decodesToUTF8) ?? true)
        {
            throw HTTPError(.badRequest, message: context.page.words.errorAddressNotUtf8)
        }
        return try await next(request, context)
    }
}
