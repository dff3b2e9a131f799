import Foundation
import Hummingbird
import Logging
import SanghaViewModels

/// One log line per request: method, path, status and time taken, e.g.
/// `GET /friends 200 2.1 ms`. A path that carries a secret (a group's invitation link, a
/// calendar feed) is logged as its route, `/groups/invite/{token}`: a log is read by more
/// people than the link was meant for. (A password reset's and an invitation's tokens are in
/// the query, which is never logged.)
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(request, status: response.status.code, since: start, context: context)
            return response
        } catch let error as any HTTPResponseError {
            log(request, status: error.status.code, since: start, context: context)
            throw error
        } catch {
            log(request, status: 500, since: start, context: context)
            throw error
        }
    }

    private func log(_ request: Request, status: Int, since start: ContinuousClock.Instant, context: Context) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        let time = (milliseconds * 10).rounded() / 10
        let path = LoggedPath.of(request.uri.path, route: context.endpointPath)
        context.logger.info("\(request.method) \(path) \(status) \(time) ms")
    }
}

/// A request's path as the log shows it: without the secret of a route that has one in its
/// path (`{token}` in `Paths`), whether or not the route matched it: in another case
/// (`/calendar/TOKEN.ICS`, `/Groups/Invite/TOKEN`), percent-encoded, with something after it;
/// and, in any path, a segment holding 32 hex digits in a row (a token's shape: 64) is shown as
/// `{token}`.
enum LoggedPath {
    /// The routes with a secret in their path: their segments before the secret's, lowercased,
    /// and the secret's segment as the pattern writes it (`{token}.ics`).
    static let secretRoutes: [(prefix: [String], secret: String)] = Paths.all.compactMap { route in
        let segments = route.pattern.split(separator: "/").map(String.init)
        guard let index = segments.firstIndex(where: { $0.contains("{token}") }) else { return nil }
        return (segments[..<index].map { $0.lowercased() }, segments[index])
    }
    /// Their first segments: a path that starts with none of them, holds no `%` and no run of
    /// hex digits is logged as it is, without a copy (most paths: `/health`, `/profiles/1`).
    static let secretFirstSegments = Set(secretRoutes.compactMap { $0.prefix.first.map { Array($0.utf8) } })
    static let hexRun = 32

    static func of(_ path: String, route: String?) -> String {
        if let route, ASCIISearch.contains("{token}", in: route) { return route }
        guard mayHoldSecret(path) else { return path }
        let raw = path.split(separator: "/", omittingEmptySubsequences: false)
        let decoded = raw.map { (String($0).removingPercentEncoding ?? String($0)).lowercased() }
        let segments = decoded.filter { !$0.isEmpty }
        for (prefix, secret) in secretRoutes where segments.count > prefix.count && segments.starts(with: prefix) {
            return "/" + (prefix + [secret]).joined(separator: "/")
        }
        return zip(raw, decoded).map { raw, decoded in hasHexRun(decoded.utf8) ? "{token}" : String(raw) }
            .joined(separator: "/")
    }

    /// Whether `path` starts with a secret route's first segment (in any case), or holds `%` or
    /// a run of hex digits.
    private static func mayHoldSecret(_ path: String) -> Bool {
        let bytes = path.utf8
        if bytes.contains(UInt8(ascii: "%")) || hasHexRun(bytes) { return true }
        let first = bytes.drop { $0 == UInt8(ascii: "/") }.prefix { $0 != UInt8(ascii: "/") }
        return secretFirstSegments.contains { segment in
            segment.count == first.count
                && zip(segment, first).allSatisfy { $0 == ($1 | 0x20) }  // ASCII letters in any case
        }
    }

    private static func hasHexRun(_ bytes: some Sequence<UInt8>) -> Bool {
        var run = 0
        for byte in bytes {
            let lower = byte | 0x20
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(lower)
            {
                run += 1
                if run >= hexRun { return true }
            } else {
                run = 0
            }
        }
        return false
    }
}
