import Foundation
import SanghaCore
import Testing

@Suite("A group sit's times")
struct GroupSitTests {
    static let santiago = TimeZone(identifier: "America/Santiago")!
    static var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = santiago
        return calendar
    }

    /// 19:00 in Santiago on `day` of 2026 (`month`).
    static func evening(_ month: Int, _ day: Int) -> Date {
        calendar.date(from: DateComponents(year: 2026, month: month, day: day, hour: 19))!
    }

    static func sit(weekly: Bool) -> GroupSit {
        var profile = Profile.new(named: "Evening")
        profile.duration = 1800
        return GroupSit(id: 1, group: 1, profile: profile, startsAt: evening(8, 25), weekly: weekly)
    }

    @Test("Once: the sit until it ends, then nothing")
    func once() {
        let sit = Self.sit(weekly: false)
        let start = Self.evening(8, 25)
        let expected = DateInterval(start: start, duration: 1800)
        #expect(sit.occurrence(at: start - 86_400, calendar: Self.calendar) == expected)
        #expect(sit.occurrence(at: start + 1799, calendar: Self.calendar) == expected)
        #expect(sit.occurrence(at: start + 1800, calendar: Self.calendar) == nil)
    }

    @Test("Weekly: the one under way or the next, at the same time of day across a change of summer time")
    func weekly() {
        let sit = Self.sit(weekly: true)
        let first = Self.evening(8, 25)
        #expect(sit.occurrence(at: first - 600, calendar: Self.calendar)?.start == first)
        #expect(sit.occurrence(at: first + 1799, calendar: Self.calendar)?.start == first)
        #expect(sit.occurrence(at: first + 1800, calendar: Self.calendar)?.start == Self.evening(9, 1))
        // Santiago moves its clocks forward on 6 September 2026: a week later is 167 hours on.
        let after = try! #require(sit.occurrence(at: Self.evening(9, 6), calendar: Self.calendar))
        #expect(after.start == Self.evening(9, 8))
        #expect(after.start.timeIntervalSince(Self.evening(9, 1)) == 7 * 86_400 - 3600)
        #expect(sit.occurrence(at: Self.evening(12, 1) + 1800, calendar: Self.calendar)?.start == Self.evening(12, 8))
    }

    @Test("A weekly sit keeps its time of day in its host's zone: every member, wherever they live, gets that instant")
    func hostsZone() {
        var sit = Self.sit(weekly: true)
        sit.timeZone = Self.santiago
        // 19:00 in Santiago is 23:00 UTC in its winter (UTC−4) and 22:00 UTC in its summer
        // (UTC−3): the week after the change is 167 hours on, for whoever asks.
        let after = try! #require(sit.occurrence(at: Self.evening(9, 6)))
        #expect(after.start == Self.evening(9, 8))
        let utc = Calendar.gregorian(in: TimeZone(identifier: "UTC")!)
        #expect(utc.component(.hour, from: Self.evening(9, 1)) == 23)
        #expect(utc.component(.hour, from: after.start) == 22)
        // The same sit kept in UTC would stay at 23:00 UTC, 20:00 in Santiago: an hour off.
        sit.timeZone = TimeZone(identifier: "UTC")!
        #expect(sit.occurrence(at: Self.evening(9, 6))?.start == Self.evening(9, 8) + 3600)
    }

    @Test("A sit begins neither in the past nor more than a year ahead")
    func refusal() {
        let now = Self.evening(8, 25)
        #expect(GroupSit.refusal(startsAt: now - 30, now: now) == nil, "a minute's slack for the form's time")
        #expect(GroupSit.refusal(startsAt: now - 61, now: now) == "The sit cannot begin in the past.")
        #expect(GroupSit.refusal(startsAt: now + GroupSit.furthest, now: now) == nil)
        #expect(GroupSit.refusal(startsAt: now + GroupSit.furthest + 1, now: now) != nil)
    }
}
