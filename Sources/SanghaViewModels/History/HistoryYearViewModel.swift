import Foundation
import SanghaCore

/// The last year as a calendar of days sat, as GitHub shows contributions: a column per week,
/// Monday at the top, a square per day, darker the longer sat. Drawn as inline SVG: the days
/// not sat are one pattern-filled shape, and the days sat of each shade one path, so the page
/// carries a few bytes a day sat (a year of them was 58 KB as a square and a sentence each, the
/// sentence a tooltip that `role="img"` hid from screen readers). Its text alternative is the
/// caption and the months as a list, each with its days sat and their time, so every day's
/// minutes are in words. The numbers are SVG user units; the
/// template only places them.
public struct HistoryYearViewModel: Sendable, Equatable, Encodable {
    /// The days sat of one shade (1–4): one path of squares.
    public struct Sat: Sendable, Equatable, Encodable {
        public let level: Int
        /// A square per day: `M32 18h7v7h-7z…`, each stroked `strokeWidth` wide with round
        /// joins, so that it fills its `size` square with corners as round as the pattern's.
        public let path: String
        /// How many days it draws.
        public let days: Int
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
    /// How far a day's square is drawn inside its cell, and half its stroke: the stroke's round
    /// joins give the corners the pattern's `rx`.
    static let inset = 2
    /// A day's shade by its time sat: under 15 minutes, under 30, under an hour, an hour or more.
    static let shadeLimits = [900, 1800, 3600]

    public let caption: String
    public let viewBox: String
    public let gridX: Int = Self.left
    public let gridY: Int = Self.top
    public let step: Int = Self.step
    public let size: Int = Self.size
    public let strokeWidth: Int = 2 * Self.inset
    /// The full weeks before this one, then this week up to today: the squares of days not sat.
    public let weeksWidth: Int
    public let weeksHeight: Int = 7 * Self.step
    public let thisWeekX: Int
    public let thisWeekHeight: Int
    /// The shades that have days, lightest first.
    public let sat: [Sat]
    public let monthLabels: [Label]
    public let weekdayLabels: [Label]
    public let shades: [Shade]
    /// "Each month".
    public let eachMonthLabel: String
    /// "November 2026: 2 days, 1 h 20 min (1 Nov 1 h, 20 Nov 20 min)", oldest first.
    public let months: [String]
    /// The calendar as rendered, while the app keeps it (`HistoryDrawing`).
    public let rendering = KeptRendering()

    /// The JSON keeps the fields it had before the page spoke every language: the page's own
    /// words (its headings and labels) are its HTML's.
    private enum CodingKeys: String, CodingKey {
        case caption, viewBox, gridX, gridY, step, size, strokeWidth, weeksWidth, weeksHeight, thisWeekX
        case thisWeekHeight, sat, monthLabels, weekdayLabels, shades, months
    }

    /// The calendar of `practice`, in the language of `words`.
    public init(practice: Practice, words: Words) {
        let today = practice.today
        let first = today.advanced(by: -(today.weekday - 1) - (Self.weeks - 1) * 7)
        weeksWidth = (Self.weeks - 1) * Self.step
        thisWeekX = Self.left + weeksWidth
        thisWeekHeight = today.weekday * Self.step
        viewBox = "0 0 \(Self.left + Self.weeks * Self.step) \(Self.top + 7 * Self.step)"

        let shown = practice.sat.filter { $0.day >= first && $0.day <= today }
        var paths = Array(repeating: SVGPath(), count: Self.shadeLimits.count + 1)
        for day in shown {
            let index = first.distance(to: day.day)
            let level = Self.shadeLimits.firstIndex { day.seconds < $0 } ?? Self.shadeLimits.count
            paths[level].square(
                x: Self.left + index / 7 * Self.step + Self.inset, y: Self.top + index % 7 * Self.step + Self.inset,
                side: Self.size - 2 * Self.inset)
        }
        sat = paths.enumerated().compactMap { level, path in
            path.count == 0 ? nil : Sat(level: level + 1, path: path.text, days: path.count)
        }
        // A month is named over the week holding its first day, when the name fits before the
        // calendar's end.
        let monthNames = (1...12).map { CalendarText.shortMonth($0, words: words) }
        monthLabels = (0..<Self.weeks - 1).compactMap { week in
            let monday = first.advanced(by: week * 7)
            guard let firstOfMonth = (0..<7).map({ monday.advanced(by: $0) }).first(where: { $0.date.day == 1 })
            else { return nil }
            return Label(
                at: Self.left + week * Self.step, text: monthNames[firstOfMonth.date.month - 1])
        }
        weekdayLabels = [0, 2, 4].map {
            Label(at: Self.top + $0 * Self.step + Self.size - 1, text: CalendarText.shortWeekday($0 + 1, words: words))
        }

        var byMonth: [(year: Int, month: Int, days: [String], seconds: Int)] = []
        for day in shown {
            let (year, month, _) = day.day.date
            let text = words.historyYearDay(
                day: CalendarText.shortDay(day.day, words: words),
                duration: DurationFormatter.words(from: day.seconds, words: words))
            if let last = byMonth.last, last.year == year, last.month == month {
                byMonth[byMonth.count - 1].days.append(text)
                byMonth[byMonth.count - 1].seconds += day.seconds
            } else {
                byMonth.append((year, month, [text], day.seconds))
            }
        }
        let separator = words.historyListSeparator
        months = byMonth.map {
            words.historyYearMonth(
                month: CalendarText.monthAndYear(month: $0.month, year: $0.year, words: words),
                days: words.historyDays($0.days.count),
                duration: DurationFormatter.words(from: $0.seconds, words: words),
                list: $0.days.joined(separator: separator))
        }
        let seconds = shown.reduce(0) { $0 + $1.seconds }
        caption =
            shown.isEmpty
            ? words.historyYearNothing
            : words.historyYearCaption(
                days: words.historyDays(shown.count), duration: DurationFormatter.words(from: seconds, words: words))
        shades = [
            Shade(level: 1, text: words.historyShadeUnder15), Shade(level: 2, text: words.historyShade15To30),
            Shade(level: 3, text: words.historyShade30To60), Shade(level: 4, text: words.historyShadeHour),
        ]
        eachMonthLabel = words.historyEachMonth
    }
}

/// SVG path data of squares, written as bytes: `M32 18h7v7h-7z` a square.
struct SVGPath {
    private var bytes: [UInt8] = []
    private(set) var count = 0

    mutating func square(x: Int, y: Int, side: Int) {
        bytes.append(UInt8(ascii: "M"))
        append(x)
        bytes.append(UInt8(ascii: " "))
        append(y)
        bytes.append(UInt8(ascii: "h"))
        append(side)
        bytes.append(UInt8(ascii: "v"))
        append(side)
        bytes.append(contentsOf: [UInt8(ascii: "h"), UInt8(ascii: "-")])
        append(side)
        bytes.append(UInt8(ascii: "z"))
        count += 1
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// A number that is not negative (the calendar's are not).
    private mutating func append(_ number: Int) {
        var divisor = 1
        while divisor * 10 <= number { divisor *= 10 }
        var rest = number
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest / divisor))
            rest %= divisor
            divisor /= 10
        }
    }
}
