import Foundation
import Hummingbird
import SanghaCore
import SanghaViewModels

/// `/admin`, for administrators only (anyone else gets 404, as if it did not exist): everyone,
/// invitations, disabling and enabling, password reset links, more administrators.
struct AdminRoutes {
    let dependencies: Dependencies
    let renderer: PageRenderer
    let configuration: AppConfiguration
    var people: any PeopleRepository { dependencies.people }

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        let admin = router.group().add(middleware: RequireAdministratorMiddleware())
        admin.get(Paths.admin, use: page)
        admin.post(Paths.adminInvitations, use: invite)
        admin.post(Paths.adminPasswordReset, use: resetLink)
        for action in AdminAction.allCases {
            admin.post(action.route) { request, context in try await act(action, request, context) }
        }
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        let outcome = await AdminViewModel.load(people: people, signUp: configuration.signUp, context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    /// A one-use sign-up link, shown on the page this post answers and never again.
    @Sendable func invite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = SecretToken.make()
        let outcome = await AdminViewModel.invite(
            key: SecretToken.key(of: token), url: configuration.linkURL(Paths.invitation(token), for: request),
            people: people,
            signUp: configuration.signUp, context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    /// A one-use password reset link for the person, shown once.
    @Sendable func resetLink(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.adminPasswordReset.value(in: context, notFound: Self.notFound)
        let token = SecretToken.make()
        let outcome = await AdminViewModel.passwordReset(
            for: id, key: SecretToken.key(of: token),
            url: configuration.linkURL(Paths.passwordReset(token), for: request),
            people: people, signUp: configuration.signUp, context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    func act(_ action: AdminAction, _ request: Request, _ context: AppRequestContext) async throws -> Response {
        let id = try action.route.value(in: context, notFound: Self.notFound)
        let outcome = await action.perform(on: id, people: people, context: context.page)
        // Signed out everywhere: their group pages stop hearing the groups at once.
        if action == .disable, case .redirect = outcome {
            await dependencies.data.groupEvents.publish([.signedOutEverywhere(person: id, except: nil)])
        }
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    static let notFound = "There is no such person."
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
