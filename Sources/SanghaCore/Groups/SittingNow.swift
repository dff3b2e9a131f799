import Foundation

/// A member sitting now, as their groups' pages show them under "Sitting now": who, with which
/// profile, since when. Someone who turned "Show me when I sit" off is never one.
public struct SittingNow: Sendable, Equatable {
    public var person: Int
    public var name: String
    public var profileName: String
    public var since: Date
    /// The group sit they are in, when it is the group's being shown.
    public var sit: Int?
    /// Whether they sit in another group's sit: its name is that group's, so `profileName` is
    /// empty.
    public var inAnotherGroupsSit: Bool

    public init(
        person: Int, name: String, profileName: String, since: Date, sit: Int? = nil, inAnotherGroupsSit: Bool = false
    ) {
        (self.person, self.name, self.profileName, self.since) = (person, name, profileName, since)
        (self.sit, self.inAnotherGroupsSit) = (sit, inAnotherGroupsSit)
    }

    /// A sit is shown this long after the time it said it would end (a browser that closed
    /// without saying it stopped), so a pause of that length does not hide it.
    public static let grace: TimeInterval = 60
    /// The longest sit a browser may announce: a profile runs at most a day.
    public static let longest: TimeInterval = 24 * 3600
}

/// What the people of a group are told as it happens, and how it travels between the instances
/// that share one database (PostgreSQL `LISTEN`/`NOTIFY`; with SQLite, one process, in memory).
public enum GroupEvent: Sendable, Equatable, Hashable {
    /// Who is sitting in the group, or its sits, changed: its live parts ("Sitting now",
    /// "Upcoming sits", who is in a sit) are shown again.
    case changed(group: Int)
    /// The person is no longer a member (left or removed): their streams of the group end.
    case membershipEnded(group: Int, person: Int)
    /// A sign-in session ended (its key, as stored): the streams opened with it end.
    case signedOut(session: String)
    /// Every sign-in session of the person ended but `except` (a password changed in this
    /// browser), or all of them (disabled, a password reset): their streams end at once, not at
    /// the next beat.
    case signedOutEverywhere(person: Int, except: String?)
}

/// Carries group events to every instance, this one included.
public protocol GroupEventBus: Sendable {
    /// Sends the events; failures are logged, never thrown (an event is a hint to render again,
    /// and a subscriber that missed one is put right when it reconnects).
    func publish(_ events: [GroupEvent]) async
    /// Calls `receive` with every event published on any instance, and with nil when some may
    /// have been missed (the instance stopped hearing the others for a while): every part is
    /// then shown again.
    func subscribe(_ receive: @escaping @Sendable (GroupEvent?) -> Void)
}
