import Hummingbird
import SanghaCore
import SanghaViewModels

/// `POST /sessions`: the sitting page's script records a session run to the end or stopped
/// after a minute.
struct SittingRoutes {
    let profiles: any ProfileRepository
    let sessions: any SittingSessionRepository
    let renderer: PageRenderer
    let maxFormSize: Int

    func addRoutes(to router: Router<AppRequestContext>) {
        router.post("sessions", use: record)
    }

    @Sendable func record(_ request: Request, context: AppRequestContext) async throws -> Response {
        var request = request
        let input = try await request.decodeForm(SittingSessionInput.self, limit: maxFormSize)
        let outcome = await SittingViewModel.record(
            input, profiles: profiles, sessions: sessions, context: context.page)
        return try renderer.response(outcome, for: request, notFound: ProfilesRoutes.notFound)
    }
}
