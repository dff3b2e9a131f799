import Hummingbird
import Logging

/// One log line per request: method, path, status and time taken, e.g.
/// `GET /friends 200 2.1 ms`. A path that carries a secret (a group's invitation link) is logged
/// as its route, `/groups/invite/{token}`: a log is read by more people than the link was meant
/// for.
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
        let path = context.endpointPath.flatMap { $0.contains("{token}") ? $0 : nil } ?? request.uri.path
        context.logger.info("\(request.method) \(path) \(status) \(time) ms")
    }
}
