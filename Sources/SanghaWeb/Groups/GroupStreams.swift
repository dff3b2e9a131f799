import Foundation
import Hummingbird
import Logging
import SanghaCore
import SanghaViewModels
import ServiceLifecycle
import Synchronization

/// The event streams (`GET /groups/{id}/events`) open on this instance, and what they are sent.
///
/// A stream is of a group's page (its parts "Sitting now" and "Upcoming sits") or of one of its
/// sits' pages (`?sit=`, the part "In this sit"). An event the bus brings (`GroupEvent`) is
/// rendered once per group and part, with the compiled template of the part it replaces, from
/// one reading of the group, whatever the number of streams of that group here; events
/// arriving while the part renders are folded into one more render. Each stream buffers a few
/// messages: a reader that falls further behind is dropped (its stream ends, its connection is
/// closed, and its browser reconnects and gets the part as it is). A reader that stopped
/// reading is dropped even when no more events come: its connection keeps a small send buffer,
/// and a write that waits `AppConfiguration.writeTimeout` closes it (SanghaHTTP's
/// `ConnectionGuard`), which ends the stream's response and frees its place here. Every 25 s each stream gets a comment, so proxies
/// keep it, the sign-in sessions behind the streams are checked again, and each group's part is
/// read again (a sit past its end drops off; a member who left is found even if the event was
/// missed): a stream outlives neither its sign-in nor its membership. A part is sent only when
/// it differs from the last one sent.
public final class GroupStreams: Service, Sendable {
    /// Streams one person may hold at once (one a tab, a few tabs).
    public static let limitPerPerson = 5
    /// Messages a stream holds for a reader that has not taken them: more, and it is dropped.
    static let buffered = 8
    public static let keepAliveInterval: Duration = .seconds(25)

    /// A message of the stream, as its bytes.
    typealias Message = ByteBuffer

    /// What a stream shows: a group's page, or one of its sits' pages.
    enum View: Hashable, Sendable {
        case group
        case sit(Int)
    }

    /// A part of a page as an event sends it: the event's name (the part's `data-live-part`)
    /// and its HTML.
    struct Part: Equatable, Sendable {
        let event: String
        let html: String
    }

    /// A view as its streams show it: its times in their people's time zone, its words in their
    /// language.
    struct Shown: Hashable, Sendable {
        let view: View
        let timeZone: TimeZone
        var language: Language = .en
    }

    /// A part of a group's view, as last sent.
    private struct PartKey: Hashable {
        let group: Int
        let shown: Shown
        let event: String
    }

    struct Stream {
        let person: Int
        let group: Int
        let view: View
        /// Its person's: the times of its parts are shown in it.
        let timeZone: TimeZone
        /// Its page's: its parts say everything in it.
        let language: Language
        /// The sign-in session it was opened with (its key, as stored).
        let session: String?
        let continuation: AsyncStream<Message>.Continuation
        /// Called when it is dropped for falling behind.
        let whenDropped: @Sendable () -> Void

        var shown: Shown { Shown(view: view, timeZone: timeZone, language: language) }
    }

    private struct State {
        var streams: [Int: Stream] = [:]
        var nextID = 0
        var perPerson: [Int: Int] = [:]
        /// Groups whose part is being rendered, and those to render once more after it.
        var rendering: Set<Int> = []
        var again: Set<Int> = []
        /// The HTML each part of each group's views was last sent: the same again is not sent.
        var lastSent: [PartKey: String] = [:]
    }

    private let data: any PersonalData
    private let people: any PeopleRepository
    private let renderer: PageRenderer
    private let now: @Sendable () -> Date
    private let timeZone: TimeZone
    private let logger: Logger
    private let state = Mutex(State())
    /// Each event's id: milliseconds since 1970, one more than the last when they collide.
    private let lastEventID = Mutex(0)

    public init(dependencies: Dependencies, renderer: PageRenderer, logger: Logger) {
        self.data = dependencies.data
        self.people = dependencies.people
        self.renderer = renderer
        self.now = dependencies.now
        self.timeZone = dependencies.timeZone
        self.logger = logger
        dependencies.data.groupEvents.subscribe { [weak self] event in self?.receive(event) }
    }

    /// How many streams are open here.
    public var count: Int { state.withLock { $0.streams.count } }

    /// A stream open here: its messages, until it ends.
    struct Subscription: Sendable {
        let messages: AsyncStream<Message>
        let continuation: AsyncStream<Message>.Continuation

        /// Ends it: its response finishes.
        func end() { continuation.finish() }
    }

