import Foundation
import SanghaCore

/// The last year as a calendar of days sat, as GitHub shows contributions: a column per week,
/// Monday at the top, a square per day, darker the longer sat. Drawn as inline SVG: the days
/// not sat are one pattern-filled shape, so the page carries a shape per day sat only. Its text
/// alternative is the caption and the months as a list. The numbers are SVG user units; the
/// template only places them.
public struct HistoryYearViewModel: Sendable, Equatable, Encodable {
    /// A day sat: its square, its shade (1–4) and its words.
    public struct Day: Sendable, Equatable, Encodable {
        public let x: Int
        public let y: Int
        public let level: Int
        public let label: String
    }

    /// Words on an axis: a month's name over the week its first day is in, a weekday's by its
    /// row.
    public struct Label: Sendable, Equatable, Encodable {
        public let at: Int
        public let text: String
    }

    /// A shade and the time sat it stands for.
    public struct Shade: Sendable, Equatable, Encodable {
        public let level: Int
        public let text: String
    }

    static let step = 13
    static let size = 11
    static let left = 30
    static let top = 16
    static let weeks = Practice.window / 7
    /// A day's shade by its time sat: under 15 minutes, under 30, under an hour, an hour or more.
    static let shadeLimits = [900, 1800, 3600]

    public let caption: String
    public let viewBox: String
    public let gridX: Int = Self.left
    public let gridY: Int = Self.top
    public let step: Int = Self.step
    public let size: Int = Self.size
    /// The full weeks before this one, then this week up to today: the squares of days not sat.
    public let weeksWidth: Int
    public let weeksHeight: Int = 7 * Self.step
    public let thisWeekX: Int
    public let thisWeekHeight: Int
    public let days: [Day]
    public let monthLabels: [Label]
    public let weekdayLabels: [Label]
    public let shades: [Shade] = [
        Shade(level: 1, text: "under 15 min"), Shade(level: 2, text: "15 to 30 min"),
        Shade(level: 3, text: "30 min to an hour"), Shade(level: 4, text: "an hour or more"),
    ]
    /// "November 2026: 12 days, 5 h 20 min", oldest first.
    public let months: [String]

    public init(practice: Practice) {
        let today = practice.today
        let first = today.advanced(by: -(today.weekday - 1) - (Self.weeks - 1) * 7)
        weeksWidth = (Self.weeks - 1) * Self.step
        thisWeekX = Self.left + weeksWidth
        thisWeekHeight = today.weekday * Self.step
        viewBox = "0 0 \(Self.left + Self.weeks * Self.step) \(Self.top + 7 * Self.step)"

        let shown = practice.sat.filter { $0.day >= first && $0.day <= today }
        days = shown.map { day in
            let index = first.distance(to: day.day)
            return Day(
                x: Self.left + index / 7 * Self.step, y: Self.top + index % 7 * Self.step,
                level: (Self.shadeLimits.firstIndex { day.seconds < $0 } ?? Self.shadeLimits.count) + 1,
                label: "\(CalendarText.longDay(day.day)) \(day.day.date.year): "
                    + CountText.sat(SittingTotals(sessions: day.sessions, seconds: day.seconds)))
        }
        // A month is named over the week holding its first day, when the name fits before the
        // calendar's end.
        monthLabels = (0..<Self.weeks - 1).compactMap { week in
            let monday = first.advanced(by: week * 7)
            guard let firstOfMonth = (0..<7).map({ monday.advanced(by: $0) }).first(where: { $0.date.day == 1 })
            else { return nil }
            return Label(
                at: Self.left + week * Self.step,
                text: String(CalendarText.months[firstOfMonth.date.month - 1].prefix(3)))
        }
        weekdayLabels = [(0, "Mon"), (2, "Wed"), (4, "Fri")].map {
            Label(at: Self.top + $0.0 * Self.step + Self.size - 1, text: $0.1)
        }

        var byMonth: [(year: Int, month: Int, days: Int, seconds: Int)] = []
        for day in shown {
            let (year, month, _) = day.day.date
            if let last = byMonth.last, last.year == year, last.month == month {
                byMonth[byMonth.count - 1].days += 1
                byMonth[byMonth.count - 1].seconds += day.seconds
            } else {
                byMonth.append((year, month, 1, day.seconds))
            }
        }
        months = byMonth.map {
            "\(CalendarText.months[$0.month - 1]) \($0.year): \(HistoryViewModel.days($0.days)), "
                + DurationFormatter.words(from: $0.seconds)
        }
        let seconds = shown.reduce(0) { $0 + $1.seconds }
        caption =
            shown.isEmpty
            ? "The last year: nothing sat."
            : "The last year: \(HistoryViewModel.days(shown.count)) sat, \(DurationFormatter.words(from: seconds)) in all."
    }
}
