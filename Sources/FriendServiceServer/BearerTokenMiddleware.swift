import Hummingbird
import SanghaCore

/// With a token configured, every request needs `Authorization: Bearer <token>`, else 401.
struct BearerTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let token: String

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.headers[.authorization] == "Bearer \(token)" else {
            throw HTTPError(.unauthorized, message: "A valid bearer token is required.")
        }
        return try await next(request, context)
    }
}

/// The bearer token of a request, or nil.
func bearerToken(of request: Request) -> String? {
    guard let value = request.headers[.authorization], value.hasPrefix("Bearer ") else { return nil }
    let token = value.dropFirst("Bearer ".count).trimmingOptionalWhitespace()
    return token.isEmpty ? nil : String(token)
}
