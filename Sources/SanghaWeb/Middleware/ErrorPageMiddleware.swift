import Hummingbird
import SanghaViewModels

/// Turns errors into pages in the layout: an unknown address is a 404 page, a bad request a 400
/// page with its reason. Anything unexpected is logged and shown as a 500 page without details.
struct ErrorPageMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let renderer: PageRenderer

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as HTTPError {
            var response = page(status: error.status, message: error.body, request: request, context: context)
            for field in error.headers { response.headers.append(field) }
            return response
        } catch let error as UnreadableRequest {
            return page(
                status: error.status, message: error.message(context.page.words), request: request, context: context)
        } catch let error as any HTTPResponseError {
            return page(status: error.status, message: nil, request: request, context: context)
        } catch {
            context.logger.error("Request failed: \(error)")
            return page(status: .internalServerError, message: nil, request: request, context: context)
        }
    }

    private func page(status: HTTPResponse.Status, message: String?, request: Request, context: Context) -> Response {
        let page = ErrorPageViewModel(ErrorPageViewModel.Kind(status), message: message, context: context.page)
        // An error page always encodes; should it not, its HTML still says what happened.
        return (try? renderer.response(page, status: status, for: request))
            ?? renderer.htmlResponse(page, status: status)
    }
}

extension ErrorPageViewModel.Kind {
    /// The page's words for an HTTP status.
    init(_ status: HTTPResponse.Status) {
        self =
            switch status {
            case .notFound: .notFound
            case .badRequest: .badRequest
            case .contentTooLarge: .contentTooLarge
            case .unauthorized: .signInRequired
            default: .other(reasonPhrase: status.reasonPhrase)
            }
    }
}
