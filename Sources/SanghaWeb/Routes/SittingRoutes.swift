import Foundation
import Hummingbird
import SanghaCore
import SanghaViewModels

/// `POST /sessions`: the sitting page's script records a session run to the end or stopped
/// after a minute. `POST /sitting` and `POST /sitting/stop`: it says when the person sits and
/// stops, for their groups' "Sitting now".
struct SittingRoutes {
    let data: any PersonalData
    let renderer: PageRenderer
    let maxFormSize: Int

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.post(Paths.sessions, use: record)
        router.post(Paths.sitting, use: startSitting)
        router.post(Paths.sittingStop, use: stopSitting)
    }

    @Sendable func startSitting(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await request.decodeForm(SittingPresence.Input.self, limit: maxFormSize)
        let person = try context.person().id
        return try await presence(
            SittingPresence.start(
                input, profiles: data.profiles(of: person), groups: data.groups(of: person), now: context.page.now),
            ofSit: input.sit != nil || input.group != nil)
    }

    @Sendable func stopSitting(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await presence(SittingPresence.stop(groups: data.groups(of: try context.person().id)))
    }

    /// 204 once the person's groups are told; the script needs nothing back.
    private func presence(_ outcome: SittingPresence.Outcome, ofSit: Bool = false) async throws -> Response {
        if case .announced(let groups) = outcome { await data.groupEvents.publish(groups.map { .changed(group: $0) }) }
        return try renderer.response(outcome, notFound: ofSit ? GroupsRoutes.sitNotFound : ProfilesRoutes.notFound)
    }

    /// A session sat alone (with `profile`) or with a group sit (with `group` and `sit`).
    @Sendable func record(_ request: Request, context: AppRequestContext) async throws -> Response {
        let input = try await request.decodeForm(SittingSessionInput.self, limit: maxFormSize)
        let person = try context.person()
        let sessions = data.sessions(of: person.id)
        if input.isGroupSit {
            let outcome = await GroupSitViewModel.record(
                input, groups: data.groups(of: person.id), sessions: sessions, context: context.page)
            return try renderer.response(outcome, for: request, notFound: GroupsRoutes.sitNotFound)
        }
        let outcome = await SittingViewModel.record(
            input, profiles: data.profiles(of: person.id), sessions: sessions, context: context.page)
        return try renderer.response(outcome, for: request, notFound: ProfilesRoutes.notFound)
    }
}
