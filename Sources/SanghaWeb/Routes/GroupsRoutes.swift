import Foundation
import HTTPTypes
import Hummingbird
import SanghaCore
import SanghaHTTP
import SanghaViewModels
import ServiceLifecycle

/// `/groups`: a person's groups, each group's page (404 for anyone not in it, as for one that
/// does not exist), invitation links, joining, leaving and removing, its sits; and, written by
/// hand, its live events (a stream).
struct GroupsRoutes: AreaRoutes {
    let services: RowServices
    let streams: GroupStreams

    struct CreateForm: Decodable, Sendable {
        var name: String?
    }

    /// Each group's roster, a host's and a member's, as last shown.
    static let keptRosters = KeptPageParts<GroupRoster>(limit: 2_000)

    static let rows: [PageRow] = [
        .get(Paths.groups, notFound: notFound) {
            await GroupsViewModel.load(groups: try $0.groups(), context: $0.page)
        },
        .post(Paths.groups, form: CreateForm.self, notFound: notFound) {
            await GroupsViewModel.create(name: $0.input.name ?? "", groups: try $0.groups(), context: $0.page)
        },
        .get(Paths.group, notFound: notFound) {
            let words = $0.page.words
            return await GroupViewModel.load(
                $0.values, groups: try $0.groups(), profiles: try $0.profiles(), context: $0.page,
                roster: { keptRosters.part($0, words: words) })
        },
        // A new invitation link, shown on the page this post answers and never again.
        .post(Paths.groupInvitations, notFound: notFound) { asked in
            let token = SecretToken.make()
            return await GroupViewModel.invite(
                asked.values, key: SecretToken.key(of: token), url: asked.link(Paths.groupInvitationLink.url(token)),
                groups: try asked.groups(), profiles: try asked.profiles(), context: asked.page)
        },
        .post(Paths.revokeGroupInvitation, notFound: notFound) {
            await GroupAction.revoke(invitation: $0.values.1).perform(
                on: $0.values.0, groups: try $0.groups(), context: $0.page)
        },
        .post(Paths.leaveGroup, notFound: notFound) {
            await GroupAction.leave.perform(on: $0.values, groups: try $0.groups(), context: $0.page)
        },
        .post(Paths.removeGroupMember, notFound: notFound) {
            await GroupAction.remove(member: $0.values.1).perform(
                on: $0.values.0, groups: try $0.groups(), context: $0.page)
        },
        .post(Paths.readmitGroupMember, notFound: notFound) {
            await GroupAction.readmit(person: $0.values.1).perform(
                on: $0.values.0, groups: try $0.groups(), context: $0.page)
        },
        // "Schedule a sit" (hosts).
        .post(Paths.groupSits, form: GroupScheduleInput.self, notFound: notFound) {
            await GroupSitAction.schedule(
                $0.input, in: $0.values, groups: try $0.groups(), profiles: try $0.profiles(), context: $0.page)
        },
        .get(Paths.groupSit, notFound: sitNotFound) {
            await GroupSitViewModel.load(
                group: $0.values.0, sit: $0.values.1, groups: try $0.groups(), context: $0.page)
        },
        // "Cancel sit" (hosts).
        .post(Paths.cancelGroupSit, notFound: sitNotFound) {
            await GroupSitAction.cancel(
                $0.values.1, in: $0.values.0, groups: try $0.groups(), now: $0.page.now, words: $0.page.words)
        },
        // An invitation link: what it offers, and joining. A link that is not well formed is an
        // unknown one.
        .get(Paths.groupInvitationLink, notFound: { $0.groupsInvalidLink }) { asked in
            guard let token = SecretToken.wellFormed(asked.values) else {
                return LoadOutcome<GroupInvitationViewModel>.notFound
            }
            return await GroupInvitationViewModel.load(
                token: token, key: SecretToken.key(of: token), groups: try asked.groups(), context: asked.page)
        },
        .post(Paths.groupInvitationLink, notFound: { $0.groupsInvalidLink }) { asked in
            guard let token = SecretToken.wellFormed(asked.values) else {
                return SubmitOutcome<GroupInvitationViewModel>.notFound
            }
            return await GroupInvitationViewModel.join(
                key: SecretToken.key(of: token), groups: try asked.groups(), context: asked.page)
        },
    ]

    func addHandWritten(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.groupEvents, use: events)
    }

    /// `GET /groups/{id}/events`: Server-Sent Events, each the HTML of a part of the group's
    /// page as it shows it ("Sitting now", "Upcoming sits"; with `?sit=`, the part of that
    /// sit's page that says who is in it), the parts as they are at once, while the person is
    /// signed in and a member. 404 to anyone else, or for a sit not the group's; 429 past
    /// `GroupStreams.limitPerPerson` streams on this instance.
    @Sendable func events(_ request: Request, context: AppRequestContext) async throws -> Response {
        let words = context.page.words
        let id = try Paths.groupEvents.value(in: context, notFound: Self.notFound(words))
        let person = try context.person()
        var view = GroupStreams.View.group
        if let sit = request.uri.queryParameters.get("sit") {
            guard let sit = Int(sit) else { throw HTTPError(.notFound, message: Self.sitNotFound(words)) }
            view = .sit(sit)
        }
        let shown = GroupStreams.Shown(view: view, timeZone: context.page.timeZone, language: context.page.language)
        let channel = context.channel
        guard
            let subscription = streams.open(
                person: person.id, group: id, view: view, timeZone: shown.timeZone, language: shown.language,
                session: context.signInKey,
                // Dropped, it fell behind: the connection's buffers are full and its reader is not
                // reading, so the write in progress would never end (and the socket never close).
                whenDropped: { channel.close(promise: nil) })
        else {
            throw HTTPError(.tooManyRequests, message: words.groupsTooManyPages)
        }
        // The parts now, read once the stream is open (so a membership ending meanwhile ends it):
        // they prove membership, and they are what the stream begins with.
        let parts: [GroupStreams.Part]
        do {
            let groups = dependencies.data.groups(of: person.id)
            guard let found = try await streams.parts(of: id, shown: [shown], as: groups, now: context.page.now)[shown]
            else { throw GroupRepositoryError.notFound }
            parts = found
        } catch GroupRepositoryError.notFound {
            subscription.end()
            throw HTTPError(.notFound, message: view == .group ? Self.notFound(words) : Self.sitNotFound(words))
        } catch {
            subscription.end()
            throw PageFailure.storage.error(
                StorageMessage.text(
                    for: error, otherwise: context.page.words.groupsReadingGroupFailed, words: context.page.words))
        }
        context.channel.whenClientClosed { subscription.end() }
        let opening = streams.opening(parts)
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/event-stream; charset=utf-8", .cacheControl: "no-store",
                // nginx (as `make cluster` runs it) passes each event on at once.
                .xAccelBuffering: "no",
            ],
            body: ResponseBody { writer in
                // A reader gone (a write fails) leaves the streams here too.
                defer { subscription.end() }
                // The server stops only when its requests have finished: a stream ends at once.
                try await withGracefulShutdownHandler {
                    try await writer.write(opening)
                    for await message in subscription.messages { try await writer.write(message) }
                } onGracefulShutdown: {
                    subscription.end()
                }
                try await writer.finish(nil)
            })
    }

    static func notFound(_ words: Words) -> String { words.groupsNotFound }
    static func sitNotFound(_ words: Words) -> String { words.groupsSitNotFound }
}

extension HTTPField.Name {
    static let xAccelBuffering = Self("X-Accel-Buffering")!
}
