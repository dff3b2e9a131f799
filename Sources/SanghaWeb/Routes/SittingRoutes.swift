import Foundation
import Hummingbird
import SanghaCore
import SanghaViewModels

/// What the sitting page's script posts. `POST /sessions`: a session run to the end or stopped
/// after a minute. `POST /sitting` and `POST /sitting/stop`: when the person sits and stops, for
/// their groups' "Sitting now".
struct SittingRoutes: AreaRoutes {
    let services: RowServices

    static func notFound(_ words: Words) -> String { ProfilesRoutes.notFound(words) }
    static func sitNotFound(_ words: Words) -> String { GroupsRoutes.sitNotFound(words) }

    static let rows: [PageRow] = [
        // A session sat alone (with `profile`) or with a group sit (with `group` and `sit`).
        .post(
            Paths.sessions, form: SittingSessionInput.self,
            notFound: { words, sat in sat.isGroupSit ? sitNotFound(words) : notFound(words) }
        ) {
            asked -> SessionRecorded in
            if asked.input.isGroupSit {
                return .groupSit(
                    await GroupSitViewModel.record(
                        asked.input, groups: try asked.groups(), sessions: try asked.sessions(), context: asked.page))
            }
            return .alone(
                await SittingViewModel.record(
                    asked.input, profiles: try asked.profiles(), sessions: try asked.sessions(), context: asked.page))
        },
        // 204 once the person's groups are told; the script needs nothing back.
        .post(
            Paths.sitting, form: SittingPresence.Input.self,
            notFound: { words, sat in sat.sit != nil || sat.group != nil ? sitNotFound(words) : notFound(words) }
        ) {
            await SittingPresence.start(
                $0.input, profiles: try $0.profiles(), groups: try $0.groups(), now: $0.page.now,
                words: $0.page.words)
        },
        .post(Paths.sittingStop, notFound: notFound) {
            await SittingPresence.stop(groups: try $0.groups(), words: $0.page.words)
        },
    ]

    /// A session recorded alone or with a group sit: their pages differ.
    enum SessionRecorded: RowOutcome {
        case alone(SubmitOutcome<SittingViewModel>)
        case groupSit(SubmitOutcome<GroupSitViewModel>)

        var events: [GroupEvent] { [] }

        func response(_ renderer: PageRenderer, for request: Request, notFound: String) throws -> Response {
            switch self {
            case .alone(let outcome): try outcome.response(renderer, for: request, notFound: notFound)
            case .groupSit(let outcome): try outcome.response(renderer, for: request, notFound: notFound)
            }
        }
    }
}
