import Hummingbird

/// HEAD is answered as GET without its body (RFC 9110 §9.3.2): the router runs each page's GET
/// for it (`RouterOptions.autoGenerateHeadEndpoints`), and this, first of all, drops the body of
/// every other answer to a HEAD too (an error page's, an unknown address's), keeping the headers
/// and the length the GET would have sent. A body written as it goes (an export) has no length
/// until it is written: it is written here to a counter, so the HEAD's `Content-Length` is the
/// bytes the GET sends, not the empty body's 0.
struct HeadMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        var response = try await next(request, context)
        guard request.method == .head else { return response }
        if response.body.contentLength == nil {
            let counter = ByteCounter()
            try await response.body.write(counter)
            response.headers[.contentLength] = String(counter.count.total)
        }
        return response.createHeadResponse()
    }

    /// Counts what a body writes, keeping none of it.
    private struct ByteCounter: ResponseBodyWriter {
        final class Count: @unchecked Sendable {
            /// Written by one body's writing, one write after another, and read after it.
            var total = 0
        }
        let count = Count()

        mutating func write(_ buffer: ByteBuffer) async throws { count.total += buffer.readableBytes }
        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }
}
