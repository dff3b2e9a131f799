import Foundation
import HTTPTypes
import Hummingbird
import SanghaCore
import SanghaHTTP
import SanghaViewModels
import ServiceLifecycle

/// `/groups`: a person's groups, each group's page (404 for anyone not in it, as for one that
/// does not exist), its live events, invitation links, joining, leaving and removing.
struct GroupsRoutes {
    let dependencies: Dependencies
    let renderer: PageRenderer
    let configuration: AppConfiguration
    let streams: GroupStreams

    struct CreateForm: Decodable {
        var name: String?
    }

    /// The groups as the signed-in person sees them: only their own.
    func groups(_ context: AppRequestContext) throws -> any GroupRepository {
        dependencies.data.groups(of: try context.person().id)
    }

    /// The signed-in person's profiles (a host schedules a sit with one).
    func profiles(_ context: AppRequestContext) throws -> any ProfileRepository {
        dependencies.data.profiles(of: try context.person().id)
    }

    func addRoutes(to router: some RouterMethods<AppRequestContext>) {
        router.get(Paths.groups, use: list)
        router.post(Paths.groups, use: create)
        router.get(Paths.groupInvitationLink, use: invitation)
        router.post(Paths.groupInvitationLink, use: join)
        router.get(Paths.group, use: page)
        router.get(Paths.groupEvents, use: events)
        router.post(Paths.groupInvitations, use: invite)
        router.post(Paths.revokeGroupInvitation, use: revoke)
        router.post(Paths.leaveGroup, use: leave)
        router.post(Paths.removeGroupMember, use: remove)
        router.post(Paths.readmitGroupMember, use: readmit)
        router.post(Paths.groupSits, use: schedule)
        router.get(Paths.groupSit, use: sitPage)
        router.post(Paths.cancelGroupSit, use: cancelSit)
    }

