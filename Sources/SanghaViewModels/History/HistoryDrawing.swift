import Foundation
import SanghaCore

/// What `/history` draws of the days sat: the last days' chart and the year's calendar. Both
/// depend on the days sat, today and the language only, and with a year's log they were most of
/// the page's work (the year's 365 days and the chart's 30, each in words): the app keeps each
/// person's last drawing and gives it back for the same days.
public struct HistoryDrawing: Sendable, Equatable {
    public let chart: HistoryChartViewModel
    public let year: HistoryYearViewModel

    /// `practice`'s days drawn in the language of `words`.
    public init(practice: Practice, words: Words) {
        chart = HistoryChartViewModel(days: practice.days(last: HistoryViewModel.dayCount), words: words)
        year = HistoryYearViewModel(practice: practice, words: words)
    }
}
