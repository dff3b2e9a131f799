import SanghaCore
import Synchronization

/// The group event bus of one process (SQLite's, and a PostgreSQL instance's that does not
/// listen): what is published is received at once, here.
public final class InProcessGroupEventBus: GroupEventBus {
    private let receivers = Mutex<[@Sendable (GroupEvent?) -> Void]>([])

    public init() {}

    public func publish(_ events: [GroupEvent]) async {
        let receivers = receivers.withLock { $0 }
        for event in events {
            for receive in receivers { receive(event) }
        }
    }

    public func subscribe(_ receive: @escaping @Sendable (GroupEvent?) -> Void) {
        receivers.withLock { $0.append(receive) }
    }

    /// Tells every subscriber that events may have been missed (another process changed the
    /// data: who is signed in, who is a member): every part is read and shown again.
    public func missed() {
        for receive in receivers.withLock({ $0 }) { receive(nil) }
    }
}
