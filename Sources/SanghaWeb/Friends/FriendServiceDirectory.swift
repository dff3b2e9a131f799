import SanghaCore
import Synchronization

/// The embedded FriendService's lists, which Sangha looks after for its people: one per token
/// it issued.
public protocol EmbeddedFriendLists: Sendable {
    /// Gives the one list kept before Sangha had people to a new person's token (the first to
    /// sign up takes it, as they take the profiles; after that it is empty).
    func claimUnowned(for token: String) async
    /// Removes the list of a deleted person's token.
    func delete(token: String) async
}

/// The FriendService as each person reaches it: with their own token, or the deployment's. The
/// API layer owns the tokens; pages get a service and never see one.
///
/// Concurrent list requests with one token share a call (the service `make` builds, usually a
/// `CoalescingFriendService`), and the rows of that token's last list are built once: both are
/// kept per token here.
public final class FriendServiceDirectory: Sendable {
    /// How Sangha gets tokens for people.
    public enum Tokens: Sendable, Equatable {
        /// The embedded reference service, one list per token: Sangha gives each new person a
        /// random token at sign-up.
        case issued
        /// A remote service: a person may paste their own token in Settings; without one, the
        /// deployment's (`--friend-service-token`) is used.
        case pasted
    }

    public let tokens: Tokens
    private let make: @Sendable (String?) -> any FriendService
    /// With the embedded service, its lists.
    let embeddedLists: (any EmbeddedFriendLists)?
    private let entries = Mutex<[String: Entry]>([:])
    /// More tokens than this in memory and the oldest memory is dropped (it is only a memo).
    static let limit = 10_000

    struct Entry: Sendable {
        let service: any FriendService
        let rows: FriendRowsCache
    }

    /// `make` builds the service for a token (nil: the deployment's own).
    public init(
        tokens: Tokens, make: @escaping @Sendable (String?) -> any FriendService,
        embeddedLists: (any EmbeddedFriendLists)? = nil
    ) {
        self.tokens = tokens
        self.make = make
        self.embeddedLists = embeddedLists
    }

    /// A directory whose every person reaches `service` (tests, one shared list).
    public convenience init(_ service: any FriendService, tokens: Tokens = .pasted) {
        self.init(tokens: tokens, make: { _ in service })
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

    /// A new person signed up: with the embedded service, their list starts as the one kept
    /// before Sangha had people, if there is one.
    func welcome(_ person: Person) async {
        guard let lists = embeddedLists, let token = person.friendServiceToken else { return }
        await lists.claimUnowned(for: token)
    }

    /// What removes a deleted person's friends: with the embedded service their list is
    /// Sangha's to remove; a remote one is theirs. nil: nothing to remove.
    func listRemover(for person: Person) -> (@Sendable () async -> Void)? {
        guard let lists = embeddedLists, let token = person.friendServiceToken else { return nil }
        return { await lists.delete(token: token) }
    }

    /// A new person's token, with the embedded service; nil with a remote one.
    public var makeToken: (@Sendable () -> String)? {
        guard tokens == .issued else { return nil }
        return { @Sendable in FormToken.random() }
    }
}
