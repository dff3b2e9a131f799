import Hummingbird
import SanghaCore
import SanghaViewModels

/// `POST /sessions`: the sitting page's script records a session run to the end or stopped
/// after a minute. `GET /history`: the sessions, a page at a time.
struct SittingRoutes {
    let data: any PersonalData
    let renderer: PageRenderer
    let maxFormSize: Int

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.post("sessions", use: record)
        router.get("history", use: history)
    }

    @Sendable func history(_ request: Request, context: AppRequestContext) async throws -> Response {
        let page = try request.pageNumber()
        let outcome = await HistoryViewModel.load(
            page: page, from: data.sessions(of: try context.person().id), context: context.page)
        return try renderer.response(outcome, for: request, notFound: "The history has no page \(page).")
    }

    @Sendable func record(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let input = try await request.decodeForm(SittingSessionInput.self, limit: maxFormSize)
        let person = try context.person()
        let outcome = await SittingViewModel.record(
            input, profiles: data.profiles(of: person.id), sessions: data.sessions(of: person.id),
            context: context.page)
        return try renderer.response(outcome, for: request, notFound: ProfilesRoutes.notFound)
    }
}
