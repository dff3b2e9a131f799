import HTTPTypes
import Hummingbird
import SanghaCore
import SanghaViewModels

/// The language of the request's page (`LanguageChoice`): the signed-in person's choice in
/// Settings, else the `lang` cookie of the picker at the foot of the sign-in and sign-up pages,
/// else the browser's `Accept-Language`, else `--default-language`. It goes into the page's
/// context (`PageContext.language`, and its `words`); a page answered says it
/// (`Content-Language`, a JSON answer too), and, when the browser's header decided, that another header may get
/// another page (`Vary: Accept-Language`).
struct LanguageMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext
    let defaultLanguage: Language

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        let choice = LanguageChoice(
            person: context.page.person?.language,
            cookie: context.languageCookie,
            acceptLanguage: request.headers[.acceptLanguage], fallback: defaultLanguage)
        var context = context
        context.page.language = choice.language
        var response = try await next(request, context)
        // A page, or a JSON answer (its messages are in the language too).
        let type = response.headers[.contentType] ?? ""
        if type.hasPrefix("text/html") || type.hasPrefix("application/json") {
            response.headers[.contentLanguage] = choice.language.tag
            if choice.byBrowser { response.headers.append(HTTPField(name: .vary, value: "Accept-Language")) }
        }
        return response
    }
}
