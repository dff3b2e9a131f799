import Foundation
import Hummingbird

/// Turns every error into the contract's body, `{"error": true, "reason": "…"}`.
///
/// Errors that are not HTTP errors are the server's own fault: they answer 500 with a
/// generic reason and are logged, never shown.
struct FriendServiceErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    struct ErrorBody: Encodable {
        let error = true
        let reason: String
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            return Self.response(status: error.status, reason: error.body ?? error.status.reasonPhrase)
        } catch let error as any HTTPResponseError {
            return Self.response(status: error.status, reason: error.status.reasonPhrase)
        } catch {
            context.logger.error("FriendService request failed: \(error)")
            return Self.response(
                status: .internalServerError, reason: "The FriendService could not complete the request.")
        }
    }

    static func response(status: HTTPResponse.Status, reason: String) -> Response {
        let data = (try? JSONEncoder().encode(ErrorBody(reason: reason))) ?? Data()
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data))
        )
    }
}
