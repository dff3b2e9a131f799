import Hummingbird
import SanghaCore
import SanghaViewModels

/// `GET /`: the home page with its profiles, friends and practice panels.
struct HomeRoutes {
    let dependencies: Dependencies
    let renderer: PageRenderer

    func addRoutes(to router: Router<AppRequestContext>) {
        router.get("/", use: home)
        router.get("health") { _, _ in "OK" }
    }

    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = await HomeViewModel.load(
            profiles: dependencies.profiles, friends: dependencies.friends, sessions: dependencies.sessions,
            context: context.page)
        return try renderer.response(page, for: request)
    }
}
