/// Makes and checks password hashes (bcrypt in the app). Slow on purpose, so the live one runs
/// off the event loop, in a queue of bounded length; a view model only awaits it.
public protocol PasswordHashing: Sendable {
    /// Throws `PasswordHashingError.busy` when the queue of `lane` is full.
    func hash(_ password: String, lane: HashingLane) async throws -> String
    /// Whether `password` is the one `hash` was made from; `.busy` when the queue is full.
    func verify(_ password: String, against hash: String, lane: HashingLane) async throws -> Bool
    /// Checks `password` against a hash of no one's, taking as long as `verify`: a sign-in for a
    /// username that does not exist costs the same time as a wrong password.
    func verifyNoOne(_ password: String, lane: HashingLane) async throws
}

/// Which queue a hash waits in. A flood of sign-ins from strangers fills theirs and is turned
/// away quickly, while people known to the deployment go ahead of it.
public enum HashingLane: Sendable {
    /// A browser with a device cookie for the account, or someone signed in: served first.
    case known
    /// Anyone else.
    case anyone
}

public enum PasswordHashingError: Error, Sendable, Equatable {
    /// The queue is full: "Sangha is busy. Try again in a moment."
    case busy

    public static let message = "Sangha is busy. Try again in a moment."

    /// "Sangha is busy. Try again in a moment." in `words`' language.
    public static func message(_ words: Words) -> String { words.commonBusy }
}

extension PasswordHashing {
    public func hash(_ password: String) async throws -> String { try await hash(password, lane: .anyone) }
    public func verify(_ password: String, against hash: String) async throws -> Bool {
        try await verify(password, against: hash, lane: .anyone)
    }
}
