import Foundation
import SanghaCore

/// A person's calendar (`/calendar/{token}.ics`), and one sit's ("Add to calendar"), as
/// iCalendar: each sit of their groups that is not over, one event each (a weekly sit one event
/// that repeats in its host's time zone, a cancelled one `STATUS:CANCELLED`, so a calendar that
/// had it drops it), with its page as `URL` and an alarm ten minutes before; and, with "Remind me
/// to sit at", a daily event then, with an alarm at its start.
///
/// Nothing in it changes between two requests unless a sit or a setting does: its `DTSTAMP`s
/// are when each sit was scheduled or cancelled (the reminder's, when the person joined), so the
/// feed's `ETag` lets a polling calendar get 304.
public enum CalendarFeed {
    /// How long before a sit its alarm rings.
    public static let alarmBefore = 600
    /// How long the daily reminder's event lasts.
    public static let reminderLength = 600

    /// The person's feed, in the language they chose (English when they chose none: a calendar
    /// app sends no cookie to tell). `site`: the address its links begin with
    /// (`https://sangha.example`).
    public static func ics(for person: Person, sits: [CalendarSit], site: String, now: Date) -> String {
        let words = Words(person.language ?? .en)
        var calendar = header(name: "Sangha")
        var zones = Set(sits.map(\.sit.timeZone.identifier))
        if person.reminderMinutes != nil { zones.insert(person.timeZone.identifier) }
        let earliest = sits.map(\.sit.startsAt).min().map { min($0, now) } ?? now
        for identifier in zones.sorted() {
            calendar.timeZone(TimeZone(identifier: identifier) ?? .utc, around: earliest)
        }
        let uidHost = host(site)
        for sit in sits { event(sit, site: site, host: uidHost, words: words, into: &calendar) }
        if let minutes = person.reminderMinutes {
            reminder(for: person, at: minutes, site: site, words: words, into: &calendar)
        }
        calendar.end("VCALENDAR")
        return calendar.content
    }

    /// One sit, for "Add to calendar", in the language of `words` (the page's).
    public static func ics(for sit: CalendarSit, site: String, words: Words) -> String {
        var calendar = header(name: "\(sit.sit.name) · \(sit.groupName)")
        calendar.timeZone(sit.sit.timeZone, around: sit.sit.startsAt)
        event(sit, site: site, host: host(site), words: words, into: &calendar)
        calendar.end("VCALENDAR")
        return calendar.content
    }

    private static func header(name: String) -> ICalendar {
        var calendar = ICalendar()
        calendar.begin("VCALENDAR")
        calendar.add("VERSION", "2.0")
        calendar.add("PRODID", "-//Sangha//Sangha//EN")
        calendar.add("CALSCALE", "GREGORIAN")
        calendar.add("METHOD", "PUBLISH")
        calendar.text("NAME", name)
        calendar.text("X-WR-CALNAME", name)
        // RFC 7986: how often a subscribed calendar should look again.
        calendar.add("REFRESH-INTERVAL;VALUE=DURATION", "PT1H")
        calendar.add("X-PUBLISHED-TTL", "PT1H")
        return calendar
    }

    /// The host part of `site`, for the events' UIDs: "sangha.example".
    private static func host(_ site: String) -> String {
        URL(string: site)?.host ?? "sangha"
    }

    private static func event(
        _ item: CalendarSit, site: String, host: String, words: Words, into calendar: inout ICalendar
    ) {
        let sit = item.sit
        let summary = "\(sit.name) · \(item.groupName)"
        let url = site + Paths.groupSit.url(sit.group, sit.id)
        calendar.begin("VEVENT")
        calendar.add("UID", "group-sit-\(sit.id)@\(host)")
        calendar.add("DTSTAMP", ICalendar.utc(item.revisedAt ?? sit.startsAt))
        // Cancelling is the one change a sit has: the cancelled event is the newer one.
        calendar.add("SEQUENCE", sit.cancelled ? "1" : "0")
        calendar.add("DTSTART;TZID=\(sit.timeZone.identifier)", ICalendar.local(sit.startsAt, in: sit.timeZone))
        calendar.add("DURATION", ICalendar.duration(seconds: Int(sit.duration)))
        if sit.weekly { calendar.add("RRULE", "FREQ=WEEKLY") }
        calendar.text("SUMMARY", summary)
        calendar.text(
            "DESCRIPTION",
            words.calendarSitsTogether(
                group: item.groupName, duration: DurationFormatter.words(from: Int(sit.duration), words: words))
                + "\n" + words.calendarJoin(url: url))
        calendar.add("URL", url)
        calendar.add("STATUS", sit.cancelled ? "CANCELLED" : "CONFIRMED")
        if !sit.cancelled {
            alarm(summary, trigger: "-" + ICalendar.duration(seconds: alarmBefore), into: &calendar)
        }
        calendar.end("VEVENT")
    }

    private static func reminder(
        for person: Person, at minutes: Int, site: String, words: Words, into calendar: inout ICalendar
    ) {
        // It begins on the day the person joined, at that time there: the same event every time.
        var days = Calendar(identifier: .gregorian)
        days.timeZone = person.timeZone
        let joined = days.startOfDay(for: person.createdAt)
        let first = days.date(byAdding: .minute, value: minutes, to: joined) ?? joined
        calendar.begin("VEVENT")
        calendar.add("UID", "reminder-\(person.id)@\(host(site))")
        calendar.add("DTSTAMP", ICalendar.utc(person.createdAt))
        calendar.add("DTSTART;TZID=\(person.timeZone.identifier)", ICalendar.local(first, in: person.timeZone))
        calendar.add("DURATION", ICalendar.duration(seconds: reminderLength))
        calendar.add("RRULE", "FREQ=DAILY")
        calendar.text("SUMMARY", words.calendarTimeToSit)
        calendar.text("DESCRIPTION", words.calendarDailyReminder)
        calendar.add("URL", site + Paths.home.url)
        alarm(words.calendarTimeToSit, trigger: "PT0S", into: &calendar)
        calendar.end("VEVENT")
    }

    public static let reminderSummary = "Time to sit"

    private static func alarm(_ description: String, trigger: String, into calendar: inout ICalendar) {
        calendar.begin("VALARM")
        calendar.add("ACTION", "DISPLAY")
        calendar.text("DESCRIPTION", description)
        calendar.add("TRIGGER", trigger)
        calendar.end("VALARM")
    }
}
