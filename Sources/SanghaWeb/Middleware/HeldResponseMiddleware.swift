import Hummingbird

/// Opens a group's event stream (`GET /groups/{id}/events`) in a child task of its own.
///
/// A connection's task keeps the memory of its deepest call for as long as the connection
/// lives (Swift's task allocator holds on to its slabs until the task ends), and a stream's
/// connection lives for hours. Opened on the connection's own task, the middleware chain, the
/// sign-in lookup, the group's reading and the render left about 41 KB per stream behind; in a
/// child task they are freed once the response is made, and only the stream's writing, which is
/// shallow, stays on the connection's task (docs/performance.md, "Group event streams").
struct HeldResponseMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard request.method == .get, Self.isEventStream(request.uri.path) else {
            return try await next(request, context)
        }
        return try await withoutActuallyEscaping(next) { next in
            let rest = Rest(call: next)
            async let response = rest.call(request, context)
            return try await response
        }
    }

    /// The rest of the chain, called by the child task while this one waits for it: never at the
    /// same time as anything else, and not after this middleware returns (the child ends first).
    private struct Rest: @unchecked Sendable {
        let call: (Request, Context) async throws -> Response
    }

    /// `/groups/{id}/events`.
    static func isEventStream(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0].isEmpty && parts[1] == "groups" && parts[3] == "events"
    }
}
