import SanghaCore

/// The embedded FriendService's lists, which Sangha looks after for its people: one per token
/// it issued.
public protocol EmbeddedFriendLists: Sendable {
    /// Gives the one list kept before Sangha had people to a new person's token (the first to
    /// sign up takes it, as they take the profiles; after that it is empty).
    func claimUnowned(for token: String) async
    /// Removes the list of a deleted person's token.
    func delete(token: String) async
}

/// How people get their FriendService tokens, and what becomes of the embedded service's lists
/// as people come and go. The API layer owns the tokens; pages never see one.
public struct FriendTokenPolicy: Sendable {
    /// How Sangha gets tokens for people.
    public enum Source: Sendable, Equatable {
        /// The embedded reference service, one list per token: Sangha gives each new person a
        /// random token at sign-up.
        case issued
        /// A remote service: a person may paste their own token in Settings; without one, the
        /// deployment's (`--friend-service-token`) is used.
        case pasted
    }

    public let source: Source
    /// With the embedded service, its lists.
    let embeddedLists: (any EmbeddedFriendLists)?

    public init(_ source: Source, embeddedLists: (any EmbeddedFriendLists)? = nil) {
        self.source = source
        self.embeddedLists = embeddedLists
    }

    /// Whether Settings takes a token a person pastes.
    var acceptsPastedToken: Bool { source == .pasted }

    /// A new person's token, with the embedded service; nil with a remote one.
    var makeToken: (@Sendable () -> String)? {
        guard source == .issued else { return nil }
        return { @Sendable in SecretToken.make() }
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
}
