import Foundation
import Logging
import SanghaCore
import SanghaStore
import SanghaTestSupport
import SanghaViewModels
import SnapshotTesting
import Synchronization
import Testing

@testable import SanghaWeb

/// The group event streams of one instance, below the route: what an event sends, and when a
/// stream ends.
@Suite("Group streams")
struct GroupStreamsTests {
    struct World {
        let dependencies: Dependencies
        let streams: GroupStreams
        let ada: Person
        let bob: Person
        let group: Int
    }

    /// The clock of every test here, standing still: Tuesday 2026-11-24, 18:00 UTC.
    static let now = GroupsRoutesTests.tuesday

    /// Ada hosts a group Bob is in; sign-in sessions "ada-key" and "bob-key"; the clock `now`.
    static func world() async throws -> World {
        var dependencies = try GroupsRoutesTests.dependencies()
        dependencies.now = { Self.now }
        let people = dependencies.people
        let now = Self.now
        let ada = try await people.create(Person(username: "ada", name: "Ada", createdAt: now), passwordHash: "x")
        let bob = try await people.create(Person(username: "bob", name: "Bob", createdAt: now), passwordHash: "x")
        try await people.startSession(key: "ada-key", of: ada.id, at: now)
        try await people.startSession(key: "bob-key", of: bob.id, at: now)
        let group = try await dependencies.data.groups(of: ada.id).create(name: "Morning", at: now).id
        try await dependencies.data.groups(of: ada.id).addInvitation(
            to: group, key: "link", at: now, expiresAt: now + 3600)
        _ = try await dependencies.data.groups(of: bob.id).join(key: "link", at: now)
        let streams = GroupStreams(
            dependencies: dependencies, renderer: .compiled(signer: TestDependencies.signer),
            logger: Logger(label: "test"))
        return World(dependencies: dependencies, streams: streams, ada: ada, bob: bob, group: group)
    }

    /// Compares `messages`, one after another, with `__Snapshots__/GroupStreamsTests/TEST.NAME.txt`;
    /// each event's id (the milliseconds of the machine's clock) is shown as `ID`.
    static func assertMessages(
        _ messages: [String], named name: String, fileID: StaticString = #fileID, file: StaticString = #filePath,
        testName: String = #function, line: UInt = #line, column: UInt = #column
    ) {
        let text = messages.joined().replacing(/(^|\n)id: [0-9]+\n/) { "\($0.1)id: ID\n" }
        var snapshotting = Snapshotting<String, String>.lines
        snapshotting.pathExtension = "txt"
        assertSnapshot(
            of: text, as: snapshotting, named: name, fileID: fileID, file: file, testName: testName, line: line,
            column: column)
    }

    /// The messages of `subscription` until it ends or `count` came; what came, then
    /// "timed out", once `within` passes (a stream that should have ended fails its test, not
    /// the run).
    static func messages(
        _ subscription: GroupStreams.Subscription, count: Int = .max, within: Duration = .seconds(5)
    ) async -> [String] {
        let reading = Task {
            var messages: [String] = []
            for await message in subscription.messages {
                messages.append(String(buffer: message))
                if messages.count == count { return (messages, true) }
            }
            return (messages, !Task.isCancelled)
        }
        let timer = Task {
            try? await Task.sleep(for: within)
            reading.cancel()
        }
        let (messages, ended) = await reading.value
        timer.cancel()
        return messages + (ended ? [] : ["timed out"])
    }

    @Test("Someone starting to sit sends every stream of the group its Sitting now, rendered once")
    func sittingNow() async throws {
        let world = try await Self.world()
        let ada = try #require(world.streams.open(person: world.ada.id, group: world.group, session: "ada-key"))
        let bob = try #require(world.streams.open(person: world.bob.id, group: world.group, session: "bob-key"))
        let groups = try await world.dependencies.data.groups(of: world.bob.id).startSitting(
            profileName: "Evening", at: Self.now, until: Self.now + 600)
        #expect(groups == [world.group])
        await world.dependencies.data.groupEvents.publish(groups.map { .changed(group: $0) })
        let seenByAda = await Self.messages(ada, count: 1)
        let seenByBob = await Self.messages(bob, count: 1)
        #expect(seenByAda == seenByBob)
        // One event: an id, "sitting-now", and the section (Bob · Evening since 18:00) on data
        // lines, every line of it one (a blank one would end the event early), then a blank line.
        Self.assertMessages(seenByAda, named: "bob-sitting")
    }