    @Sendable func list(_ request: Request, context: AppRequestContext) async throws -> Response {
        let outcome = await GroupsViewModel.load(groups: try groups(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func create(_ request: Request, context: AppRequestContext) async throws -> Response {
        let form = try await request.decodeForm(CreateForm.self, limit: configuration.maxFormSize)
        let outcome = await GroupsViewModel.create(
            name: form.name ?? "", groups: try groups(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func page(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.group.value(in: context, notFound: Self.notFound)
        let outcome = await GroupViewModel.load(
            id, groups: try groups(context), profiles: try profiles(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    /// "Schedule a sit" (hosts): the group's streams show it at once.
    @Sendable func schedule(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.groupSits.value(in: context, notFound: Self.notFound)
        let input = try await request.decodeForm(GroupScheduleInput.self, limit: configuration.maxFormSize)
        let outcome = await GroupSitAction.schedule(
            input, in: id, groups: try groups(context), profiles: try profiles(context), context: context.page)
        return try await respond(outcome, telling: [.changed(group: id)], request, notFound: Self.notFound)
    }

    /// A group sit's page, for the group's members.
    @Sendable func sitPage(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, sit) = try Paths.groupSit.values(in: context, notFound: Self.sitNotFound)
        let outcome = await GroupSitViewModel.load(
            group: id, sit: sit, groups: try groups(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.sitNotFound)
    }

    /// "Cancel sit" (hosts): whoever sits in it goes on alone; the group's streams show it gone.
    @Sendable func cancelSit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, sit) = try Paths.cancelGroupSit.values(in: context, notFound: Self.sitNotFound)
        let outcome = await GroupSitAction.cancel(sit, in: id, groups: try groups(context), now: context.page.now)
        return try await respond(outcome, telling: [.changed(group: id)], request, notFound: Self.sitNotFound)
    }

    /// A new invitation link, shown on the page this post answers and never again.
    @Sendable func invite(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.groupInvitations.value(in: context, notFound: Self.notFound)
        let token = SecretToken.make()
        let outcome = await GroupViewModel.invite(
            id, key: SecretToken.key(of: token),
            url: configuration.linkURL(Paths.groupInvitationLink.url(token), for: request),
            groups: try groups(context), profiles: try profiles(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: Self.notFound)
    }

    @Sendable func revoke(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, invitation) = try Paths.revokeGroupInvitation.values(in: context, notFound: Self.notFound)
        return try await perform(.revoke(invitation: invitation), on: id, request, context)
    }

    @Sendable func leave(_ request: Request, context: AppRequestContext) async throws -> Response {
        try await perform(
            .leave, on: try Paths.leaveGroup.value(in: context, notFound: Self.notFound), request, context)
    }

    @Sendable func remove(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, person) = try Paths.removeGroupMember.values(in: context, notFound: Self.notFound)
        return try await perform(.remove(member: person), on: id, request, context)
    }

    @Sendable func readmit(_ request: Request, context: AppRequestContext) async throws -> Response {
        let (id, person) = try Paths.readmitGroupMember.values(in: context, notFound: Self.notFound)
        return try await perform(.readmit(person: person), on: id, request, context)
    }

    private func perform(_ action: GroupAction, on id: Int, _ request: Request, _ context: AppRequestContext)
        async throws -> Response
    {
        let events = action.events(on: id, by: try context.person().id)
        let outcome = await action.perform(on: id, groups: try groups(context), context: context.page)
        return try await respond(outcome, telling: events, request, notFound: Self.notFound)
    }

    /// The answer to a group's form; first, when it was done, the group's open pages are told
    /// `events`. A refusal changed nothing, and tells no one.
    private func respond<Form: Page>(
        _ outcome: SubmitOutcome<Form>, telling events: [GroupEvent], _ request: Request, notFound: String
    ) async throws -> Response {
        if case .redirect = outcome { await dependencies.data.groupEvents.publish(events) }
        return try renderer.response(outcome, for: request, notFound: notFound)
    }

    /// `GET /groups/{id}/events`: Server-Sent Events, each the HTML of a part of the group's
    /// page as it shows it ("Sitting now", "Upcoming sits"; with `?sit=`, the part of that
    /// sit's page that says who is in it), the parts as they are at once, while the person is
    /// signed in and a member. 404 to anyone else, or for a sit not the group's; 429 past
    /// `GroupStreams.limitPerPerson` streams on this instance.
    @Sendable func events(_ request: Request, context: AppRequestContext) async throws -> Response {
        let id = try Paths.groupEvents.value(in: context, notFound: Self.notFound)
        let person = try context.person()
        var view = GroupStreams.View.group
        if let sit = request.uri.queryParameters.get("sit") {
            guard let sit = Int(sit) else { throw HTTPError(.notFound, message: Self.sitNotFound) }
            view = .sit(sit)
        }
        let shown = GroupStreams.Shown(view: view, timeZone: context.page.timeZone)
        let channel = context.channel
        guard
            let subscription = streams.open(
                person: person.id, group: id, view: view, timeZone: shown.timeZone, session: context.signInKey,
                // Dropped, it fell behind: the connection's buffers are full and its reader is not
                // reading, so the write in progress would never end (and the socket never close).
                whenDropped: { channel.close(promise: nil) })
        else {
            throw HTTPError(.tooManyRequests, message: Self.tooManyStreams)
        }
        // The parts now, read once the stream is open (so a membership ending meanwhile ends it):
        // they prove membership, and they are what the stream begins with.
        let parts: [GroupStreams.Part]
        do {
            let groups = try groups(context)
            guard let found = try await streams.parts(of: id, shown: [shown], as: groups, now: context.page.now)[shown]
            else { throw GroupRepositoryError.notFound }
            parts = found
        } catch GroupRepositoryError.notFound {
            subscription.end()
            throw HTTPError(.notFound, message: view == .group ? Self.notFound : Self.sitNotFound)
        } catch {
            subscription.end()
            throw HTTPError(
                .serviceUnavailable,
                message: StorageMessage.text(for: error, otherwise: "Reading the group failed. Please try again."))
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

    static let tooManyStreams =
        "You have too many group pages open at once. Close one, then reload this page to see it live again."

    @Sendable func invitation(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = try Self.token(context)
        let outcome = await GroupInvitationViewModel.load(
            token: token, key: SecretToken.key(of: token), groups: try groups(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: GroupInvitationViewModel.invalidMessage)
    }

    @Sendable func join(_ request: Request, context: AppRequestContext) async throws -> Response {
        let token = try Self.token(context)
        let outcome = await GroupInvitationViewModel.join(
            key: SecretToken.key(of: token), groups: try groups(context), context: context.page)
        return try renderer.response(outcome, for: request, notFound: GroupInvitationViewModel.invalidMessage)
    }

    /// The link's token when it looks like one; anything else is an unknown link (404).
    static func token(_ context: AppRequestContext) throws -> String {
        guard let token = Paths.groupInvitationLink.value(in: context).flatMap(SecretToken.wellFormed) else {
            throw HTTPError(.notFound, message: GroupInvitationViewModel.invalidMessage)
        }
        return token
    }

    static let notFound = "There is no such group, or you are not one of its members."
    static let sitNotFound = "There is no such sit, or you are not a member of its group."
}

extension HTTPField.Name {
    static let xAccelBuffering = Self("X-Accel-Buffering")!
}
