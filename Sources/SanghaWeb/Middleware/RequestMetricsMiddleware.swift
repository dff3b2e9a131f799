import Hummingbird
import Metrics
import Synchronization

/// Counts and times every request by route, method and status (`sangha_http_requests_total`,
/// `sangha_http_request_duration_seconds`, a histogram), into the process's metrics system.
///
/// Hummingbird's `MetricsMiddleware` does the same and more (a gauge of requests in flight,
/// the time until the body is written), at a cost the editor's throughput showed; this one looks
/// up a ready counter and timer per request and costs next to nothing (docs/performance.md).
/// Sangha's pages are written whole, so the time to the response is the time to the body.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics = RequestMetrics()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.record(
                route: context.endpointPath, method: request.method, status: response.status.code,
                duration: ContinuousClock.now - start)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status.code ?? 500
            metrics.record(
                route: context.endpointPath, method: request.method, status: status,
                duration: ContinuousClock.now - start)
            throw error
        }
    }
}

/// The counter and timer of each route, method and status seen, made once.
final class RequestMetrics: Sendable {
    struct Key: Hashable {
        let route: String
        let method: HTTPRequest.Method
        let status: Int
    }

    struct Series: Sendable {
        let requests: Counter
        let duration: Metrics.Timer
    }

    private let series = Mutex<[Key: Series]>([:])

    func record(route: String?, method: HTTPRequest.Method, status: Int, duration: Duration) {
        // A request no route matched is counted under one name, not under its path: paths are
        // whatever anyone sends, and each would be a series of its own.
        let key = Key(route: route ?? "unmatched", method: method, status: status)
        let found = series.withLock { $0[key] } ?? make(key)
        found.requests.increment()
        found.duration.record(duration: duration)
    }

    private func make(_ key: Key) -> Series {
        let dimensions = [("route", key.route), ("method", key.method.rawValue), ("status", "\(key.status)")]
        let made = Series(
            requests: Counter(label: "sangha_http_requests_total", dimensions: dimensions),
            duration: Metrics.Timer(
                label: "sangha_http_request_duration_seconds", dimensions: dimensions, preferredDisplayUnit: .seconds))
        return series.withLock { series in
            if let existing = series[key] { return existing }
            series[key] = made
            return made
        }
    }
}
