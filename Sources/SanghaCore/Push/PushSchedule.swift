import Foundation

/// When each notification is due, and the key it is sent under once per device (DESIGN §17).
/// Pure: the scheduler asks it at the instant its clock says, and the tests at any instant.
public enum PushSchedule {
    /// A group sit is told this long before it begins.
    public static let sitLead: TimeInterval = 600
    /// A daily reminder is still sent this long after its time (an instance that was down).
    public static let reminderGrace: TimeInterval = 600
    /// How long a reminder is worth keeping for a device that is off.
    public static let reminderLifetime: TimeInterval = 3600
    /// Someone who began to sit this long ago is still told of.
    public static let sittingLookback: TimeInterval = 60
    /// How long "NAME is sitting" is worth keeping for a device that is off.
    public static let sittingLifetime: TimeInterval = 900

    /// The time `sit` happens that is due to be told at `date`: it begins after `date` and at
    /// most `sitLead` from it (a sit scheduled less than that ahead is told at once). A weekly
    /// sit's each week's, counted in its host's zone; a moved sit's at its new time (its key
    /// names its start); a cancelled one's never.
    public static func dueOccurrence(of sit: GroupSit, at date: Date) -> DateInterval? {
        guard !sit.cancelled, let next = sit.occurrence(at: date), next.start > date,
            next.start.timeIntervalSince(date) <= sitLead
        else { return nil }
        return next
    }

    /// The key of a sit's time: once per device and start.
    public static func sitKey(_ sit: GroupSit, start: Date) -> String {
        "sit-\(sit.id)-\(Int(start.timeIntervalSince1970.rounded(.down)))"
    }

    /// The topic of a sit's messages (a newer one replaces an older): `sit-{id}`.
    public static func sitTopic(_ sit: Int) -> String { "sit-\(sit)" }
    /// The topic of a group's "NAME is sitting": `group-{id}`.
    public static func groupTopic(_ group: Int) -> String { "group-\(group)" }
    public static let reminderTopic = "reminder"

    /// A reminder that is due at `date`: its instant and key.
    public struct Reminder: Sendable, Equatable {
        public let at: Date
        /// `reminder-2026-10-25`: one a date on the person's wall clock, so a day that summer
        /// time makes longer, with its hour twice, has it once.
        public let key: String
        /// The day it counts for, from the person's start hour: one sat already skips it.
        public let day: LocalDay
    }

    /// The reminder of `recipient` due at `date`, if any: its time of day in their zone has come
    /// within `reminderGrace` (today's, or yesterday's just before midnight), and they have not
    /// sat on the day it counts for.
    public static func dueReminder(for recipient: ReminderRecipient, at date: Date) -> Reminder? {
        let zone = recipient.recipient.timeZone
        let localNow = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
        let today = LocalDay.containing(localSecond: localNow).day
        for day in [today, today.advanced(by: -1)] {
            let instant = reminderInstant(on: day, minutes: recipient.minutes, in: zone)
            guard date >= instant, date.timeIntervalSince(instant) < reminderGrace else { continue }
            let counted = recipient.dayClock.day(of: instant)
            if let last = recipient.lastDaySat, last >= counted.number { return nil }
            return Reminder(at: instant, key: "reminder-\(day)", day: counted)
        }
        return nil
    }

    /// The instant the wall clock of `zone` shows `minutes` after midnight on `day`. In the
    /// hour summer time repeats, its first; in the hour it skips, as far after the skip as the
    /// time was into it (02:30 on a day that jumps from 02:00 to 03:00 is 03:30).
    public static func reminderInstant(on day: LocalDay, minutes: Int, in zone: TimeZone) -> Date {
        let wall = TimeInterval(day.number * 86_400 + minutes * 60)
        let before = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - 86_400))
        let after = zone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + 86_400))
        let candidates = [wall - TimeInterval(before), wall - TimeInterval(after)].map {
            Date(timeIntervalSince1970: $0)
        }
        let valid = candidates.filter {
            $0.timeIntervalSince1970 + TimeInterval(zone.secondsFromGMT(for: $0)) == wall
        }
        return valid.min() ?? candidates[0]
    }

    /// The key of "NAME is sitting": once per device and sit begun.
    public static func sittingKey(_ start: SittingStart) -> String {
        "sitting-\(start.person)-\(Int(start.since.timeIntervalSince1970.rounded(.down)))"
    }
}
