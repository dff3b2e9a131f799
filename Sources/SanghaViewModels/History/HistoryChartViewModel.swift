import Foundation
import SanghaCore

/// The last days as a bar chart, drawn as inline SVG: a bar per day as tall as the time sat.
/// The chart is an image named by its caption; each bar's words ("Monday 23 November: 25 min
/// in 2 sessions") are its tooltip and a row of the "Each day" list below it, for a screen
/// reader and the keyboard. The numbers are SVG user units in a 600 × 180 box; the template
/// only places them.
public struct HistoryChartViewModel: Sendable, Equatable, Encodable {
    /// One day's bar.
    public struct Bar: Sendable, Equatable, Encodable {
        public let x: Int
        public let y: Int
        public let width: Int
        public let height: Int
        public let label: String
        public let isEmpty: Bool
        public let isToday: Bool
    }

    static let slot = 20
    static let plotTop = 24
    static let plotHeight = 130

    public let caption: String
    public let viewBox: String
    public let width: Int
    public let bars: [Bar]
    /// The top line's height: the chart's scale, a whole number of ten minutes.
    public let scaleText: String
    public let scaleY: Int = Self.plotTop
    public let scaleTextY: Int = Self.plotTop - 8
    public let baselineY: Int = Self.plotTop + Self.plotHeight
    public let dayTextY: Int = Self.plotTop + Self.plotHeight + 20
    public let firstDayText: String
    public let lastDayText: String
    /// "Each day".
    public let eachDayLabel: String
    /// The chart as rendered, while the app keeps it (`HistoryDrawing`).
    public let rendering = KeptRendering()

    /// The JSON keeps the fields it had before the page spoke every language: the page's own
    /// words (its headings and labels) are its HTML's.
    private enum CodingKeys: String, CodingKey {
        case caption, viewBox, width, bars, scaleText, scaleY, scaleTextY, baselineY, dayTextY, firstDayText
        case lastDayText
    }

    /// `days`, oldest first, the last today, in the language of `words`.
    public init(days: [Practice.Day], words: Words) {
        width = days.count * Self.slot
        viewBox = "0 0 \(width) \(Self.plotTop + Self.plotHeight + 26)"
        let most = days.map(\.seconds).max() ?? 0
        let scale = max(600, (most + 599) / 600 * 600)
        scaleText = DurationFormatter.words(from: scale, words: words)
        bars = days.enumerated().map { index, day in
            let height = day.seconds == 0 ? 2 : max(3, day.seconds * Self.plotHeight / scale)
            let what =
                day.sessions == 0
                ? words.historyNothingSat
                : CountText.sat(SittingTotals(sessions: day.sessions, seconds: day.seconds), words: words)
            return Bar(
                x: index * Self.slot + 3, y: Self.plotTop + Self.plotHeight - height, width: Self.slot - 6,
                height: height,
                label: words.historyChartDay(day: CalendarText.longDay(day.day, words: words), what: what),
                isEmpty: day.sessions == 0, isToday: index == days.count - 1)
        }
        firstDayText = days.first.map { CalendarText.shortDay($0.day, words: words) } ?? ""
        lastDayText = words.historyToday
        eachDayLabel = words.historyEachDay
        let sat = days.filter { $0.sessions > 0 }
        let total = sat.reduce(0) { $0 + $1.seconds }
        caption =
            sat.isEmpty
            ? words.historyChartNothing(days.count)
            : words.historyChartCaption(
                days.count,
                sat: words.historyDurationOnDays(
                    sat.count, duration: DurationFormatter.words(from: total, words: words)))
    }
}
