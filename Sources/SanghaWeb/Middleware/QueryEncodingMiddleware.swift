import Hummingbird

/// A query whose percent-encoded bytes are not UTF-8 (`?q=%FF`) gets the 400 page: Foundation
/// would otherwise hand the handlers the text undecoded, as if it had been typed.
struct QueryEncodingMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        if let query = request.uri.query, !PercentEncoding.decodesToUTF8(query) {
            throw HTTPError(.badRequest, message: "The address is not valid UTF-8 text.")
        }
        return try await next(request, context)
    }
}