    /// A new stream of `group`'s `view` for `person` (its times in `timeZone`, else the
    /// deployment's; its words in `language`), or nil when they hold `limitPerPerson` already. `whenDropped` is called
    /// if its reader falls behind and it is dropped: its response is then stuck in a write that
    /// will not end (the reader stopped reading), and its connection must be closed.
    func open(
        person: Int, group: Int, view: View = .group, timeZone: TimeZone? = nil, language: Language = .en,
        session: String?, whenDropped: @escaping @Sendable () -> Void = {}
    ) -> Subscription? {
        let (stream, continuation) = AsyncStream.makeStream(
            of: Message.self, bufferingPolicy: .bufferingOldest(Self.buffered))
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        // Before it is in the table: a stream ended at any moment after leaves it.
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        let admitted = state.withLock { state in
            guard state.perPerson[person, default: 0] < Self.limitPerPerson else { return false }
            state.streams[id] = Stream(
                person: person, group: group, view: view, timeZone: timeZone ?? self.timeZone, language: language,
                session: session, continuation: continuation, whenDropped: whenDropped)
            state.perPerson[person, default: 0] += 1
            return true
        }
        guard admitted else { return nil }
        return Subscription(messages: stream, continuation: continuation)
    }

    private func remove(_ id: Int) {
        state.withLock { state in
            guard let stream = state.streams.removeValue(forKey: id) else { return }
            state.perPerson[stream.person, default: 1] -= 1
            if state.perPerson[stream.person] == 0 { state.perPerson[stream.person] = nil }
            let shown = stream.shown
            if !state.streams.values.contains(where: { $0.group == stream.group && $0.shown == shown }) {
                state.lastSent = state.lastSent.filter { $0.key.group != stream.group || $0.key.shown != shown }
            }
        }
    }

    /// Hands `message` to each stream; one whose reader fell `buffered` messages behind is
    /// dropped (ended), never buffered further.
    private func deliver(_ message: Message, to streams: some Sequence<Stream>) {
        for stream in streams {
            switch stream.continuation.yield(message) {
            case .enqueued: break
            case .dropped:
                logger.info("A group event stream fell behind and was dropped", metadata: ["group": "\(stream.group)"])
                stream.continuation.finish()
                stream.whenDropped()
            case .terminated: stream.continuation.finish()
            @unknown default: stream.continuation.finish()
            }
        }
    }

    /// Ends the streams that `matches`.
    private func end(where matches: (Stream) -> Bool) {
        let ending = state.withLock { state in state.streams.values.filter(matches) }
        for stream in ending { stream.continuation.finish() }
    }

    /// What the bus brings: nil when events may have been missed (every part is sent again).
    func receive(_ event: GroupEvent?) {
        switch event {
        case .changed(let group): refresh(group)
        case .membershipEnded(let group, let person): end { $0.group == group && $0.person == person }
        case .signedOut(let session): end { $0.session == session }
        case .signedOutEverywhere(let person, let except): end { $0.person == person && $0.session != except }
        case nil:
            // A sign-out may have been missed too (another process disabled someone): the
            // sign-ins are checked again, as at a beat, and every part is sent again.
            Task { await checkSignIns(of: state.withLock { Array($0.streams.values) }) }
            for group in state.withLock({ Set($0.streams.values.map(\.group)) }) { refresh(group) }
        }
    }

    /// Renders the group's part and sends it to its streams here, unless it has none; a render
    /// under way is followed by one more.
    private func refresh(_ group: Int) {
        let start = state.withLock { state -> Bool in
            guard state.streams.values.contains(where: { $0.group == group }) else { return false }
            guard state.rendering.insert(group).inserted else {
                state.again.insert(group)
                return false
            }
            return true
        }
        guard start else { return }
        Task {
            repeat {
                await self.send(group)
            } while state.withLock { state in
                if state.again.remove(group) != nil { return true }
                state.rendering.remove(group)
                return false
            }
        }
    }

    /// Reads the group as one of its members here (its parts are the same for every member),
    /// ends the streams of anyone here who is no longer a member, and sends each view's parts to
    /// its streams, each part unless it is what they were last sent.
    private func send(_ group: Int) async {
        var tried: Set<Int> = []
        while let reader = state.withLock({ state in
            state.streams.values.first { $0.group == group && !tried.contains($0.person) }?.person
        }) {
            tried.insert(reader)
            let groups = data.groups(of: reader)
            let now = now()
            do {
                guard let detail = try await groups.group(group, at: now) else {
                    end { $0.group == group && $0.person == reader }
                    continue
                }
                let members = Set(detail.members.map(\.person))
                end { $0.group == group && !members.contains($0.person) }
                let shown = state.withLock { state in
                    Set(state.streams.values.filter { $0.group == group }.map(\.shown))
                }
                for (shown, parts) in try await self.parts(of: group, shown: shown, as: groups, now: now) {
                    for part in parts {
                        let key = PartKey(group: group, shown: shown, event: part.event)
                        let streams = state.withLock { state -> [Stream] in
                            guard state.lastSent[key] != part.html else { return [] }
                            state.lastSent[key] = part.html
                            return state.streams.values.filter { $0.group == group && $0.shown == shown }
                        }
                        if !streams.isEmpty { deliver(event(part), to: streams) }
                    }
                }
                return
            } catch GroupRepositoryError.notFound {
                end { $0.group == group && $0.person == reader }
            } catch {
                // The storage failed: nothing is sent this time; the next event or beat tries again.
                return
            }
        }
    }

