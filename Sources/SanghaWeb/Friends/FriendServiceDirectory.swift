import SanghaCore
import Synchronization

/// The FriendService as each person reaches it: with their own token, or the deployment's.
///
/// Concurrent list requests with one token share a call (the service `make` builds, usually a
/// `CoalescingFriendService`), and the rows of that token's last list are built once: both are
/// kept per token here, a memo only. Which token a person has is `FriendTokenPolicy`'s.
public final class FriendServiceDirectory: Sendable {
    private let make: @Sendable (String?) -> any FriendService
    private let entries = Mutex<[String: Entry]>([:])
    /// More tokens than this in memory and the oldest memory is dropped (it is only a memo).
    static let limit = 10_000

    struct Entry: Sendable {
        let service: any FriendService
        let rows: FriendRowsCache
    }

    /// `make` builds the service for a token (nil: the deployment's own).
    public init(make: @escaping @Sendable (String?) -> any FriendService) {
        self.make = make
    }

    /// A directory whose every person reaches `service` (tests, one shared list).
    public convenience init(_ service: any FriendService) {
        self.init(make: { _ in service })
    }

    /// The service as `person` reaches it, and the rows memo of their token.
    func entry(for person: Person) -> Entry {
        let token = person.friendServiceToken ?? ""
        return entries.withLock { entries in
            if let entry = entries[token] { return entry }
            if entries.count >= Self.limit { entries.removeAll() }
            let entry = Entry(service: make(token.isEmpty ? nil : token), rows: FriendRowsCache())
            entries[token] = entry
            return entry
        }
    }

    public func service(for person: Person) -> any FriendService {
        entry(for: person).service
    }
}
