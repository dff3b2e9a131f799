import Foundation
import SanghaViewModels
import Testing

/// The history's dates are written as bytes by arithmetic; they must read as Foundation writes
/// them, in any zone, on either side of summer time, and after 2038.
struct CalendarTextTests {
    static let zones = ["UTC", "Europe/Berlin", "America/Santiago", "Asia/Kolkata", "Pacific/Chatham"].map {
        TimeZone(identifier: $0)!
    }

    /// 2,000 instants from 1970 to 2097, 2,012,000 seconds (23 days 6 h 53 min 20 s) apart and a
    /// few seconds more, so that every hour, minute and weekday comes round.
    static let instants = (0..<2_000).map { Date(timeIntervalSince1970: Double($0 * 2_012_000 + $0 % 60)) }

    @Test("A row's date and time, `Mon 23 Nov 2026, 07:15`, as Foundation's calendar reads the zone")
    func dayAndTime() {
        for zone in Self.zones {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.calendar = calendar
            formatter.dateFormat = "EEE d MMM yyyy, HH:mm"
            for instant in Self.instants {
                #expect(CalendarText.dayAndTime(instant, timeZone: zone) == formatter.string(from: instant))
            }
        }
    }

    @Test("`<time datetime>`, `2026-11-23T07:15:00Z`, as Foundation's ISO 8601 style writes it")
    func iso() {
        for instant in Self.instants {
            #expect(CalendarText.iso(instant) == instant.formatted(.iso8601))
        }
    }
}
