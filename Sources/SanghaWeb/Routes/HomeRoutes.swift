import Hummingbird
import SanghaCore
import SanghaViewModels

/// `GET /`: the home page with its profiles, friends and practice panels.
struct HomeRoutes: AreaRoutes {
    let services: RowServices

    static let rows: [PageRow] = [
        .get(Paths.home) {
            LoadOutcome.page(
                await HomeViewModel.load(
                    profiles: try $0.profiles(), friends: try $0.friends(), sessions: try $0.sessions(),
                    context: $0.page))
        }
    ]
}
