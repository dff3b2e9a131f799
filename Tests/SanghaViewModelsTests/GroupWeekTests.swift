import Foundation
import SanghaCore
import Testing

@testable import SanghaViewModels

/// A group's page counts "this week" from Monday 00:00 in the person's zone; the weeks are kept
/// once counted, and what is kept must be what `Calendar` says for every moment of the week.
@Suite("A group's week")
struct GroupWeekTests {
    @Test("The week of any moment is Calendar's ISO week, in any zone, across summer time, asked again or not")
    func sameAsCalendar() {
        var generator = SystemRandomNumberGenerator()
        let zones = ["UTC", "America/Santiago", "Asia/Kolkata", "Pacific/Chatham", "Europe/Berlin", "America/New_York"]
            .map { TimeZone(identifier: $0)! }
        // Two summer-time changes (Berlin, 29 March and 25 October 2026), then random moments.
        var dates = [1_774_746_000.0, 1_774_742_400, 1_792_890_000, 1_792_886_400].map(
            Date.init(timeIntervalSince1970:))
        for _ in 0..<3000 {
            dates.append(
                Date(timeIntervalSince1970: Double.random(in: 1_700_000_000...1_900_000_000, using: &generator)))
        }
        for (index, date) in dates.enumerated() {
            let zone = zones[index % zones.count]
            var calendar = Calendar(identifier: .iso8601)
            calendar.timeZone = zone
            let expected = calendar.dateInterval(of: .weekOfYear, for: date)
            #expect(GroupViewModel.week(of: date, timeZone: zone) == expected, "\(date) in \(zone.identifier)")
            // Asked again within the same week: the kept week.
            let later = min(date.addingTimeInterval(3_600), expected!.end.addingTimeInterval(-1))
            #expect(GroupViewModel.week(of: later, timeZone: zone) == expected)
        }
    }
}
