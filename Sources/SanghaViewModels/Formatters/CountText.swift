import SanghaCore

/// A count with its noun: `1 session`, `12 sessions`.
enum CountText {
    static func of(_ count: Int, _ singular: String) -> String {
        "\(count) \(singular)\(count == 1 ? "" : "s")"
    }

    /// Time sat and how many sessions: `1 hr 10 min in 4 sessions`.
    static func sat(_ totals: SittingTotals) -> String {
        "\(DurationFormatter.words(from: totals.seconds)) in \(of(totals.sessions, "session"))"
    }
}

extension CountText {
    /// Time sat and how many sessions, in the language of `words`: `1 hr 10 min in 4 sessions`
    /// (English exactly as `sat(_:)`).
    static func sat(_ totals: SittingTotals, words: Words) -> String {
        words.historySatInSessions(
            totals.sessions, duration: DurationFormatter.words(from: totals.seconds, words: words))
    }
}
