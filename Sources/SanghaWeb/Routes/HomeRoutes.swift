import Hummingbird
import SanghaCore
import SanghaViewModels

/// `GET /`: the home page with its profiles, friends and practice panels.
struct HomeRoutes {
    let dependencies: Dependencies
    let renderer: PageRenderer

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.home, use: home)
    }

    @Sendable func home(_ request: Request, context: AppRequestContext) async throws -> Response {
        let person = try context.person()
        let page = await HomeViewModel.load(
            profiles: dependencies.data.profiles(of: person.id), friends: dependencies.friends(of: person),
            sessions: dependencies.data.sessions(of: person.id), context: context.page)
        return try renderer.response(page, for: request)
    }
}
