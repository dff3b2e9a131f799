import Foundation
import Hummingbird
import SanghaCore
import SanghaViewModels

/// `/admin`, for administrators only (anyone else gets 404, as if it did not exist: its routes
/// are behind `RequireAdministratorMiddleware`): everyone, a page at a time, invitations,
/// disabling and enabling, password reset links, more administrators.
struct AdminRoutes: AreaRoutes {
    let services: RowServices

    static func notFound(_ words: Words) -> String { words.adminPersonNotFound }

    /// Each person's row as an administrator last saw it, with its rendering.
    static let keptRows = KeptPageParts<AdminPersonRow>(limit: 10_000)

    static let rows: [PageRow] =
        [
            // A page of the people (`?page=N`).
            .get(
                Paths.admin, query: ListPage.self,
                notFound: { words, list in words.adminNoListPage(page: words.number(list.page)) }
            ) {
                let words = $0.page.words
                return await AdminViewModel.load(
                    page: $0.input.page, people: $0.people, signUp: $0.configuration.signUp, context: $0.page,
                    row: { keptRows.part($0, words: words) })
            },
            // A one-use sign-up link, shown on the page this post answers and never again.
            .post(Paths.adminInvitations, notFound: notFound) { asked in
                let token = SecretToken.make()
                return await AdminViewModel.invite(
                    key: SecretToken.key(of: token), url: asked.link(Paths.invitation(token)), people: asked.people,
                    signUp: asked.configuration.signUp, context: asked.page)
            },
            // A one-use password reset link for the person, shown once.
            .post(Paths.adminPasswordReset, notFound: notFound) { asked in
                let token = SecretToken.make()
                return await AdminViewModel.passwordReset(
                    for: asked.values, key: SecretToken.key(of: token), url: asked.link(Paths.passwordReset(token)),
                    people: asked.people, signUp: asked.configuration.signUp, context: asked.page)
            },
        ]
        // Disable, enable, make an administrator: one row each.
        + AdminAction.allCases.map { action -> PageRow in
            .post(action.route, notFound: notFound) {
                await action.perform(on: $0.values, people: $0.people, context: $0.page)
            }
        }
}

/// `/admin` exists only for administrators: anyone else is told there is no such page.
struct RequireAdministratorMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws
        -> Response
    {
        guard context.page.person?.isAdministrator == true else { throw HTTPError(.notFound) }
        return try await next(request, context)
    }
}