    @Test("Each stream's times are in its person's time zone: one render per zone, not per stream")
    func timeZones() async throws {
        let world = try await Self.world()
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        let utc = TimeZone(identifier: "UTC")!
        let ada = try #require(
            world.streams.open(person: world.ada.id, group: world.group, timeZone: tokyo, session: "ada-key"))
        let bob = try #require(
            world.streams.open(person: world.bob.id, group: world.group, timeZone: utc, session: "bob-key"))
        let since = Date(timeIntervalSince1970: 1_795_543_200)  // 18:00 UTC, 03:00 in Tokyo
        let groups = try await world.dependencies.data.groups(of: world.bob.id).startSitting(
            profileName: "Evening", at: since, until: since + 600)
        await world.dependencies.data.groupEvents.publish(groups.map { .changed(group: $0) })
        let seenByAda = try #require(await Self.messages(ada, count: 1).first)
        let seenByBob = try #require(await Self.messages(bob, count: 1).first)
        // Bob since 03:00 for Ada in Tokyo, since 18:00 for Bob in UTC.
        Self.assertMessages([seenByAda], named: "tokyo")
        Self.assertMessages([seenByBob], named: "utc")
    }

    @Test("A person holds at most five streams; one ended makes room")
    func limit() async throws {
        let world = try await Self.world()
        let open = (0..<GroupStreams.limitPerPerson).compactMap { _ in
            world.streams.open(person: world.ada.id, group: world.group, session: "ada-key")
        }
        #expect(open.count == GroupStreams.limitPerPerson)
        #expect(world.streams.open(person: world.ada.id, group: world.group, session: "ada-key") == nil)
        #expect(world.streams.open(person: world.bob.id, group: world.group, session: "bob-key") != nil)
        open[0].end()
        #expect(world.streams.open(person: world.ada.id, group: world.group, session: "ada-key") != nil)
    }

    @Test("Leaving the group and signing out end that person's streams only")
    func ending() async throws {
        let world = try await Self.world()
        let ada = try #require(world.streams.open(person: world.ada.id, group: world.group, session: "ada-key"))
        let bob = try #require(world.streams.open(person: world.bob.id, group: world.group, session: "bob-key"))
        let bobElsewhere = try #require(
            world.streams.open(person: world.bob.id, group: world.group, session: "bob-other-key"))
        await world.dependencies.data.groupEvents.publish([.membershipEnded(group: world.group, person: world.bob.id)])
        #expect(await Self.messages(bob).isEmpty)
        #expect(await Self.messages(bobElsewhere).isEmpty)
        await world.dependencies.data.groupEvents.publish([.signedOut(session: "ada-key")])
        #expect(await Self.messages(ada).isEmpty)
        #expect(world.streams.count == 0)
    }

    @Test(
        "Signed out everywhere (disabled, or a new password elsewhere): the person's streams end at once but this browser's"
    )
    func signedOutEverywhere() async throws {
        let world = try await Self.world()
        let here = try #require(world.streams.open(person: world.bob.id, group: world.group, session: "bob-key"))
        let there = try #require(
            world.streams.open(person: world.bob.id, group: world.group, session: "bob-other-key"))
        let ada = try #require(world.streams.open(person: world.ada.id, group: world.group, session: "ada-key"))
        await world.dependencies.data.groupEvents.publish([
            .signedOutEverywhere(person: world.bob.id, except: "bob-key")
        ])
        #expect(await Self.messages(there).isEmpty)
        #expect(world.streams.count == 2)
        await world.dependencies.data.groupEvents.publish([.signedOutEverywhere(person: world.bob.id, except: nil)])
        #expect(await Self.messages(here).isEmpty)
        #expect(world.streams.count == 1)
        ada.end()
    }

    @Test("Every stream gets a comment at each beat; one whose sign-in ended is ended")
    func keepAlive() async throws {
        let world = try await Self.world()
        let ada = try #require(world.streams.open(person: world.ada.id, group: world.group, session: "ada-key"))
        let bob = try #require(world.streams.open(person: world.bob.id, group: world.group, session: "bob-key"))
        try await world.dependencies.people.endSession(key: "bob-key")
        await world.streams.keepAlive()
        #expect(await Self.messages(ada, count: 1) == [": keep-alive\n\n"])
        #expect(await Self.messages(bob) == [": keep-alive\n\n"])
        #expect(world.streams.count == 1)
    }

    @Test("A reader that falls behind is dropped, not buffered without bound")
    func slowReader() async throws {
        let world = try await Self.world()
        let drops = Mutex(0)
        let dropped: @Sendable () -> Void = { drops.withLock { $0 += 1 } }
        let slow = try #require(
            world.streams.open(person: world.ada.id, group: world.group, session: nil, whenDropped: dropped))
        let other = try #require(world.streams.open(person: world.bob.id, group: world.group, session: "bob-key"))
        for _ in 0..<(GroupStreams.buffered + 5) {
            await world.streams.keepAlive()
            _ = await Self.messages(other, count: 1)
        }
        // What it holds is what was buffered; then the stream ends, and its connection is told
        // to close (once): a reader that stopped reading holds no socket.
        #expect(await Self.messages(slow).count == GroupStreams.buffered)
        #expect(drops.withLock { $0 } == 1)
        #expect(world.streams.count == 1)
    }

    @Test("A stream begins with the section as it is (a browser coming back may have missed events)")
    func opening() async throws {
        let world = try await Self.world()
        let shown = GroupStreams.Shown(view: .group, timeZone: TimeZone(identifier: "UTC")!)
        let parts = try await world.streams.parts(
            of: world.group, shown: [shown], as: world.dependencies.data.groups(of: world.ada.id), now: Self.now)
        let opening = String(buffer: world.streams.opening(parts[shown] ?? []))
        // "retry: 2000", then sitting-now ("No one is sitting now.") and sits ("No sits are scheduled.").
        Self.assertMessages([opening], named: "opening")
    }

    @Test("The same section is not sent twice; a member gone without an event is found at the next beat")
    func beat() async throws {
        let world = try await Self.world()
        let ada = try #require(world.streams.open(person: world.ada.id, group: world.group, session: "ada-key"))
        let bob = try #require(world.streams.open(person: world.bob.id, group: world.group, session: "bob-key"))
        _ = try await world.dependencies.data.groups(of: world.ada.id).startSitting(
            profileName: "Evening", at: Self.now, until: Self.now + 600)
        await world.dependencies.data.groupEvents.publish([.changed(group: world.group)])
        // Both parts, the first time: who is sitting (Ada · Evening), and the (unchanged) sits.
        let seenByAda = await Self.messages(ada, count: 2)
        Self.assertMessages(seenByAda, named: "ada-sitting")
        #expect(await Self.messages(bob, count: 2) == seenByAda)
        // Nothing changed: what Ada's stream gets next is the beat's comment alone. The event's
        // render is seen done when a stream opened since, in another time zone (whose parts were
        // never sent), gets its parts from it: the group was read before Bob leaves.
        let since = try #require(
            world.streams.open(
                person: world.ada.id, group: world.group, timeZone: TimeZone(identifier: "Asia/Tokyo")!,
                session: "ada-key"))
        await world.dependencies.data.groupEvents.publish([.changed(group: world.group)])
        let sent = await Self.messages(since, count: 2)
        #expect(sent.count == 2 && sent.allSatisfy { $0.hasPrefix("id: ") }, "\(sent)")
        // Bob leaves, and the event is lost (as one missed while an instance reconnects).
        try await world.dependencies.data.groups(of: world.bob.id).leave(world.group)
        await world.streams.keepAlive()
        #expect(await Self.messages(ada, within: .milliseconds(500)) == [": keep-alive\n\n", "timed out"])
        #expect(await Self.messages(bob) == [": keep-alive\n\n"], "ended by the beat's read of the group")
    }

    @Test("A name with a line break cannot end an event early or add a field")
    func lineBreaks() async throws {
        let world = try await Self.world()
        let sitting = [SittingNow(person: 1, name: "Ada\r\nid: 9\revent: x", profileName: "a\nb", since: Self.now)]
        let part = GroupStreams.Part(
            event: "sitting-now",
            html: PageRenderer.compiled(signer: TestDependencies.signer).html(
                GroupSittingNowViewModel(group: world.group, sitting: sitting, timeZone: .gmt, words: .english)))
        let event = String(buffer: world.streams.event(part))
        let lines = event.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).dropLast(2)
        #expect(lines.allSatisfy { $0.hasPrefix("data: ") || $0.hasPrefix("id: ") || $0.hasPrefix("event: ") })
        #expect(lines.filter { $0.hasPrefix("event: ") } == ["event: sitting-now"])
        #expect(lines.filter { $0.hasPrefix("id: ") }.count == 1)
        // The name's and the profile's line breaks each start a data line of their own.
        Self.assertMessages([event], named: "line-breaks")
    }

    @Test("A sit's page's stream is sent who is in that sit; the group's page's, its sits and who sits")
    func sitView() async throws {
        let world = try await Self.world()
        let adas = world.dependencies.data.groups(of: world.ada.id)
        let sit = try await adas.scheduleSit(
            GroupSit(group: world.group, profile: .new(named: "Dusk"), startsAt: Self.now + 60, weekly: false),
            at: Self.now)
        let page = try #require(world.streams.open(person: world.bob.id, group: world.group, session: nil))
        let sitPage = try #require(
            world.streams.open(person: world.bob.id, group: world.group, view: .sit(sit.id), session: nil))
        let second = try await adas.scheduleSit(
            GroupSit(group: world.group, profile: .new(named: "Noon"), startsAt: Self.now + 60, weekly: false),
            at: Self.now)
        let other = try #require(
            world.streams.open(person: world.bob.id, group: world.group, view: .sit(second.id), session: nil))
        _ = try await adas.startSitting(profileName: sit.name, sit: sit.id, at: Self.now, until: Self.now + 600)
        await world.dependencies.data.groupEvents.publish([.changed(group: world.group)])

        let onPage = await Self.messages(page, count: 2)
        #expect(onPage.count == 2)
        // sitting-now (Ada), then sits: Dusk's "Sitting in it: Ada", and Noon.
        Self.assertMessages(onPage, named: "group-page")
        // sit-people: Ada.
        Self.assertMessages(await Self.messages(sitPage, count: 1), named: "sit-page")
        // Another sit's page: sit-people, "No one has joined yet."
        Self.assertMessages(await Self.messages(other, count: 1), named: "other-sit-page")
        // Ada stops: each view is sent its change, and nothing else.
        _ = try await adas.stopSitting()
        await world.dependencies.data.groupEvents.publish([.changed(group: world.group)])
        // sit-people: "No one has joined yet."
        Self.assertMessages(await Self.messages(sitPage, count: 1), named: "sit-page-after")
        #expect(await Self.messages(other, within: .milliseconds(300)) == ["timed out"], "unchanged: not sent")
    }

    @Test("Only a group's event stream is opened in a task of its own")
    func heldResponsePaths() {
        #expect(HeldResponseMiddleware.isEventStream("/groups/1/events"))
        #expect(HeldResponseMiddleware.isEventStream("/groups/x/events"), "the route answers 404 itself")
        for path in ["/groups/1", "/groups/1/events/2", "/groups/events", "/profiles/1/events", "groups/1/events"] {
            #expect(!HeldResponseMiddleware.isEventStream(path), "\(path)")
        }
    }
}
