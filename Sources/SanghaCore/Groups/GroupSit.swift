import Foundation

/// A sit in a person's calendar: the sit, and the name of its group.
public struct CalendarSit: Sendable, Equatable {
    public var sit: GroupSit
    public var groupName: String
    /// When the sit was last changed: scheduled, or cancelled. The calendar's `DTSTAMP`, so a
    /// calendar that has the sit can tell the cancelled one is newer. nil where it was not read
    /// (the notifications' reads).
    public var revisedAt: Date?

    public init(sit: GroupSit, groupName: String, revisedAt: Date? = nil) {
        (self.sit, self.groupName, self.revisedAt) = (sit, groupName, revisedAt)
    }
}

/// A sit a host scheduled for their group: every member who joins hears the same timeline from
/// the same instant. It keeps a copy of the profile it was made from (its name and segments),
/// so later edits of that profile, or its deletion, do not change it.
///
/// A sit is over once it can happen no more: one that happens once when it ends, a weekly one
/// never while it is not cancelled. A cancelled sit stays in its members' calendars, marked
/// cancelled, until it is over: a weekly one `cancelledWeeklyListing` after its cancellation, or
/// when its first time ends if that is later.
public struct GroupSit: Sendable, Equatable, Identifiable {
    /// The most sits a group may have to come (weekly ones, and others not yet over): a page
    /// and a stream's opening list them all, and 3,000 made both a megabyte.
    public static let limitPerGroup = 50
    /// The most sits a group may have that are not over, cancelled ones counted: every member's
    /// calendar feed lists them all, and a host who scheduled and cancelled in a loop (3,000 in
    /// 5 s) would otherwise have filled every feed.
    public static let limitNotOverPerGroup = 100
    /// How long a cancelled weekly sit stays in calendars after its cancellation: the time it
    /// was cancelled before (at most a week and its 72 hours away) is over by then, and calendars
    /// that poll have seen it cancelled.
    public static let cancelledWeeklyListing: TimeInterval = 10 * 86_400

    public var id: Int
    public var group: Int
    /// The profile as it was when the sit was scheduled (its `id` is 0: it is no one's profile).
    public var profile: Profile
    /// The first time it begins.
    public var startsAt: Date
    /// Whether it begins again every week, at the same time of day.
    public var weekly: Bool
    /// Whether a host cancelled it: it is no longer listed nor joined, and who sat in it still
    /// has their session recorded.
    public var cancelled: Bool
    /// The time zone of the host who scheduled it: a weekly sit keeps its time of day there
    /// (across that zone's summer time), the same instant for every member wherever they live.
    public var timeZone: TimeZone

    public init(
        id: Int = 0, group: Int, profile: Profile, startsAt: Date, weekly: Bool, cancelled: Bool = false,
        timeZone: TimeZone = .utc
    ) {
        (self.id, self.group, self.startsAt, self.weekly, self.cancelled) = (id, group, startsAt, weekly, cancelled)
        self.profile = Profile(name: profile.name, segments: profile.segments)
        self.timeZone = timeZone
    }

    /// Its name: the profile's.
    public var name: String { profile.displayName }

    /// How long it lasts.
    public var duration: TimeInterval { TimeInterval(Timeline.duration(of: profile)) }

    /// When the first time it begins ends: a sit that happens once is over then.
    public var firstEnd: Date { startsAt.addingTimeInterval(duration) }

    /// Members may join this long before it begins.
    public static let joinWindow: TimeInterval = 600
    /// How far ahead a sit may be scheduled.
    public static let furthest: TimeInterval = 366 * 86_400

    /// The time it happens that is not over at `date` (under way, or the next), in its own
    /// time zone: every member gets the same instant.
    public func occurrence(at date: Date) -> DateInterval? {
        occurrence(at: date, calendar: .gregorian(in: timeZone))
    }

    /// The time it happens that is not over at `date` (under way, or the next), counted in
    /// `calendar` (a weekly sit keeps its time of day across a change to or from summer time);
    /// nil for a sit that happened once and is over.
    public func occurrence(at date: Date, calendar: Calendar) -> DateInterval? {
        let length = duration
        guard weekly else { return date < firstEnd ? DateInterval(start: startsAt, duration: length) : nil }
        // The week it is in by the clock; a change of summer time moves it by at most an hour.
        var week = max(0, Int(((date.timeIntervalSince(startsAt) - length) / (7 * 86_400)).rounded(.down)))
        while let start = calendar.date(byAdding: .day, value: 7 * week, to: startsAt) {
            if date < start.addingTimeInterval(length) { return DateInterval(start: start, duration: length) }
            week += 1
        }
        return nil
    }

    /// Whether members may join the time it happens at `date`: from `joinWindow` before it
    /// begins until it ends.
    public static func isOpen(_ occurrence: DateInterval, at date: Date) -> Bool {
        date >= occurrence.start.addingTimeInterval(-joinWindow) && date < occurrence.end
    }

    /// Why a sit cannot be scheduled to begin at `startsAt` when it is `now`, or nil: not in
    /// the past, and at most a year ahead.
    public static func refusal(startsAt: Date, now: Date) -> String? {
        if startsAt < now.addingTimeInterval(-60) { return "The sit cannot begin in the past." }
        if startsAt > now.addingTimeInterval(furthest) { return "A sit can be scheduled at most a year ahead." }
        return nil
    }
}
