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
            let page = Self.page(status: error.status, message: error.body, flash: context.flash)
            var response = renderer.response(page, status: error.status, for: request)
            for field in error.headers { response.headers.append(field) }
            return response
        } catch let error as any HTTPResponseError {
            let page = Self.page(status: error.status, message: nil, flash: context.flash)
            return renderer.response(page, status: error.status, for: request)
        } catch {
            context.logger.error("Request failed: \(error)")
            let page = Self.page(status: .internalServerError, message: nil, flash: context.flash)
            return renderer.response(page, status: .internalServerError, for: request)
        }
    }

    static func page(status: HTTPResponse.Status, message: String?, flash: FlashViewModel?) -> ErrorPageViewModel {
        ErrorPageViewModel(status: status.code, reasonPhrase: status.reasonPhrase, message: message, flash: flash)
    }
}
