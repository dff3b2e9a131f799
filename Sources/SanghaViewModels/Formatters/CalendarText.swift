import Foundation
import SanghaCore

/// Days and times in English words, in a time zone (a view adapter for the history).
public enum CalendarText {
    static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    static func shortMonth(_ parts: DateComponents) -> String {
        String(months[((parts.month ?? 1) - 1) % 12].prefix(3))
    }

    /// The wall clock of `timeZone` at `date`: its day and the seconds into it. By the zone's
    /// offset at that instant and day arithmetic, not `Calendar`: the history formats a date
    /// for each of its rows, and `Calendar.dateComponents` was most of their cost.
    static func wallClock(_ date: Date, timeZone: TimeZone) -> (day: LocalDay, second: Int) {
        LocalDay.containing(
            localSecond: Int(date.timeIntervalSince1970.rounded(.down)) + timeZone.secondsFromGMT(for: date))
    }

    /// `07:15` for `second` seconds into a day.
    static func clock(_ second: Int) -> String {
        twoDigits(second / 3600) + ":" + twoDigits(second % 3600 / 60)
    }

    static func twoDigits(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

    /// `23 Nov`.
    public static func shortDay(_ date: Date, timeZone: TimeZone) -> String {
        shortDay(wallClock(date, timeZone: timeZone).day)
    }

    /// `23 Nov 2026`.
    public static func shortDate(_ date: Date, timeZone: TimeZone) -> String {
        let day = wallClock(date, timeZone: timeZone).day
        return "\(shortDay(day)) \(day.date.year)"
    }

    /// `Monday 23 November`.
    public static func longDay(_ date: Date, timeZone: TimeZone) -> String {
        longDay(wallClock(date, timeZone: timeZone).day)
    }

    /// `Monday 23 November`, the words of a person's day.
    public static func longDay(_ day: LocalDay) -> String {
        let (_, month, date) = day.date
        return "\(weekdays[day.weekday % 7]) \(date) \(months[month - 1])"
    }

    /// `23 Nov`.
    public static func shortDay(_ day: LocalDay) -> String {
        let (_, month, date) = day.date
        return "\(date) \(months[month - 1].prefix(3))"
    }

    static let shortWeekdays = weekdays.map { String($0.prefix(3)) }
    static let shortMonths = months.map { String($0.prefix(3)) }

    /// `Mon 23 Nov 2026, 07:15`, written as bytes: the history writes one a row.
    public static func dayAndTime(_ date: Date, timeZone: TimeZone) -> String {
        let (day, second) = wallClock(date, timeZone: timeZone)
        let (year, month, dayOfMonth) = day.date
        return ASCIIWriter.string(capacity: 48) { text in
            text.append(shortWeekdays[day.weekday % 7])
            text.append(UInt8(ascii: " "))
            text.append(number: dayOfMonth)
            text.append(UInt8(ascii: " "))
            text.append(shortMonths[month - 1])
            text.append(UInt8(ascii: " "))
            text.append(number: year)
            text.append(UInt8(ascii: ","))
            text.append(UInt8(ascii: " "))
            text.append(clock: second)
        }
    }

    /// `07:15`.
    public static func time(_ date: Date, timeZone: TimeZone) -> String {
        clock(wallClock(date, timeZone: timeZone).second)
    }

    /// The machine-readable form for `<time datetime>`: `2026-11-23T07:15:00Z` (what
    /// Foundation's ISO 8601 style writes, without its formatter).
    public static func iso(_ date: Date) -> String {
        let (day, second) = LocalDay.containing(localSecond: Int(date.timeIntervalSince1970.rounded(.down)))
        let (year, month, dayOfMonth) = day.date
        return ASCIIWriter.string(capacity: 40) { text in
            text.append(number: year)
            text.append(UInt8(ascii: "-"))
            text.append(twoDigits: month)
            text.append(UInt8(ascii: "-"))
            text.append(twoDigits: dayOfMonth)
            text.append(UInt8(ascii: "T"))
            text.append(clock: second)
            text.append(UInt8(ascii: ":"))
            text.append(twoDigits: second % 60)
            text.append(UInt8(ascii: "Z"))
        }
    }

    static let utc = TimeZone.utc
}

/// ASCII written into a string's own storage (`String(unsafeUninitializedCapacity:)`), for
/// texts a page writes one a row.
struct ASCIIWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    private(set) var count = 0

    /// The text `write` makes, at most `capacity` bytes (more stops the process).
    static func string(capacity: Int, _ write: (inout ASCIIWriter) -> Void) -> String {
        String(unsafeUninitializedCapacity: capacity) { buffer in
            var writer = ASCIIWriter(buffer: buffer)
            write(&writer)
            return writer.count
        }
    }

    private init(buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    mutating func append(_ byte: UInt8) {
        precondition(count < buffer.count, "ASCIIWriter: past its capacity")
        buffer[count] = byte
        count += 1
    }

    mutating func append(_ text: String) {
        for byte in text.utf8 { append(byte) }
    }

    /// `number` in decimal, with a `-` when it is negative.
    mutating func append(number: Int) {
        if number < 0 { append(UInt8(ascii: "-")) }
        let magnitude = number.magnitude
        var divisor: UInt = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        while divisor > 0 {
            append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        }
    }

    /// `number` (0–99) as two digits: `07`.
    mutating func append(twoDigits number: Int) {
        append(UInt8(ascii: "0") + UInt8(number / 10 % 10))
        append(UInt8(ascii: "0") + UInt8(number % 10))
    }

    /// `07:15` for `second` seconds into a day.
    mutating func append(clock second: Int) {
        append(twoDigits: second / 3600)
        append(UInt8(ascii: ":"))
        append(twoDigits: second % 3600 / 60)
    }
}
