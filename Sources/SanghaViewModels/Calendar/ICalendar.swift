import Foundation
import SanghaCore

/// iCalendar text (RFC 5545) written a content line at a time: each line ended by CRLF and
/// folded at 75 octets (a continuation begins with a space, and no UTF-8 character is split),
/// text values escaped (`\`, `;`, `,` and line breaks), times in UTC or local to a `TZID` whose
/// `VTIMEZONE` the calendar carries.
public struct ICalendar: Sendable {
    private var lines: [String] = []

    public init() {}

    /// A line with its value as it is: a date, a number, a rule, a URI.
    public mutating func add(_ name: String, _ value: String) {
        lines.append(name + ":" + value)
    }

    /// A line with a TEXT value, escaped.
    public mutating func text(_ name: String, _ value: String) {
        add(name, Self.escaped(value))
    }

    public mutating func begin(_ component: String) { add("BEGIN", component) }
    public mutating func end(_ component: String) { add("END", component) }

    /// The whole calendar: every line folded, each ended by CRLF.
    public var content: String {
        lines.map { Self.folded($0) + "\r\n" }.joined()
    }

    /// `text` as a TEXT value: a backslash, semicolon and comma escaped by a backslash, and each
    /// line break (CRLF, LF or CR) as `\n`.
    public static func escaped(_ text: String) -> String {
        // Most text needs nothing: it is returned as it is.
        if !text.utf8.contains(where: {
            $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 || $0 == 0x5C || $0 == 0x3B || $0 == 0x2C
        }) {
            return text
        }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 8)
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": escaped += "\\\\"
            case ";": escaped += "\\;"
            case ",": escaped += "\\,"
            case "\r": escaped += "\\n"
            case "\n": if !previousWasCR { escaped += "\\n" }
            case "\t": escaped.unicodeScalars.append(scalar)
            // Other control characters (C0, DEL, C1) are not allowed in a TEXT value (§3.3.11).
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}": break
            default: escaped.unicodeScalars.append(scalar)
            }
            previousWasCR = scalar == "\r"
        }
        return escaped
    }

    /// `line` folded into lines of at most 75 octets, each after the first beginning with a
    /// space, never inside a UTF-8 character.
    public static func folded(_ line: String) -> String {
        guard line.utf8.count > 75 else { return line }
        var result = ""
        result.reserveCapacity(line.utf8.count + line.utf8.count / 37)
        var current = 0
        var limit = 75
        for character in line.unicodeScalars {
            let size = UTF8.width(character)
            if current + size > limit {
                result += "\r\n "
                current = 0
                limit = 74  // the space counts
            }
            result.unicodeScalars.append(character)
            current += size
        }
        return result
    }

    /// `20261125T160000Z`.
    public static func utc(_ date: Date) -> String {
        stamp(date, in: .utc) + "Z"
    }

    /// `20261125T170000`: the wall-clock time of `date` in `zone`, for a property with `TZID`.
    public static func local(_ date: Date, in zone: TimeZone) -> String {
        stamp(date, in: zone)
    }

    /// `YYYYMMDDTHHMMSS` of `date` on the wall clock of `zone`: its offset then, and the civil
    /// date by arithmetic (no `Calendar` a line: a feed writes hundreds of these).
    private static func stamp(_ date: Date, in zone: TimeZone) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = seconds - days * 86_400
        let (year, month, day) = LocalDay(days).date
        var text = ""
        text.reserveCapacity(15)
        pad(year, 4, into: &text)
        pad(month, 2, into: &text)
        pad(day, 2, into: &text)
        text += "T"
        pad(time / 3600, 2, into: &text)
        pad(time % 3600 / 60, 2, into: &text)
        pad(time % 60, 2, into: &text)
        return text
    }

    private static func pad(_ value: Int, _ width: Int, into text: inout String) {
        let digits = String(value)
        if digits.count < width { text += String(repeating: "0", count: width - digits.count) }
        text += digits
    }

    /// A duration value: `PT20M`, `PT1H30M`, `PT45S`, `PT0S`.
    public static func duration(seconds: Int) -> String {
        let (hours, minutes, rest) = (seconds / 3600, seconds % 3600 / 60, seconds % 60)
        var text = "PT"
        if hours > 0 { text += "\(hours)H" }
        if minutes > 0 { text += "\(minutes)M" }
        if rest > 0 || text == "PT" { text += "\(rest)S" }
        return text
    }

    /// `+0100`, `-0330`.
    static func offset(_ seconds: Int) -> String {
        var text = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        pad(minutes / 60, 2, into: &text)
        pad(minutes % 60, 2, into: &text)
        return text
    }

    /// The `VTIMEZONE` of `zone`: its offsets, and when they change as yearly rules found from
    /// the zone's transitions around `date` (`FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU`), checked against
    /// the next year's; a zone whose changes follow no such rule lists each change of the years
    /// around `date` instead. A zone without summer time has one offset.
    public mutating func timeZone(_ zone: TimeZone, around date: Date) {
        begin("VTIMEZONE")
        add("TZID", zone.identifier)
        let start = date.addingTimeInterval(-366 * 86_400)
        guard let first = zone.nextDaylightSavingTimeTransition(after: start),
            let second = zone.nextDaylightSavingTimeTransition(after: first)
        else {
            let offset = Self.offset(zone.secondsFromGMT(for: date))
            begin("STANDARD")
            add("DTSTART", "19700101T000000")
            add("TZOFFSETFROM", offset)
            add("TZOFFSETTO", offset)
            end("STANDARD")
            end("VTIMEZONE")
            return
        }
        // The next year's two changes follow the same rules, at the same time of day, or the
        // zone's rules are not yearly ones.
        let rules = [first, second].map { Self.Transition(zone, at: $0) }
        let later = Self.transitions(zone, from: second, count: 2).map { Self.Transition(zone, at: $0) }
        let ruled =
            later.count == 2
            && zip(rules, later).allSatisfy { $0.rule == $1.rule && $0.timeOfDay == $1.timeOfDay && $0.to == $1.to }
        if ruled {
            for transition in rules { component(transition, rule: transition.rule) }
        } else {
            for moment in Self.transitions(zone, from: first, count: 24) {
                component(Self.Transition(zone, at: moment), rule: nil)
            }
        }
        end("VTIMEZONE")
    }

    private mutating func component(_ transition: Transition, rule: String?) {
        let kind = transition.daylight ? "DAYLIGHT" : "STANDARD"
        begin(kind)
        add("DTSTART", transition.localStart)
        if let rule { add("RRULE", rule) }
        add("TZOFFSETFROM", Self.offset(transition.from))
        add("TZOFFSETTO", Self.offset(transition.to))
        end(kind)
    }

    /// `count` transitions of `zone`, the first after `moment`.
    private static func transitions(_ zone: TimeZone, from moment: Date, count: Int) -> [Date] {
        var found: [Date] = []
        var last = moment
        while found.count < count, let next = zone.nextDaylightSavingTimeTransition(after: last) {
            found.append(next)
            last = next
        }
        return found
    }

    /// A change of a zone's offset: when, from and to what, and the yearly rule it follows.
    struct Transition {
        let from: Int
        let to: Int
        let daylight: Bool
        /// Its wall-clock time before it, as `DTSTART` of a `STANDARD` or `DAYLIGHT` is written.
        let localStart: String
        /// `FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU` (the last Sunday of March) or `…BYDAY=2SU`.
        let rule: String

        var timeOfDay: Substring { localStart.suffix(6) }

        init(_ zone: TimeZone, at moment: Date) {
            from = zone.secondsFromGMT(for: moment.addingTimeInterval(-1))
            to = zone.secondsFromGMT(for: moment)
            daylight = zone.isDaylightSavingTime(for: moment)
            let before = TimeZone(secondsFromGMT: from) ?? .utc
            localStart = ICalendar.local(moment, in: before)
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = before
            let parts = calendar.dateComponents([.month, .day, .weekday], from: moment)
            let (month, day, weekday) = (parts.month ?? 1, parts.day ?? 1, parts.weekday ?? 1)
            let days = calendar.range(of: .day, in: .month, for: moment)?.count ?? 31
            let ordinal = day + 7 > days ? -1 : (day - 1) / 7 + 1
            let names = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
            rule = "FREQ=YEARLY;BYMONTH=\(month);BYDAY=\(ordinal)\(names[weekday - 1])"
        }
    }
}
