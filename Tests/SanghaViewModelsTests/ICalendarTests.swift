import Foundation
import SanghaCore
import SanghaViewModels
import Testing

/// RFC 5545 as the feed writes it: escaped text, folded lines, CRLF, time zones as rules.
@Suite("iCalendar")
struct ICalendarTests {
    @Test("Text escapes backslash, semicolon, comma and every line break; control characters go")
    func escaping() {
        #expect(ICalendar.escaped(#"Morning, "quiet"; sangha \ x"#) == #"Morning\, "quiet"\; sangha \\ x"#)
        #expect(ICalendar.escaped("a\r\nb\nc\rd") == #"a\nb\nc\nd"#)
        #expect(ICalendar.escaped("bell\u{07}\tok") == "bell\tok")
    }

    @Test("Lines are folded at 75 octets, never inside a character, and end with CRLF")
    func folding() {
        var calendar = ICalendar()
        calendar.text("SUMMARY", String(repeating: "ä", count: 60) + String(repeating: "x", count: 40))
        let lines = calendar.content.components(separatedBy: "\r\n").dropLast()
        #expect(calendar.content.hasSuffix("\r\n"))
        #expect(lines.count > 1)
        for (index, line) in lines.enumerated() {
            #expect(line.utf8.count <= 75, "line \(index) has \(line.utf8.count) octets")
            if index > 0 { #expect(line.hasPrefix(" ")) }
        }
        let unfolded = lines.enumerated().map { $0.offset == 0 ? $0.element : String($0.element.dropFirst()) }.joined()
        #expect(unfolded == "SUMMARY:" + String(repeating: "ä", count: 60) + String(repeating: "x", count: 40))
        #expect(
            !calendar.content.contains("\n\n")
                && !calendar.content.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
    }

    @Test("Times in UTC and local, durations")
    func values() {
        let date = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18 11:06:40 UTC
        #expect(ICalendar.utc(date) == "20261118T110640Z")
        #expect(ICalendar.local(date, in: TimeZone(identifier: "Europe/Berlin")!) == "20261118T120640")
        // The civil date by arithmetic agrees with Foundation's calendar, across leap days and 1970.
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = TimeZone(identifier: "America/Santiago")!
        for second in stride(from: -2_000_000_000, through: 4_000_000_000, by: 7_777_777) {
            let moment = Date(timeIntervalSince1970: TimeInterval(second))
            let parts = gregorian.dateComponents([.year, .month, .day, .hour, .minute, .second], from: moment)
            let expected = String(
                format: "%04d%02d%02dT%02d%02d%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!,
                parts.second!)
            #expect(ICalendar.local(moment, in: gregorian.timeZone) == expected, "\(second)")
        }
        #expect(ICalendar.utc(Date(timeIntervalSince1970: 951_782_400)) == "20000229T000000Z")
        #expect(ICalendar.duration(seconds: 1200) == "PT20M")
        #expect(ICalendar.duration(seconds: 5445) == "PT1H30M45S")
        #expect(ICalendar.duration(seconds: 0) == "PT0S")
    }

    func zone(_ identifier: String) -> String {
        var calendar = ICalendar()
        calendar.timeZone(TimeZone(identifier: identifier)!, around: Date(timeIntervalSince1970: 1_795_000_000))
        return calendar.content
    }

    @Test("A zone's summer time as yearly rules: Berlin's last Sundays, New York's second and first Sundays")
    func timeZoneRules() {
        let berlin = zone("Europe/Berlin")
        #expect(
            berlin.contains(
                "BEGIN:DAYLIGHT\r\nDTSTART:20260329T020000\r\nRRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU\r\nTZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\n"
            ))
        #expect(
            berlin.contains(
                "BEGIN:STANDARD\r\nDTSTART:20261025T030000\r\nRRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU\r\nTZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\n"
            ))
        let newYork = zone("America/New_York")
        #expect(newYork.contains("RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=2SU"))
        #expect(newYork.contains("RRULE:FREQ=YEARLY;BYMONTH=11;BYDAY=1SU"))
        // No summer time: one offset.
        #expect(
            zone("Asia/Kolkata").contains(
                "BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0530\r\nTZOFFSETTO:+0530\r\nEND:STANDARD"))
    }

    @Test("The feed: a weekly sit repeats in its host's zone, a cancelled one says so, each with its page and an alarm")
    func feed() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        var person = Person(
            id: 7, username: "ada", name: "Ada", createdAt: now, timeZone: TimeZone(identifier: "America/Santiago")!)
        person.reminderMinutes = 6 * 60 + 30
        let weekly = GroupSit(
            id: 3, group: 2, profile: Profile.new(named: "Dawn"), startsAt: now + 600, weekly: true,
            timeZone: TimeZone(identifier: "Europe/Berlin")!)
        let cancelled = GroupSit(
            id: 4, group: 2, profile: Profile.new(named: "Dusk"), startsAt: now + 7200, weekly: false, cancelled: true)
        let text = CalendarFeed.ics(
            for: person,
            sits: [
                CalendarSit(sit: weekly, groupName: "Morning, \"quiet\"; sangha", revisedAt: now - 86_400),
                CalendarSit(sit: cancelled, groupName: "Zen", revisedAt: now - 60),
            ], site: "https://sangha.example", now: now)
        // Each sit's DTSTAMP is when it last changed (scheduled, or cancelled: the newer event,
        // SEQUENCE 1), never its start in the future.
        #expect(
            text.contains("UID:group-sit-3@sangha.example\r\nDTSTAMP:\(ICalendar.utc(now - 86_400))\r\nSEQUENCE:0\r\n"))
        #expect(text.contains("UID:group-sit-4@sangha.example\r\nDTSTAMP:\(ICalendar.utc(now - 60))\r\nSEQUENCE:1\r\n"))
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Sangha//Sangha//EN\r\n"))
        #expect(text.hasSuffix("END:VCALENDAR\r\n"))
        for zone in ["America/Santiago", "Europe/Berlin", "GMT"] { #expect(text.contains("TZID:\(zone)\r\n")) }
        #expect(text.contains("UID:group-sit-3@sangha.example\r\n"))
        #expect(
            text.contains("DTSTART;TZID=Europe/Berlin:20261118T121640\r\nDURATION:PT7M30S\r\nRRULE:FREQ=WEEKLY\r\n"))
        #expect(text.contains(#"SUMMARY:Dawn · Morning\, "quiet"\; sangha"#))
        #expect(text.contains("URL:https://sangha.example/groups/2/sits/3\r\n"))
        #expect(text.contains("STATUS:CANCELLED\r\n"))
        #expect(text.components(separatedBy: "BEGIN:VALARM").count - 1 == 2, "the sit's and the reminder's")
        #expect(text.contains("TRIGGER:-PT10M\r\n") && text.contains("TRIGGER:PT0S\r\n"))
        #expect(text.contains("DTSTART;TZID=America/Santiago:20261118T063000\r\n"))
        #expect(text.contains("RRULE:FREQ=DAILY\r\n"))
    }
}
