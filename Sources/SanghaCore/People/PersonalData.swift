/// Where each person's data is kept. Every repository it hands out reads and writes the rows of
/// one person only, so a handler cannot show another person's data by forgetting a filter: it
/// has no repository that could.
public protocol PersonalData: Sendable {
    func profiles(of person: Int) -> any ProfileRepository
    func sessions(of person: Int) -> any SittingSessionRepository
    /// The last friends list the FriendService gave this person, for when it fails.
    func savedFriends(of person: Int) -> any FriendListStorage
    /// The groups as this person sees them: only those they are a member of.
    func groups(of person: Int) -> any GroupRepository
    /// How group events reach every instance sharing this storage.
    var groupEvents: any GroupEventBus { get }
    /// Reaches the storage with the smallest question it answers (`GET /health/ready`); throws
    /// a `StorageError` when it cannot, within the storage's time bound.
    func ping() async throws
}