    /// The parts of each of the group's views as `shown`, rendered from one reading of it as
    /// `groups`' person sees it (who is sitting; the sits, when a group's page is among the
    /// views; each sit whose page is), in each time zone and language asked. Not found when they are not a
    /// member; a sit not the group's has none.
    func parts(of group: Int, shown: Set<Shown>, as groups: any GroupRepository, now: Date)
        async throws(GroupRepositoryError) -> [Shown: [Part]]
    {
        let sitting = try await groups.sittingNow(in: group, at: now)
        let sits = shown.contains { $0.view == .group } ? try await groups.sits(of: group, at: now) : []
        var sitsByID: [Int: GroupSit?] = [:]
        var parts: [Shown: [Part]] = [:]
        for shown in shown {
            let (view, timeZone, words) = (shown.view, shown.timeZone, Words(shown.language))
            switch view {
            case .group:
                parts[shown] = [
                    Part(
                        event: "sitting-now",
                        html: renderer.html(
                            GroupSittingNowViewModel(
                                group: group, sitting: sitting, timeZone: timeZone, words: words))),
                    Part(
                        event: "sits",
                        html: renderer.html(
                            GroupSitsViewModel(
                                sits: sits, sitting: sitting, now: now, timeZone: timeZone, words: words))),
                ]
            case .sit(let id):
                // (A sit not the group's is refused when its stream opens.)
                if sitsByID[id] == nil { sitsByID[id] = .some(try await groups.sit(id, of: group)) }
                guard let sit = sitsByID[id] ?? nil else { continue }
                parts[shown] = [
                    Part(
                        event: "sit-people",
                        html: renderer.html(
                            GroupSitPeopleViewModel(sit: sit, sitting: sitting, timeZone: timeZone, words: words)))
                ]
            }
        }
        return parts
    }

    /// A part as one event: its HTML on `data:` lines, under an id the browser sends back as
    /// `Last-Event-ID` when it reconnects.
    func event(_ part: Part) -> Message {
        let milliseconds = Int(Date().timeIntervalSince1970 * 1000)
        let id = lastEventID.withLock { last in
            last = max(milliseconds, last + 1)
            return last
        }
        var text = "id: \(id)\nevent: \(part.event)\n"
        // Every line break the browser would see (CR, LF, CRLF) starts a new data line.
        for line in part.html.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            text += "data: \(line)\n"
        }
        return Message(string: text + "\n")
    }

    /// What a stream begins with: how soon to reconnect, and its parts as they are now (they
    /// may have changed since the page was read, or while a browser was reconnecting).
    func opening(_ parts: [Part]) -> Message {
        var buffer = Message(string: "retry: 2000\n\n")
        for part in parts { buffer.writeImmutableBuffer(event(part)) }
        return buffer
    }

    static let keepAlive = Message(string: ": keep-alive\n\n")

    /// Every 25 s until shutdown: a comment on each stream, the end of those whose sign-in
    /// ended, and each group's part read again. (At shutdown each response ends its own stream,
    /// from the route; what is left then ends here.)
    public func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.keepAliveInterval)
                if Task.isCancelled { break }
                await self.keepAlive()
            }
        }
        end { _ in true }
    }

    func keepAlive() async {
        let streams = state.withLock { Array($0.streams.values) }
        deliver(Self.keepAlive, to: streams)
        await checkSignIns(of: streams)
        // Each group read again: a sit past its end drops off, and anyone no longer a member
        // (an event missed) loses the stream.
        for group in Set(streams.map(\.group)) { refresh(group) }
    }

    /// Ends the streams whose sign-in ended.
    private func checkSignIns(of streams: [Stream]) async {
        // Each sign-in once, however many streams it holds.
        let sessions = Dictionary(
            streams.compactMap { stream in stream.session.map { ($0, stream.person) } }, uniquingKeysWith: { a, _ in a }
        )
        var ended: Set<String> = []
        for (session, person) in sessions {
            do {
                if try await people.person(session: session, at: now())?.id != person { ended.insert(session) }
            } catch {
                // The storage did not answer: the streams stay, and are checked at the next beat.
            }
        }
        if !ended.isEmpty { end { $0.session.map(ended.contains) ?? false } }
    }
}
