import Logging
import PostgresNIO
import SanghaCore
import SanghaStoreSupport

/// Group events between the instances sharing one database: published with `NOTIFY` on the
/// change feed's channel, and heard by every instance listening, this one included, through its
/// `PostgresChangeFeed`. So the publisher does not deliver them itself: its subscribers hear
/// them once, as the others do, when the notice comes back.
///
/// Without a feed (an instance that does not listen) events still reach this instance's own
/// subscribers, delivered here once they are sent.
public final class PostgresGroupEventBus: GroupEventBus {
    private let database: PostgresDatabase
    private let feed: PostgresChangeFeed?
    /// This instance's subscribers when there is no feed.
    private let local = InProcessGroupEventBus()

    public init(database: PostgresDatabase, feed: PostgresChangeFeed?) {
        self.database = database
        self.feed = feed
    }

    /// One statement for all of them, bounded like any other; a failure is logged.
    public func publish(_ events: [GroupEvent]) async {
        guard !events.isEmpty else { return }
        let payloads = events.map { PostgresChangeFeed.Change.group($0).payload }
        do {
            try await database.withConnection { [database] connection in
                _ = try await connection.query(
                    """
                    SELECT pg_notify(\(PostgresChangeFeed.channel), payload)
                    FROM unnest(\(payloads)::text[]) AS payload
                    """, logger: database.logger)
            }
        } catch {
            database.logger.warning(
                "Group events not sent to the other instances: \(error)",
                metadata: ["events": "\(events.map(\.payload))"])
        }
        if feed == nil { await local.publish(events) }
    }

    public func subscribe(_ receive: @escaping @Sendable (GroupEvent?) -> Void) {
        guard let feed else {
            local.subscribe(receive)
            return
        }
        feed.subscribe { change in
            switch change {
            case nil: receive(nil)
            case .group(let event): receive(event)
            default: break
            }
        }
    }
}
