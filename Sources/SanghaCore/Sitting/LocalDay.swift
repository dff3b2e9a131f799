import Foundation

/// A calendar day, counted from Thursday 1 January 1970 (day 0): the day a session counts for
/// in its sitter's time zone. Arithmetic on it is arithmetic on days, whatever summer time does
/// to their hours.
public struct LocalDay: Sendable, Hashable, Comparable, Strideable, CustomStringConvertible {
    public var number: Int

    public init(_ number: Int) { self.number = number }

    /// The day `localSecond` (seconds since 1970 on a wall clock) falls in, and the seconds
    /// into it; before 1970 too (the division rounds down).
    public static func containing(localSecond: Int) -> (day: LocalDay, second: Int) {
        let day = localSecond >= 0 ? localSecond / 86_400 : (localSecond - 86_399) / 86_400
        return (LocalDay(day), localSecond - day * 86_400)
    }

    /// The day of a date in the proleptic Gregorian calendar (the civil-days algorithm: no
    /// `Calendar`, no time zone).
    public init(year: Int, month: Int, day: Int) {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        number = era * 146_097 + dayOfEra - 719_468
    }

    /// Its year, month (1–12) and day of the month.
    public var date: (year: Int, month: Int, day: Int) {
        let z = number + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shifted = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shifted + 2) / 5 + 1
        let month = shifted < 10 ? shifted + 3 : shifted - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// 1 for Monday … 7 for Sunday (ISO 8601).
    public var weekday: Int { ((number % 7 + 7 + 3) % 7) + 1 }

    /// `2026-11-23`.
    public var description: String {
        let (year, month, day) = date
        return "\(year)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }

    public static func < (left: LocalDay, right: LocalDay) -> Bool { left.number < right.number }
    public func distance(to other: LocalDay) -> Int { other.number - number }
    public func advanced(by days: Int) -> LocalDay { LocalDay(number + days) }
}

/// How a person counts their days: the time zone they live in and the hour their day begins
/// (a sit at 01:00 counts for the day before when it begins at 03:00).
public struct DayClock: Sendable, Equatable {
    public var timeZone: TimeZone
    public var startHour: Int

    /// The hours a day may begin at: midnight to six in the morning.
    public static let startHours = 0...6

    /// The hour `text` names (`"3"`), when a day may begin at it.
    public static func startHour(named text: String) -> Int? {
        Int(text).flatMap { startHours.contains($0) ? $0 : nil }
    }

    public init(timeZone: TimeZone, startHour: Int = 0) {
        self.timeZone = timeZone
        self.startHour = startHour
    }

    /// The day `date` counts for: the date on the wall clock of the time zone at that instant,
    /// less the start hour. The stores count the same way (a SQL function for SQLite,
    /// `AT TIME ZONE` in PostgreSQL).
    public func day(of date: Date) -> LocalDay {
        Self.day(
            ofSecond: Int(date.timeIntervalSince1970.rounded(.down)), offset: timeZone.secondsFromGMT(for: date),
            startHour: startHour)
    }

    /// The day of the Unix second `second` whose wall clock is `offset` seconds from UTC.
    public static func day(ofSecond second: Int, offset: Int, startHour: Int) -> LocalDay {
        LocalDay.containing(localSecond: second + offset - startHour * 3600).day
    }

    /// The names Settings offers: the IANA zones named by region and city that Foundation
    /// lists, the current names of a few it lists only by an older one (`Asia/Kolkata`,
    /// `Europe/Kyiv`: what browsers answer), and UTC. Not the old aliases (`US/Pacific`,
    /// three-letter names).
    public static let timeZoneNames: [String] = {
        var names = Set(TimeZone.knownTimeZoneIdentifiers.filter(isRegionAndCity))
        let current = [
            "America/Argentina/Buenos_Aires", "America/Indiana/Indianapolis", "America/Kentucky/Louisville",
            "America/Nuuk", "Asia/Ho_Chi_Minh", "Asia/Kathmandu", "Asia/Kolkata", "Asia/Yangon", "Atlantic/Faroe",
            "Europe/Kyiv", "Pacific/Kanton", "Pacific/Pohnpei", "Pacific/Chuuk",
        ]
        names.formUnion(current.filter { TimeZone(identifier: $0) != nil })
        // UTC by both its names (a Debian server's zone is "Etc/UTC").
        names.formUnion(["UTC", "Etc/UTC"])
        return names.sorted()
    }()

    private static let regions: Set<Substring> = [
        "Africa", "America", "Antarctica", "Arctic", "Asia", "Atlantic", "Australia", "Etc", "Europe", "Indian",
        "Pacific",
    ]

    /// `Europe/Berlin`, `America/Argentina/Salta`, `Etc/GMT+3`: a name of the tz database's own
    /// regions, not an alias.
    static func isRegionAndCity(_ name: String) -> Bool {
        name.contains("/") && name.split(separator: "/").first.map { regions.contains($0) } == true
    }

    /// The name `zone` goes by in `timeZoneNames`: Foundation calls UTC "GMT".
    public static func name(of zone: TimeZone) -> String {
        zone.identifier == "GMT" ? "UTC" : zone.identifier
    }

    private static let timeZoneNameSet = Set(timeZoneNames)

    /// The zone named `name`: one of `timeZoneNames`, or any other region-and-city name
    /// Foundation knows (a browser may say one the list lacks).
    public static func timeZone(named name: String) -> TimeZone? {
        guard timeZoneNameSet.contains(name) || (isRegionAndCity(name) && name.utf8.count <= 64) else { return nil }
        return TimeZone(identifier: name)
    }
}
