import Logging
import PostgresNIO
import SanghaCore
import SanghaStoreSupport
import ServiceLifecycle
import Synchronization

/// What instances sharing one database tell each other, so each may keep in memory what another
/// can change: a change is announced with `pg_notify` on `sangha_changes` right after the
/// statement that makes it, or in it (a profile's create), delivered when that commits; and every
/// instance listens on one connection of its own.
///
/// An instance uses what it keeps (`Memo`) only while it is listening, forgets all of it
/// whenever it starts or stops listening (it may have missed a notice meanwhile), and never uses
/// anything older than `maximumAge`: a change made on another instance is seen here as soon as
/// its notice arrives (a millisecond or so on one host), and after `maximumAge` at the latest.
///
/// Group events (`PostgresGroupEventBus`) travel the same way, with nothing kept.
public final class PostgresChangeFeed: Service, Sendable {
    /// The channel every instance listens on.
    static let channel = "sangha_changes"
    /// The longest anything kept in memory is used, whatever the notices, counted from the
    /// moment its read began.
    public static let maximumAge: Duration = .seconds(2)

    /// A change, as a notice's payload says it.
    enum Change: Equatable {
        /// A sign-in session ended (its key, as stored).
        case session(String)
        /// A person changed or was deleted: their sessions and profiles are read again.
        case person(Int)
        /// A profile was saved or deleted: it is read again (its owner's list is told apart).
        case profile(Int)
        /// A profile of the owner was created, saved or deleted: their list is read again. (Two
        /// notices, not one naming both: an instance of the version before reads `profile ID`
        /// and ignores this one, so a rolling restart keeps profiles read by id true.)
        case profileList(owner: Int)
        /// The owner's sessions were recorded, edited, imported or deleted: their practice is
        /// read again.
        case practice(owner: Int)
        /// A group event, for `PostgresGroupEventBus`'s subscribers.
        case group(GroupEvent)
        /// The group's links, members, removals or sits changed, or who is sitting in it: its
        /// page is read again.
        case groupPage(Int)
        /// The person made or joined a group: their list of groups is read again.
        case groupsOf(person: Int)

        init?(payload: String) {
            let parts = payload.split(separator: " ", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return nil }
            switch parts[0] {
            case "session": self = .session(parts[1])
            case "person": guard let id = Int(parts[1]) else { return nil }; self = .person(id)
            case "profile": guard let id = Int(parts[1]) else { return nil }; self = .profile(id)
            case "profiles": guard let owner = Int(parts[1]) else { return nil }; self = .profileList(owner: owner)
            case "practice": guard let owner = Int(parts[1]) else { return nil }; self = .practice(owner: owner)
            case "group": guard let event = GroupEvent(payload: parts[1]) else { return nil }; self = .group(event)
            case "group-page": guard let id = Int(parts[1]) else { return nil }; self = .groupPage(id)
            case "groups-of": guard let id = Int(parts[1]) else { return nil }; self = .groupsOf(person: id)
            default: return nil
            }
        }

        var payload: String {
            switch self {
            case .session(let key): "session \(key)"
            case .person(let id): "person \(id)"
            case .profile(let id): "profile \(id)"
            case .profileList(let owner): "profiles \(owner)"
            case .practice(let owner): "practice \(owner)"
            case .group(let event): "group \(event.payload)"
            case .groupPage(let id): "group-page \(id)"
            case .groupsOf(let person): "groups-of \(person)"
            }
        }
    }

    private let database: PostgresDatabase
    private let logger: Logger
    private let listening = Atomic<Bool>(false)
    private let subscribers = Mutex<[@Sendable (Change?) -> Void]>([])

    public init(database: PostgresDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// Whether notices arrive now: what is kept in memory may be used.
    var isListening: Bool { listening.load(ordering: .acquiring) }

    /// Calls `receive` with every change announced, and with nil when every kept thing must go.
    func subscribe(_ receive: @escaping @Sendable (Change?) -> Void) {
        subscribers.withLock { $0.append(receive) }
    }

    private func deliver(_ change: Change?) {
        for receive in subscribers.withLock({ $0 }) { receive(change) }
    }

    /// Listens until the service group shuts down, connecting again (after a pause that grows
    /// to 5 s) whenever the connection ends.
    public func run() async throws {
        var pause: Duration = .milliseconds(100)
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown {
                    try await self.database.client.withConnection { connection in
                        try await connection.listen(on: Self.channel) { notices in
                            self.deliver(nil)
                            self.listening.store(true, ordering: .releasing)
                            self.logger.debug("Listening for changes of other instances")
                            for try await notice in notices {
                                if let change = Change(payload: notice.payload) { self.deliver(change) }
                            }
                        }
                    }
                }
            } catch {
                if !Task.isCancelled, !Task.isShuttingDownGracefully {
                    logger.warning("Not listening for changes of other instances: \(error)")
                }
            }
            // A listen that got going starts the pauses over; failures in a row wait longer.
            if listening.exchange(false, ordering: .acquiringAndReleasing) { pause = .milliseconds(100) }
            deliver(nil)
            try? await Task.sleep(for: pause)
            pause = min(pause * 2, .seconds(5))
        }
    }
}

extension PostgresChangeFeed: ChangeWatch {
    /// What an instance keeps (`Memo`) is used only while it listens.
    public var hearsEveryChange: Bool { isListening }
}
